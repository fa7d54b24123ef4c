/*
 * hashmap.c - a long execution: a 64-bucket hash map with one mutex per
 * bucket, shared by 4 threads that do OPS operations in total (insert,
 * remove or look up a random key among 4,096; each thread draws its own
 * keys from a fixed xorshift stream, so every run does the same work).
 *
 * usage: hashmap [OPS]   (default 100,000)
 *
 * Every operation takes and releases a bucket lock (two visible steps)
 * and walks a short list (plain accesses the race detector checks), so
 * one execution of 10^6 operations has two million scheduling points.
 * scripts/bench-hashmap runs it at 10^4, 10^5 and 10^6 operations in one
 * execution to show that ravel's cost per operation (time and memory)
 * does not grow with the length of the execution. It is also the third
 * workload of scripts/bench-races (against ThreadSanitizer).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BUCKETS 64
#define THREADS 4
#define KEYS 4096

struct node {
    struct node *next;
    long key, value;
};

struct bucket {
    pthread_mutex_t lock;
    struct node *head;
    long size;
};

static struct bucket map[BUCKETS];
static long ops_per_thread;

static unsigned bucket_of(long key)
{
    return (unsigned)((uint64_t)key * 0x9e3779b97f4a7c15ULL >> 58);
}

static void *worker(void *arg)
{
    uint64_t x = (uint64_t)(uintptr_t)arg * 0x2545f4914f6cdd1dULL + 1;
    long found = 0;
    for (long i = 0; i < ops_per_thread; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        long key = (long)(x % KEYS);
        unsigned op = (unsigned)(x >> 40) % 4;
        struct bucket *b = &map[bucket_of(key)];
        pthread_mutex_lock(&b->lock);
        struct node **p = &b->head;
        while (*p && (*p)->key != key)
            p = &(*p)->next;
        if (op == 0 && *p) { /* remove */
            struct node *d = *p;
            *p = d->next;
            b->size--;
            free(d);
        } else if (op == 1 && !*p) { /* insert */
            struct node *n = malloc(sizeof *n);
            if (!n)
                abort();
            n->key = key;
            n->value = i;
            n->next = b->head;
            b->head = n;
            b->size++;
        } else if (*p) { /* look up */
            found += (*p)->value & 1;
        }
        pthread_mutex_unlock(&b->lock);
    }
    return (void *)found;
}

int main(int argc, char **argv)
{
    long ops = argc > 1 ? atol(argv[1]) : 100000;
    if (ops < THREADS) {
        fprintf(stderr, "usage: hashmap [OPS >= %d]\n", THREADS);
        return 2;
    }
    ops_per_thread = ops / THREADS;
    for (int i = 0; i < BUCKETS; i++) {
        pthread_mutex_init(&map[i].lock, NULL);
        map[i].head = NULL;
        map[i].size = 0;
    }
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i + 1));
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    /* Every bucket's count must match its list. */
    long bad = 0;
    for (int i = 0; i < BUCKETS; i++) {
        long n = 0;
        for (struct node *p = map[i].head; p;) {
            struct node *d = p;
            p = p->next;
            free(d);
            n++;
        }
        map[i].head = NULL;
        bad += n != map[i].size;
    }
    return bad != 0;
}
