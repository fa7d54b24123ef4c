/* After the unlock the write is unprotected. */
#include <pthread.h>
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int g;
static void *t(void *a)
{
    pthread_rwlock_wrlock(&rw);
    g = 1; // RACE
    pthread_rwlock_unlock(&rw);
    g = 2; // RACE
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
