/* The flag is read again between the lock and the write, and another
 * thread may have changed it: the second read is a new value. */
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g, shared_mode; // NORACE
static void *t(void *a)
{
    if (shared_mode) // RACE
        pthread_mutex_lock(&m);
    if (shared_mode) // RACE
        g++; // RACE
    return a;
}
static void *flip(void *a)
{
    shared_mode = !shared_mode; // RACE
    return a;
}
int main(void)
{
    pthread_t x, y, z;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_create(&z, 0, flip, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    pthread_join(z, 0);
    return 0;
}
