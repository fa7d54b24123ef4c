/*
 * pbt_queue.c - a bounded FIFO queue tested against a model
 * (docs/pbt.md).
 *
 * queue_put(q, v) returns 1, or 0 when the queue is full; queue_get(q)
 * returns the oldest value, or -1 when it is empty. A mutex guards the
 * indices and the count. To keep the critical section short, put
 * reserves its slot under the lock and writes the value after unlocking
 * it. Nothing crashes, nothing deadlocks, no assertion fires: a get that
 * runs between the reservation and the write returns whatever the slot
 * held before (0, or an older value). Only the history shows it: no
 * order of the calls gives a get that result.
 *
 *     ravel run -- ./pbt_queue --seed 1
 *
 * The slots are atomics so that ravel can interleave their accesses
 * (plain memory would make this a data race, the race detector's
 * business). Built with -DFIXED the value is written before unlocking
 * and 1,000 tests pass.
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define CAP 3

struct queue {
    pthread_mutex_t lock;
    unsigned head, count;
    atomic_long slot[CAP];
};

static struct queue *queue_new(void)
{
    struct queue *q = calloc(1, sizeof *q);
    pthread_mutex_init(&q->lock, NULL);
    return q;
}

static int queue_put(struct queue *q, long v)
{
    pthread_mutex_lock(&q->lock);
    if (q->count == CAP) {
        pthread_mutex_unlock(&q->lock);
        return 0;
    }
    unsigned i = (q->head + q->count) % CAP;
    q->count++;
#ifdef FIXED
    atomic_store_explicit(&q->slot[i], v, memory_order_relaxed);
    pthread_mutex_unlock(&q->lock);
#else
    pthread_mutex_unlock(&q->lock);
    atomic_store_explicit(&q->slot[i], v, memory_order_relaxed);
#endif
    return 1;
}

static long queue_get(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
    if (q->count == 0) {
        pthread_mutex_unlock(&q->lock);
        return -1;
    }
    long v = atomic_load_explicit(&q->slot[q->head], memory_order_relaxed);
    q->head = (q->head + 1) % CAP;
    q->count--;
    pthread_mutex_unlock(&q->lock);
    return v;
}

static void queue_free(struct queue *q)
{
    pthread_mutex_destroy(&q->lock);
    free(q);
}

/* ---- the model: the values in the queue, oldest first ----------------- */

struct state {
    long n;
    long v[CAP];
};

struct args {
    long v;
};

static void put_gen(ravel_gen *g, const void *state, void *args)
{
    (void)state;
    ((struct args *)args)->v = ravel_gen_int(g, 1, 9);
}

static long put_run(void *sut, const void *args)
{
    return queue_put(sut, ((const struct args *)args)->v);
}

static long put_next(void *state, const void *args, ravel_var self)
{
    (void)self;
    struct state *s = state;
    if (s->n == CAP)
        return 0;
    s->v[s->n++] = ((const struct args *)args)->v;
    return 1;
}

static void put_print(char *buf, size_t size, const void *args)
{
    snprintf(buf, size, "%ld", ((const struct args *)args)->v);
}

static long get_run(void *sut, const void *args)
{
    (void)args;
    return queue_get(sut);
}

static long get_next(void *state, const void *args, ravel_var self)
{
    (void)args, (void)self;
    struct state *s = state;
    if (s->n == 0)
        return -1;
    long v = s->v[0];
    for (long i = 1; i < s->n; i++)
        s->v[i - 1] = s->v[i];
    s->v[--s->n] = 0; /* states compare byte for byte */
    return v;
}

static void *setup(void)
{
    return queue_new();
}

static void teardown(void *sut)
{
    queue_free(sut);
}

static const struct ravel_command commands[] = {
    {.name = "put", .gen = put_gen, .run = put_run, .next = put_next,
     .print = put_print},
    {.name = "get", .run = get_run, .next = get_next},
};

static const struct ravel_model model = {
    .name = "queue",
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
