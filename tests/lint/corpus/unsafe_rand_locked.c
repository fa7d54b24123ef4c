/* rand() under a mutex is fine. */
#include <pthread.h>
#include <stdlib.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *t(void *a)
{
    pthread_mutex_lock(&m);
    long r = rand(); // NORACE
    pthread_mutex_unlock(&m);
    return (void *)r;
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
