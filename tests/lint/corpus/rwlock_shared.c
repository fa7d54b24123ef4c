/* Two readers under a read lock, a writer under the write lock. */
#include <pthread.h>
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int g, h;
static void *t(void *a)
{
    pthread_rwlock_rdlock(&rw);
    int v = g; // NORACE
    h = v; // RACE
    pthread_rwlock_unlock(&rw);
    return a;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_rwlock_wrlock(&rw);
    g = 2; // NORACE
    pthread_rwlock_unlock(&rw);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
