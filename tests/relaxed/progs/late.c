/*
 * late.c - a reader that synchronises with a release store only if its
 * acquire load reads it (tests/relaxed/relaxed.py, group races).
 *
 *   late
 *
 * The writer writes plain data, makes a release store of `ready`, then a
 * relaxed store of `go`. The reader waits for `go`, makes an acquire
 * load of `ready` and reads the data. Under sequential consistency (and
 * x86-TSO, whose buffer keeps the stores in order) seeing `go` means the
 * acquire load reads the release store: no data race. Under RC11 the
 * relaxed `go` orders nothing, so the acquire load may read `ready`'s
 * initial value: then it synchronises with nothing and the data read
 * races with the write. The race detector must draw the acquire edge
 * from the store the load read (src/rt/rc11.c), not from the newest
 * release of the location, to report it.
 */
#include <pthread.h>
#include <stdatomic.h>

static int data;
static atomic_int ready, go;
static int got;

static void *writer(void *arg)
{
    (void)arg;
    data = 42;
    atomic_store_explicit(&ready, 1, memory_order_release);
    atomic_store_explicit(&go, 1, memory_order_relaxed);
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    while (!atomic_load_explicit(&go, memory_order_relaxed)) {
    }
    (void)atomic_load_explicit(&ready, memory_order_acquire);
    got = data;
    return NULL;
}

int main(void)
{
    pthread_t w, r;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    return got == 42 ? 0 : 1;
}
