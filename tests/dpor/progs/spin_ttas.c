/*
 * spin_ttas.c - a test-and-test-and-set spinlock on a `volatile int`, as
 * older C code writes it: spin reading the volatile word until it looks
 * free, then try to take it with an atomic exchange. Two threads
 * increment a plain counter under it; main checks the total.
 *
 * `spin_ttas broken`: the lock is taken with a plain volatile store
 * after the read, not an exchange, so both threads can take it.
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

static volatile int lock_word;
static int counter;
static int broken;

static void lock(void)
{
    for (;;) {
        while (lock_word) {
        }
        if (broken) {
            lock_word = 1;
            return;
        }
        if (!__sync_lock_test_and_set(&lock_word, 1))
            return;
    }
}

static void unlock(void)
{
    __sync_lock_release(&lock_word);
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
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(counter == 2);
    return 0;
}
