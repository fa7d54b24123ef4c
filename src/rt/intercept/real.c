/*
 * real.c - resolving the interposed originals (see real.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "real.h"

#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

#define RAVEL_REAL_DEFINE(ret, name, args) ret(*ravel__real_##name) args;
RAVEL_REAL_LIST(RAVEL_REAL_DEFINE)
#undef RAVEL_REAL_DEFINE

int ravel__real_resolving;

static void missing(const char *name)
{
    /* Only essential functions are fatal; the rest (newer glibc
     * variants) make their interceptor return ENOSYS. */
    static const char *const essential[] = {
        "pthread_create", "malloc", "free", "calloc", "realloc", "exit",
        "_exit", "abort", "pthread_mutex_lock", "pthread_mutex_unlock",
    };
    for (size_t i = 0; i < sizeof essential / sizeof *essential; i++) {
        if (!strcmp(name, essential[i])) {
            static const char msg[] =
                "ravel: cannot find the C library's own version of an "
                "essential function; is libravel_rt.so loaded into a "
                "program linked against glibc?\n";
            (void)!write(2, msg, sizeof msg - 1);
            _exit(2);
        }
    }
}

void ravel__real_resolve(void)
{
    if (ravel__real_resolving)
        return;
    ravel__real_resolving = 1;
#define RAVEL_REAL_RESOLVE(ret, name, args)                                    \
    if (!ravel__real_##name) {                                                 \
        void *p = dlsym(RTLD_NEXT, #name);                                     \
        if (!p)                                                                \
            missing(#name);                                                    \
        memcpy(&ravel__real_##name, &p, sizeof p);                             \
    }
    RAVEL_REAL_LIST(RAVEL_REAL_RESOLVE)
#undef RAVEL_REAL_RESOLVE
    ravel__real_resolving = 0;
}
