/*
 * hang.c - a thread blocks forever in a system call ravel does not
 * control (reading a pipe nobody writes). The watchdog must end it with a
 * report instead of hanging ravel.
 *
 * ravel-expect: hang
 * ravel-options: --watchdog 1
 */
#include <pthread.h>
#include <unistd.h>

static int fds[2];

static void *waiter(void *arg)
{
    (void)arg;
    char c;
    (void)!read(fds[0], &c, 1);
    return NULL;
}

int main(void)
{
    (void)!pipe(fds);
    pthread_t t;
    pthread_create(&t, NULL, waiter, NULL);
    pthread_join(t, NULL);
    return 0;
}
