/* A detached grandchild outlives its parent's join. */
#include <pthread.h>
int g;
static void *child(void *a) { g = 2; return a; } // RACE
static void *parent(void *a)
{
    pthread_t c;
    pthread_create(&c, 0, child, 0);
    pthread_detach(c);
    return a;
}
int main(void)
{
    pthread_t p;
    pthread_create(&p, 0, parent, 0);
    pthread_join(p, 0);
    return g; // RACE
}
