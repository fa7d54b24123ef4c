/* A flag test the function never sets is no once-only guard. */
#include <pthread.h>
int enabled = 1, level;
static void configure(void)
{
    if (!enabled)
        return;
    level = 3; // RACE
}
static void *t(void *a) { configure(); return a; }
int main(void)
{
    pthread_t x, y;
    configure();
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
