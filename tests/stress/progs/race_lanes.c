/*
 * race_lanes.c - unlocked increments of a shared counter beside locked
 * ones: a data race in every execution (race-directed scheduling then
 * starts the exploration over, with every lane), and an assertion the
 * lost updates make fail. Before the fix, a lane killed just after it
 * wrote "bug" left that message in its pipe; the next exploration read
 * it as the new executor's: a report of kind "none", then a run that
 * never ended.
 */
#include <assert.h>
#include <pthread.h>

static int x, y;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        x++;
        pthread_mutex_lock(&m);
        y++;
        pthread_mutex_unlock(&m);
    }
    assert(x != 5);
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    assert(x == 9);
    return 0;
}
