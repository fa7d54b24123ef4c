/*
 * passthrough.c - a program whose output and exit status are its whole
 * behaviour, as a configure test or a test-suite program: it prints on
 * stdout and stderr, from two threads, partly through stdio buffers and
 * partly with write(), and exits with status 3 in every interleaving.
 *
 * Under `ravel run` a non-zero status is a bug. Run directly (e2e group
 * "direct"), it must print exactly what it prints natively, in the same
 * order, and exit with status 3, with nothing from ravel: one schedule's
 * worth of output, not one per execution.
 *
 * ravel-expect: exit-status
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void say(int fd, const char *s)
{
    (void)!write(fd, s, strlen(s));
}

static void *helper(void *arg)
{
    (void)arg;
    printf("thread: stdout\n");
    fflush(stdout);
    say(2, "thread: stderr\n");
    return NULL;
}

int main(void)
{
    printf("main: stdout 1\n");
    fflush(stdout);
    fprintf(stderr, "main: stderr 1\n"); /* unbuffered */
    say(1, "main: write 1\n");
    pthread_t t;
    pthread_create(&t, NULL, helper, NULL);
    pthread_join(t, NULL);
    printf("main: stdout 2, flushed at exit\n");
    say(2, "main: stderr 2\n");
    return 3;
}
