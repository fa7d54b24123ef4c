/* The lost update of lost_update.c, prevented by a mutex: every
 * interleaving ends with counter == 3. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "mutex_counter.c", 4, "reach_error"); }

#include <pthread.h>

int counter = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    pthread_mutex_lock(&m);
    int tmp = counter;
    counter = tmp + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    if (counter != 3) {
        ERROR: {reach_error(); abort();}
    }
    return 0;
}
