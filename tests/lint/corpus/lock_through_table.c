/* The lock entered through a table of function pointers set at run time. */
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void enter(pthread_mutex_t *x) { pthread_mutex_lock(x); }
static void leave(pthread_mutex_t *x) { pthread_mutex_unlock(x); }
struct methods { void (*enter)(pthread_mutex_t *); void (*leave)(pthread_mutex_t *); } cfg;
int g;
static void *t(void *a)
{
    cfg.enter(&m);
    g++; // NORACE
    cfg.leave(&m);
    return a;
}
int main(void)
{
    pthread_t x, y;
    cfg.enter = enter;
    cfg.leave = leave;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
