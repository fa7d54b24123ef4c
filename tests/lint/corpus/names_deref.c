/* A counter reached through a pointer is named as dereferenced. */
#include <pthread.h>
int total;
static void *t(void *a)
{
    int *counter = a;
    *counter += 1; // RACE '*counter'
    return a;
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, &total);
    pthread_create(&y, 0, t, &total);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
