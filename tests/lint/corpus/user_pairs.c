/*
 * user_pairs.c - check-then-act pairs declared in a comment, with one,
 * two and no resource arguments.
 *
 * ravel-lint: pair table_lookup(1,2), table_has(1,2) -> table_insert(1,2)
 * ravel-lint: pair is_ready() -> make_ready()
 */
#include <pthread.h>
#include <stdbool.h>

struct table {
    pthread_mutex_t lock;
    int n;
    int keys[64];
    int values[64];
};

struct ctx {
    struct table *table;
    int key;
};

struct table shared = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, {0}};
static bool ready;

int table_lookup(struct table *t, int key)
{
    int v = 0;
    pthread_mutex_lock(&t->lock);
    for (int i = 0; i < t->n; i++)
        if (t->keys[i] == key)
            v = t->values[i];
    pthread_mutex_unlock(&t->lock);
    return v;
}

bool table_has(struct table *t, int key)
{
    return table_lookup(t, key) != 0;
}

void table_insert(struct table *t, int key, int value)
{
    pthread_mutex_lock(&t->lock);
    if (t->n < 64) {
        t->keys[t->n] = key;
        t->values[t->n++] = value;
    }
    pthread_mutex_unlock(&t->lock);
}

bool is_ready(void)
{
    return ready;
}

void make_ready(void)
{
    ready = true;
}

void same_key(int key)
{
    if (!table_lookup(&shared, key)) // CHECK
        table_insert(&shared, key, 1); // RACE
}

void second_check_function(int key)
{
    if (!table_has(&shared, key)) // CHECK
        table_insert(&shared, key, 1); // RACE
}

void different_keys(int key, int other)
{
    if (!table_lookup(&shared, key))
        table_insert(&shared, other, 1); // NORACE
}

void different_tables(struct table *a, struct table *b, int key)
{
    if (!table_lookup(a, key))
        table_insert(b, key, 1); // NORACE
}

void same_constant_key(void)
{
    if (!table_lookup(&shared, 7)) // CHECK
        table_insert(&shared, 7, 1); // RACE
}

void different_constant_keys(void)
{
    if (!table_lookup(&shared, 7))
        table_insert(&shared, 8, 1); // NORACE
}

/* The same field of the same object, loaded twice. */
void fields(struct ctx *c)
{
    if (!table_lookup(c->table, c->key)) // CHECK
        table_insert(c->table, c->key, 2); // RACE
}

/* A pair with no arguments: global state. */
void init_once(void)
{
    if (!is_ready()) // CHECK
        make_ready(); // RACE
}

/* The value inserted is not part of the resource. */
void values_differ(int key, int a, int b)
{
    if (table_lookup(&shared, key) != a) // CHECK
        table_insert(&shared, key, b); // RACE
}
