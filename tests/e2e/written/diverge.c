/*
 * diverge.c - a program that depends on something ravel does not
 * control: a file in the working directory that each execution rewrites,
 * so the second execution creates one more thread than the first, and
 * DPOR's re-execution of a recorded schedule does not repeat it.
 *
 * Such an execution ends with a note and the run goes on (e2e group
 * "written"): the summary says the search was not exhaustive, instead of
 * the whole run stopping with a tool error.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int x;

static void *add(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    x++;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    int n = 0;
    FILE *f = fopen("ravel-diverge.txt", "r");
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = 0;
        fclose(f);
    }
    f = fopen("ravel-diverge.txt", "w");
    if (!f)
        return 1;
    fprintf(f, "%d\n", n + 1);
    fclose(f);
    int k = 2 + n % 2;
    pthread_t t[3];
    for (int i = 0; i < k; i++)
        pthread_create(&t[i], NULL, add, NULL);
    for (int i = 0; i < k; i++)
        pthread_join(t[i], NULL);
    return 0;
}
