/*
 * close_stdout.c - a program that closes its standard streams at its
 * end and checks that its output got out, as zstd -c and the tools
 * that use gnulib's close_stdout do: fclose(stdout) reports a write
 * error, and the status says so.
 *
 * Every execution starts with the streams open. Before, the first
 * execution's fclose(stdout) closed the C library's FILE and the
 * descriptor for good (the C library's fclose closes it without
 * calling close()), so the second execution's printf failed with EBADF
 * and ravel reported the program's own exit status 1 as a bug
 * (intercept/libc.c, std_close). Run directly (e2e group "direct") it
 * prints "total 2" and exits 0.
 *
 * ravel-expect: clean
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int total;

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    total++;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    if (printf("total %d\n", total) < 0 || ferror(stdout)) {
        fprintf(stderr, "close_stdout: write error: %s\n", strerror(errno));
        return 1;
    }
    if (fclose(stdout) != 0) {
        fprintf(stderr, "close_stdout: fclose: %s\n", strerror(errno));
        return 1;
    }
    fclose(stdin);
    if (fprintf(stderr, "closed\n") < 0)
        return 1;
    return fclose(stderr) != 0;
}
