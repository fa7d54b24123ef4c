/*
 * handoff.c - one thread hands a plain value to another through an
 * atomic flag (tests/relaxed/relaxed.py checks that race detection is
 * the same under every memory model):
 *
 *   handoff ra    release store of the flag, acquire loads: no data race,
 *                 and the reader always sees the value
 *   handoff rlx   relaxed store and loads: the plain accesses race (C11
 *                 gives no happens-before edge), which ravel reports
 *
 * Under x86-TSO the flag's store waits in the writer's store buffer; the
 * reader's spin ends once a flush has written it.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static int data;
static atomic_int ready;
static int relaxed;

static void *writer(void *arg)
{
    (void)arg;
    data = 42;
    if (relaxed)
        atomic_store_explicit(&ready, 1, memory_order_relaxed);
    else
        atomic_store_explicit(&ready, 1, memory_order_release);
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    if (relaxed)
        while (!atomic_load_explicit(&ready, memory_order_relaxed)) {
        }
    else
        while (!atomic_load_explicit(&ready, memory_order_acquire)) {
        }
    assert(data == 42);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "ra") && strcmp(argv[1], "rlx"))) {
        fprintf(stderr, "usage: handoff ra|rlx\n");
        return 2;
    }
    relaxed = !strcmp(argv[1], "rlx");
    pthread_t w, r;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    return 0;
}
