/*
 * main.c - callers of the cross-file case (helpers in util.c).
 */
#include "reg.h"

#include <unistd.h>

static int helper(const char *path)
{
    (void)path;
    return 0;
}

void setup(const char *path)
{
    if (!file_exists(path)) // CHECK
        file_make(path); // RACE
}

void register_name(const char *name)
{
    if (!reg_lookup(name)) // CHECK
        reg_add(name); // RACE
}

void no_confusion(const char *path)
{
    if (helper(path))
        unlink(path); // NORACE
}
