/*
 * spin_ticket.c - a ticket lock: take a ticket with fetch-and-add, spin
 * until the `now serving` counter reaches it. Three threads increment a
 * plain counter under it; main checks the total.
 *
 * `spin_ticket broken`: the ticket is taken with a load and a store
 * instead of one fetch-and-add, so two threads can draw the same one.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define THREADS 3

static atomic_uint next_ticket, now_serving;
static int counter;
static int broken;

static void lock(void)
{
    unsigned mine;
    if (broken) {
        mine = atomic_load(&next_ticket);
        atomic_store(&next_ticket, mine + 1);
    } else {
        mine = atomic_fetch_add(&next_ticket, 1);
    }
    while (atomic_load_explicit(&now_serving, memory_order_acquire) != mine) {
    }
}

static void unlock(void)
{
    unsigned n = atomic_load_explicit(&now_serving, memory_order_relaxed);
    atomic_store_explicit(&now_serving, n + 1, memory_order_release);
}

static void *worker(void *arg)
{
    (void)arg;
    lock();
    counter++;
    unlock();
    return NULL;
}

int main(int argc, char **argv)
{
    broken = argc > 1 && !strcmp(argv[1], "broken");
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    assert(counter == THREADS);
    return 0;
}
