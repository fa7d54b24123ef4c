/* Freeing after the join: the thread is done with it. */
#include <pthread.h>
#include <stdlib.h>
int *data;
static void *t(void *a) { return (void *)(long)data[0]; } // NORACE
int main(void)
{
    pthread_t x;
    data = calloc(4, sizeof *data); // NORACE
    pthread_create(&x, 0, t, 0);
    pthread_join(x, 0);
    free(data); // NORACE
    return 0;
}
