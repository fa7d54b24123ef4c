/* Findings name the source expression. */
#include <pthread.h>
struct queue { int len; };
struct pool { struct queue queue; } P;
int a[4];
static void *t(void *arg)
{
    struct pool *pool = arg;
    pool->queue.len++; // RACE 'pool->queue.len'
    int i = (int)(long)pool->queue.len & 3; // RACE
    a[i] = 1; // RACE 'a[i]'
    return 0;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, &P);
    pthread_create(&y, 0, t, &P);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
