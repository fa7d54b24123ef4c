/*
 * pool.c - a thread pool written as common open-source C pools are: N
 * workers wait on one condition variable for jobs; the creator waits
 * until every worker is alive; jobs are queued under the pool's lock and
 * signalled; shutdown drops `keepalive` and then wakes the workers for at
 * most one second of time() - a loop that ends natively because a second
 * passes, and under ravel because its virtual clock advances when read
 * (src/rt/intercept/time.c) - then joins them, while workers may still
 * hold the pool's lock.
 *
 * usage: pool N [JOBS]   (N workers: 4, 32, 256 in the e2e group
 * "written"; JOBS jobs, each counting one in `done`). Built a second time
 * as pool_missing_lock, with MISSING_LOCK defined: the jobs' counter is
 * then updated without its lock (a data race, and a lost update that the
 * final assertion catches).
 *
 * Built again with SPIN_ALIVE, as pool_spin (and pool_spin_missing_lock):
 * the creator waits for its workers as C-Thread-Pool's thpool_init does,
 * in an empty loop on a `volatile int` the workers increment under the
 * pool's lock (`while (p->alive != n) {}`), a spin-wait ravel must end
 * (src/model/spin.c) without a report. With PLAIN_SPIN too, as
 * pool_plain_spin, the counter is a plain int and the program is built
 * with -O0, so that the loop keeps its load: a spin on plain memory
 * (src/rt/race/plain_spin.c), which is a data race ravel reports - never
 * a hang.
 */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct job { void (*fn)(void *); void *arg; struct job *next; };

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t has_jobs;  /* a job was queued, or keepalive dropped */
    pthread_cond_t all_alive; /* every worker started */
    pthread_cond_t idle;      /* the queue is empty and nobody works */
    struct job *head, *tail;
    int queued, working, keepalive;
#if defined(SPIN_ALIVE) && !defined(PLAIN_SPIN)
    volatile int alive;
#else
    int alive;
#endif
};

static void *worker(void *arg)
{
    struct pool *p = arg;
    pthread_mutex_lock(&p->lock);
    p->alive++;
    pthread_cond_broadcast(&p->all_alive);
    for (;;) {
        while (p->keepalive && p->queued == 0)
            pthread_cond_wait(&p->has_jobs, &p->lock);
        if (!p->keepalive && p->queued == 0)
            break;
        struct job *j = p->head;
        p->head = j->next;
        if (!p->head)
            p->tail = NULL;
        p->queued--;
        p->working++;
        pthread_mutex_unlock(&p->lock);
        j->fn(j->arg);
        free(j);
        pthread_mutex_lock(&p->lock);
        if (--p->working == 0 && p->queued == 0)
            pthread_cond_broadcast(&p->idle);
    }
    p->alive--;
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static struct pool *pool_new(int n, pthread_t *th)
{
    struct pool *p = calloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->has_jobs, NULL);
    pthread_cond_init(&p->all_alive, NULL);
    pthread_cond_init(&p->idle, NULL);
    p->keepalive = 1;
    for (int i = 0; i < n; i++)
        pthread_create(&th[i], NULL, worker, p);
#ifdef SPIN_ALIVE
    while (p->alive != n) { /* wait for all to be alive, in a spin */
    }
#else
    pthread_mutex_lock(&p->lock); /* wait for all to be alive */
    while (p->alive != n)
        pthread_cond_wait(&p->all_alive, &p->lock);
    pthread_mutex_unlock(&p->lock);
#endif
    return p;
}

static void pool_submit(struct pool *p, void (*fn)(void *), void *arg)
{
    struct job *j = malloc(sizeof *j);
    j->fn = fn;
    j->arg = arg;
    j->next = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->tail)
        p->tail->next = j;
    else
        p->head = j;
    p->tail = j;
    p->queued++;
    pthread_cond_signal(&p->has_jobs);
    pthread_mutex_unlock(&p->lock);
}

static void pool_wait(struct pool *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->queued || p->working)
        pthread_cond_wait(&p->idle, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

/* Shutdown as the common pools do it: drop keepalive, then wake the
 * workers for at most one second, then wait for the stragglers. */
static void pool_destroy(struct pool *p, int n, pthread_t *th)
{
    pthread_mutex_lock(&p->lock);
    p->keepalive = 0;
    pthread_mutex_unlock(&p->lock);
    time_t start = time(NULL);
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int alive = p->alive;
        pthread_cond_broadcast(&p->has_jobs);
        pthread_mutex_unlock(&p->lock);
        if (!alive || time(NULL) - start >= 1)
            break;
    }
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    free(p);
}

static long done;
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;

static void count(void *arg)
{
    (void)arg;
#ifndef MISSING_LOCK
    pthread_mutex_lock(&done_lock);
#endif
    long v = done;
    done = v + 1;
#ifndef MISSING_LOCK
    pthread_mutex_unlock(&done_lock);
#endif
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4;
    int jobs = argc > 2 ? atoi(argv[2]) : 4;
    pthread_t *th = malloc(n * sizeof *th);
    struct pool *p = pool_new(n, th);
    for (int i = 0; i < jobs; i++)
        pool_submit(p, count, NULL);
    pool_wait(p);
    pthread_mutex_lock(&done_lock);
    assert(done == jobs);
    pthread_mutex_unlock(&done_lock);
    pool_destroy(p, n, th);
    free(th);
    printf("pool of %d workers ran %ld jobs\n", n, done);
    return 0;
}
