/* Each instance writes its own slot, passed as its argument. */
#include <pthread.h>
struct slot { int v; } slots[10];
static void *t(void *a) { ((struct slot *)a)->v = 1; return a; } // NORACE
int main(void)
{
    pthread_t th[10];
    for (int i = 0; i < 10; i++) pthread_create(&th[i], 0, t, &slots[i]);
    for (int i = 0; i < 10; i++) pthread_join(th[i], 0);
    return slots[3].v; // NORACE
}
