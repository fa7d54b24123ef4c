/*
 * race_reread.c - a data race whose consequence needs a third access:
 * thread 1.1 increments v under lock a and reads it again; thread 1.2
 * writes v under lock b (a different lock). The assertion fails only if
 * 1.2's write lands between 1.1's increment and its re-read. The race
 * detector reports the increment against the write; promoting only those
 * two code locations leaves the re-read invisible, so race-directed
 * scheduling must promote every access to v.
 */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static int v;

static void *increment(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock_a);
    int expected = v + 1;
    v++;
    if (v != expected)
        assert(!"v changed between the increment and the check");
    pthread_mutex_unlock(&lock_a);
    return NULL;
}

static void *overwrite(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock_b);
    v = 10;
    pthread_mutex_unlock(&lock_b);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, increment, NULL);
    pthread_create(&b, NULL, overwrite, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
