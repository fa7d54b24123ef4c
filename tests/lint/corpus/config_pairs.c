/*
 * config_pairs.c - a pair declared in a pairs file (config_pairs.pairs)
 * instead of the source, with a lock function declared there too.
 */
#include <stdbool.h>

struct cache;
bool cache_contains(struct cache *c, const char *key);
void cache_store(struct cache *c, const char *key, const char *value);
void cache_enter(struct cache *c);
void cache_leave(struct cache *c);

void fill(struct cache *c, const char *key)
{
    if (!cache_contains(c, key)) // CHECK
        cache_store(c, key, "x"); // RACE
}

/* The user's own lock functions, declared in the pairs file. */
void fill_locked(struct cache *c, const char *key)
{
    cache_enter(c);
    if (!cache_contains(c, key))
        cache_store(c, key, "x"); // NORACE
    cache_leave(c);
}
