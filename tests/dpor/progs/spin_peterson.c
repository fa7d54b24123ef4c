/*
 * spin_peterson.c - Peterson's mutual exclusion with seq_cst atomics,
 * waiting in a spin loop. The shape of GenMC's tests/correct/synthetic/
 * peterson-sc (whose `__VERIFIER_assume(...)` is this loop's exit
 * condition, and whose commented-out asserts are kept here): GenMC
 * counts 4 executions under SC, and so must DPOR.
 *
 * `spin_peterson broken`: each thread gives the turn away before raising
 * its flag, and both can enter the critical section.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

static atomic_bool flag1, flag2;
static atomic_int turn;
static atomic_bool x;
static int broken;

static void *thread_1(void *arg)
{
    (void)arg;
    if (broken) {
        atomic_store(&turn, 1);
        atomic_store(&flag1, 1);
    } else {
        atomic_store(&flag1, 1);
        atomic_store(&turn, 1);
    }
    while (atomic_load(&flag2) == 1 && atomic_load(&turn) == 1) {
    }
    atomic_store(&x, 0);
    assert(atomic_load(&x) <= 0);
    atomic_store(&flag1, 0);
    return NULL;
}

static void *thread_2(void *arg)
{
    (void)arg;
    if (broken) {
        atomic_store(&turn, 0);
        atomic_store(&flag2, 1);
    } else {
        atomic_store(&flag2, 1);
        atomic_store(&turn, 0);
    }
    while (atomic_load(&flag1) == 1 && atomic_load(&turn) == 0) {
    }
    atomic_store(&x, 1);
    assert(atomic_load(&x) >= 1);
    atomic_store(&flag2, 0);
    return NULL;
}

int main(int argc, char **argv)
{
    broken = argc > 1 && !strcmp(argv[1], "broken");
    pthread_t t1, t2;
    pthread_create(&t1, NULL, thread_1, NULL);
    pthread_create(&t2, NULL, thread_2, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
