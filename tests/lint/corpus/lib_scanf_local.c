/* scanf into a local and free of a thread's own block are not shared. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static void *t(void *a)
{
    int v = 0;
    scanf("%d", &v); // NORACE
    int *own = malloc(sizeof *own);
    free(own); // NORACE
    return (void *)(long)v;
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
