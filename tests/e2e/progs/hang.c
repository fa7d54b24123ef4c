/*
 * hang.c - a thread blocks forever in a system call ravel does not
 * control: reading a pipe nobody writes, made before main (in a
 * constructor), so not one of the execution's controlled descriptors
 * (docs/limits.md). The watchdog must end it with a report instead of
 * hanging ravel. (The same read on a pipe made during the execution is a
 * deadlock: tests/fdmsg.)
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

__attribute__((constructor)) static void make_pipe(void)
{
    (void)!pipe(fds);
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, waiter, NULL);
    pthread_join(t, NULL);
    return 0;
}
