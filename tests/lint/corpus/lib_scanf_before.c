/* Input read before the threads start. */
#include <pthread.h>
#include <stdio.h>
int n;
static void *t(void *a) { return (void *)(long)n; } // NORACE
int main(void)
{
    pthread_t x, y;
    if (scanf("%d", &n) != 1) // NORACE
        return 1;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
