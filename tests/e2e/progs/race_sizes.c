/*
 * race_sizes.c - an unordered write and read of each size the program's
 * own access hooks have a copy for (1, 2, 4 and 8 bytes: tsan_local.c
 * calls the runtime's copy for that size, ravel__hook_readN/writeN).
 *
 * A worker writes a variable of the size the argument names (1, 2, 4 or
 * 8; 1 without one); main reads it without waiting for the worker, so
 * the two race and the race must be reported with that size (an
 * execution ends at its first race: one size a run). With a second
 * argument "locked" both sides hold a mutex and nothing races.
 * tests/e2e/e2e.py runs every size both ways.
 *
 * ravel-expect: data-race
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

uint8_t v1; /* not static: the accesses must stay */
uint16_t v2;
uint32_t v4;
uint64_t v8;
uint64_t race_sizes_seen;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int size = 1, locked;

static void *writer(void *arg)
{
    (void)arg;
    if (locked)
        pthread_mutex_lock(&lock);
    switch (size) {
    case 1: v1 = 1; break;
    case 2: v2 = 2; break;
    case 4: v4 = 4; break;
    default: v8 = 8; break;
    }
    if (locked)
        pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        size = atoi(argv[1]);
    locked = argc > 2 && strcmp(argv[2], "locked") == 0;
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    if (locked)
        pthread_mutex_lock(&lock);
    switch (size) {
    case 1: race_sizes_seen = v1; break;
    case 2: race_sizes_seen = v2; break;
    case 4: race_sizes_seen = v4; break;
    default: race_sizes_seen = v8; break;
    }
    if (locked)
        pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    return 0;
}
