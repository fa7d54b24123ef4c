/* A reader count taken inside __VERIFIER_atomic_ functions but given back
 * with a plain read and write outside them. Two readers can give it back
 * at once and lose one decrement, or a reader can drop the count to zero
 * while the other is still reading; a writer waiting in its atomic
 * function for the count to reach zero then writes under the reader.
 * The writer's wait ends on a plain write: race-directed scheduling must
 * make that write a step the waiting section sees. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "reader_count.c", 10, "reach_error"); }
extern void __VERIFIER_assume(int);

#include <pthread.h>

int writing = 0, readers = 0, shared = 0;

void __VERIFIER_atomic_start_write(void)
{
    __VERIFIER_assume(writing == 0 && readers == 0);
    writing = 1;
}

void __VERIFIER_atomic_start_read(void)
{
    __VERIFIER_assume(writing == 0);
    readers = readers + 1;
}

void *write_side(void *arg)
{
    __VERIFIER_atomic_start_write();
    shared = shared + 5;
    writing = 0;
    return 0;
}

void *read_side(void *arg)
{
    __VERIFIER_atomic_start_read();
    int first = shared;
    int again = shared;
    if (first != again) {
        ERROR: {reach_error(); abort();}
    }
    int left = readers - 1;
    readers = left;
    return 0;
}

int main(void)
{
    pthread_t a, b, c;
    pthread_create(&a, 0, read_side, 0);
    pthread_create(&b, 0, read_side, 0);
    pthread_create(&c, 0, write_side, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
    return 0;
}
