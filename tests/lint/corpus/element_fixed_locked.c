/* One lock per slot: the thread locks the slot it picks, main locks slot
 * 2 before reading it. When the thread picks 2 the two locks are one. */
#include <pthread.h>
struct slot { pthread_mutex_t m; long n; } slots[4];
static void *count(void *a)
{
    int i = (int)(long)a & 3;
    pthread_mutex_lock(&slots[i].m);
    slots[i].n++; // NORACE
    pthread_mutex_unlock(&slots[i].m);
    return a;
}
int main(void)
{
    pthread_t x, y;
    for (int k = 0; k < 4; k++)
        pthread_mutex_init(&slots[k].m, 0);
    pthread_create(&x, 0, count, (void *)1);
    pthread_create(&y, 0, count, (void *)2);
    pthread_mutex_lock(&slots[2].m);
    long seen = slots[2].n; // NORACE
    pthread_mutex_unlock(&slots[2].m);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return (int)seen;
}
