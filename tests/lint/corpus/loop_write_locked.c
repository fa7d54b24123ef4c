/* Ten instances writing under one mutex. */
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
static void *t(void *a)
{
    pthread_mutex_lock(&m);
    g = 1; // NORACE
    pthread_mutex_unlock(&m);
    return a;
}
int main(void)
{
    pthread_t th[10];
    for (int i = 0; i < 10; i++) pthread_create(&th[i], 0, t, 0);
    for (int i = 0; i < 10; i++) pthread_join(th[i], 0);
    return 0;
}
