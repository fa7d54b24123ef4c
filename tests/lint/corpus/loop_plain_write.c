/* A plain write in a thread function started ten times from a loop. */
#include <pthread.h>
int g;
static void *t(void *a) { g = 1; return a; } // RACE 'g'
int main(void)
{
    pthread_t th[10];
    for (int i = 0; i < 10; i++) pthread_create(&th[i], 0, t, 0);
    for (int i = 0; i < 10; i++) pthread_join(th[i], 0);
    return g; // NORACE
}
