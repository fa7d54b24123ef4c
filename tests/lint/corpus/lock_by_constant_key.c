/* A lock looked up by a constant key (SQLite's sqlite3MutexAlloc(
 * SQLITE_MUTEX_STATIC_VFS1)): two calls with the same key are the same
 * lock; different keys are different locks. */
#include <pthread.h>
static pthread_mutex_t table[4] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                   PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static pthread_mutex_t *lock_for(int key) { return &table[key & 3]; }
int list_len, other;
static void *adder(void *a)
{
    pthread_mutex_t *m = lock_for(1);
    pthread_mutex_lock(m);
    list_len++; // NORACE
    pthread_mutex_unlock(m);
    pthread_mutex_lock(lock_for(2));
    other++; // RACE
    pthread_mutex_unlock(lock_for(2));
    return a;
}
static void *remover(void *a)
{
    pthread_mutex_t *m = lock_for(1);
    pthread_mutex_lock(m);
    list_len--; // NORACE
    other--; // RACE
    pthread_mutex_unlock(m);
    return a;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, adder, 0);
    pthread_create(&y, 0, remover, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
