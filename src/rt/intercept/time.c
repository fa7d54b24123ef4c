/*
 * intercept/time.c - virtual time, and the C library's other hidden inputs.
 *
 * A program that reads the clock behaves differently in every execution:
 * `while (time(0) - start < 1) post_all();` runs for a real second, far
 * past --max-steps under a controlled schedule (a false livelock), and a
 * program that seeds rand() from gettimeofday() re-executes differently,
 * which a systematic search cannot tolerate. So every clock the program
 * can read comes from one deterministic virtual clock per execution:
 *
 *   - it starts at the same instant in every execution (CLOCK_REALTIME at
 *     RAVEL__VTIME_EPOCH, 2026-01-01 00:00:00 UTC; the monotonic clocks at
 *     RAVEL__VTIME_MONO; the CPU-time clocks at 0);
 *   - every read advances it by RAVEL__VTIME_READ_NS (10 ms), so a loop
 *     bounded by a deadline ends: a one-second loop after 100 reads;
 *   - sleep, usleep, nanosleep and clock_nanosleep advance it by the time
 *     asked (they stay a yield for the scheduler, thread.c);
 *   - a timed wait that times out (the model lets it whenever the resource
 *     is not available: a timeout is a scheduling choice, explored like
 *     any other) advances it to the wait's deadline, so the program sees
 *     the time it waited for has passed. When every other thread waits,
 *     the timed waiter is the one that can run: time jumps to its
 *     deadline.
 *
 * The same schedule reads the same times, so replays and DPOR's
 * re-executions agree. Only calls from instrumented code (the program,
 * not the C library or ravel itself) are virtual; elsewhere, and outside
 * executions, the clocks are the system's.
 *
 * Hidden state. rand()/random() and drand48() keep their state inside the
 * C library, which ravel does not restore with the program's memory: each
 * execution starts them from their unseeded state (as a fresh process
 * would, and as srand(1) says), reset only when the execution before
 * called them. getrandom(), getentropy() and reads of /dev/urandom and
 * /dev/random get bytes from a generator restarted at each execution, the
 * same in every execution and every run.
 *
 * The process id. Executions run in an executor process the supervisor
 * forks, and replaces after a crash, so its pid changes within a run;
 * the program's getpid() returns the supervisor's instead: the pid of the
 * process the user started, the same in every execution of the run, and
 * unique on the system (programs name temporary files after it). kill()
 * of that pid by the program reaches the executor, as a signal to itself
 * would natively. It differs between runs, and so between a run and a
 * replay, as it does natively.
 */
#include "../rt.h"

#include "../../common/prng.h"
#include "real.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/time.h>
#include <unistd.h>

/* The virtual clock, nanoseconds since the execution began, lives in the
 * execution's model (x->vnow), where --timeouts late's enabledness reads
 * it. Only the thread holding the baton reads or moves it. */
#define vnow (ravel__rt.x->vnow)
static struct ravel__prng entropy;

/* Is this call the program's, inside an execution? */
static bool virtual_here(uint64_t pc)
{
    return ravel__controlled() && ravel__pc_instrumented(pc);
}

RAVEL__EXPORT pid_t getpid(void)
{
    if (ravel__rt.program_pid && virtual_here(RAVEL__CALLER_PC))
        return ravel__rt.program_pid;
    return REAL(getpid)();
}

RAVEL__EXPORT int kill(pid_t pid, int sig)
{
    if (pid == ravel__rt.program_pid && pid && virtual_here(RAVEL__CALLER_PC))
        pid = REAL(getpid)(); /* the program signals itself */
    return REAL(kill)(pid, sig);
}

/* The program called one of the C library's generators since their
 * state was last reset (true at first: constructors may have). Resetting
 * costs about a microsecond, so only executions that used them pay. */
static bool generators_used = true;

void ravel__vtime_begin(void)
{
    vnow = 0;
    /* The C library's generators from their unseeded state: random()
     * (and rand(), which is random() in glibc) as srandom(1); drand48()
     * with X = 0 and the standard multiplier, as before its first use. */
    if (generators_used) {
        REAL(srandom)(1);
        unsigned short x[3] = {0, 0, 0};
        REAL(seed48)(x);
        generators_used = false;
    }
    ravel__prng_seed(&entropy, 0x72617665ULL, 0);
}

