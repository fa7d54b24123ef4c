/* A grandchild thread runs beside its parent's sibling. */
#include <pthread.h>
int g;
static void *child(void *a) { g = 2; return a; } // RACE
static void *pa(void *a)
{
    pthread_t c;
    pthread_create(&c, 0, child, 0);
    pthread_join(c, 0);
    return a;
}
static void *pb(void *a) { g = 3; return a; } // RACE
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, pa, 0);
    pthread_create(&y, 0, pb, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
