/*
 * pbt_transfer_deadlock.c - a deadlock caused by a test case is shrunk
 * and reported as a deadlock (tests/pbt/pbt.py, group failures).
 *
 * Two accounts, each with its mutex; transfer(from, to) locks `from`
 * then `to`. Two transfers in opposite directions, in parallel, can
 * each hold one lock and wait for the other's.
 */
#include <pthread.h>
#include <ravel.h>
#include <stdio.h>
#include <stdlib.h>

struct bank {
    pthread_mutex_t lock[2];
    long balance[2];
};

struct args {
    int from;
    long amount;
};

static void transfer_gen(ravel_gen *g, const void *state, void *args)
{
    (void)state;
    struct args *a = args;
    a->from = (int)ravel_gen_element(g, 2);
    a->amount = ravel_gen_int(g, 0, 3);
}

static long transfer_run(void *sut, const void *args)
{
    struct bank *b = sut;
    const struct args *a = args;
    int to = 1 - a->from;
    pthread_mutex_lock(&b->lock[a->from]);
    pthread_mutex_lock(&b->lock[to]);
    b->balance[a->from] -= a->amount;
    b->balance[to] += a->amount;
    pthread_mutex_unlock(&b->lock[to]);
    pthread_mutex_unlock(&b->lock[a->from]);
    return 0;
}

static long balance_run(void *sut, const void *args)
{
    struct bank *b = sut;
    const struct args *a = args;
    pthread_mutex_lock(&b->lock[a->from]);
    long v = b->balance[a->from];
    pthread_mutex_unlock(&b->lock[a->from]);
    return v;
}

struct state {
    long balance[2];
};

static long transfer_next(void *state, const void *args, ravel_var self)
{
    (void)self;
    struct state *s = state;
    const struct args *a = args;
    s->balance[a->from] -= a->amount;
    s->balance[1 - a->from] += a->amount;
    return 0;
}

static long balance_next(void *state, const void *args, ravel_var self)
{
    (void)self;
    return ((struct state *)state)->balance[((const struct args *)args)->from];
}

static void transfer_print(char *buf, size_t size, const void *args)
{
    const struct args *a = args;
    snprintf(buf, size, "%d -> %d, %ld", a->from, 1 - a->from, a->amount);
}

static void balance_print(char *buf, size_t size, const void *args)
{
    snprintf(buf, size, "%d", ((const struct args *)args)->from);
}

static void *setup(void)
{
    struct bank *b = calloc(1, sizeof *b);
    pthread_mutex_init(&b->lock[0], NULL);
    pthread_mutex_init(&b->lock[1], NULL);
    return b;
}

static void teardown(void *sut)
{
    struct bank *b = sut;
    pthread_mutex_destroy(&b->lock[0]);
    pthread_mutex_destroy(&b->lock[1]);
    free(b);
}

static const struct ravel_command commands[] = {
    {.name = "transfer", .gen = transfer_gen, .run = transfer_run,
     .next = transfer_next, .print = transfer_print},
    {.name = "balance", .gen = transfer_gen, .run = balance_run,
     .next = balance_next, .print = balance_print},
};

static const struct ravel_model model = {
    .name = "bank",
    .state_size = sizeof(struct state),
    .args_size = sizeof(struct args),
    .commands = commands,
    .ncommands = 2,
    .setup = setup,
    .teardown = teardown,
};

int main(void)
{
    return ravel_test_model(&model);
}
