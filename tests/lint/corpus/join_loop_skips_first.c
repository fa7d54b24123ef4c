/* The join loop starts at 1: the thread in th[0] is never joined. */
#include <pthread.h>
long total;
static void *add(void *a) { total += (long)a; return 0; } // RACE
int main(void)
{
    pthread_t th[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&th[i], 0, add, (void *)i);
    for (int i = 1; i < 4; i++)
        pthread_join(th[i], 0);
    return (int)total; // RACE
}
