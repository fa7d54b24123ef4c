/*
 * spin_seqlock.c - a sequence lock: the writer makes the sequence number
 * odd, writes two words, makes it even again; a reader retries until it
 * read the same even number before and after the words, and then must
 * see a consistent pair. One writer (two updates), two readers.
 *
 * `spin_seqlock broken`: the reader does not check that the number was
 * even, so it can accept a pair read in the middle of an update.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define R memory_order_relaxed

static atomic_uint seq;
static atomic_int data1, data2;
static int broken;

static void *writer(void *arg)
{
    (void)arg;
    for (int v = 1; v <= 2; v++) {
        unsigned s = atomic_load_explicit(&seq, R);
        atomic_store_explicit(&seq, s + 1, R);
        atomic_thread_fence(memory_order_release);
        atomic_store_explicit(&data1, v, R);
        atomic_store_explicit(&data2, v, R);
        atomic_store_explicit(&seq, s + 2, memory_order_release);
    }
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    unsigned s1, s2;
    int d1, d2;
    do {
        s1 = atomic_load_explicit(&seq, memory_order_acquire);
        d1 = atomic_load_explicit(&data1, R);
        d2 = atomic_load_explicit(&data2, R);
        atomic_thread_fence(memory_order_acquire);
        s2 = atomic_load_explicit(&seq, R);
    } while (s1 != s2 || (!broken && (s1 & 1)));
    assert(d1 == d2);
    return NULL;
}

int main(int argc, char **argv)
{
    broken = argc > 1 && !strcmp(argv[1], "broken");
    pthread_t w, r1, r2;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r1, NULL, reader, NULL);
    pthread_create(&r2, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r1, NULL);
    pthread_join(r2, NULL);
    return 0;
}
