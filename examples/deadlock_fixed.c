/*
 * deadlock_fixed.c - deadlock.c with the locks always taken in the order
 * of the account numbers, whichever direction the money goes.
 *
 * ravel-expect: clean
 */
#include <assert.h>
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
    struct account *first = t->from->id < t->to->id ? t->from : t->to;
    struct account *second = first == t->from ? t->to : t->from;
    pthread_mutex_lock(&first->lock);
    pthread_mutex_lock(&second->lock);
    t->from->balance -= t->amount;
    t->to->balance += t->amount;
    pthread_mutex_unlock(&second->lock);
    pthread_mutex_unlock(&first->lock);
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
    assert(alice.balance + bob.balance == 200);
    return 0;
}
