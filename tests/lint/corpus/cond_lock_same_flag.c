/* Locking correlated with a flag chosen at run time: the counter is only
 * touched when the same flag also took the lock. */
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g, shared_mode;
static void *t(void *a)
{
    int c = shared_mode;
    if (c)
        pthread_mutex_lock(&m);
    if (c)
        g++; // NORACE
    if (c)
        pthread_mutex_unlock(&m);
    return a;
}
int main(int argc, char **argv)
{
    (void)argv;
    shared_mode = argc > 1;
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
