/* The threads are joined by a helper, in a loop over a global array: the
 * helper's summary says every element is joined when it returns. */
#include <pthread.h>
int done;
pthread_t th[4];
static void *w(void *a) { done++; return a; } // RACE
static void join_all(void) { for (int i = 0; i < 4; i++) pthread_join(th[i], 0); }
int main(void)
{
    for (int i = 0; i < 4; i++) pthread_create(&th[i], 0, w, 0);
    join_all();
    return done; // NORACE
}
