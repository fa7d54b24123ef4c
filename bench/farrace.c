/*
 * farrace.c - long executions whose races are far apart or many: shapes
 * that made DPOR's analysis of one execution quadratic in its length.
 *
 * usage: farrace sweep N   two threads each take and release the same N
 *                          mutexes, in order. DPOR's first execution runs
 *                          one thread through all of them, then the
 *                          other: every race spans half the execution
 *                          (source-set DPOR scanned the events between
 *                          the racing pair for each of the N races).
 *        farrace token N   a byte passed back and forth through two
 *                          pipes N times: 2N reads that wait (DPOR's
 *                          descriptor-wait races scanned every earlier
 *                          event for each wait).
 *
 * scripts/bench-hashmap runs both in one execution at three sizes under
 * the default strategy on one lane and prints the analysis's cost per
 * operation, which stays about constant.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t *locks;
static int ping[2], pong[2];
static long n;

static void *sweeper(void *arg)
{
    (void)arg;
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&locks[i]);
        pthread_mutex_unlock(&locks[i]);
    }
    return NULL;
}

static void *echo(void *arg)
{
    (void)arg;
    char c;
    for (long i = 0; i < n; i++)
        if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
            abort();
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "sweep") && strcmp(argv[1], "token")) ||
        (n = atol(argv[2])) < 1) {
        fprintf(stderr, "usage: farrace sweep|token N\n");
        return 2;
    }
    pthread_t a, b;
    if (!strcmp(argv[1], "sweep")) {
        locks = calloc((size_t)n, sizeof *locks);
        if (!locks)
            return 1;
        for (long i = 0; i < n; i++)
            pthread_mutex_init(&locks[i], NULL);
        pthread_create(&a, NULL, sweeper, NULL);
        pthread_create(&b, NULL, sweeper, NULL);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
        for (long i = 0; i < n; i++)
            pthread_mutex_destroy(&locks[i]);
        free(locks);
        return 0;
    }
    if (pipe(ping) || pipe(pong))
        return 1;
    pthread_create(&a, NULL, echo, NULL);
    char c = 'x';
    for (long i = 0; i < n; i++)
        if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
            abort();
    pthread_join(a, NULL);
    close(ping[0]);
    close(ping[1]);
    close(pong[0]);
    close(pong[1]);
    return 0;
}
