/* Spin locks: the same rules as mutexes. */
#include <pthread.h>
static pthread_spinlock_t s;
int g;
static void *t(void *a)
{
    while (pthread_spin_trylock(&s) != 0)
        ;
    g++; // NORACE
    pthread_spin_unlock(&s);
    return a;
}
int main(void)
{
    pthread_t x, y;
    pthread_spin_init(&s, 0);
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
