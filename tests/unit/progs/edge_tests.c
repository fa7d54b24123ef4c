/*
 * edge_tests.c - the corners of RAVEL_TEST (tests/unit/unit.py): expected
 * failures that do not come, or come as another kind; a tool error in one
 * test's options; fixtures whose order is checked; checks of every kind
 * with both values in the message; trivial tests for the driver's cost.
 * Every test says what the run must give ("expect:").
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <string.h>

static int fixture_state; /* 0, then 1 in setup, then 2 in the body */

static void set_up(void)
{
    ravel_assert_eq(fixture_state, 0); /* globals are reset per execution */
    fixture_state = 1;
}

static void tear_down(void)
{
    ravel_assert_eq(fixture_state, 2);
    fixture_state = 3;
}

static void tear_down_fails(void)
{
    ravel_assert_eq(fixture_state, 3); /* fails: teardown runs */
}

static atomic_int flag;

static void *writer(void *arg)
{
    (void)arg;
    atomic_store(&flag, 1);
    return NULL;
}

/* expect: pass */
RAVEL_TEST_WITH(fixture, order, .setup = set_up, .teardown = tear_down)
{
    ravel_assert_eq(fixture_state, 1);
    fixture_state = 2;
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    pthread_join(t, NULL);
}

/* expect: fail assertion fixture_state == 3 failed: fixture_state is 2 */
RAVEL_TEST_WITH(fixture, teardown_runs, .setup = set_up,
                .teardown = tear_down_fails)
{
    fixture_state = 2;
}

/* expect: fail expected a failure (deadlock), none found */
RAVEL_TEST_WITH(xfail, but_passes, .expect_failure = "deadlock")
{
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    pthread_join(t, NULL);
}

/* expect: fail expected deadlock, found assertion */
RAVEL_TEST_WITH(xfail, other_kind, .expect_failure = "deadlock")
{
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    int seen = atomic_load(&flag);
    pthread_join(t, NULL);
    ravel_assert_eq(seen, 1);
}

/* expect: pass (expected assertion) */
RAVEL_TEST_WITH(xfail, any_kind, .expect_failure = "any")
{
    ravel_assert(1 + 1 == 3);
}

/* expect: error unknown strategy */
RAVEL_TEST_WITH(options, bad_strategy, .strategy = "nonsense")
{
}

/* expect: fail assertion s == "b" failed: s is "a" */
RAVEL_TEST(checks, strings)
{
    const char *s = "a";
    ravel_assert_str_eq(s, "a");
    ravel_assert_str_eq(s, "b");
}

/* expect: fail assertion big >= 1 failed: big is -5 */
RAVEL_TEST(checks, ordering)
{
    long big = 7;
    ravel_assert_gt(big, 6);
    ravel_assert_le(big, 7);
    big = -5;
    ravel_assert_ge(big, 1);
}

/* expect: fail assertion u == 1 failed: u is 18446744073709551615 */
RAVEL_TEST(checks, unsigned_values)
{
    unsigned long long u = (unsigned long long)-1;
    ravel_assert_ne_u(u, 0);
    ravel_assert_eq_u(u, 1);
}

/* expect: fail assertion ravel_assert(strlen(word) == 4) failed */
RAVEL_TEST(checks, plain)
{
    const char *word = "ravel";
    ravel_assert(strlen(word) == 4);
}

/* Eight trivial tests: the driver's cost per test (docs/tests.md).
 * expect: pass */
RAVEL_TEST(trivial, t1) {}
/* expect: pass */
RAVEL_TEST(trivial, t2) {}
/* expect: pass */
RAVEL_TEST(trivial, t3) {}
/* expect: pass */
RAVEL_TEST(trivial, t4) {}
/* expect: pass */
RAVEL_TEST(trivial, t5) {}
/* expect: pass */
RAVEL_TEST(trivial, t6) {}
/* expect: pass */
RAVEL_TEST(trivial, t7) {}
/* expect: pass */
RAVEL_TEST(trivial, t8) {}
