/*
 * pid.c - a program that uses its process id, as programs do for seeds
 * and temporary file names: two threads read getpid(), main declares it
 * as its result, and signals itself with kill(getpid(), SIGUSR1), whose
 * handler must run (the signal reaches the program, not ravel's
 * supervisor). Every execution must see the same pid (one result), and
 * run directly it prints the pid of the process that was started.
 */
#include <assert.h>
#include <pthread.h>
#include <ravel.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t got;
static pid_t seen[2];

static void on_usr1(int sig)
{
    (void)sig;
    got = 1;
}

static void *reader(void *arg)
{
    seen[(long)arg] = getpid();
    return NULL;
}

int main(void)
{
    signal(SIGUSR1, on_usr1);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, reader, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    pid_t me = getpid();
    assert(seen[0] == me && seen[1] == me);
    kill(me, SIGUSR1);
    assert(got);
    ravel_result(me);
    printf("pid %d\n", (int)me);
    return 0;
}
