/*
 * atomic_section.c - the lost update of examples/counter.c cannot happen
 * when each increment is an atomic section (ravel_atomic_begin/end), nor
 * in a __VERIFIER_atomic_ function (SV-COMP's convention).
 */
#include <assert.h>
#include <pthread.h>
#include <ravel/svcomp.h>
#include <stdatomic.h>

static atomic_int counter;

static void __VERIFIER_atomic_increment(void)
{
    int v = atomic_load(&counter);
    atomic_store(&counter, v + 1);
}

static void *with_section(void *arg)
{
    (void)arg;
    ravel_atomic_begin();
    int v = atomic_load(&counter);
    atomic_store(&counter, v + 1);
    ravel_atomic_end();
    return NULL;
}

static void *with_function(void *arg)
{
    (void)arg;
    __VERIFIER_atomic_increment();
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, with_section, NULL);
    pthread_create(&b, NULL, with_function, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (atomic_load(&counter) != 2)
        reach_error();
    return 0;
}
