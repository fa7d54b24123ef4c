/*
 * atomic_wait.c - a false __VERIFIER_assume inside an atomic section
 * waits for another thread instead of discarding the execution (SV-COMP's
 * convention): `waiter` can only complete its section once `setter` has
 * set flag, and then must see both of setter's writes. A local variable
 * changed in the section before the assumption is put back when the
 * section is rolled back (local must be 8, not 9 or more). Every schedule
 * ends; none is discarded, none fails.
 */
#include <pthread.h>
#include <ravel/svcomp.h>

static int flag, data;

static void *waiter(void *arg)
{
    (void)arg;
    int local = 7;
    __VERIFIER_atomic_begin();
    local++;
    __VERIFIER_assume(flag == 1);
    int d = data;
    __VERIFIER_atomic_end();
    if (d != 42 || local != 8)
        reach_error();
    return NULL;
}

/* SV-COMP's other form: a function named __VERIFIER_atomic_*. */
void __VERIFIER_atomic_publish(void);
void __VERIFIER_atomic_publish(void)
{
    data++;
    flag = 1;
}

static void *setter(void *arg)
{
    (void)arg;
    __VERIFIER_atomic_begin();
    data = 41;
    __VERIFIER_atomic_end();
    __VERIFIER_atomic_publish();
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, waiter, NULL);
    pthread_create(&b, NULL, setter, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
