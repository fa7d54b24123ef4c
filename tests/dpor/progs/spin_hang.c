/*
 * spin_hang.c - a thread copies a flag into a local and spins on the copy:
 * when it read the flag before the other thread set it, it loops forever
 * without a visible operation, and the watchdog stops the execution. The
 * other thread never runs past that point in that execution, so no run
 * of this program may claim to be complete.
 */
#include <pthread.h>
#include <stdatomic.h>

static atomic_int flag;

static void *spinner(void *arg)
{
    (void)arg;
    volatile int seen = atomic_load(&flag);
    while (!seen)
        ;
    return NULL;
}

static void *setter(void *arg)
{
    (void)arg;
    atomic_store(&flag, 1);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, spinner, NULL);
    pthread_create(&b, NULL, setter, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
