/*
 * pbt_counter.c - a counter object tested against a model (docs/pbt.md).
 *
 * The API: counter_new, counter_incr (returns the new value),
 * counter_read, counter_free. The model is one integer: incr adds one
 * and returns the new value, read returns it. ravel generates sequences
 * of incr and read, runs some of them in parallel threads, and asks
 * whether some order of the parallel calls explains every result.
 *
 * The increment is a load followed by a separate store (both atomic, so
 * ravel can interleave them; with a plain int it would be a data race).
 * Two parallel increments can both load 0 and both return 1, which no
 * sequential order of two increments does:
 *
 *     ravel run -- ./pbt_counter --seed 1
 *
 * shrinks whatever it finds first to two parallel increments (and the
 * read that shows the lost update, when the results alone do not).
 * Built with -DFIXED the increment is one atomic read-modify-write and
 * 1,000 tests pass.
 */
#include <ravel.h>
#include <stdatomic.h>
#include <stdlib.h>

struct counter {
    atomic_long n;
};

static struct counter *counter_new(void)
{
    struct counter *c = malloc(sizeof *c);
    atomic_init(&c->n, 0);
    return c;
}

static long counter_incr(struct counter *c)
{
#ifdef FIXED
    return atomic_fetch_add(&c->n, 1) + 1;
#else
    long v = atomic_load_explicit(&c->n, memory_order_relaxed);
    atomic_store_explicit(&c->n, v + 1, memory_order_relaxed);
    return v + 1;
#endif
}

static long counter_read(struct counter *c)
{
    return atomic_load(&c->n);
}

/* ---- the model ---------------------------------------------------------- */

struct state {
    long n;
};

static long incr_run(void *sut, const void *args)
{
    (void)args;
    return counter_incr(sut);
}

static long incr_next(void *state, const void *args, ravel_var self)
{
    (void)args, (void)self;
    struct state *s = state;
    return ++s->n;
}

static long read_run(void *sut, const void *args)
{
    (void)args;
    return counter_read(sut);
}

static long read_next(void *state, const void *args, ravel_var self)
{
    (void)args, (void)self;
    return ((struct state *)state)->n;
}

static void *setup(void)
{
    return counter_new();
}

static void teardown(void *sut)
{
    free(sut);
}

static const struct ravel_command commands[] = {
    {.name = "incr", .run = incr_run, .next = incr_next},
    {.name = "read", .run = read_run, .next = read_next},
};

static const struct ravel_model model = {
    .name = "counter",
    .state_size = sizeof(struct state),
    .commands = commands,
    .ncommands = 2,
    .setup = setup,
    .teardown = teardown,
};

int main(void)
{
    return ravel_test_model(&model);
}
