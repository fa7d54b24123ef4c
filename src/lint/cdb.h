/*
 * cdb.h - compilation databases (compile_commands.json) and the compile
 * command ravel lint derives from each entry.
 *
 * A database is what CMake (CMAKE_EXPORT_COMPILE_COMMANDS), bear, meson
 * and others write: a JSON array of {"directory", "file", "arguments" or
 * "command", "output"}. Clang's JSONCompilationDatabase is the reference
 * for its meaning: "file" and relative paths in the command are relative
 * to "directory"; "command" is one string split like a POSIX shell would
 * (quotes and backslashes, no expansion).
 *
 * ravel lint does not analyse object code: it asks clang for bitcode of
 * the same translation unit, with the user's defines, include paths and
 * language options, and without what would get in the way (output and
 * dependency files, optimisation, sanitizers, -Werror): see
 * ravel__lint_cdb_argv.
 */
#ifndef RAVEL_LINT_CDB_H
#define RAVEL_LINT_CDB_H

#include "../common/common.h"

/* Largest compilation database read: a 100,000-file project's database
 * is about 100 MB; 1 GiB leaves room and still stops a runaway file. */
#define RAVEL__LINT_CDB_LIMIT (1024u * 1024u * 1024u)

struct ravel__lint_cmd {
    char *dir;   /* working directory of the compile (owned) */
    char *file;  /* the source file, absolute (owned) */
    char **argv; /* the compile command, NULL-terminated (owned) */
    int argc;
};

struct ravel__lint_cdb {
    struct ravel__lint_cmd *v;
    size_t n, cap;
};

/*
 * Parses a database's text. Returns 0, or -1 with a one-line reason in err
 * ("line 3, column 7: ..." or "entry 2: no \"file\""). Entries for the same
 * file in the same directory are kept once (the first). Free with
 * ravel__lint_cdb_free, also after an error.
 */
int ravel__lint_cdb_parse(const char *text, size_t len,
                          struct ravel__lint_cdb *db, char *err, size_t errlen);

/*
 * Reads PATH (a compile_commands.json, or a directory holding one) into db.
 * Returns 0, or -1 with a one-line reason naming the file.
 */
int ravel__lint_cdb_load(const char *path, struct ravel__lint_cdb *db,
                         char *err, size_t errlen);

/* Adds one entry (strings and argv copied). */
void ravel__lint_cdb_add(struct ravel__lint_cdb *db, const char *dir,
                         const char *file, char *const *argv, int argc);

void ravel__lint_cdb_free(struct ravel__lint_cdb *db);

/*
 * Splits a command line like a POSIX shell without expansion: blanks
 * separate words, single quotes keep everything, double quotes keep
 * everything but \" \\ \$ \`, a backslash outside quotes escapes the next
 * character. Returns a NULL-terminated malloc'ed argv (free with
 * ravel__lint_argv_free) and sets *argc, or NULL with a reason in err
 * (an unterminated quote).
 */
char **ravel__lint_shell_split(const char *cmd, int *argc, char *err,
                               size_t errlen);
void ravel__lint_argv_free(char **argv);

/*
 * The command that makes bitcode of entry c's translation unit: clang
 * (the given path) with the entry's flags minus outputs, dependency files,
 * optimisation and debug levels, sanitizers, coverage, LTO and -Werror,
 * plus `-c -emit-llvm -O0 -Xclang -disable-O0-optnone -gline-tables-only
 * -fno-discard-value-names -w -MMD -MF DEPFILE -o OUT`. A compiler wrapper
 * in front (ccache, distcc) is dropped. Returns a NULL-terminated malloc'ed
 * argv (free with ravel__lint_argv_free).
 */
char **ravel__lint_cdb_argv(const struct ravel__lint_cmd *c, const char *clang,
                            const char *out, const char *depfile);

/*
 * Joins dir and file (file alone when absolute), dropping "." segments
 * and resolving ".." textually ("/a/b" + "../c.c" is "/a/c.c"; ".." at the
 * root stays there). Returns a malloc'ed path.
 */
char *ravel__lint_path_join(const char *dir, const char *file);

/* True when the file is C source ravel lint analyses (.c, .i, .h is not a
 * translation unit). */
bool ravel__lint_is_c_source(const char *file);

#endif
