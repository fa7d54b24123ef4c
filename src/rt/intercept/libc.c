/*
 * intercept/libc.c - how executions end (exit, _exit, abort, failed
 * assert), exit handlers registered during an execution, the streams a
 * program opens, and the memory it maps.
 *
 * In a controlled thread none of these end the process: exit() ends the
 * execution (after running the exit handlers the execution registered, in
 * the calling thread, as exit does), a failed assert() or abort() records
 * an assertion failure, and the next execution starts. Outside ravel's
 * control they are the C library's own.
 */
#include "../rt.h"

#include "real.h"

#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern char *program_invocation_short_name;
/* Declared by <assert.h> only without NDEBUG. */
void __assert_fail(const char *expr, const char *file, unsigned line,
                   const char *func);
/* The C++ ABI's exit-handler registration (atexit calls it); no header. */
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

RAVEL__EXPORT void exit(int status)
{
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__program_exit(w, status, RAVEL__CALLER_PC, true);
    REAL(exit)(status);
    __builtin_unreachable();
}

RAVEL__EXPORT void _exit(int status)
{
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__program_exit(w, status, RAVEL__CALLER_PC, false);
    REAL(_exit)(status);
    __builtin_unreachable();
}

RAVEL__EXPORT void _Exit(int status)
{
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__program_exit(w, status, RAVEL__CALLER_PC, false);
    REAL(_Exit)(status);
    __builtin_unreachable();
}

RAVEL__EXPORT void abort(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__fail_now(w, RAVEL__FAIL_ASSERTION, RAVEL__CALLER_PC,
                        "abort() called");
    REAL(abort)();
    __builtin_unreachable();
}

RAVEL__EXPORT void __assert_fail(const char *expr, const char *file,
                                 unsigned line, const char *func)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w) {
        REAL(__assert_fail)(expr, file, line, func);
        __builtin_unreachable();
    }
    /* The message glibc would print, into the captured output. */
    fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n",
            program_invocation_short_name, file, line, func ? func : "",
            func ? ": " : "", expr);
    fflush(stderr);
    struct ravel__exec *x = ravel__rt.x;
    ravel__fail(x, RAVEL__FAIL_ASSERTION, w->slot, RAVEL__CALLER_PC,
                "assertion `%s' failed", expr);
    snprintf(x->failure.file, sizeof x->failure.file, "%s", file);
    snprintf(x->failure.func, sizeof x->failure.func, "%s", func ? func : "");
    x->failure.line = line;
    x->ended = RAVEL__END_FAILURE;
    ravel__end_execution(w);
}

RAVEL__EXPORT int __cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
    if (ravel__controlled() && ravel__atexit_record(fn, arg, dso))
        return 0;
    return REAL(__cxa_atexit)(fn, arg, dso);
}

/* A child process is not explored: it has one thread and none of the
 * execution's others, so it runs on its own, uncontrolled, as it would
 * natively. (The fork itself is not a scheduling point.) */
RAVEL__EXPORT pid_t fork(void)
{
    pid_t pid = REAL(fork)();
    if (pid == 0 && ravel__rt.active) {
        ravel__set_executing(false);
        ravel__rt.active = false;
        ravel__self = NULL;
    }
    return pid;
}

/* State the reset between executions restores only when it changed. */
RAVEL__EXPORT int chdir(const char *path)
{
    if (ravel__rt.active)
        ravel__changed_cwd = true;
    return REAL(chdir)(path);
}

RAVEL__EXPORT int fchdir(int fd)
{
    if (ravel__rt.active)
        ravel__changed_cwd = true;
    return REAL(fchdir)(fd);
}

RAVEL__EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    if (ravel__rt.active && set)
        ravel__changed_sigmask = true;
    return REAL(sigprocmask)(how, set, old);
}

RAVEL__EXPORT int pthread_sigmask(int how, const sigset_t *set,
                                  sigset_t *old)
{
    if (ravel__rt.active && set)
        ravel__changed_sigmask = true;
    return REAL(pthread_sigmask)(how, set, old);
}

/* fopen, and fopen64 (what fopen is with _FILE_OFFSET_BITS=64, as
 * libuv and zstd build): the C library opens the file without calling
 * open(), so its stream is recorded here, to be closed after the
 * execution. */
