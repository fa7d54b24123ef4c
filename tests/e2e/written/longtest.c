/*
 * longtest.c - two tests in the shape of a C library's own test suite
 * (found in tezc/sc's CMake suite, run with CC=ravel-cc and ctest), each
 * correct, each once failing under ravel when run directly:
 *
 *   clock  reads the monotonic clock 2 x 100,000 times and checks that
 *          it never goes back, reading the struct timespec it filled
 *          (built with -O0, as a Debug build is, so the reads of tv_sec
 *          and tv_nsec are plain loads). Only reads, nothing the loop
 *          writes with an instrumented store: the plain-spin watch
 *          (src/rt/race/plain_spin.c) took it for a spin, and once its
 *          reads were scheduling points it was reported as "spins
 *          forever". A clock read is a side effect (the next read
 *          returns another time), so this loop is not a spin.
 *   locks  a logger's test: 60,000 messages, each written under the
 *          logger's mutex (120,000 visible operations), after a helper
 *          thread has logged too. Over `ravel run`'s default step limit
 *          of 100,000; run directly, where the first execution is the
 *          program's own run, the limit is 10,000,000.
 *   compute  a single-threaded test of a table: 10^8 random updates
 *          of plain memory, no visible operation for longer than the
 *          watchdog (the e2e test sets it to 0.1 s). The watchdog
 *          reported a hang; a lone thread that makes plain accesses is
 *          computing, not waiting (src/rt/process/supervisor.c).
 *   stack  a buffer test: 3 x 10^6 appends through a struct on main's
 *          stack, whose fields are all the loop reads and writes. Writes
 *          to the thread's own stack are no side effect for the spin
 *          rules of src/model/spin.c (so that -O0 loops are recognised),
 *          but the plain-spin watch must count them, or it takes this
 *          loop for a spin, and its promoted reads run into the step
 *          limit (tezc/sc's buffer test did).
 *   blocked  main alone reads a pipe made before main that nobody
 *          writes: still a hang (it makes no accesses while it waits).
 *   workers  main holds a mutex a second thread waits for, and computes
 *          (3 x 10^7 updates of the table) past the watchdog before it lets
 *          go: pigz -11's shape (a worker compressing a block while the
 *          others wait on it), reported as a hang when computing was an
 *          exception only for a lone thread.
 *   writespin  a thread waits for a plain flag that main sets only
 *          after joining it, counting in a global as it spins: natively
 *          it never ends either. It writes shared memory, so it cannot
 *          be told from a computation; the watchdog reports it after 30
 *          times its value, saying so. (Only under the e2e test's
 *          watchdog: run directly without one it spins for ever.)
 *   rounds  two threads take turns at a lock 8 times each, computing
 *          under it: a test of a fraction of a second with more
 *          schedules than any budget (12,870 orders of the lock).
 *          Run directly with the default budget of 1,000 executions it
 *          took minutes, which a test runner's timeout does not give
 *          (meson's: 30 s); run directly, a search that names no budget
 *          stops starting executions after 10 s (src/rt/process/init.c).
 *
 * Expected, run directly: exit 0, "<mode> ok" on stdout, nothing on
 * stderr. Under `ravel run` the locks test is a step-limit report (the
 * default there stays 100,000). e2e group "written".
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t mono_ms(void)
{
    struct timespec ts;
    int rc = clock_gettime(CLOCK_MONOTONIC, &ts);
    assert(rc == 0);
    (void)rc;
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int clock_test(void)
{
    for (int i = 0; i < 100000; i++) {
        uint64_t t1 = mono_ms();
        uint64_t t2 = mono_ms();
        assert(t2 >= t1);
    }
    return 0;
}

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long logged;

static void log_line(void)
{
    pthread_mutex_lock(&log_lock);
    logged++;
    pthread_mutex_unlock(&log_lock);
}

static void *helper(void *arg)
{
    (void)arg;
    for (int i = 0; i < 10; i++)
        log_line();
    return NULL;
}

static int locks_test(void)
{
    pthread_t t;
    pthread_create(&t, NULL, helper, NULL);
    pthread_join(t, NULL);
    for (int i = 0; i < 60000; i++)
        log_line();
    assert(logged == 60010);
    return 0;
}

static unsigned table[1u << 16];

static int compute_test(void)
{
    uint64_t x = 1, sum = 0;
    for (unsigned i = 0; i < 100000000u; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        table[x >> 48] += i;
    }
    for (unsigned i = 0; i < 1u << 16; i++)
        sum += table[i];
    /* sum of i over the updates, modulo 2^32 per slot, added up */
    assert(sum > 0);
    return 0;
}

struct buf {
    size_t cap, len;
};

__attribute__((noinline)) static void reserve(struct buf *b, size_t n)
{
    while (b->cap < b->len + n)
        b->cap *= 2;
    b->len += n;
}

static int stack_test(void)
{
    struct buf b = {1, 0};
    for (unsigned i = 0; i < 3000000u; i++)
        reserve(&b, 1);
    assert(b.len == 3000000u && b.cap >= b.len);
    return 0;
}

static pthread_mutex_t hold = PTHREAD_MUTEX_INITIALIZER;

static void *hold_waiter(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&hold);
    pthread_mutex_unlock(&hold);
    return NULL;
}

static int workers_test(void)
{
    pthread_t t;
    uint64_t x = 1;
    pthread_mutex_lock(&hold);
    pthread_create(&t, NULL, hold_waiter, NULL);
    for (unsigned i = 0; i < 30000000u; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        table[x >> 48] += i;
    }
    pthread_mutex_unlock(&hold);
    pthread_join(t, NULL);
    return 0;
}

static pthread_mutex_t turn = PTHREAD_MUTEX_INITIALIZER;
static uint64_t rounds_sum;

static void *rounds_worker(void *arg)
{
    (void)arg;
    for (int r = 0; r < 8; r++) {
        pthread_mutex_lock(&turn);
        uint64_t x = rounds_sum + 1;
        for (unsigned i = 0; i < 10000000u; i++)
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        rounds_sum = x;
        pthread_mutex_unlock(&turn);
    }
    return NULL;
}

static int rounds_test(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, rounds_worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}

static int go;
static unsigned long spins;

static void *spinner(void *arg)
{
    (void)arg;
    while (!go) {
        spins++;
        __asm__ volatile("" ::: "memory"); /* a load and a store a turn */
    }
    return NULL;
}

static int writespin_test(void)
{
    pthread_t t;
    pthread_create(&t, NULL, spinner, NULL);
    pthread_join(t, NULL);
    go = 1;
    return 0;
}

static int fds[2];

__attribute__((constructor)) static void make_pipe(void)
{
    (void)!pipe(fds);
}

static int blocked_test(void)
{
    char c;
    return read(fds[0], &c, 1) == 1 ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "clock";
    int rc = !strcmp(mode, "locks")     ? locks_test()
             : !strcmp(mode, "compute") ? compute_test()
             : !strcmp(mode, "blocked") ? blocked_test()
             : !strcmp(mode, "stack")   ? stack_test()
             : !strcmp(mode, "workers") ? workers_test()
             : !strcmp(mode, "writespin") ? writespin_test()
             : !strcmp(mode, "rounds")  ? rounds_test()
                                        : clock_test();
    printf("%s ok\n", mode);
    return rc;
}
