/* A lock built from __VERIFIER_atomic_ functions whose assume waits for
 * the lock to be free (SV-COMP's convention), with the VERIFIER functions
 * declared extern as published tasks do. Mutual exclusion holds. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "atomic_lock.c", 5, "reach_error"); }
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);

#include <pthread.h>

int lock = 0;
int inside = 0;

void __VERIFIER_atomic_acquire(void)
{
    __VERIFIER_assume(lock == 0);
    lock = 1;
}

void __VERIFIER_atomic_release(void)
{
    lock = 0;
}

void *worker(void *arg)
{
    __VERIFIER_atomic_acquire();
    inside++;
    if (inside != 1) {
        ERROR: {reach_error(); abort();}
    }
    inside--;
    __VERIFIER_atomic_release();
    return 0;
}

int main(void)
{
    pthread_t t1, t2, t3;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_create(&t3, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    pthread_join(t3, 0);
    return 0;
}
