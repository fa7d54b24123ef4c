/* A callback passed as a parameter. */
#include <pthread.h>
int g;
static void bump(void) { g++; } // RACE
static void run(void (*f)(void)) { f(); }
static void *t(void *a) { run(bump); return a; }
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
