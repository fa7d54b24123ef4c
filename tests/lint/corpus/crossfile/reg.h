/*
 * reg.h - a registry shared by the files of this case; the pair is
 * declared here, in a header, and applies to every file including it.
 *
 * ravel-lint: pair reg_lookup(1) -> reg_add(1)
 */
int reg_lookup(const char *name);
void reg_add(const char *name);

int file_exists(const char *path);
int file_make(const char *path);
