/*
 * fixed_file.c - a test that writes, renames, reads back and removes a
 * file of a fixed name in its working directory, as libuv's fs tests
 * and many a test suite's do, with a thread writing a second one.
 *
 * Natively two copies of it at once collide; so did two lanes of ravel
 * running its executions at once: one lane renamed the file away while
 * the other wrote it (libuv's fs_file_async failed its rename with
 * ENOENT, run directly). An execution that changes files holds the
 * machine's names, as one that binds a port does (intercept/fd.c), so
 * that no other lane's execution touches them meanwhile. e2e group
 * "direct" runs it on two lanes.
 *
 * ravel-expect: clean
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int check_file(const char *name, const char *want)
{
    char buf[64] = "";
    FILE *f = fopen(name, "r");
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strcmp(buf, want) != 0;
}

static int write_file(const char *name, const char *text)
{
    FILE *f = fopen(name, "w");
    if (!f)
        return 1;
    int bad = fputs(text, f) < 0;
    return fclose(f) != 0 || bad;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int failed, turns;

/* A few steps between the file's changes: schedules to explore, so that
 * two lanes run executions at once. */
static void turn(void)
{
    pthread_mutex_lock(&lock);
    turns++;
    pthread_mutex_unlock(&lock);
}

static void *second(void *arg)
{
    (void)arg;
    turn();
    int bad = write_file("fixed_file.b", "second\n");
    turn();
    bad = bad || check_file("fixed_file.b", "second\n");
    turn();
    bad = bad || unlink("fixed_file.b") != 0;
    turn();
    turn();
    turn();
    if (bad)
        failed = 1;
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, second, NULL);
    turn();
    int bad = write_file("fixed_file.a", "first\n");
    turn();
    bad = bad || rename("fixed_file.a", "fixed_file.c") != 0;
    turn();
    bad = bad || check_file("fixed_file.c", "first\n");
    turn();
    bad = bad || remove("fixed_file.c") != 0;
    turn();
    turn();
    pthread_join(t, NULL);
    if (bad || failed) {
        perror("fixed_file");
        return 1;
    }
    puts("ok");
    return 0;
}
