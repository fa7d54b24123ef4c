/*
 * logger.c - a logger thread that loses the last message when stopped.
 *
 * The program sends log lines to a logger thread through a one-slot
 * mailbox (a mutex, a condition variable, a "full" flag). Stopping sets a
 * flag and joins the logger. The logger takes the command first - is it
 * asked to stop? - and the log line second, in two separate critical
 * sections. If the last line arrives and stop is requested before the
 * logger looks, it sees "stop", exits, and the line still sitting in the
 * mailbox is never written: the check ("stopping?") happens between
 * taking the command and taking the log.
 *
 *     ravel run --seed 1 -- ./logger
 *
 * logger_fixed.c decides under one lock: it only stops once the mailbox
 * is empty.
 *
 * ravel-expect: assertion
 */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static struct mailbox {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool full;
    bool stop;
    char text[64];
} mb = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false,
        ""};

static int lines_written;

static void write_line(const char *text)
{
    printf("log: %s\n", text);
    lines_written++;
}

static void *logger(void *arg)
{
    (void)arg;
    for (;;) {
        /* Take the command. */
        pthread_mutex_lock(&mb.lock);
        while (!mb.full && !mb.stop)
            pthread_cond_wait(&mb.changed, &mb.lock);
        bool stopping = mb.stop;
        pthread_mutex_unlock(&mb.lock);
        if (stopping)
            break; /* a line may still be in the mailbox */

        /* Take the log line. */
        pthread_mutex_lock(&mb.lock);
        write_line(mb.text);
        mb.full = false;
        pthread_cond_broadcast(&mb.changed);
        pthread_mutex_unlock(&mb.lock);
    }
    return NULL;
}

static void send_line(const char *text)
{
    pthread_mutex_lock(&mb.lock);
    while (mb.full)
        pthread_cond_wait(&mb.changed, &mb.lock);
    snprintf(mb.text, sizeof mb.text, "%s", text);
    mb.full = true;
    pthread_cond_broadcast(&mb.changed);
    pthread_mutex_unlock(&mb.lock);
}

static void stop_logger(pthread_t t)
{
    pthread_mutex_lock(&mb.lock);
    mb.stop = true;
    pthread_cond_broadcast(&mb.changed);
    pthread_mutex_unlock(&mb.lock);
    pthread_join(t, NULL);
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, logger, NULL);
    send_line("starting");
    send_line("working");
    send_line("done");
    stop_logger(t);
    printf("%d of 3 lines written\n", lines_written);
    assert(lines_written == 3);
    return 0;
}
