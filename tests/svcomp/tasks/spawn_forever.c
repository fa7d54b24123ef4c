/* Threads created without bound, each adding one to a counter inside an
 * atomic section; the counter never goes down, so the error is
 * unreachable for any number of threads. ravel explores a bounded number
 * of threads (--max-threads): it must not claim the verdict true. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "spawn_forever.c", 6, "reach_error"); }
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

#include <pthread.h>

int count = 0;

void *worker(void *arg)
{
    __VERIFIER_atomic_begin();
    int before = count;
    count = before + 1;
    if (count < before) {
        ERROR: {reach_error(); abort();}
    }
    __VERIFIER_atomic_end();
    return 0;
}

int main(void)
{
    pthread_t t;
    while (1)
        pthread_create(&t, 0, worker, 0);
    return 0;
}
