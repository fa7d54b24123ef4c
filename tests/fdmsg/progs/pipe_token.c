/*
 * A pipe used as a lock: it holds one byte, the token; two threads each
 * read it (take), note their turn, and write it back (give). Every
 * operation on the pipe is dependent with every other, so B's read
 * happens after A's write back; DPOR must still try B taking the token
 * first (src/explore/systematic.c, wait_races). The "bug" is that order:
 * thread 1.2 (B) taking the token before 1.1 (A), seen in who went last.
 * FIXED asserts nothing: both orders, two traces (as DFS finds).
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static int p[2];
static atomic_int last;

static void *take_turn(void *arg)
{
    char c;
    if (read(p[0], &c, 1) != 1)
        return NULL;
    atomic_store(&last, (int)(long)arg);
    (void)!write(p[1], &c, 1);
    return NULL;
}

int main(void)
{
    if (pipe(p))
        return 1;
    (void)!write(p[1], "t", 1);
    pthread_t a, b;
    pthread_create(&a, NULL, take_turn, (void *)1L);
    pthread_create(&b, NULL, take_turn, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
#ifndef FIXED
    assert(atomic_load(&last) != 1); /* A went last: B took it first */
#endif
    return 0;
}
