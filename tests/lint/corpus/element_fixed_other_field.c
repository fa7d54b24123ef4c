/* The thread writes the counter of the slot it picks; main reads the
 * name of slot 2, a different field: never the same memory. */
#include <pthread.h>
struct slot { long n; const char *name; } slots[4];
static void *count(void *a)
{
    int i = (int)(long)a & 3;
    slots[i].n++; // RACE
    return a;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, count, (void *)1);
    pthread_create(&y, 0, count, (void *)1);
    const char *seen = slots[2].name; // NORACE
    pthread_join(x, 0);
    pthread_join(y, 0);
    return seen != 0;
}
