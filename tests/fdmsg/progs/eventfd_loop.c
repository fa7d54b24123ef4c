/*
 * An event loop thread woken through an eventfd by two producers, each
 * queueing one job. The loop reads the eventfd (blocking) and then
 * drains the queued jobs. The bug: a producer wakes the loop before it
 * queues its job (the flag is set after the write), so the loop can
 * wake, find nothing, and sleep again with the job queued and nobody
 * left to wake it - a lost wakeup: the loop waits in read for ever.
 * FIXED queues first, then writes. CONDVAR (with FIXED) is the same
 * loop woken through a condition variable instead, for comparing
 * executions per second.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define JOBS 2

static atomic_int queued;
static int handled;

#ifndef CONDVAR
static int efd;

static void *loop(void *arg)
{
    (void)arg;
    while (handled < JOBS) {
        uint64_t v;
        if (read(efd, &v, sizeof v) != sizeof v)
            return NULL;
        while (atomic_load(&queued) > 0) {
            atomic_fetch_sub(&queued, 1);
            handled++;
        }
    }
    return NULL;
}

static void *producer(void *arg)
{
    (void)arg;
    uint64_t one = 1;
#ifdef FIXED
    atomic_fetch_add(&queued, 1);
    (void)!write(efd, &one, sizeof one);
#else
    (void)!write(efd, &one, sizeof one);
    atomic_fetch_add(&queued, 1);
#endif
    return NULL;
}
#else
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int wakeups;

static void *loop(void *arg)
{
    (void)arg;
    while (handled < JOBS) {
        pthread_mutex_lock(&m);
        while (wakeups == 0)
            pthread_cond_wait(&c, &m);
        wakeups = 0;
        pthread_mutex_unlock(&m);
        while (atomic_load(&queued) > 0) {
            atomic_fetch_sub(&queued, 1);
            handled++;
        }
    }
    return NULL;
}

static void *producer(void *arg)
{
    (void)arg;
    atomic_fetch_add(&queued, 1);
    pthread_mutex_lock(&m);
    wakeups++;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return NULL;
}
#endif

int main(void)
{
#ifndef CONDVAR
    efd = eventfd(0, 0);
    assert(efd >= 0);
#endif
    pthread_t l, p[2];
    pthread_create(&l, NULL, loop, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&p[i], NULL, producer, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(p[i], NULL);
    pthread_join(l, NULL);
    assert(handled == JOBS);
#ifndef CONDVAR
    close(efd);
#endif
    return 0;
}
