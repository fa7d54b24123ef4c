/*
 * pbt_hashmap.c - a hash map from integers to strings, tested against a
 * model written in the table form (docs/pbt.md, "The table form",
 * "Typed results", "States of any size").
 *
 * map_put(m, k, v) maps k to the string v and returns the string k was
 * mapped to before (NULL if none); map_get(m, k) returns k's string or
 * NULL. The results are strings, so reports print them quoted, as C
 * would write them: `put(0, "a") -> NULL`, `get(0) -> "a"`. The model
 * keeps its map in a growing array (state_new, copy, equal, hash, free,
 * print): a model state need not be a fixed block of plain data.
 *
 * The bug: one lock per bucket, and put, finding no entry for its key,
 * lets the lock go while it makes the new entry, then takes it again to
 * link it in. Two puts of one new key in parallel both link an entry
 * and both return NULL; no order of two puts gives that. The keys of
 * the two puts must be equal, so shrinking lowers both together (a
 * coupled value) and the minimal case is
 *
 *     $1 = put(0, "a") -> NULL        $2 = put(0, "a") -> NULL
 *
 * Built with -DFIXED, put links the entry without letting the lock go.
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 4

struct entry {
    long key;
    _Atomic(const char *) value;
    struct entry *next;
};

struct map {
    pthread_mutex_t lock[NBUCKETS];
    _Atomic(struct entry *) bucket[NBUCKETS];
};

static struct map *map_new(void)
{
    struct map *m = calloc(1, sizeof *m);
    for (int i = 0; i < NBUCKETS; i++)
        pthread_mutex_init(&m->lock[i], NULL);
    return m;
}

static struct entry *find(struct map *m, long key)
{
    struct entry *e = atomic_load(&m->bucket[key % NBUCKETS]);
    while (e && e->key != key)
        e = e->next;
    return e;
}

static const char *map_put(struct map *m, long key, const char *v)
{
    unsigned b = (unsigned)(key % NBUCKETS);
    pthread_mutex_lock(&m->lock[b]);
    struct entry *e = find(m, key);
    if (e) {
        const char *old = atomic_exchange(&e->value, v);
        pthread_mutex_unlock(&m->lock[b]);
        return old;
    }
#ifndef FIXED
    pthread_mutex_unlock(&m->lock[b]);
#endif
    e = calloc(1, sizeof *e);
    e->key = key;
    atomic_store(&e->value, v);
#ifndef FIXED
    pthread_mutex_lock(&m->lock[b]);
#endif
    e->next = atomic_load(&m->bucket[b]);
    atomic_store(&m->bucket[b], e);
    pthread_mutex_unlock(&m->lock[b]);
    return NULL;
}

static const char *map_get(struct map *m, long key)
{
    unsigned b = (unsigned)(key % NBUCKETS);
    pthread_mutex_lock(&m->lock[b]);
    struct entry *e = find(m, key);
    const char *v = e ? atomic_load(&e->value) : NULL;
    pthread_mutex_unlock(&m->lock[b]);
    return v;
}

static void map_free(struct map *m)
{
    for (int i = 0; i < NBUCKETS; i++) {
        for (struct entry *e = atomic_load(&m->bucket[i]), *n; e; e = n) {
            n = e->next;
            free(e);
        }
        pthread_mutex_destroy(&m->lock[i]);
    }
    free(m);
}

/* ---- the model: the pairs, sorted by key, in an array that grows ------ */

struct pair {
    long key;
    const char *value;
};

struct model {
    size_t n, cap;
    struct pair *p;
};

static void *model_new(void)
{
    return calloc(1, sizeof(struct model));
}

static void *model_copy(const void *state)
{
    const struct model *s = state;
    struct model *c = calloc(1, sizeof *c);
    c->n = c->cap = s->n;
    c->p = s->n ? malloc(s->n * sizeof *c->p) : NULL;
    if (s->n)
        memcpy(c->p, s->p, s->n * sizeof *c->p);
    return c;
}

static void model_free(void *state)
{
    struct model *s = state;
    free(s->p);
    free(s);
}

static int model_equal(const void *a, const void *b)
{
    const struct model *x = a, *y = b;
    if (x->n != y->n)
        return 0;
    for (size_t i = 0; i < x->n; i++)
        if (x->p[i].key != y->p[i].key ||
            strcmp(x->p[i].value, y->p[i].value))
            return 0;
    return 1;
}

static uint64_t model_hash(const void *state)
{
    const struct model *s = state;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < s->n; i++) {
        h = (h ^ (uint64_t)s->p[i].key) * 1099511628211ULL;
        for (const char *c = s->p[i].value; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    }
    return h;
}

static void model_print(char *buf, size_t size, const void *state)
{
    const struct model *s = state;
    size_t used = 0;
    used += (size_t)snprintf(buf, size, "{");
    for (size_t i = 0; i < s->n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%ld: \"%s\"",
                                 i ? ", " : "", s->p[i].key, s->p[i].value);
    if (used < size)
        snprintf(buf + used, size - used, "}");
}

static struct pair *lookup(const struct model *s, long key)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->p[i].key == key)
            return &s->p[i];
    return NULL;
}

static const char *const values[] = {"a", "b", "c"};

static ravel_value put_run(void *sut, const ravel_arg *a)
{
    return ravel_str(map_put(sut, a[0].i, a[1].s));
}

static ravel_value put_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)self;
    struct model *s = state;
    struct pair *p = lookup(s, a[0].i);
    if (p) {
        const char *old = p->value;
        p->value = a[1].s;
        return ravel_str(old);
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4;
        s->p = realloc(s->p, s->cap * sizeof *s->p);
    }
    size_t i = s->n++;
    while (i > 0 && s->p[i - 1].key > a[0].i) {
        s->p[i] = s->p[i - 1];
        i--;
    }
    s->p[i] = (struct pair){a[0].i, a[1].s};
    return ravel_str(NULL);
}

static ravel_value get_run(void *sut, const ravel_arg *a)
{
    return ravel_str(map_get(sut, a[0].i));
}

static ravel_value get_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)self;
    struct pair *p = lookup(state, a[0].i);
    return ravel_str(p ? p->value : NULL);
}

static void *setup(void)
{
    return map_new();
}

static void teardown(void *sut)
{
    map_free(sut);
}

static const struct ravel_op ops[] = {
    {.name = "put", .args = {RAVEL_ARG_INT(0, 3), RAVEL_ARG_STR(values)},
     .run = put_run, .next = put_next, .result = RAVEL_STR},
    {.name = "get", .args = {RAVEL_ARG_INT(0, 3)}, .run = get_run,
     .next = get_next, .result = RAVEL_STR},
};

static const struct ravel_model model = {
    .name = "hashmap",
    .ops = ops,
    .nops = 2,
    .setup = setup,
    .teardown = teardown,
    .state_new = model_new,
    .state_copy = model_copy,
    .state_free = model_free,
    .state_equal = model_equal,
    .state_hash = model_hash,
    .state_print = model_print,
};

int main(void)
{
    return ravel_test_model(&model);
}
