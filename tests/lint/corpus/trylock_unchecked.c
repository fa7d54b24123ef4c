/* A trylock whose result is ignored may not hold the lock. */
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
static void *t(void *a)
{
    pthread_mutex_trylock(&m);
    g++; // RACE
    pthread_mutex_unlock(&m);
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
