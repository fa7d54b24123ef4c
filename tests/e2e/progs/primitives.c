/*
 * primitives.c - correct use of every primitive ravel controls. Any
 * report over a long exploration is a false alarm.
 *
 * ravel-expect: clean
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t rec = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t chk = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static pthread_barrier_t barrier;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static sem_t sem;
static pthread_key_t key;

static int guarded;          /* under m */
static int guarded_rec;      /* under rec */
static int ready;            /* under m, with cv */
static long shared_table[4]; /* under rw */
static int spun;             /* under spin */
static atomic_int once_runs;
static atomic_int destructed;
static _Thread_local int tls = 7;
static atomic_long big;
static atomic_char small;
static long sync_counter;

static void init_once(void)
{
    atomic_fetch_add(&once_runs, 1);
}

static void destroy_value(void *v)
{
    atomic_fetch_add(&destructed, 1);
    free(v);
}

static struct timespec soon(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += 1;
    return t;
}

static void *worker(void *arg)
{
    long id = (long)arg;
    assert(tls == 7); /* fresh thread-local storage */
    tls = (int)id;
    errno = (int)id + 100;
    sched_yield(); /* the others run and set theirs */
    assert(tls == (int)id && errno == (int)id + 100);
    pthread_once(&once, init_once);
    pthread_setspecific(key, malloc(16));

    pthread_mutex_lock(&rec);
    pthread_mutex_lock(&rec);
    guarded_rec++;
    pthread_mutex_unlock(&rec);
    pthread_mutex_unlock(&rec);

    int rc = pthread_mutex_trylock(&chk);
    if (rc == 0)
        pthread_mutex_unlock(&chk);
    else
        assert(rc == EBUSY);
    struct timespec t = soon();
    rc = pthread_mutex_timedlock(&m, &t);
    assert(rc == 0 || rc == ETIMEDOUT);
    if (rc == 0) {
        guarded++;
        pthread_mutex_unlock(&m);
    }

    pthread_rwlock_rdlock(&rw);
    long sum = shared_table[0];
    pthread_rwlock_unlock(&rw);
    (void)sum;
    if (pthread_rwlock_trywrlock(&rw) == 0) {
        shared_table[id % 4]++;
        pthread_rwlock_unlock(&rw);
    }

    pthread_spin_lock(&spin);
    spun++;
    pthread_spin_unlock(&spin);

    sem_post(&sem);
    pthread_barrier_wait(&barrier);

    atomic_fetch_add(&big, 1L << 40);
    atomic_fetch_or(&small, (char)(1 << id));
    __sync_fetch_and_add(&sync_counter, 1);
    atomic_thread_fence(memory_order_seq_cst);
    sched_yield();
    usleep(10);

    pthread_mutex_lock(&m);
    ready++;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
    if (id == 2)
        pthread_exit(NULL);
    return NULL;
}

static void *detached(void *arg)
{
    (void)arg;
    sem_post(&sem);
    return NULL;
}

int main(void)
{
    pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
    pthread_barrier_init(&barrier, NULL, 3);
    sem_init(&sem, 0, 0);
    pthread_key_create(&key, destroy_value);

    pthread_t t[3], d;
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&d, &attr, detached, NULL);
    pthread_attr_destroy(&attr);

    pthread_mutex_lock(&m);
    while (ready < 3) {
        struct timespec t1 = soon();
        pthread_cond_timedwait(&cv, &m, &t1);
    }
    pthread_mutex_unlock(&m);
    for (int i = 0; i < 4; i++)
        sem_wait(&sem);
    int v;
    sem_getvalue(&sem, &v);
    assert(v == 0);
    assert(sem_trywait(&sem) == -1 && errno == EAGAIN);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);

    assert(atomic_load(&once_runs) == 1);
    assert(atomic_load(&destructed) == 3);
    assert(spun == 3);
    assert(atomic_load(&big) == 3L << 40);
    assert(atomic_load(&small) == 7);
    assert(sync_counter == 3);
    assert(tls == 7);
    pthread_barrier_destroy(&barrier);
    sem_destroy(&sem);
    pthread_spin_destroy(&spin);
    pthread_mutex_destroy(&m);
    puts("all primitives behaved");
    return 0;
}
