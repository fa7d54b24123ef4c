/*
 * race_memcpy.c - two threads memcpy into one buffer.
 *
 * memcpy is a call to the C library (gcc and clang both emit one here):
 * the runtime checks the ranges it reads and writes.
 *
 * ravel-expect: data-race
 */
#include <pthread.h>
#include <string.h>

static char buf[64];
static char src_a[64] = "first writer";
static char src_b[64] = "second writer";

static void *copy(void *arg)
{
    memcpy(buf, arg, strlen(arg) + 1);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, copy, src_a);
    pthread_create(&b, NULL, copy, src_b);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return buf[0] == 0;
}
