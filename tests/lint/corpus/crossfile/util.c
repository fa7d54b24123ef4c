/*
 * util.c - helpers of the cross-file case: the checks and acts live here,
 * the callers in main.c.
 */
#include "reg.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

static const char *names[16];
static int count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

int file_make(const char *path)
{
    return creat(path, 0600);
}

int reg_lookup(const char *name)
{
    int found = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < count; i++)
        found |= !strcmp(names[i], name);
    pthread_mutex_unlock(&lock);
    return found;
}

void reg_add(const char *name)
{
    pthread_mutex_lock(&lock);
    if (count < 16)
        names[count++] = name;
    pthread_mutex_unlock(&lock);
}

/* Same name as a static function in main.c, which does nothing: calls in
 * main.c must reach main.c's. */
static int helper(const char *path)
{
    return access(path, F_OK);
}

int util_probe(const char *path)
{
    return helper(path);
}
