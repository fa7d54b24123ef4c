/*
 * A thread pool fed through a pipe: the main thread writes job numbers
 * into the pipe, two workers read and run them. Shutdown: main sets
 * `stopping` and closes the write end. The bug: a worker checks
 * `stopping` before it reads its next job, so a job still in the pipe
 * when shutdown begins is dropped. FIXED reads until end of file (the
 * close is the shutdown signal).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#define JOBS 2

static int jobs[2];
static atomic_int stopping;
static atomic_int done;

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
#ifndef FIXED
        if (atomic_load(&stopping))
            break;
#endif
        int job;
        if (read(jobs[0], &job, sizeof job) != sizeof job)
            break; /* end of file: the pool shuts down */
        atomic_fetch_add(&done, 1);
    }
    return NULL;
}

int main(void)
{
    if (pipe(jobs))
        return 1;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int j = 0; j < JOBS; j++)
        (void)!write(jobs[1], &j, sizeof j);
    atomic_store(&stopping, 1);
    close(jobs[1]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    close(jobs[0]);
    assert(done == JOBS);
    return 0;
}
