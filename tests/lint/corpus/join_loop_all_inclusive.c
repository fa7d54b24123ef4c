/* The join loop counts to 9 inclusive: all ten threads are joined before
 * main reads the result. */
#include <pthread.h>
int g;
static void *t(void *a) { g = 1; return a; } // RACE
int main(void)
{
    pthread_t th[10];
    for (int i = 0; i < 10; i++)
        pthread_create(&th[i], 0, t, 0);
    for (int i = 0; i <= 9; i++)
        pthread_join(th[i], 0);
    return g; // NORACE
}
