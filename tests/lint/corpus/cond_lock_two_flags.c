/* The lock follows one flag and the write another: nothing ties them. */
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g, lock_it, count_it;
static void *t(void *a)
{
    int c = lock_it, d = count_it;
    if (c)
        pthread_mutex_lock(&m);
    if (d)
        g++; // RACE
    if (c)
        pthread_mutex_unlock(&m);
    return a;
}
int main(int argc, char **argv)
{
    (void)argv;
    lock_it = argc > 1;
    count_it = argc > 2;
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
