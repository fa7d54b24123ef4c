/*
 * forks.c - a program that forks a child process while its threads run:
 * the child runs on its own (uncontrolled), prints, and exits; the parent
 * waits for it. Every execution ends normally.
 *
 * ravel-expect: clean
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static atomic_int ticks;

static void *ticker(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ticks, 1);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, ticker, NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* The child: one thread, its own copy of memory. */
        printf("child sees %d tick(s)\n", atomic_load(&ticks));
        exit(7);
    }
    int status;
    assert(waitpid(pid, &status, 0) == pid);
    assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    pthread_join(t, NULL);
    assert(atomic_load(&ticks) == 1);
    return 0;
}
