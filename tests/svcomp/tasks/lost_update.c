/* Two threads increment a shared counter without a lock: the final check
 * fails when one increment is lost (a data race; race-directed scheduling
 * interleaves the racing accesses). Written for ravel's tests in the shape
 * of SV-COMP's pthread tasks. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "lost_update.c", 6, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: {reach_error(); abort();} } }

#include <pthread.h>

int counter = 0;

void *worker(void *arg)
{
    int tmp = counter;
    counter = tmp + 1;
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    __VERIFIER_assert(counter == 2);
    return 0;
}
