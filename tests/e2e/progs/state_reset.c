/*
 * state_reset.c - every execution must start the way the first did: this
 * program checks its starting state and then changes all of it (globals,
 * statics, heap reachable from globals, thread-local data, the working
 * directory, argv as getopt permutes it, open files, a descriptor put at a
 * number of its choosing, exit handlers, thread-specific data keys), so a
 * second execution that is not restored fails its assertions.
 *
 * ravel-expect: clean
 * ravel-args: -v input
 */
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int counter;
static int initialised = 5;
static char *buffer;
static _Thread_local int tls;
static int handlers_run;
static int *premain_block;
static pthread_key_t key;

__attribute__((constructor)) static void before_main(void)
{
    premain_block = malloc(4 * sizeof *premain_block);
    premain_block[0] = 11;
}

static void at_exit_handler(void)
{
    handlers_run++;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *thread_body(void *arg)
{
    (void)arg;
    assert(tls == 0);
    tls = 1;
    pthread_mutex_lock(&lock);
    counter++;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    static int calls;
    assert(counter == 0);
    assert(initialised == 5);
    assert(calls == 0);
    assert(buffer == NULL);
    assert(tls == 0);
    assert(premain_block[0] == 11);
    assert(argc == 3 && !strcmp(argv[1], "-v") && !strcmp(argv[2], "input"));
    char cwd[4096];
    assert(getcwd(cwd, sizeof cwd) && strcmp(cwd, "/") != 0);
    assert(getenv("RAVEL_E2E_SET") == NULL);
    int fd = open("/dev/null", O_RDONLY);
    assert(fd >= 0 && fd < 64); /* descriptors do not pile up */
    FILE *f = fopen("/dev/null", "r");
    assert(f != NULL);
    /* dup2 to a high number: the lowest free one says nothing of it. */
    assert(fcntl(200, F_GETFD) == -1);

    /* Change everything. */
    calls++;
    initialised = 6;
    buffer = malloc(1 << 16); /* never freed: ravel releases it */
    tls = 3;
    premain_block[0] = 12;
    free(premain_block); /* freed during the execution: deferred */
    atexit(at_exit_handler);
    setenv("RAVEL_E2E_SET", "1", 1);
    assert(chdir("/") == 0);
    /* Moved: the lowest number is free again, 200 is left open. */
    assert(dup2(fd, 200) == 200 && close(fd) == 0);
    int opt, verbose = 0;
    while ((opt = getopt(argc, argv, "v")) != -1)
        verbose += opt == 'v';
    assert(verbose == 1); /* getopt starts over in every execution */
    pthread_key_create(&key, NULL);
    pthread_t t1, t2;
    pthread_create(&t1, NULL, thread_body, NULL);
    pthread_create(&t2, NULL, thread_body, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    assert(counter == 2);
    return 0;
}
