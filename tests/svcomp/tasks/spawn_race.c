/* Threads created without bound race on a plain counter: two of them
 * already lose an update, which the check after the second one sees. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "spawn_race.c", 4, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

#include <pthread.h>

int count = 0;

void *worker(void *arg)
{
    int tmp = count;
    count = tmp + 1;
    return 0;
}

int main(void)
{
    pthread_t t[2];
    int n = 0;
    while (__VERIFIER_nondet_int()) {
        pthread_create(&t[n % 2], 0, worker, 0);
        n++;
        if (n == 2) {
            pthread_join(t[0], 0);
            pthread_join(t[1], 0);
            if (count != 2) {
                ERROR: {reach_error(); abort();}
            }
        }
    }
    return 0;
}
