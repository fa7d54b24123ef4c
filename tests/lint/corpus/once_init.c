/* Initialisation under pthread_once happens once, before every reader. */
#include <pthread.h>
static pthread_once_t once = PTHREAD_ONCE_INIT;
int table[8];
static void init(void) { for (int i = 0; i < 8; i++) table[i] = i; } // NORACE
static void *t(void *a)
{
    pthread_once(&once, init);
    return (void *)(long)table[3]; // NORACE
}
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
