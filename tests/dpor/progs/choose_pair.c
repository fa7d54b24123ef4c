/*
 * choose_pair.c - two data choices in one block (no visible operation
 * between them), then a store another thread reads. The pairs (0, 1) and
 * (1, 0) are different executions and different traces: 3 x 3 values
 * times 2 orders of the store and the load, 18 traces. Trace
 * fingerprints once summed the block's choices without their rank and
 * counted 12 (tests/dpor/dpor.py, group choose: DFS and DPOR by
 * fingerprint must agree with DPOR's count per execution).
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>

static atomic_int x;

static void *chooser(void *arg)
{
    (void)arg;
    unsigned a = ravel_choose(3);
    unsigned b = ravel_choose(3);
    atomic_store(&x, (int)(a * 3 + b + 1));
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    (void)atomic_load(&x);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, chooser, NULL);
    pthread_create(&b, NULL, reader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
