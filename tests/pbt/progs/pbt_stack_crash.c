/*
 * pbt_stack_crash.c - a test case that crashes the process is shrunk
 * like any other failure (tests/pbt/pbt.py, group failures).
 *
 * A linked stack whose pop checks for emptiness before taking the lock:
 * two pops racing for the last element both pass the check, and the
 * second dereferences NULL. The crash kills the executor; the driver
 * goes on shrinking in a new one, and the minimal case (a push, then two
 * pops in parallel) is reported as a crash with its ticket.
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    long v;
    struct node *next;
};

struct stack {
    pthread_mutex_t lock;
    _Atomic(struct node *) top;
};

static long push_run(void *sut, const void *args)
{
    struct stack *s = sut;
    struct node *n = malloc(sizeof *n);
    n->v = *(const long *)args;
    pthread_mutex_lock(&s->lock);
    n->next = atomic_load(&s->top);
    atomic_store(&s->top, n);
    pthread_mutex_unlock(&s->lock);
    return 0;
}

static long pop_run(void *sut, const void *args)
{
    (void)args;
    struct stack *s = sut;
    if (atomic_load(&s->top) == NULL)
        return -1;
    pthread_mutex_lock(&s->lock);
    struct node *n = atomic_load(&s->top);
    atomic_store(&s->top, n->next); /* NULL when another pop won */
    pthread_mutex_unlock(&s->lock);
    long v = n->v;
    free(n);
    return v;
}

struct state {
    long n;
    long v[64];
};

static void push_gen(ravel_gen *g, const void *state, void *args)
{
    (void)state;
    *(long *)args = ravel_gen_int(g, 1, 5);
}

static void push_print(char *buf, size_t size, const void *args)
{
    snprintf(buf, size, "%ld", *(const long *)args);
}

static long push_next(void *state, const void *args, ravel_var self)
{
    (void)self;
    struct state *s = state;
    if (s->n < 64)
        s->v[s->n++] = *(const long *)args;
    return 0;
}

static long pop_next(void *state, const void *args, ravel_var self)
{
    (void)args, (void)self;
    struct state *s = state;
    if (s->n == 0)
        return -1;
    long v = s->v[--s->n];
    s->v[s->n] = 0;
    return v;
}

static void *setup(void)
{
    struct stack *s = calloc(1, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

static void teardown(void *sut)
{
    struct stack *s = sut;
    for (struct node *n = atomic_load(&s->top), *next; n; n = next) {
        next = n->next;
        free(n);
    }
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static const struct ravel_command commands[] = {
    {.name = "push", .gen = push_gen, .run = push_run, .next = push_next,
     .print = push_print},
    {.name = "pop", .run = pop_run, .next = pop_next},
};

static const struct ravel_model model = {
    .name = "stack",
    .state_size = sizeof(struct state),
    .args_size = sizeof(long),
    .commands = commands,
    .ncommands = 2,
    .setup = setup,
    .teardown = teardown,
};

int main(void)
{
    return ravel_test_model(&model);
}
