/*
 * stdin_input.c - a test that reads its input from stdin, as a test
 * suite's `echo input | ./test` or `./test < input` does, and fails
 * unless it got all of it.
 *
 * usage: stdin_input [N]   reads stdin to its end in pieces of 100
 *                          bytes, from three threads in turn under a
 *                          lock; exits 1 unless it read N bytes
 *                          (default 0) with the byte sum on stdout
 *
 * Every execution must read the same input. Before, only the first did:
 * stdin's FILE kept its end-of-file flag into the next execution, a pipe
 * was at its end, and lanes reading one file moved each other's offset
 * (process/reset.c). e2e group "direct" runs it with input on a pipe and
 * from a file, directly and under ravel run on two lanes.
 *
 * ravel-expect: clean
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total, sum;
static int at_end;

static void *reader(void *arg)
{
    (void)arg;
    for (;;) {
        unsigned char b[100];
        pthread_mutex_lock(&lock);
        size_t n = at_end ? 0 : fread(b, 1, sizeof b, stdin);
        if (n == 0)
            at_end = 1;
        total += (long)n;
        for (size_t i = 0; i < n; i++)
            sum += b[i];
        pthread_mutex_unlock(&lock);
        if (n == 0)
            return NULL;
    }
}

int main(int argc, char **argv)
{
    long want = argc > 1 ? atol(argv[1]) : 0;
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, reader, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    printf("%ld bytes, sum %ld\n", total, sum);
    return total != want;
}
