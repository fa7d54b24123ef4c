/*
 * wsdeque.c - a Chase-Lev work-stealing deque (fixed capacity, C11
 * atomics as in Lê, Pop, Cohen and Zappa Nardelli's version), written
 * for tests/relaxed/relaxed.py:
 *
 *   wsdeque fenced     the owner's take stores the lowered bottom, then a
 *                      seq_cst fence, then reads top: correct on x86
 *   wsdeque unfenced   no fence: under x86-TSO the lowered bottom can wait
 *                      in the owner's store buffer while a thief reads
 *                      the old one, and the owner reads the old top, so
 *                      both take the same item
 *
 * The owner pushes two items and takes twice; a thief steals twice; every
 * item must be taken exactly once.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define CAP 8

static atomic_long top, bottom;
static atomic_int slots[CAP];
static int fenced;

static void push(int v)
{
    long b = atomic_load_explicit(&bottom, memory_order_relaxed);
    atomic_store_explicit(&slots[b % CAP], v, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
}

/* The owner's end: 0 when empty or lost to a thief. */
static int take(void)
{
    long b = atomic_load_explicit(&bottom, memory_order_relaxed) - 1;
    atomic_store_explicit(&bottom, b, memory_order_relaxed);
    if (fenced)
        atomic_thread_fence(memory_order_seq_cst);
    long t = atomic_load_explicit(&top, memory_order_relaxed);
    int v = 0;
    if (t <= b) {
        v = atomic_load_explicit(&slots[b % CAP], memory_order_relaxed);
        if (t == b) {
            if (!atomic_compare_exchange_strong(&top, &t, t + 1))
                v = 0;
            atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
        }
    } else {
        atomic_store_explicit(&bottom, b + 1, memory_order_relaxed);
    }
    return v;
}

/* A thief's end: 0 when empty or lost. */
static int steal(void)
{
    long t = atomic_load_explicit(&top, memory_order_acquire);
    atomic_thread_fence(memory_order_seq_cst);
    long b = atomic_load_explicit(&bottom, memory_order_acquire);
    if (t >= b)
        return 0;
    int v = atomic_load_explicit(&slots[t % CAP], memory_order_relaxed);
    if (!atomic_compare_exchange_strong(&top, &t, t + 1))
        return 0;
    return v;
}

static int stolen[2];

static void *thief(void *arg)
{
    (void)arg;
    stolen[0] = steal();
    stolen[1] = steal();
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "fenced") && strcmp(argv[1], "unfenced"))) {
        fprintf(stderr, "usage: wsdeque fenced|unfenced\n");
        return 2;
    }
    fenced = !strcmp(argv[1], "fenced");
    push(1);
    push(2);
    pthread_t t;
    pthread_create(&t, NULL, thief, NULL);
    int mine[2] = {take(), take()};
    pthread_join(t, NULL);
    int count[3] = {0, 0, 0};
    for (int i = 0; i < 2; i++) {
        count[mine[i]]++;
        count[stolen[i]]++;
    }
    assert(count[1] == 1 && count[2] == 1);
    return 0;
}
