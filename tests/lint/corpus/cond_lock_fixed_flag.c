/* Locking under a flag nothing ever clears: the lock is always taken. */
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g, use_lock = 1;
static void *t(void *a)
{
    int c = use_lock;
    if (c) pthread_mutex_lock(&m);
    g++; // NORACE
    if (c) pthread_mutex_unlock(&m);
    return a;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
