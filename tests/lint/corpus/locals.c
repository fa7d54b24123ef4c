/*
 * locals.c - a local object nobody else can see cannot be raced on; one
 * whose address escapes can.
 *
 * ravel-lint: pair set_has(1,2) -> set_add(1,2)
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

struct set {
    int n;
    int v[16];
};

struct set global_set;
struct set *published;

bool set_has(const struct set *s, int x)
{
    for (int i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return true;
    return false;
}

void set_add(struct set *s, int x)
{
    if (s->n < 16)
        s->v[s->n++] = x;
}

static void *keep(void *arg)
{
    return arg;
}

int local_only(int x)
{
    struct set s;
    memset(&s, 0, sizeof s);
    if (!set_has(&s, x))
        set_add(&s, x); // NORACE
    return s.n;
}

void on_a_global(int x)
{
    if (!set_has(&global_set, x)) // CHECK
        set_add(&global_set, x); // RACE
}

void published_local(int x)
{
    struct set s;
    memset(&s, 0, sizeof s);
    published = &s;
    if (!set_has(&s, x)) // CHECK
        set_add(&s, x); // RACE
    published = NULL;
}

void local_given_to_a_thread(int x)
{
    struct set s;
    pthread_t t;
    memset(&s, 0, sizeof s);
    pthread_create(&t, NULL, keep, &s);
    if (!set_has(&s, x)) // CHECK
        set_add(&s, x); // RACE
    pthread_join(t, NULL);
}

/* A local key does not make a shared set private. */
void local_key(int x)
{
    int key = x * 2;
    if (!set_has(&global_set, key)) // CHECK
        set_add(&global_set, key); // RACE
}
