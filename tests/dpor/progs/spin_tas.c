/*
 * spin_tas.c - a test-and-set spinlock, the classic one: spin on the
 * atomic exchange itself, `while (__atomic_exchange_n(&l, 1, acquire))
 * {}`. While the lock is held each exchange writes 1 over 1 and changes
 * nothing, so the loop only waits (src/model/spin.c treats such an
 * exchange as a read). Two threads increment a plain counter under it;
 * main checks the total.
 *
 * `spin_tas broken`: a thread releases the lock after reading the counter
 * and before writing it back, so an increment can be lost.
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

static int lock_word;
static int counter;
static int broken;

static void *worker(void *arg)
{
    (void)arg;
    while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE)) {
    }
    int v = counter;
    if (broken)
        __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
    counter = v + 1;
    if (!broken)
        __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
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
