/*
 * Descriptors opened during an execution are closed between executions:
 * this program leaks a pipe, a socket pair and an eventfd every time and
 * declares their numbers as its result, which must be the same in every
 * execution. A thread waits in read until main writes, so executions
 * differ in their interleaving, not in their descriptors.
 */
#include <pthread.h>
#include <ravel.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

static int p[2];

static void *reader(void *arg)
{
    (void)arg;
    char c;
    (void)!read(p[0], &c, 1);
    return NULL;
}

int main(void)
{
    int s[2];
    if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM, 0, s))
        return 1;
    int e = eventfd(0, 0);
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    (void)!write(p[1], "x", 1);
    pthread_join(t, NULL);
    ravel_result(((p[0] * 100 + p[1]) * 100 + s[0]) * 100 + e);
    return 0; /* nothing closed */
}
