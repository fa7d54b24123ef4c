/* Points-to: p and q both point to g. */
#include <pthread.h>
int g;
int *p, *q;
static void *t(void *a) { (*p)++; return a; } // RACE
static void *u(void *a) { (*q)++; return a; } // RACE
int main(void)
{
    pthread_t x, y;
    p = q = &g;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, u, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
