/*
 * atomic_alternate.c - two threads each update shared ints five times,
 * only inside atomic sections (SV-COMP's __VERIFIER_atomic_begin/end).
 * The error needs the sections to alternate: the owner of `last` must
 * change at least FLIPS times (3 here: a few switches between sections,
 * so that PCT's default depth reaches it too; atomic_alternate_fixed.c
 * asks for more changes than there are sections). Every trace is one
 * order of the ten sections: C(10,5) = 252.
 */
#include <pthread.h>
#include <ravel/svcomp.h>

#ifndef FLIPS
#define FLIPS 3
#endif

static int count_a, count_b, flips, last = -1;

static void *thread_a(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++) {
        __VERIFIER_atomic_begin();
        if (last == 1)
            flips++;
        last = 0;
        count_a++;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++) {
        __VERIFIER_atomic_begin();
        if (last == 0)
            flips++;
        last = 1;
        count_b++;
        __VERIFIER_atomic_end();
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, thread_a, NULL);
    pthread_create(&b, NULL, thread_b, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (flips >= FLIPS && count_a + count_b == 10)
        reach_error();
    return 0;
}
