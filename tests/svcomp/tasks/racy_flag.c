/* A flag written by one thread and read by another with no
 * synchronisation: a data race. */
#include <pthread.h>

int flag = 0;

void *setter(void *arg)
{
    flag = 1;
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, setter, 0);
    int seen = flag;
    pthread_join(t, 0);
    return seen;
}
