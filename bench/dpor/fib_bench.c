/*
 * fib_bench.c - the fib_bench pattern (SV-COMP): x = y = 1; one thread
 * does x = x + y five times, another y = x + y five times (each round two
 * loads and a store); a third checks that neither exceeds 144. 218,243
 * Mazurkiewicz traces under sequential consistency; the check never fails.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define ROUNDS 5

static atomic_int x = 1, y = 1;

static void *t1(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++)
        atomic_store(&x, atomic_load(&x) + atomic_load(&y));
    return NULL;
}

static void *t2(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++)
        atomic_store(&y, atomic_load(&x) + atomic_load(&y));
    return NULL;
}

static void *checker(void *arg)
{
    (void)arg;
    if (atomic_load(&x) > 144 || atomic_load(&y) > 144)
        assert(0);
    return NULL;
}

int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, NULL, t1, NULL);
    pthread_create(&b, NULL, t2, NULL);
    pthread_create(&c, NULL, checker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    return 0;
}
