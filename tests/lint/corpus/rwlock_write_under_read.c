/* A write under a read lock races with the other reader's write. */
#include <pthread.h>
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int g;
static void *t(void *a)
{
    pthread_rwlock_rdlock(&rw);
    g = 1; // RACE
    pthread_rwlock_unlock(&rw);
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