/* ---- the C library's generators: noted, then the C library's own ---- */

RAVEL__EXPORT int rand(void)
{
    generators_used = true;
    return REAL(rand)();
}

RAVEL__EXPORT long random(void)
{
    generators_used = true;
    return REAL(random)();
}

RAVEL__EXPORT void srand(unsigned seed)
{
    generators_used = true;
    REAL(srand)(seed);
}

RAVEL__EXPORT void srandom(unsigned seed)
{
    generators_used = true;
    REAL(srandom)(seed);
}

RAVEL__EXPORT char *initstate(unsigned seed, char *state, size_t n)
{
    generators_used = true;
    return REAL(initstate)(seed, state, n);
}

RAVEL__EXPORT char *setstate(char *state)
{
    generators_used = true;
    return REAL(setstate)(state);
}

RAVEL__EXPORT double drand48(void)
{
    generators_used = true;
    return REAL(drand48)();
}

RAVEL__EXPORT long lrand48(void)
{
    generators_used = true;
    return REAL(lrand48)();
}

RAVEL__EXPORT long mrand48(void)
{
    generators_used = true;
    return REAL(mrand48)();
}

RAVEL__EXPORT void srand48(long seed)
{
    generators_used = true;
    REAL(srand48)(seed);
}

RAVEL__EXPORT unsigned short *seed48(unsigned short x[3])
{
    generators_used = true;
    return REAL(seed48)(x);
}

RAVEL__EXPORT void lcong48(unsigned short p[7])
{
    generators_used = true;
    REAL(lcong48)(p);
}

/* Reads the clock: one read's worth of time passes. For the spin-wait
 * rules (src/model/spin.c, src/rt/race/plain_spin.c) a clock read is a
 * side effect of the calling thread, as a plain write is: the next read
 * returns another time, so a loop that reads the clock is not waiting
 * for another thread's write (a loop until a deadline ends by itself; a
 * test that reads the clock 200,000 times in a loop, reading the
 * struct timespec it filled, was taken for a plain spin and reported as
 * spinning forever). Called only where virtual_here() holds. */
static uint64_t vread(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w) {
        ravel__rt.x->threads[w->slot].writes++;
        ravel__rt.x->threads[w->slot].side_writes++;
    }
    vnow += RAVEL__VTIME_READ_NS;
    return vnow;
}

static void to_timespec(uint64_t base_s, uint64_t ns, struct timespec *ts)
{
    ts->tv_sec = (time_t)(base_s + ns / 1000000000u);
    ts->tv_nsec = (long)(ns % 1000000000u);
}

/* Virtual nanoseconds of an absolute time of `clock` (-1: unknown; the
 * magnitude tells a wall-clock deadline from a monotonic one). */
static uint64_t from_abs(clockid_t clock, const struct timespec *t)
{
    uint64_t base;
    if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE ||
        clock == CLOCK_TAI)
        base = RAVEL__VTIME_EPOCH;
    else if (clock == CLOCK_PROCESS_CPUTIME_ID ||
             clock == CLOCK_THREAD_CPUTIME_ID)
        base = 0;
    else if (clock == (clockid_t)-1)
        base = (uint64_t)t->tv_sec >= RAVEL__VTIME_EPOCH / 2
                   ? RAVEL__VTIME_EPOCH
                   : RAVEL__VTIME_MONO;
    else
        base = RAVEL__VTIME_MONO;
    if (t->tv_sec < 0 || (uint64_t)t->tv_sec < base)
        return 0;
    return ((uint64_t)t->tv_sec - base) * 1000000000u +
           (uint64_t)(t->tv_nsec > 0 ? t->tv_nsec : 0);
}

/* The calling thread (it holds the baton) and its deadline. */
static void set_wake(uint64_t at)
{
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__rt.x->threads[w->slot].wake_at = at;
}

