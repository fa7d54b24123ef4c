/* Shared ints updated only inside __VERIFIER_atomic_begin/end sections,
 * declared extern without prototypes as older tasks do; the error needs
 * the two threads' sections to alternate completely. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "atomic_alternate.c", 5, "reach_error"); }
extern void __VERIFIER_atomic_begin();
extern void __VERIFIER_atomic_end();

#include <pthread.h>

int turns = 0;
int last = -1;

void *player(void *arg)
{
    int me = (int)(long)arg;
    for (int i = 0; i < 4; i++) {
        __VERIFIER_atomic_begin();
        if (last != me)
            turns++;
        last = me;
        __VERIFIER_atomic_end();
    }
    return 0;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, 0, player, (void *)0L);
    pthread_create(&b, 0, player, (void *)1L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    if (turns == 8) {
        ERROR: {reach_error(); abort();}
    }
    return 0;
}
