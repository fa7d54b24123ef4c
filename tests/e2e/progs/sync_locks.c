/*
 * sync_locks.c - plain data shared correctly through every pthread
 * primitive: the race detector must stay silent over the whole
 * exploration.
 *
 *   create/join  main writes before create, reads after join
 *   mutex        both workers increment under a mutex
 *   rwlock       one writes under wrlock, the other reads under rdlock
 *   condvar      a producer hands over a plain item under a mutex
 *   semaphore    sem_post publishes, sem_wait receives
 *   barrier      each writes its slot, two rounds, reading the other's
 *                slot between barriers
 *   once         the init function's writes are seen by every caller
 *   spinlock     both increment under a spinlock
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

static int before_create, part[2];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int guarded;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int rw_data;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int item, have_item;
static sem_t sem;
static int sem_data;
static pthread_barrier_t bar;
static int slot[2];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_data;
static pthread_spinlock_t spin;
static int spun;

static void init_once(void)
{
    once_data = 7;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    assert(before_create == 1);
    part[id] = 1; /* read by main after the join */

    pthread_mutex_lock(&m);
    guarded++;
    pthread_mutex_unlock(&m);

    if (id == 0) {
        pthread_rwlock_wrlock(&rw);
        rw_data = 5;
        pthread_rwlock_unlock(&rw);
    } else {
        pthread_rwlock_rdlock(&rw);
        int v = rw_data;
        pthread_rwlock_unlock(&rw);
        assert(v == 0 || v == 5);
    }

    if (id == 0) {
        pthread_mutex_lock(&m);
        item = 11;
        have_item = 1;
        pthread_cond_signal(&cv);
        pthread_mutex_unlock(&m);
        sem_data = 3;
        sem_post(&sem);
    } else {
        pthread_mutex_lock(&m);
        while (!have_item)
            pthread_cond_wait(&cv, &m);
        assert(item == 11);
        pthread_mutex_unlock(&m);
        sem_wait(&sem);
        assert(sem_data == 3);
    }

    slot[id] = 1;
    pthread_barrier_wait(&bar);
    assert(slot[1 - id] == 1);
    pthread_barrier_wait(&bar);
    slot[id] = 2;
    pthread_barrier_wait(&bar);
    assert(slot[1 - id] == 2);

    pthread_once(&once, init_once);
    assert(once_data == 7);

    pthread_spin_lock(&spin);
    spun++;
    pthread_spin_unlock(&spin);
    return NULL;
}

int main(void)
{
    sem_init(&sem, 0, 0);
    pthread_barrier_init(&bar, NULL, 2);
    pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
    before_create = 1;
    pthread_t t0, t1;
    pthread_create(&t0, NULL, worker, (void *)0L);
    pthread_create(&t1, NULL, worker, (void *)1L);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    assert(part[0] && part[1] && guarded == 2 && spun == 2);
    pthread_barrier_destroy(&bar);
    sem_destroy(&sem);
    return 0;
}
