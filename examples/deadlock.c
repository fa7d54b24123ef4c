/*
 * deadlock.c - lock-order inversion.
 *
 * A bank moves money between two accounts, each with its own lock. A
 * transfer locks the source account, then the destination. Two transfers
 * in opposite directions can each take their first lock and then wait
 * forever for the other's: neither thread can make progress.
 *
 *     ravel run --seed 1 -- ./deadlock
 *
 * ravel reports the deadlock with each blocked thread, the lock it waits
 * for, who holds it, and where. deadlock_fixed.c takes the two locks in
 * one global order (by account number).
 *
 * ravel-expect: deadlock
 */
#include <pthread.h>
#include <stdio.h>

struct account {
    int id;
    long balance;
    pthread_mutex_t lock;
};

static struct account alice = {1, 100, PTHREAD_MUTEX_INITIALIZER};
static struct account bob = {2, 100, PTHREAD_MUTEX_INITIALIZER};

struct transfer {
    struct account *from, *to;
    long amount;
};

static void *do_transfer(void *arg)
{
    struct transfer *t = arg;
    pthread_mutex_lock(&t->from->lock);
    pthread_mutex_lock(&t->to->lock);
    t->from->balance -= t->amount;
    t->to->balance += t->amount;
    pthread_mutex_unlock(&t->to->lock);
    pthread_mutex_unlock(&t->from->lock);
    return NULL;
}

int main(void)
{
    struct transfer t1 = {&alice, &bob, 10}, t2 = {&bob, &alice, 20};
    pthread_t a, b;
    pthread_create(&a, NULL, do_transfer, &t1);
    pthread_create(&b, NULL, do_transfer, &t2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("alice %ld, bob %ld\n", alice.balance, bob.balance);
    return 0;
}
