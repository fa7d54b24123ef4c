/* A thread that creates and joins its own worker: after main joins the
 * parent, the worker is done too; before the parent starts, nothing runs. */
#include <pthread.h>
int g;
static void *child(void *a) { g = 2; return a; } // NORACE
static void *parent(void *a)
{
    pthread_t c;
    pthread_create(&c, 0, child, 0);
    pthread_join(c, 0);
    return (void *)(long)g; // NORACE
}
int main(void)
{
    pthread_t p;
    g = 1; // NORACE
    pthread_create(&p, 0, parent, 0);
    pthread_join(p, 0);
    return g; // NORACE
}
