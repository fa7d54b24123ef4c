/*
 * spin_dekker.c - Dekker's mutual exclusion with seq_cst atomics.
 *
 * `spin_dekker f`: GenMC's tests/correct/synthetic/dekker_f (relaxed
 * accesses around seq_cst fences, no loop), with the threads joined:
 * GenMC lets main return while they run, where C's exit from main ends
 * them. GenMC counts 3 executions under SC, and so must DPOR.
 *
 * `spin_dekker`: the full algorithm, two threads each entering the
 * critical section once, waiting in spin loops.
 *
 * `spin_dekker broken`: a thread raises its flag only after checking the
 * other's, so both can enter.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define R memory_order_relaxed

static int mode; /* 0 full, 1 dekker_f, 2 broken */

/* dekker_f */
static atomic_int x, y, c;

static void *f_thread_1(void *unused)
{
    (void)unused;
    atomic_store_explicit(&y, 1, R);
    atomic_thread_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&x, R)) {
        atomic_store_explicit(&c, 1, R);
        assert(atomic_load_explicit(&c, R) == 1);
    }
    return NULL;
}

static void *f_thread_2(void *unused)
{
    (void)unused;
    atomic_store_explicit(&x, 1, R);
    atomic_thread_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&y, R)) {
        atomic_store_explicit(&c, 0, R);
        assert(atomic_load_explicit(&c, R) == 0);
    }
    return NULL;
}

/* the full algorithm */
static atomic_int flag[2], turn, owner;

static void *dekker(void *arg)
{
    int i = (int)(long)arg, j = 1 - i;
    if (mode == 2) {
        while (atomic_load(&flag[j])) {
        }
        atomic_store(&flag[i], 1);
    } else {
        atomic_store(&flag[i], 1);
        while (atomic_load(&flag[j])) {
            if (atomic_load(&turn) != i) {
                atomic_store(&flag[i], 0);
                while (atomic_load(&turn) != i) {
                }
                atomic_store(&flag[i], 1);
            }
        }
    }
    /* critical section */
    atomic_store(&owner, i);
    assert(atomic_load(&owner) == i);
    atomic_store(&turn, j);
    atomic_store(&flag[i], 0);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        mode = !strcmp(argv[1], "f") ? 1 : !strcmp(argv[1], "broken") ? 2 : 0;
    pthread_t t1, t2;
    pthread_create(&t1, NULL, mode == 1 ? f_thread_1 : dekker, (void *)0L);
    pthread_create(&t2, NULL, mode == 1 ? f_thread_2 : dekker, (void *)1L);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
