/*
 * pool.c - a small thread pool with an injected bug: several findings in
 * one run, for the findings table and the HTML report.
 *
 * Three workers take tasks from a queue guarded by a mutex and a
 * condition variable; main submits six tasks, waits until the pool is
 * idle, then shuts it down and joins the workers. The injected bug is a
 * shortcut in bookkeeping: each worker counts the tasks it finished in a
 * shared counter (`done`) *after* leaving the critical section, and the
 * shutdown flag is set without the lock. So one run finds:
 *
 *   - a data race on `done` (two workers' increments),
 *   - a data race between the shutdown flag's write and the workers'
 *     read of it,
 *   - and, once race-directed scheduling makes the racing lines
 *     scheduling points, the lost update: an assertion that all six
 *     tasks were counted fails.
 *
 *     ravel run --keep-going --html pool.html -- ./pool
 *
 * The findings table at the end of the run lists each once, with how
 * many executions ended in it.
 *
 * ravel-expect: data-race
 */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#define WORKERS 3
#define TASKS 6

static struct pool {
    pthread_mutex_t lock;
    pthread_cond_t work;  /* a task was queued, or shutdown */
    pthread_cond_t idle;  /* a task finished */
    int queue[TASKS];
    int head, tail;       /* queued tasks: queue[head..tail) */
    int running;          /* tasks taken and not finished */
    bool shutdown;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
          PTHREAD_COND_INITIALIZER, {0}, 0, 0, 0, false};

static int done;   /* tasks finished (the bug: updated without the lock) */
static int result; /* sum of the tasks' results, under the lock */

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&pool.lock);
        while (pool.head == pool.tail && !pool.shutdown)
            pthread_cond_wait(&pool.work, &pool.lock);
        if (pool.head == pool.tail) {
            pthread_mutex_unlock(&pool.lock);
            return NULL;
        }
        int task = pool.queue[pool.head++];
        pool.running++;
        pthread_mutex_unlock(&pool.lock);

        int r = task * task;

        pthread_mutex_lock(&pool.lock);
        result += r;
        pool.running--;
        pthread_cond_broadcast(&pool.idle);
        pthread_mutex_unlock(&pool.lock);
        done++; /* BUG: outside the critical section */
    }
}

int main(void)
{
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < TASKS; i++) {
        pthread_mutex_lock(&pool.lock);
        pool.queue[pool.tail++] = i + 1;
        pthread_cond_signal(&pool.work);
        pthread_mutex_unlock(&pool.lock);
    }
    pthread_mutex_lock(&pool.lock);
    while (pool.head != pool.tail || pool.running)
        pthread_cond_wait(&pool.idle, &pool.lock);
    pthread_mutex_unlock(&pool.lock);

    pool.shutdown = true; /* BUG: without the lock */
    pthread_mutex_lock(&pool.lock);
    pthread_cond_broadcast(&pool.work);
    pthread_mutex_unlock(&pool.lock);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);
    printf("%d tasks, result %d\n", done, result);
    assert(done == TASKS);
    assert(result == 91);
    return 0;
}
