/* Nested first-use guards, the first call before the threads. */
#include <pthread.h>
struct cfg { int init, mem_init, level, pool; } cfg;
static void mem_init(void) { cfg.pool = 64; } // NORACE
static int initialize(void)
{
    if (cfg.init)
        return 0;
    if (!cfg.mem_init) {
        mem_init();
        cfg.mem_init = 1; // NORACE
    }
    cfg.level = 2; // NORACE
    cfg.init = 1; // NORACE
    return 0;
}
static void *t(void *a) { initialize(); return (void *)(long)(cfg.level + cfg.pool); } // NORACE
int main(void)
{
    pthread_t x, y;
    initialize();
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
