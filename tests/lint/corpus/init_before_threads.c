/* Configuration written once before any thread exists. */
#include <pthread.h>
struct cfg { int level; int ready; } cfg;
static void init(void) { cfg.level = 3; cfg.ready = 1; } // NORACE
static void *t(void *a) { return (void *)(long)(cfg.level + cfg.ready); } // NORACE
int main(void)
{
    pthread_t th[4];
    init();
    for (int i = 0; i < 4; i++) pthread_create(&th[i], 0, t, 0);
    for (int i = 0; i < 4; i++) pthread_join(th[i], 0);
    return 0;
}
