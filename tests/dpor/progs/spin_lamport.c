/*
 * spin_lamport.c - Lamport's fast mutex (algorithm 2 of "A fast mutual
 * exclusion algorithm", TOCS 1987) for two threads with seq_cst atomics,
 * waiting in spin loops. The shape of GenMC's tests/correct/synthetic/
 * lamport with N = 2 (its `await(c)`, an assume there, is `while (!c) {}`
 * here), plus an assertion in the critical section: GenMC counts 16
 * executions under SC, and so must DPOR.
 *
 * `spin_lamport broken`: a thread does not first check that y is free
 * (the fast path's `if (y != 0)`), so a late thread takes y over and
 * enters while the first is inside.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define N 2
#define await(c)                                                             \
    while (!(c)) {                                                           \
    }

static atomic_intptr_t b[N + 1], x, y;
static atomic_int inside;
static int broken;

static void lock(intptr_t thread)
{
    while (1) {
        b[thread] = true;
        x = thread;
        if (!broken && y != 0) {
            b[thread] = false;
            await(y == 0);
            continue;
        }
        y = thread;
        if (x != thread) {
            b[thread] = false;
            for (intptr_t j = 1; j <= N; j++)
                await(b[j] == false);
            if (y != thread) {
                await(y == 0);
                continue;
            }
        }
        break;
    }
}

static void unlock(intptr_t thread)
{
    y = 0;
    b[thread] = false;
}

static void *thread(void *arg)
{
    intptr_t thread = (intptr_t)arg;
    lock(thread);
    assert(inside++ == 0);
    inside--;
    unlock(thread);
    return NULL;
}

int main(int argc, char **argv)
{
    broken = argc > 1 && !strcmp(argv[1], "broken");
    pthread_t t[N + 1];
    for (intptr_t i = 1; i <= N; i++)
        pthread_create(&t[i], NULL, thread, (void *)i);
    for (intptr_t i = 1; i <= N; i++)
        pthread_join(t[i], NULL);
    return 0;
}
