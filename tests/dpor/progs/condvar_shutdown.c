/*
 * condvar_shutdown.c - the shape of a thread pool's worker and its
 * shutdown: the worker waits on a condition variable for a job or for
 * shutdown; main queues one job and signals, then sets shutdown,
 * broadcasts and joins. The broadcast often finds nobody waiting (the
 * signal already took the worker off the queue), and the worker's wake
 * (taking the mutex back) races with main's next lock: DPOR once treated
 * every notification as ordered before a wake, so that race was hidden
 * behind the no-op broadcast and 'exhausted: all 4 traces' was printed
 * where DFS sees 6 (the worker running its job between main's two
 * critical sections was never tried; found on a public thread pool).
 */
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int jobs, shutdown_, done;

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&m);
        while (jobs == 0 && !shutdown_)
            pthread_cond_wait(&c, &m);
        if (jobs == 0) {
            pthread_mutex_unlock(&m);
            return NULL;
        }
        jobs--;
        pthread_mutex_unlock(&m);
        pthread_mutex_lock(&done_lock); /* the job */
        done++;
        pthread_mutex_unlock(&done_lock);
    }
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_mutex_lock(&m);
    jobs++;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    shutdown_ = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    return done == 1 ? 0 : 1;
}
