/* A join loop over 9 of 10 threads leaves the last one running. */
#include <pthread.h>
int g;
static void *t(void *a) { g = 1; return a; } // RACE
int main(void)
{
    pthread_t th[10];
    for (int i = 0; i < 10; i++) pthread_create(&th[i], 0, t, 0);
    for (int i = 0; i < 9; i++) pthread_join(th[i], 0);
    return g; // RACE
}
