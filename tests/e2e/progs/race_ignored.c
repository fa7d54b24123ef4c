/*
 * race_ignored.c - a racy statistics counter the program declares benign
 * with ravel_ignore_begin/end: nothing is reported.
 *
 * (The race is still undefined behaviour; the annotation is for code one
 * has judged and cannot change yet. The real data, `total`, is protected
 * and checked.)
 *
 * ravel-expect: clean
 */
#include <pthread.h>
#include <ravel.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int total;
static long hits; /* approximate, by design */

static void *worker(void *arg)
{
    (void)arg;
    ravel_ignore_begin();
    hits++;
    ravel_ignore_end();
    pthread_mutex_lock(&m);
    total++;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("total %d, about %ld hits\n", total, hits);
    return total == 2 ? 0 : 1;
}
