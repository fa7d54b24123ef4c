/* The same guard, but the first call comes after the threads start:
 * two first calls may run at once. */
#include <pthread.h>
struct cfg { int ready; int level; } cfg;
static void init(void)
{
    if (cfg.ready) // RACE
        return;
    cfg.level = 3; // RACE
    cfg.ready = 1; // RACE
}
static void *t(void *a) { init(); return a; }
int main(void)
{
    pthread_t th[4];
    for (int i = 0; i < 4; i++) pthread_create(&th[i], 0, t, 0);
    for (int i = 0; i < 4; i++) pthread_join(th[i], 0);
    return 0;
}
