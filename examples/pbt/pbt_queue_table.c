/*
 * pbt_queue_table.c - pbt_queue.c's queue and model, the model written
 * in the table form (docs/pbt.md, "The table form"): the same tests in
 * fewer lines. Compare the two files' model sections.
 *
 * It also runs wider tests than the other examples: four threads of up
 * to eight calls each (the model's threads and ops_per_thread), each
 * history judged by the linearizability checker.
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

static ravel_value put_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)self;
    struct state *s = state;
    if (s->n == CAP)
        return ravel_int(0);
    s->v[s->n++] = a[0].i;
    return ravel_int(1);
}

static ravel_value get_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)a, (void)self;
    struct state *s = state;
    if (s->n == 0)
        return ravel_int(-1);
    long v = s->v[0];
    for (long i = 1; i < s->n; i++)
        s->v[i - 1] = s->v[i];
    s->v[--s->n] = 0; /* states compare byte for byte */
    return ravel_int(v);
}

static ravel_value put_run(void *sut, const ravel_arg *a)
{
    return ravel_int(queue_put(sut, a[0].i));
}

static ravel_value get_run(void *sut, const ravel_arg *a)
{
    (void)a;
    return ravel_int(queue_get(sut));
}

static void *setup(void)
{
    return queue_new();
}

static void teardown(void *sut)
{
    queue_free(sut);
}

static const struct ravel_op ops[] = {
    {.name = "put", .args = {RAVEL_ARG_INT(1, 9)}, .run = put_run,
     .next = put_next},
    {.name = "get", .run = get_run, .next = get_next},
};

static const struct ravel_model model = {
    .name = "queue",
    .state_size = sizeof(struct state),
    .ops = ops,
    .nops = 2,
    .setup = setup,
    .teardown = teardown,
    .threads = 4,
    .ops_per_thread = 8,
};

int main(void)
{
    return ravel_test_model(&model);
}
