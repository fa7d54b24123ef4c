/* One lock per element, the same index on both. */
#include <pthread.h>
struct cell { pthread_mutex_t m; int v; } cells[4];
static void *t(void *a)
{
    int i = (int)(long)a & 3;
    pthread_mutex_lock(&cells[i].m);
    cells[i].v++; // NORACE
    pthread_mutex_unlock(&cells[i].m);
    return a;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, (void *)1);
    pthread_create(&y, 0, t, (void *)1);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
