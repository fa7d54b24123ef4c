/*
 * misuse_relock.c - an error-checking mutex locked twice by one thread.
 *
 * ravel-expect: lock-misuse
 */
#define _GNU_SOURCE
#include <pthread.h>

int main(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_t m;
    pthread_mutex_init(&m, &a);
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    return 0;
}
