/*
 * example_tests.c - examples/counter*.c and deadlock*.c rewritten as one
 * file of concurrency unit tests, with a queue, fixtures, data choices
 * and per-test budgets beside them (docs/tests.md).
 *
 *     ravel-cc -o example_tests example_tests.c
 *     ravel test ./example_tests                 # or just ./example_tests
 *     ./example_tests --list
 *     ./example_tests --filter bank/ordered_transfers
 *
 * Each test is explored on its own, in a process of its own, and gets a
 * line in the result table. Three of them fail on purpose (the bugs of
 * counter.c, counter_plain.c and deadlock.c): each gets a report and a
 * replay ticket that re-runs that test alone. The line after each test's
 * name below says what ravel must find (tests/unit/unit.py checks it).
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdlib.h>

/* ---- counter.c: the lost update, and its fix ------------------------- */

static atomic_int counter;

static void *increment(void *arg)
{
    (void)arg;
    int seen = atomic_load(&counter); /* load ... */
    atomic_store(&counter, seen + 1); /* ... then store: not one step */
    return NULL;
}

static void *increment_fixed(void *arg)
{
    (void)arg;
    atomic_fetch_add(&counter, 1);
    return NULL;
}

static void two_threads(void *(*fn)(void *))
{
    pthread_t a, b;
    pthread_create(&a, NULL, fn, NULL);
    pthread_create(&b, NULL, fn, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
}

/* expect: fail assertion */
RAVEL_TEST(counter, lost_update)
{
    two_threads(increment);
    ravel_assert_eq(atomic_load(&counter), 2);
}

/* expect: pass */
RAVEL_TEST(counter, fetch_add)
{
    two_threads(increment_fixed);
    ravel_assert_eq(atomic_load(&counter), 2);
}

/* ---- counter_plain.c: the same with a plain int is a data race ------- */

static int plain_counter;

static void *increment_plain(void *arg)
{
    (void)arg;
    plain_counter++;
    return NULL;
}

/* expect: fail data-race */
RAVEL_TEST(counter, plain_int_race)
{
    two_threads(increment_plain);
    ravel_assert_eq(plain_counter, 2);
}

/* ---- deadlock.c: lock-order inversion, and the fixed order ----------- */

struct account {
    int id;
    long balance;
    pthread_mutex_t lock;
};

/* Globals on purpose: the deadlocking test leaves both locks held and a
 * thread blocked forever; the tests after it use the same locks. */
static struct account alice = {1, 100, PTHREAD_MUTEX_INITIALIZER};
static struct account bob = {2, 100, PTHREAD_MUTEX_INITIALIZER};

struct transfer {
    struct account *from, *to;
    long amount;
};

static void *transfer(void *arg)
{
    struct transfer *t = arg;
    pthread_mutex_lock(&t->from->lock);
    pthread_mutex_lock(&t->to->lock);
    t->from->balance -= t->amount;
    t->to->balance += t->amount;
    pthread_mutex_unlock(&t->to->lock);
    pthread_mutex_unlock(&t->from->lock);
    return NULL;
}

static void *transfer_ordered(void *arg)
{
    struct transfer *t = arg;
    struct account *first = t->from->id < t->to->id ? t->from : t->to;
    struct account *second = first == t->from ? t->to : t->from;
    pthread_mutex_lock(&first->lock);
    pthread_mutex_lock(&second->lock);
    t->from->balance -= t->amount;
    t->to->balance += t->amount;
    pthread_mutex_unlock(&second->lock);
    pthread_mutex_unlock(&first->lock);
    return NULL;
}

static void two_transfers(void *(*fn)(void *))
{
    struct transfer t1 = {&alice, &bob, 10}, t2 = {&bob, &alice, 20};
    pthread_t a, b;
    pthread_create(&a, NULL, fn, &t1);
    pthread_create(&b, NULL, fn, &t2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    ravel_assert_eq(alice.balance + bob.balance, 200);
    ravel_assert_eq(alice.balance, 110);
}

/* expect: fail deadlock */
RAVEL_TEST(bank, opposite_transfers)
{
    two_transfers(transfer);
}

/* The same bug, known and tracked: the test documents it and passes as
 * long as ravel still finds exactly this kind of failure.
 * expect: pass (expected deadlock) */
RAVEL_TEST_WITH(bank, known_deadlock, .expect_failure = "deadlock")
{
    two_transfers(transfer);
}

/* expect: pass */
RAVEL_TEST(bank, ordered_transfers)
{
    two_transfers(transfer_ordered);
}

/* ---- a bounded queue (mutex and condition variables) ----------------- */

#define QCAP 2

struct queue {
    int items[QCAP];
    int head, len;
    pthread_mutex_t lock;
    pthread_cond_t not_empty, not_full;
};

static struct queue *q; /* made by the fixture */

static void queue_setup(void)
{
    q = calloc(1, sizeof *q);
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->not_empty, NULL);
    pthread_cond_init(&q->not_full, NULL);
}

static void queue_teardown(void)
{
    pthread_cond_destroy(&q->not_full);
    pthread_cond_destroy(&q->not_empty);
    pthread_mutex_destroy(&q->lock);
    free(q);
    q = NULL;
}

static void put(int v)
{
    pthread_mutex_lock(&q->lock);
    while (q->len == QCAP)
        pthread_cond_wait(&q->not_full, &q->lock);
    q->items[(q->head + q->len++) % QCAP] = v;
    pthread_cond_signal(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
}

static int take(void)
{
    pthread_mutex_lock(&q->lock);
    while (q->len == 0)
        pthread_cond_wait(&q->not_empty, &q->lock);
    int v = q->items[q->head];
    q->head = (q->head + 1) % QCAP;
    q->len--;
    pthread_cond_signal(&q->not_full);
    pthread_mutex_unlock(&q->lock);
    return v;
}

static void *producer(void *arg)
{
    int base = *(int *)arg;
    for (int i = 1; i <= 2; i++)
        put(base + i);
    return NULL;
}

static void *consumer(void *arg)
{
    long *sum = arg;
    for (int i = 0; i < 2; i++)
        *sum += take();
    return NULL;
}

/* Two producers, one consumer: every item arrives once. The fixture
 * makes a fresh queue in every execution.
 * expect: pass */
RAVEL_TEST_WITH(queue, two_producers, .setup = queue_setup,
                .teardown = queue_teardown)
{
    int b1 = 0, b2 = 10;
    long sum1 = 0, sum2 = 0;
    pthread_t p1, p2, c1, c2;
    pthread_create(&p1, NULL, producer, &b1);
    pthread_create(&p2, NULL, producer, &b2);
    pthread_create(&c1, NULL, consumer, &sum1);
    pthread_create(&c2, NULL, consumer, &sum2);
    pthread_join(p1, NULL);
    pthread_join(p2, NULL);
    pthread_join(c1, NULL);
    pthread_join(c2, NULL);
    ravel_assert_eq(sum1 + sum2, 1 + 2 + 11 + 12);
    ravel_assert_eq(q->len, 0);
}

/* ---- ravel_choose: data as a choice ------------------------------------ */

/* How many items a producer puts is ravel's choice: DPOR explores every
 * count with every interleaving.
 * expect: pass */
RAVEL_TEST_WITH(queue, chosen_count, .setup = queue_setup,
                .teardown = queue_teardown, .strategy = "dpor")
{
    int n = 2 + (int)ravel_choose(2); /* 2 or 3 items */
    long sum = 0;
    pthread_t c;
    pthread_create(&c, NULL, consumer, &sum); /* takes the first two */
    for (int i = 1; i <= n; i++)
        put(i);
    pthread_join(c, NULL);
    ravel_assert_eq(sum, 1 + 2);
    ravel_assert_eq(q->len, n - 2);
}

/* ---- a test with its own budget ----------------------------------------- */

/* Four threads bump a counter with fetch_add: PCT with a budget of its
 * own (300 executions), whatever the run's --executions.
 * expect: pass */
RAVEL_TEST_WITH(counter, many_threads_pct, .strategy = "pct",
                .executions = 300)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, increment_fixed, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    ravel_assert_eq(atomic_load(&counter), 4);
}
