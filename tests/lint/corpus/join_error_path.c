/* A pool whose create joins its threads only on an error path (and
 * returns NULL there): after create the threads run; after destroy,
 * which joins them through the pool's array, they do not. */
#include <pthread.h>
#include <stdlib.h>
int done;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
struct pool { pthread_t *th; int n; };
static void *w(void *a) { pthread_mutex_lock(&lock); done++; pthread_mutex_unlock(&lock); return a; } // RACE
static void destroy(struct pool *p) { for (int i = 0; i < p->n; i++) pthread_join(p->th[i], 0); }
static struct pool *create(int n)
{
    struct pool *p = malloc(sizeof *p);
    p->th = malloc(n * sizeof *p->th);
    p->n = 0;
    for (int i = 0; i < n; i++) {
        if (pthread_create(&p->th[i], 0, w, p) != 0) {
            destroy(p);
            return 0;
        }
        p->n++;
    }
    return p;
}
int main(void)
{
    struct pool *p = create(4);
    if (!p)
        return 1;
    while (done < 4) {} // RACE
    destroy(p);
    return done; // NORACE
}
