/* racy_flag.c with the flag under a mutex and the result checked: no
 * data race, and no reachable error. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "locked_flag.c", 4, "reach_error"); }

#include <pthread.h>

int flag = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *setter(void *arg)
{
    pthread_mutex_lock(&m);
    flag = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, setter, 0);
    pthread_mutex_lock(&m);
    int seen = flag;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    if (seen != 0 && seen != 1) {
        ERROR: {reach_error(); abort();}
    }
    return 0;
}