void ravel__vtime_deadline(clockid_t clock, const struct timespec *abs)
{
    set_wake(abs ? from_abs(clock, abs) : 0);
}

void ravel__vtime_deadline_ns(uint64_t ns)
{
    set_wake(ns ? vnow + ns : 0);
}

int ravel__vtime_waited(int rc, clockid_t clock, const struct timespec *abs)
{
    if (rc == ETIMEDOUT && abs) {
        uint64_t d = from_abs(clock, abs);
        if (d > vnow)
            vnow = d;
    }
    return rc;
}

void ravel__vtime_timed_out_ns(uint64_t ns)
{
    struct ravel__worker *w = ravel__controlled();
    if (!ravel__rt.x->timeouts_late || !w)
        vnow += ns;
    else if (ravel__rt.x->threads[w->slot].wake_at > vnow)
        vnow = ravel__rt.x->threads[w->slot].wake_at;
}

/* A sleep until `at`: with --timeouts any the clock moves there at once
 * (the sleep stays a yield); with late the thread is held back until
 * the clock gets there, and ravel__vtime_woke moves it. */
static void sleep_until(uint64_t at)
{
    set_wake(at);
    if (!ravel__rt.x->timeouts_late && at > vnow)
        vnow = at;
}

void ravel__vtime_sleep(clockid_t clock, bool absolute,
                        const struct timespec *t)
{
    if (!t) {
        set_wake(0);
        return;
    }
    if (absolute) {
        sleep_until(from_abs(clock, t));
        return;
    }
    if (t->tv_sec < 0) {
        set_wake(0);
        return;
    }
    sleep_until(vnow + (uint64_t)t->tv_sec * 1000000000u +
                (uint64_t)(t->tv_nsec > 0 ? t->tv_nsec : 0));
}

void ravel__vtime_sleep_ns(uint64_t ns)
{
    sleep_until(vnow + ns);
}

void ravel__vtime_woke(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w && ravel__rt.x->threads[w->slot].wake_at > vnow)
        vnow = ravel__rt.x->threads[w->slot].wake_at;
}

/* ---- clocks ------------------------------------------------------------ */

RAVEL__EXPORT time_t time(time_t *out)
{
    if (!virtual_here(RAVEL__CALLER_PC))
        return REAL(time)(out);
    time_t t = (time_t)(RAVEL__VTIME_EPOCH + vread() / 1000000000u);
    if (out)
        *out = t;
    return t;
}

RAVEL__EXPORT int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    if (!virtual_here(RAVEL__CALLER_PC))
        return REAL(gettimeofday)(tv, tz);
    uint64_t ns = vread();
    tv->tv_sec = (time_t)(RAVEL__VTIME_EPOCH + ns / 1000000000u);
    tv->tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
    if (tz)
        memset(tz, 0, 2 * sizeof(int)); /* struct timezone: UTC */
    return 0;
}

RAVEL__EXPORT int clock_gettime(clockid_t clock, struct timespec *ts)
{
    if (!virtual_here(RAVEL__CALLER_PC))
        return REAL(clock_gettime)(clock, ts);
    uint64_t base;
    switch (clock) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_TAI:
        base = RAVEL__VTIME_EPOCH;
        break;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
        base = RAVEL__VTIME_MONO;
        break;
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID:
        base = 0;
        break;
    default: /* another process's or thread's CPU clock, a device's */
        return REAL(clock_gettime)(clock, ts);
    }
    to_timespec(base, vread(), ts);
    return 0;
}

RAVEL__EXPORT int timespec_get(struct timespec *ts, int base)
{
    if (!virtual_here(RAVEL__CALLER_PC))
        return REAL(timespec_get)(ts, base);
    if (base != TIME_UTC)
        return 0;
    to_timespec(RAVEL__VTIME_EPOCH, vread(), ts);
    return base;
}

RAVEL__EXPORT clock_t clock(void)
{
    if (!virtual_here(RAVEL__CALLER_PC))
        return REAL(clock)();
    return (clock_t)(vread() / (1000000000u / CLOCKS_PER_SEC));
}

/* ---- entropy ----------------------------------------------------------- */

