/*
 * logger_fixed.c - logger.c deciding under one lock: the logger takes the
 * line if there is one, and stops only when asked to and the mailbox is
 * empty.
 *
 * ravel-expect: clean
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

static void *logger(void *arg)
{
    (void)arg;
    for (;;) {
        char line[64];
        pthread_mutex_lock(&mb.lock);
        while (!mb.full && !mb.stop)
            pthread_cond_wait(&mb.changed, &mb.lock);
        if (!mb.full) { /* stop requested and nothing left */
            pthread_mutex_unlock(&mb.lock);
            break;
        }
        memcpy(line, mb.text, sizeof line);
        mb.full = false;
        pthread_cond_broadcast(&mb.changed);
        pthread_mutex_unlock(&mb.lock);
        printf("log: %s\n", line);
        lines_written++;
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
