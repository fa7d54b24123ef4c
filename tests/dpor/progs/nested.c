/*
 * nested.c - threads that create threads: two children of main each
 * create a grandchild, and the grandchildren race on an atomic with main.
 * Thread numbers depend on which child creates first, so DPOR must name
 * threads by who created them, not by creation order.
 */
#include <pthread.h>
#include <stdatomic.h>

static atomic_int x;
static pthread_t grandchildren[3];

static void *grandchild(void *arg)
{
    atomic_store(&x, (int)(long)arg);
    return NULL;
}

static void *child(void *arg)
{
    pthread_create(&grandchildren[(long)arg], NULL, grandchild, arg);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, child, (void *)1);
    pthread_create(&b, NULL, child, (void *)2);
    atomic_load(&x);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(grandchildren[1], NULL);
    pthread_join(grandchildren[2], NULL);
    return 0;
}
