/*
 * create_join.c - inconsistently locked shared data, with thread creation
 * and joining taken into account. Each case_* function is a root of the
 * call graph (nobody calls it), as main would be.
 */
#include <pthread.h>
#include <stdatomic.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

/* Before the create and after the join nothing else runs. */
static int before_after;
static void *reads_before_after(void *arg)
{
    return (void *)(long)before_after; // NORACE
}
void case_before_after(void)
{
    pthread_t t;
    before_after = 1; // NORACE
    pthread_create(&t, NULL, reads_before_after, NULL);
    pthread_join(t, NULL);
    before_after = 2; // NORACE
}

/* Between the create and the join, main and the thread overlap. */
static int between;
static void *writes_between(void *arg)
{
    between = 5; // RACE
    return arg;
}
void case_between(void)
{
    pthread_t t;
    pthread_create(&t, NULL, writes_between, NULL);
    between = 6; // RACE
    pthread_join(t, NULL);
}

/* Two threads one after the other never overlap. */
static int sequential;
static void *bumps_sequential(void *arg)
{
    sequential++; // NORACE
    return arg;
}
void case_sequential(void)
{
    pthread_t t;
    pthread_create(&t, NULL, bumps_sequential, NULL);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, bumps_sequential, NULL);
    pthread_join(t, NULL);
}

/* Two threads at once do. */
static int overlapping;
static void *bumps_overlapping(void *arg)
{
    overlapping++; // RACE
    return arg;
}
void case_overlapping(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, bumps_overlapping, NULL);
    pthread_create(&b, NULL, bumps_overlapping, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
}

/* Locked everywhere: no race. */
static int locked;
static void *bumps_locked(void *arg)
{
    pthread_mutex_lock(&m);
    locked++; // NORACE
    pthread_mutex_unlock(&m);
    return arg;
}
void case_locked(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, bumps_locked, NULL);
    pthread_create(&b, NULL, bumps_locked, NULL);
    pthread_mutex_lock(&m);
    locked = 0; // NORACE
    pthread_mutex_unlock(&m);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
}

/* Locked on one side only. */
static int half_locked;
static void *bumps_half_locked(void *arg)
{
    pthread_mutex_lock(&m);
    half_locked++; // RACE
    pthread_mutex_unlock(&m);
    return arg;
}
void case_half_locked(void)
{
    pthread_t t;
    pthread_create(&t, NULL, bumps_half_locked, NULL);
    half_locked = 3; // RACE
    pthread_join(t, NULL);
}

/* Atomics never race. */
static atomic_int counted;
static void *bumps_atomic(void *arg)
{
    atomic_fetch_add(&counted, 1); // NORACE
    return arg;
}
void case_atomic(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, bumps_atomic, NULL);
    pthread_create(&b, NULL, bumps_atomic, NULL);
    atomic_store(&counted, 0); // NORACE
    pthread_join(a, NULL);
    pthread_join(b, NULL);
}

/* An object reached through the thread's argument. */
struct ctx {
    int hits;
};
static void *uses_ctx(void *arg)
{
    struct ctx *c = arg;
    c->hits++; // RACE
    return arg;
}
void case_argument(void)
{
    struct ctx c = {0};
    pthread_t t;
    pthread_create(&t, NULL, uses_ctx, &c);
    c.hits = 7; // RACE
    pthread_join(t, NULL);
}

/* One element per thread: each thread has its own. */
struct slot {
    int value;
};
static void *uses_slot(void *arg)
{
    struct slot *s = arg;
    s->value++; // NORACE
    return arg;
}
void case_own_slots(void)
{
    struct slot slots[4];
    pthread_t ts[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&ts[i], NULL, uses_slot, &slots[i]);
    for (int i = 0; i < 4; i++)
        pthread_join(ts[i], NULL);
    slots[0].value = 0; // NORACE
}

/* Threads created in a loop share a global. */
static int pooled;
static void *bumps_pooled(void *arg)
{
    pooled++; // RACE
    return arg;
}
void case_pool(void)
{
    pthread_t ts[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&ts[i], NULL, bumps_pooled, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(ts[i], NULL);
}

/* Created and joined in helper functions. */
static int helped;
static void *writes_helped(void *arg)
{
    helped = 1; // RACE
    return arg;
}
static void start_helper(pthread_t *t)
{
    pthread_create(t, NULL, writes_helped, NULL);
}
static void stop_helper(pthread_t t)
{
    pthread_join(t, NULL);
}
void case_helpers(void)
{
    pthread_t t;
    start_helper(&t);
    helped = 2; // RACE
    stop_helper(t);
    helped = 3; // NORACE
}

/* Accessed in a function the thread calls. */
static int deep;
static void touch_deep(void)
{
    deep++; // RACE
}
static void *calls_touch_deep(void *arg)
{
    touch_deep();
    return arg;
}
void case_deep(void)
{
    pthread_t t;
    pthread_create(&t, NULL, calls_touch_deep, NULL);
    pthread_mutex_lock(&m);
    deep = 1; // RACE
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
}

/* The start routine passed down as a parameter. */
static int passed_down;
static void *writes_passed_down(void *arg)
{
    passed_down = 1; // RACE
    return arg;
}
static void spawn(pthread_t *t, void *(*fn)(void *))
{
    pthread_create(t, NULL, fn, NULL);
}
void case_start_routine_parameter(void)
{
    pthread_t t;
    spawn(&t, writes_passed_down);
    passed_down = 2; // RACE
    pthread_join(t, NULL);
}
