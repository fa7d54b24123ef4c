/*
 * vtime.c - a program that reads the clock, sleeps, waits with deadlines
 * and draws random numbers, as programs do; under ravel all of it must be
 * deterministic per execution (src/rt/intercept/time.c):
 *
 *   - a loop bounded by one second of time() ends (virtual time advances
 *     when read), and a worker's update can land anywhere in it;
 *   - a timed wait that times out leaves the clock at its deadline, and a
 *     sleep advances it by the time asked (every clock id agrees);
 *   - rand() seeded from gettimeofday(), random(), drand48(), getrandom()
 *     and /dev/urandom give the same values in every execution: the
 *     program declares them as its result (ravel_result), so a value that
 *     differed between executions would be reported as nondeterminism, and
 *     DPOR would stop with "behaved differently when re-executed".
 *
 * Expected: no report, and DPOR explores every trace (e2e group
 * "written").
 */
#include <ravel.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static long ticks, bonus;

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    bonus = ticks; /* wherever the schedule puts it */
    pthread_mutex_unlock(&lock);
    return NULL;
}

static long long ns(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(void)
{
    /* Hidden inputs, read before any thread exists. */
    struct timeval tv;
    gettimeofday(&tv, NULL);
    srand((unsigned)(tv.tv_sec ^ tv.tv_usec));
    unsigned long long h = (unsigned long long)rand();
    h = h * 31 + (unsigned long long)random();
    h = h * 31 + (unsigned long long)(drand48() * 1e9);
    unsigned char b[8] = {0};
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
        return 1;
    for (int i = 0; i < 8; i++)
        h = h * 31 + b[i];
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd < 0 || read(fd, b, sizeof b) != (ssize_t)sizeof b)
        return 1;
    close(fd);
    for (int i = 0; i < 8; i++)
        h = h * 31 + b[i];
    FILE *f = fopen("/dev/urandom", "r");
    if (!f || fread(b, 1, sizeof b, f) != sizeof b)
        return 1;
    fclose(f);
    for (int i = 0; i < 8; i++)
        h = h * 31 + b[i];
    ravel_result((long long)(h & 0x7fffffffffffffffULL));

    /* A timed wait nobody signals times out at its deadline. */
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_nsec += 50000000;
    if (dl.tv_nsec >= 1000000000) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&lock);
    int rc = pthread_cond_timedwait(&never, &lock, &dl);
    pthread_mutex_unlock(&lock);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    assert(rc == ETIMEDOUT);
    assert(now.tv_sec > dl.tv_sec ||
           (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec));

    /* Sleeping two seconds moves every clock by at least that. */
    long long m0 = ns(CLOCK_MONOTONIC), c0 = (long long)clock();
    struct timespec two = {2, 0};
    nanosleep(&two, NULL);
    assert(ns(CLOCK_MONOTONIC) - m0 >= 2000000000LL);
    time_t t0 = time(NULL);
    sleep(3);
    assert(time(NULL) - t0 >= 3);
    assert((long long)clock() >= c0);

    /* A loop bounded by one second ends; the worker runs somewhere. */
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    time_t start = time(NULL);
    while (time(NULL) - start < 1) {
        pthread_mutex_lock(&lock);
        ticks++;
        pthread_mutex_unlock(&lock);
    }
    pthread_join(t, NULL);
    assert(bonus <= ticks);
    printf("%ld iterations in one second of virtual time\n", ticks);
    return 0;
}
