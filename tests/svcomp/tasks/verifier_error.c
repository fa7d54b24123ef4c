/* The older convention: __VERIFIER_error() is the error location. A
 * flag handed over without synchronisation beyond a mutex-protected
 * check: the reader can see ready before data is written in the order
 * the writer uses. */
extern void __VERIFIER_error() __attribute__((__noreturn__));

#include <pthread.h>

int data = 0, ready = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg)
{
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    data = 42;
    pthread_mutex_unlock(&m);
    return 0;
}

void *reader(void *arg)
{
    pthread_mutex_lock(&m);
    if (ready && data != 42) {
        ERROR: __VERIFIER_error();
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void)
{
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
