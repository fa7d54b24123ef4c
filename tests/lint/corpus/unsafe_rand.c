/* rand() keeps hidden state: two threads calling it race. */
#include <pthread.h>
#include <stdlib.h>
static void *t(void *a) { return (void *)(long)rand(); } // RACE 'the static state of rand()'
int main(void)
{
    pthread_t x, y;
    pthread_create(&x, 0, t, 0);
    pthread_create(&y, 0, t, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return rand(); // NORACE
}
