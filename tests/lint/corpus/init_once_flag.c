/* A library initialised on first use: `if (cfg.ready) return;` guards
 * writes made by the first call, which comes before any thread. */
#include <pthread.h>
struct cfg { int ready; int level; } cfg;
static void init(void)
{
    if (cfg.ready)
        return;
    cfg.level = 3; // NORACE
    cfg.ready = 1; // NORACE
}
static void *t(void *a) { init(); return (void *)(long)cfg.level; } // NORACE
int main(void)
{
    pthread_t th[4];
    init();
    for (int i = 0; i < 4; i++) pthread_create(&th[i], 0, t, 0);
    for (int i = 0; i < 4; i++) pthread_join(th[i], 0);
    return 0;
}
