/*
 * pbt_stack.c - a stack of nodes whose results are pointers, tested
 * against a model (docs/pbt.md, "Typed results").
 *
 * stack_push(s, v) allocates a node holding v, pushes it and returns
 * it; stack_pop(s) unlinks the top node and returns it (NULL when the
 * stack is empty). The results are pointers, so the commands declare
 * RAVEL_PTR: reports print them as `new` (the call that made the node)
 * and `$k` (the node call $k returned), not as raw addresses, and the
 * model says which node a pop must give with ravel_ref(k), "the value
 * call $k returned".
 *
 * The bug: pop reads the top under the lock, lets the lock go, and
 * takes it again to unlink, assuming the top is still the node it read.
 * Two pops in parallel can return the same node:
 *
 *     $1 = push(1) -> new
 *     $2 = pop() -> $1          $3 = pop() -> $1
 *
 * Built with -DFIXED pop holds the lock throughout. The model also
 * labels the test cases by the deepest stack they reach and requires
 * (ravel_cover) that a tenth of them reach a depth of 3; built with
 * -DSKEWED too, the generator pops nine times as often as it pushes,
 * the stack never grows, and the run fails on that requirement alone.
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    long value;
    struct node *next;
    struct node *all; /* every node made, for stack_free */
};

struct stack {
    pthread_mutex_t lock;
    _Atomic(struct node *) top;
    struct node *all;
};

static struct stack *stack_new(void)
{
    struct stack *s = calloc(1, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

static struct node *stack_push(struct stack *s, long v)
{
    struct node *n = calloc(1, sizeof *n);
    n->value = v;
    pthread_mutex_lock(&s->lock);
    n->all = s->all;
    s->all = n;
    n->next = atomic_load_explicit(&s->top, memory_order_relaxed);
    atomic_store_explicit(&s->top, n, memory_order_relaxed);
    pthread_mutex_unlock(&s->lock);
    return n;
}

static struct node *stack_pop(struct stack *s)
{
    pthread_mutex_lock(&s->lock);
    struct node *n = atomic_load_explicit(&s->top, memory_order_relaxed);
#ifndef FIXED
    pthread_mutex_unlock(&s->lock);
    if (!n)
        return NULL;
    pthread_mutex_lock(&s->lock);
#else
    if (!n) {
        pthread_mutex_unlock(&s->lock);
        return NULL;
    }
#endif
    atomic_store_explicit(&s->top, n->next, memory_order_relaxed);
    pthread_mutex_unlock(&s->lock);
    return n;
}

static void stack_free(struct stack *s)
{
    for (struct node *n = s->all, *next; n; n = next) {
        next = n->all;
        free(n);
    }
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* ---- the model: the nodes on the stack, as the calls that made them ---- */

#define MAXN 64

struct state {
    unsigned n;
    ravel_var node[MAXN]; /* node[i]: the push that made it ($k) */
    unsigned deepest;
};

struct args {
    long v;
};

static unsigned push_weight(const void *state)
{
    (void)state;
#ifdef SKEWED
    return 1;
#else
    return 3;
#endif
}

static unsigned pop_weight(const void *state)
{
    (void)state;
#ifdef SKEWED
    return 9;
#else
    return 2;
#endif
}

static void push_gen(ravel_gen *g, const void *state, void *args)
{
    (void)state;
    ((struct args *)args)->v = ravel_gen_int(g, 1, 9);
}

static void push_print(char *buf, size_t size, const void *args)
{
    snprintf(buf, size, "%ld", ((const struct args *)args)->v);
}

static int push_pre(const void *state, const void *args)
{
    (void)args;
    return ((const struct state *)state)->n < MAXN;
}

static ravel_value push_run(void *sut, const void *args)
{
    return ravel_ptr(stack_push(sut, ((const struct args *)args)->v));
}

/* The node a push returns is its own: "the value of $self". */
static ravel_value push_next(void *state, const void *args, ravel_var self)
{
    (void)args;
    struct state *s = state;
    s->node[s->n++] = self;
    if (s->n > s->deepest)
        s->deepest = s->n;
    ravel_cover(s->deepest >= 3, 10, "stack depth >= 3");
    return ravel_ref(self);
}

static ravel_value pop_run(void *sut, const void *args)
{
    (void)args;
    return ravel_ptr(stack_pop(sut));
}

static ravel_value pop_next(void *state, const void *args, ravel_var self)
{
    (void)args, (void)self;
    struct state *s = state;
    if (s->n == 0) {
        ravel_label("pop of an empty stack");
        return ravel_ptr(NULL);
    }
    ravel_var top = s->node[--s->n];
    s->node[s->n] = 0; /* states compare byte for byte */
    return ravel_ref(top);
}

static void *setup(void)
{
    return stack_new();
}

static void teardown(void *sut)
{
    stack_free(sut);
}

static const struct ravel_command commands[] = {
    {.name = "push", .weight = push_weight, .gen = push_gen,
     .pre = push_pre, .print = push_print, .result = RAVEL_PTR,
     .run_value = push_run, .next_value = push_next},
    {.name = "pop", .weight = pop_weight, .result = RAVEL_PTR,
     .run_value = pop_run, .next_value = pop_next},
};

static const struct ravel_model model = {
    .name = "stack",
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
