/*
 * choose_race.c - data choices inside racing threads: each of two threads
 * picks a value with ravel_choose and stores it or its double; a third
 * reads both. Every value of every choice is explored in every trace.
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>

static atomic_int x, y;

static void *chooser(void *arg)
{
    unsigned v = ravel_choose(3);
    if (v == 2)
        atomic_store(arg ? &x : &y, 2 * (int)v);
    else
        atomic_store(&x, (int)v);
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    atomic_load(&x);
    atomic_load(&y);
    return NULL;
}

int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, NULL, chooser, (void *)1);
    pthread_create(&b, NULL, chooser, NULL);
    pthread_create(&c, NULL, reader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    return 0;
}