static FILE *fopen_common(FILE *(*real)(const char *, const char *),
                          const char *path, const char *mode, uint64_t pc)
{
    ravel__made_fd = true;
    FILE *f = ravel__devrandom_fopen(path, mode, pc);
    if (!f && mode && (mode[0] != 'r' || strchr(mode, '+')))
        ravel__fd_hold_files(pc); /* it writes the file */
    if (!f)
        f = real(path, mode);
    if (f && ravel__controlled() && ravel__pc_instrumented(pc))
        ravel__files_record(f);
    return f;
}

RAVEL__EXPORT FILE *fopen(const char *path, const char *mode)
{
    return fopen_common(REAL(fopen), path, mode, RAVEL__CALLER_PC);
}

RAVEL__EXPORT FILE *fopen64(const char *path, const char *mode)
{
    return fopen_common(REAL(fopen64), path, mode, RAVEL__CALLER_PC);
}

/*
 * Memory the program maps or unmaps itself (an allocator of its own, as
 * libatomic_ops' AO_malloc for large blocks) is new memory: whatever was
 * at those addresses before - a block another thread unmapped, which the
 * kernel hands out again - has no history with it, so the race detector
 * forgets it (as it forgets a heap block malloc hands out). Without this,
 * a thread writing a fresh mapping raced with the last thread that wrote
 * the old one. Only the program's own (instrumented) calls; not a
 * scheduling point.
 */
static void forget_mapping(void *p, size_t len, uint64_t pc)
{
    if (p != MAP_FAILED && p && len && ravel__controlled() &&
        ravel__pc_instrumented(pc))
        ravel__race_forget(p, len);
}

RAVEL__EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd,
                         off_t off)
{
    void *p = REAL(mmap)(addr, len, prot, flags, fd, off);
    int saved = errno;
    forget_mapping(p, len, RAVEL__CALLER_PC);
    errno = saved;
    return p;
}

RAVEL__EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
                           off_t off)
{
    void *p = REAL(mmap64)(addr, len, prot, flags, fd, off);
    int saved = errno;
    forget_mapping(p, len, RAVEL__CALLER_PC);
    errno = saved;
    return p;
}

RAVEL__EXPORT int munmap(void *addr, size_t len)
{
    int rc = REAL(munmap)(addr, len);
    int saved = errno;
    if (rc == 0)
        forget_mapping(addr, len, RAVEL__CALLER_PC);
    errno = saved;
    return rc;
}

RAVEL__EXPORT FILE *fdopen(int fd, const char *mode)
{
    FILE *f = REAL(fdopen)(fd, mode);
    if (f && ravel__controlled() && ravel__pc_instrumented(RAVEL__CALLER_PC))
        ravel__files_record(f);
    return f;
}

/*
 * The standard streams are the C library's, and every execution starts
 * with them open: a program that closes stdout at its end (zstd -c does,
 * as do the tools that check their output with gnulib's close_stdout)
 * would leave the next execution a closed FILE, and its first write
 * fails with EBADF, a bug that is ravel's. In an execution, fclose of
 * one of them does what the program can see of it - the buffer written
 * out (or, for stdin, dropped), the descriptor closed, and their
 * errors - and leaves the FILE to be pointed at the next execution's
 * descriptor (process/executor.c, capture_reset; process/reset.c for
 * stdin). The descriptor is closed through close() here, which notes
 * it (ravel__changed_stdio); the C library's own fclose would not. Using
 * the stream after closing it is undefined; here its writes fail with
 * EBADF, as the C library's do.
 */
static int std_close(FILE *f)
{
    int rc = 0;
    if (f == stdin)
        __fpurge(f);
    else
        rc = fflush(f);
    int fd = fileno(f);
    if (fd >= 0 && close(fd) != 0)
        rc = EOF;
    return rc ? EOF : 0;
}

RAVEL__EXPORT int fclose(FILE *f)
{
    if (ravel__rt.active)
        ravel__files_forget(f);
    if ((f == stdout || f == stderr || f == stdin) && ravel__rt.executing)
        return std_close(f);
    return REAL(fclose)(f);
}

/* freopen of a standard stream in an execution: its descriptor is
 * another file now, which the next execution's restore must undo. */
RAVEL__EXPORT FILE *freopen(const char *path, const char *mode, FILE *f)
{
    if ((f == stdout || f == stderr || f == stdin) && ravel__rt.executing)
        ravel__changed_stdio = true;
    ravel__made_fd = true;
    return REAL(freopen)(path, mode, f);
}
