/*
 * print_once.c - a program run directly whose first execution is
 * abandoned, perhaps several times, before one runs to its end: main
 * waits for its threads in a spin loop on a volatile flag, which DPOR's
 * first executions cut short (src/model/spin.c). It prints on stdout and
 * stderr before the wait and after it.
 *
 * Run directly (e2e group "direct"), each line must come out once, on a
 * pipe and on a terminal alike (stderr is unbuffered, a terminal's stdout
 * line-buffered: every try wrote its lines at once, and they came out
 * once per try), and the program must see its own files' isatty, as
 * natively (process/executor.c, "printed once").
 *
 * ravel-expect: clean
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile int ready;

static void *helper(void *arg)
{
    (void)arg;
    ready = 1;
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    printf("start\n");
    fprintf(stderr, "start (stderr)\n");
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, helper, NULL);
    while (!ready) {
    }
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    printf("isatty %d %d\n", isatty(1), isatty(2));
    fprintf(stderr, "done (stderr)\n");
    printf("done\n");
    return 0;
}