static void fill(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n) {
        uint64_t v = ravel__prng_next(&entropy);
        size_t k = n < sizeof v ? n : sizeof v;
        memcpy(p, &v, k);
        p += k;
        n -= k;
    }
}

RAVEL__EXPORT ssize_t getrandom(void *buf, size_t n, unsigned flags)
{
    if (!virtual_here(RAVEL__CALLER_PC))
        return REAL(getrandom)(buf, n, flags);
    if (n > 33554431)
        n = 33554431; /* the kernel's limit for one call */
    fill(buf, n);
    return (ssize_t)n;
}

RAVEL__EXPORT int getentropy(void *buf, size_t n)
{
    if (!virtual_here(RAVEL__CALLER_PC))
        return REAL(getentropy)(buf, n);
    if (n > 256) {
        errno = EIO;
        return -1;
    }
    fill(buf, n);
    return 0;
}

/* Bytes of a virtual /dev/urandom: more than programs read for seeds. */
#define DEVRANDOM_BYTES 65536

static bool is_devrandom(const char *path)
{
    return path && (!strcmp(path, "/dev/urandom") ||
                    !strcmp(path, "/dev/random"));
}

/* A file descriptor reading as /dev/urandom does in this execution: a
 * memory file of generated bytes (closed with the execution's other
 * descriptors). -1 when it cannot be made (then the real device). */
static int devrandom_fd(int flags)
{
    int saved = errno;
    int fd = memfd_create("ravel-urandom", (flags & O_CLOEXEC) ? MFD_CLOEXEC
                                                                : 0);
    if (fd < 0) {
        errno = saved;
        return -1;
    }
    static unsigned char buf[DEVRANDOM_BYTES];
    fill(buf, sizeof buf);
    if (ravel__write_all(fd, buf, sizeof buf) != 0 ||
        lseek(fd, 0, SEEK_SET) != 0) {
        REAL(close)(fd);
        errno = saved;
        return -1;
    }
    errno = saved;
    return fd;
}

/* An open that can change a file (intercept/fd.c: lanes share files). */
static bool writes_file(int flags)
{
    return (flags & O_ACCMODE) != O_RDONLY ||
           (flags & (O_CREAT | O_TRUNC | O_TMPFILE)) != 0;
}

static int open_common(int (*real)(const char *, int, ...), const char *path,
                       int flags, mode_t mode, uint64_t pc)
{
    ravel__snap_spoil();
    ravel__made_fd = true;
    if (is_devrandom(path) && (flags & O_ACCMODE) == O_RDONLY &&
        virtual_here(pc)) {
        int fd = devrandom_fd(flags);
        if (fd >= 0)
            return fd;
    }
    if (writes_file(flags))
        ravel__fd_hold_files(pc);
    return real(path, flags, mode);
}

static mode_t mode_arg(int flags, va_list ap)
{
    return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

RAVEL__EXPORT int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(REAL(open), path, flags, mode, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(REAL(open64), path, flags, mode, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int openat(int dir, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    ravel__made_fd = true;
    ravel__snap_spoil();
    if (is_devrandom(path) && (flags & O_ACCMODE) == O_RDONLY &&
        virtual_here(RAVEL__CALLER_PC)) {
        int fd = devrandom_fd(flags);
        if (fd >= 0)
            return fd;
    }
    if (writes_file(flags))
        ravel__fd_hold_files(RAVEL__CALLER_PC);
    return REAL(openat)(dir, path, flags, mode);
}

/* fopen of the device (libc.c's fopen asks): a stream on the memory file,
 * or NULL to open the real one. */
FILE *ravel__devrandom_fopen(const char *path, const char *mode,
                             uint64_t pc)
{
    if (!is_devrandom(path) || !mode || mode[0] != 'r' ||
        strchr(mode, '+') || !virtual_here(pc))
        return NULL;
    int fd = devrandom_fd(strchr(mode, 'e') ? O_CLOEXEC : 0);
    if (fd < 0)
        return NULL;
    FILE *f = REAL(fdopen)(fd, mode);
    if (!f)
        REAL(close)(fd);
    return f;
}
