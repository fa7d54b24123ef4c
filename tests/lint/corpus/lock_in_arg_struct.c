/* The lock is a field of the object the thread is given (&p->lock):
 * the thread's lock and main's must be seen as one lock. Shutdown under
 * the lock, with the lock call's result checked, as thread pools do. */
#include <pthread.h>
#include <stdlib.h>
struct pool { pthread_mutex_t lock; pthread_cond_t notify; int shutdown, jobs; pthread_t th; };
static void *worker(void *a)
{
    struct pool *p = a;
    pthread_mutex_lock(&p->lock);
    while (!p->shutdown) // NORACE
        pthread_cond_wait(&p->notify, &p->lock);
    p->jobs++; // RACE
    pthread_mutex_unlock(&p->lock);
    return 0;
}
static int destroy(struct pool *p)
{
    int err = 0;
    if (pthread_mutex_lock(&p->lock) != 0)
        return 1;
    do {
        if (p->shutdown) { err = 1; break; } // NORACE
        p->shutdown = 1; // NORACE
        if (pthread_cond_broadcast(&p->notify) != 0 || pthread_mutex_unlock(&p->lock) != 0) { err = 2; break; }
        p->jobs = 0; // RACE
        pthread_join(p->th, 0);
    } while (0);
    return err;
}
int main(void)
{
    struct pool *p = malloc(sizeof *p);
    pthread_mutex_init(&p->lock, 0);
    pthread_cond_init(&p->notify, 0);
    p->shutdown = 0;
    p->jobs = 0;
    pthread_create(&p->th, 0, worker, p);
    return destroy(p);
}
