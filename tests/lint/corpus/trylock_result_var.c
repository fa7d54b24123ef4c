/* The result kept in a variable and tested later. */
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g, misses;
static void *t(void *a)
{
    int rc = pthread_mutex_trylock(&m);
    if (rc != 0) {
        misses++; // RACE
        return a;
    }
    g++; // NORACE
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
