/*
 * unit.c - the cost of RAVEL_TEST against a main program
 * (scripts/bench-unit, docs/tests.md "Cost").
 *
 * The same body, three threads adding to an atomic counter, is built
 * twice: as RAVEL_TEST(bench, three_threads) (with eight trivial tests
 * beside it: what starting a test costs), and with -DAS_MAIN as the main
 * of an ordinary program. The script compares executions per second of
 * the two, and tests per second of the trivial ones.
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>

static atomic_int counter;

static void *add(void *arg)
{
    (void)arg;
    atomic_fetch_add(&counter, 1);
    return NULL;
}

static void body(void)
{
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, add, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    ravel_assert_eq(atomic_load(&counter), 3);
}

#ifdef AS_MAIN
int main(void)
{
    body();
    return 0;
}
#else
RAVEL_TEST(bench, three_threads)
{
    body();
}
RAVEL_TEST(trivial, t1) {}
RAVEL_TEST(trivial, t2) {}
RAVEL_TEST(trivial, t3) {}
RAVEL_TEST(trivial, t4) {}
RAVEL_TEST(trivial, t5) {}
RAVEL_TEST(trivial, t6) {}
RAVEL_TEST(trivial, t7) {}
RAVEL_TEST(trivial, t8) {}
#endif
