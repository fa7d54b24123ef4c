/*
 * locked.c - seq_cst atomics and a mutex only (tests/relaxed/relaxed.py,
 * group genmc): under RC11 such a program is sequentially consistent, so
 * the number of execution graphs --memory-model rc11 counts must equal
 * the number of traces DPOR counts under sc. A failed trylock and the
 * order of lock operations are part of both; how the interleaving went
 * (which step was a preemption) is part of neither.
 */
#include <pthread.h>
#include <stdatomic.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static atomic_int total, last;

static void *adder(void *arg)
{
    pthread_mutex_lock(&m);
    atomic_fetch_add(&total, 1);
    pthread_mutex_unlock(&m);
    atomic_store(&last, (int)(long)arg);
    return NULL;
}

static void *peeker(void *arg)
{
    (void)arg;
    if (atomic_load(&last) != 0 && pthread_mutex_trylock(&m) == 0) {
        (void)atomic_load(&total);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    pthread_create(&t[0], NULL, adder, (void *)1L);
    pthread_create(&t[1], NULL, adder, (void *)2L);
    pthread_create(&t[2], NULL, peeker, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    return 0;
}
