/*
 * spin_plain.c - a flag published through a plain int (neither volatile
 * nor atomic), as older C code does, built with -O0 so that each
 * iteration of `while (!ready) {}` loads the flag. The worker sets the
 * result, then the flag. That is a data race (two, with the result), and
 * what ravel must say about it is that: the spin is seen at the access
 * hooks (src/rt/race/plain_spin.c), its read made a scheduling point, and
 * the race reported - never a watchdog hang.
 *
 * `spin_plain forever`: the worker never sets the flag; main spins
 * forever, which is a deadlock naming `ready` and main's stack.
 *
 * `spin_plain compute`: no spin at all. A worker reads a 64 KiB table
 * over and over without writing (a long read-only computation, which the
 * spin check samples and must leave alone) and then publishes its sum
 * under a lock; the run is clean and nothing is promoted.
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

static int ready;
static int result;
static int mode; /* 0 correct, 1 forever, 2 compute */

static unsigned table[16384];
static unsigned long total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long sum_table(void)
{
    unsigned long s = 0;
    for (int rep = 0; rep < 12; rep++)
        for (unsigned i = 0; i < sizeof table / sizeof *table; i++)
            s += table[i] ^ (unsigned)rep;
    return s;
}

static void *worker(void *arg)
{
    (void)arg;
    if (mode == 2) {
        unsigned long s = sum_table();
        pthread_mutex_lock(&lock);
        total += s;
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    result = 42;
    if (mode == 0)
        ready = 1;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        mode = !strcmp(argv[1], "forever") ? 1 : !strcmp(argv[1], "compute") ? 2 : 0;
    for (unsigned i = 0; i < sizeof table / sizeof *table; i++)
        table[i] = i * 2654435761u;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    if (mode != 2) {
        while (!ready) {
        }
        assert(result == 42);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    if (mode == 2)
        assert(total == 2 * sum_table());
    return 0;
}
