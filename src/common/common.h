/*
 * common.h - the few definitions every part of ravel shares.
 *
 * Naming: everything non-static in ravel is `ravel_*` (public, declared in
 * include/ravel.h) or `ravel__*` (internal). The runtime is linked into
 * other people's programs, so nothing else may leak out of it; internal
 * names are additionally hidden from the dynamic symbol table by building
 * with -fvisibility=hidden (see src/rt/CMakeLists.txt).
 *
 * Errors come in four kinds (docs/architecture.md): tool errors return a
 * negative code with a message; broken invariants of ravel itself call
 * RAVEL__CHECK, which aborts with a report a user can paste into an issue;
 * failures of the program under test are results (a failure record), never
 * errors; usage errors exit 2 from the command line.
 */
#ifndef RAVEL_COMMON_H
#define RAVEL_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define RAVEL__VERSION "0.1.0"

#define RAVEL__NORETURN __attribute__((noreturn))
#define RAVEL__PRINTF(f, a) __attribute__((format(printf, f, a)))
#define RAVEL__LIKELY(x) __builtin_expect(!!(x), 1)
#define RAVEL__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RAVEL__COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define RAVEL__UNUSED(x) ((void)(x))

/* Exit codes shared by every subcommand and by instrumented programs. */
enum {
    RAVEL__EXIT_CLEAN = 0,   /* nothing found */
    RAVEL__EXIT_BUG = 1,     /* at least one bug found */
    RAVEL__EXIT_USAGE = 2,   /* bad input, usage or tool failure */
};

/*
 * Broken invariant inside ravel: print what we know and abort. This is for
 * ravel's own bugs only, never for bugs of the program under test.
 */
RAVEL__NORETURN void ravel__bug(const char *file, int line, const char *what);
#define RAVEL__CHECK(cond)                                                     \
    do {                                                                       \
        if (RAVEL__UNLIKELY(!(cond)))                                          \
            ravel__bug(__FILE__, __LINE__, #cond);                             \
    } while (0)

/*
 * Optional context printed by ravel__bug (seed, strategy, execution...).
 * The runtime installs a function that describes the current run.
 */
extern void (*ravel__bug_context)(int fd);

/* Current time in seconds from a monotonic clock. */
double ravel__now(void);

/*
 * Strict number parsing for user input: the whole string must be a number
 * in range. Return 0 on success, -1 otherwise.
 */
int ravel__parse_u64(const char *s, uint64_t *out);
int ravel__parse_double(const char *s, double *out);

/*
 * Reads a whole file into a NUL-terminated malloc'ed buffer (caller frees).
 * At most `limit` bytes; returns NULL and sets errno on failure (EFBIG when
 * the file is larger than the limit).
 */
char *ravel__read_file(const char *path, size_t limit, size_t *len_out);

/* write(2) all of buf, retrying on EINTR and short writes. */
int ravel__write_all(int fd, const void *buf, size_t len);

#endif
