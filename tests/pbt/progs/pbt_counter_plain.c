/*
 * pbt_counter_plain.c - the counter of examples/pbt/pbt_counter.c with a
 * plain long instead of atomics: the usual way such a bug is written.
 * Its increment is a data race, reported first; race-directed scheduling
 * then makes the racing accesses scheduling points and the tests start
 * over, so the lost update shows as a non-linearizable history
 * (tests/pbt/pbt.py, group race).
 */
#include <ravel.h>
#include <stdlib.h>

struct counter {
    long n;
};

static long incr_run(void *sut, const void *args)
{
    (void)args;
    struct counter *c = sut;
    long v = c->n;
    c->n = v + 1;
    return v + 1;
}

static long incr_next(void *state, const void *args, ravel_var self)
{
    (void)args, (void)self;
    return ++((struct counter *)state)->n;
}

static long read_run(void *sut, const void *args)
{
    (void)args;
    return ((struct counter *)sut)->n;
}

static long read_next(void *state, const void *args, ravel_var self)
{
    (void)args, (void)self;
    return ((struct counter *)state)->n;
}

static void *setup(void)
{
    return calloc(1, sizeof(struct counter));
}

static const struct ravel_command commands[] = {
    {.name = "incr", .run = incr_run, .next = incr_next},
    {.name = "read", .run = read_run, .next = read_next},
};

static const struct ravel_model model = {
    .name = "counter",
    .state_size = sizeof(struct counter),
    .commands = commands,
    .ncommands = 2,
    .setup = setup,
    .teardown = free,
};

int main(void)
{
    return ravel_test_model(&model);
}
