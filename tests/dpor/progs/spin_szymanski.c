/*
 * spin_szymanski.c - Szymanski's mutual exclusion for two threads, with
 * relaxed atomics and seq_cst fences, waiting in spin loops.
 *
 * `spin_szymanski genmc`: the shape of GenMC's tests/correct/synthetic/
 * szymanski (N = 1; each `__VERIFIER_assume(c)` there is `while (!c) {}`
 * here). GenMC counts 6 complete executions under SC. That version is
 * symmetric: each thread waits for the other's flag to drop below 2
 * before the critical section and for it to leave 2..3 after. The
 * algorithm has thread i wait only for lower-numbered threads before and
 * higher-numbered ones after; symmetric, both threads can reach flag 4
 * and wait for each other forever (GenMC counts those executions as
 * blocked, and does not report them unless asked to check liveness).
 * ravel reports the deadlock; with --keep-going, the executions that are
 * not deadlocks are GenMC's 6.
 *
 * `spin_szymanski`: the algorithm as Szymanski wrote it (thread 1 is the
 * lower-numbered one); no report.
 *
 * `spin_szymanski broken`: thread 2 does not wait for thread 1 to leave
 * the doorway (flag < 2) before the critical section.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define R memory_order_relaxed
#define smp_mb() atomic_thread_fence(memory_order_seq_cst)

static atomic_int x, flag1, flag2;
static int broken, symmetric;

static void *thread_1(void *unused)
{
    (void)unused;
    atomic_store_explicit(&flag1, 1, R);
    smp_mb();
    while (!(atomic_load_explicit(&flag2, R) < 3)) {
    }
    atomic_store_explicit(&flag1, 3, R);
    smp_mb();
    if (atomic_load_explicit(&flag2, R) == 1) {
        atomic_store_explicit(&flag1, 2, R);
        smp_mb();
        while (!(atomic_load_explicit(&flag2, R) == 4)) {
        }
    }
    atomic_store_explicit(&flag1, 4, R);
    smp_mb();
    while (symmetric && !(atomic_load_explicit(&flag2, R) < 2)) {
    }
    /* critical section */
    atomic_store_explicit(&x, 0, R);
    atomic_load_explicit(&x, R);
    assert(atomic_load_explicit(&x, R) <= 0);
    smp_mb();
    while (!(2 > atomic_load_explicit(&flag2, R) ||
             atomic_load_explicit(&flag2, R) > 3)) {
    }
    atomic_store_explicit(&flag1, 0, R);
    return NULL;
}

static void *thread_2(void *unused)
{
    (void)unused;
    atomic_store_explicit(&flag2, 1, R);
    smp_mb();
    while (!(atomic_load_explicit(&flag1, R) < 3)) {
    }
    atomic_store_explicit(&flag2, 3, R);
    smp_mb();
    if (atomic_load_explicit(&flag1, R) == 1) {
        atomic_store_explicit(&flag2, 2, R);
        smp_mb();
        while (!(atomic_load_explicit(&flag1, R) == 4)) {
        }
    }
    atomic_store_explicit(&flag2, 4, R);
    smp_mb();
    while (!broken && !(atomic_load_explicit(&flag1, R) < 2)) {
    }
    /* critical section */
    atomic_store_explicit(&x, 1, R);
    atomic_load_explicit(&x, R);
    assert(atomic_load_explicit(&x, R) >= 1);
    smp_mb();
    while (symmetric && !(2 > atomic_load_explicit(&flag1, R) ||
                          atomic_load_explicit(&flag1, R) > 3)) {
    }
    atomic_store_explicit(&flag2, 0, R);
    return NULL;
}

int main(int argc, char **argv)
{
    broken = argc > 1 && !strcmp(argv[1], "broken");
    symmetric = argc > 1 && !strcmp(argv[1], "genmc");
    pthread_t t1, t2;
    pthread_create(&t1, NULL, thread_1, NULL);
    pthread_create(&t2, NULL, thread_2, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
