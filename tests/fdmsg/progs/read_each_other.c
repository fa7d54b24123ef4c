/*
 * Two threads, two pipes: each waits in read for a byte the other sends
 * only after its own read returns. Every execution deadlocks; the report
 * must name the descriptor each thread waits on and its peer.
 */
#include <pthread.h>
#include <unistd.h>

static int a[2], b[2];

static void *other(void *arg)
{
    (void)arg;
    char c;
    if (read(a[0], &c, 1) == 1)
        (void)!write(b[1], &c, 1);
    return NULL;
}

int main(void)
{
    if (pipe(a) || pipe(b))
        return 1;
    pthread_t t;
    pthread_create(&t, NULL, other, NULL);
    char c = 'x';
    if (read(b[0], &c, 1) == 1)
        (void)!write(a[1], &c, 1);
    pthread_join(t, NULL);
    return 0;
}
