/* A detached grandchild runs on after main joins its parent, but it
 * cannot run before main creates the parent: main's first write is
 * alone, its last one is not. */
#include <pthread.h>
int g;
static void *child(void *a) { g++; return a; } // RACE
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
    g = 1; // NORACE
    pthread_create(&p, 0, parent, 0);
    pthread_join(p, 0);
    g = 3; // RACE
    return 0;
}
