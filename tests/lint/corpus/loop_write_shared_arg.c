/* Every instance gets the same object: their writes race. */
#include <pthread.h>
struct ctx { int done; } ctx;
static void *t(void *a) { ((struct ctx *)a)->done = 1; return a; } // RACE
int main(void)
{
    pthread_t th[4];
    for (int i = 0; i < 4; i++) pthread_create(&th[i], 0, t, &ctx);
    for (int i = 0; i < 4; i++) pthread_join(th[i], 0);
    return ctx.done; // NORACE
}
