/*
 * signal_wait.c - a signal sent to a thread while it waits on a condition
 * variable, whose handler makes visible operations of its own, as
 * C-Thread-Pool's pause does (its SIGUSR1 handler sleeps in a loop until
 * a flag is cleared; here, a volatile counter).
 *
 * pthread_kill makes ravel run program threads on OS threads, and a
 * handler ran where the signal arrived: in ravel's code, while the
 * thread was parked inside the wait. Its operations were taken for the
 * thread's own and the wait went on in a broken state; the pool was
 * reported as unlocking a mutex it did not hold, and data races inside
 * a critical section. Now a parked thread holds its signals until its
 * next visible operation starts (backend/os.c), so the handler runs
 * between two of the thread's operations, and the program is clean: the
 * wait ends holding its mutex and each critical section has one thread.
 * No search can be complete (where a signal arrives is not scheduled:
 * the guarantee says so), so e2e's expect group lets the default
 * strategy end when DPOR has explored what it can.
 *
 * ravel-expect: clean
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int go, inside;
static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
    (void)sig;
    handled++; /* volatile: visible operations of the handler's own */
}

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    while (!go)
        pthread_cond_wait(&c, &m);
    inside++; /* under m: no race unless the wait returned without it */
    inside--;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    usleep(1);
    pthread_kill(t, SIGUSR1);
    pthread_mutex_lock(&m);
    inside++;
    go = 1;
    inside--;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    return 0;
}
