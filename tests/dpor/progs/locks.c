/*
 * locks.c - three threads: two update a counter under a mutex and set a
 * flag, one reads the flag and, without the lock, the counter (a data
 * race on purpose: ravel orders plain accesses only at visible
 * operations, so this program's traces are those of its atomics and its
 * lock). Trylock adds a failing branch.
 */
#include <pthread.h>
#include <stdatomic.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static atomic_int counter, flag;

static void *writer(void *arg)
{
    pthread_mutex_lock(&m);
    atomic_store(&counter, atomic_load(&counter) + 1);
    pthread_mutex_unlock(&m);
    atomic_store(&flag, (int)(long)arg);
    return NULL;
}

static void *reader(void *arg)
{
    (void)arg;
    if (atomic_load(&flag) && pthread_mutex_trylock(&m) == 0) {
        atomic_load(&counter);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    pthread_create(&t[0], NULL, writer, (void *)1);
    pthread_create(&t[1], NULL, writer, (void *)2);
    pthread_create(&t[2], NULL, reader, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    return 0;
}
