/*
 * preempt3.c - a bug that needs exactly three preemptions: the reader must
 * see the writer's first value and then its second, before its third, so
 * the threads alternate writer, reader, writer, reader, each switch away
 * from a thread that could go on: w1 < r1 < w2 < r2 < w3.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int x;

static void *writer(void *arg)
{
    (void)arg;
    atomic_store(&x, 1);
    atomic_store(&x, 2);
    atomic_store(&x, 3);
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    int r1 = atomic_load(&x);
    int r2 = atomic_load(&x);
    assert(!(r1 == 1 && r2 == 2));
    return NULL;
}

int main(void)
{
    pthread_t w, r;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    return 0;
}
