/*
 * An event loop on epoll: two producers each send a message through
 * their own pipe and close it; the loop waits in epoll_wait, reads what
 * is ready, and stops when both pipes reached end of file. A select()
 * with a timeout on a pipe nobody writes returns 0 once the virtual
 * clock passed the timeout. Correct: no report, every trace explored.
 */
#include <assert.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static int pipes[2][2];

static void *producer(void *arg)
{
    int *p = arg;
    (void)!write(p[1], "m", 1);
    close(p[1]);
    return NULL;
}

int main(void)
{
    int ep = epoll_create1(0);
    assert(ep >= 0);
    for (int i = 0; i < 2; i++) {
        if (pipe(pipes[i]))
            return 1;
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = pipes[i][0]};
        epoll_ctl(ep, EPOLL_CTL_ADD, pipes[i][0], &ev);
    }
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, producer, pipes[i]);
    int open_pipes = 2, got = 0;
    while (open_pipes > 0) {
        struct epoll_event evs[2];
        int n = epoll_wait(ep, evs, 2, -1);
        assert(n > 0);
        for (int k = 0; k < n; k++) {
            char c;
            ssize_t r = read(evs[k].data.fd, &c, 1);
            if (r == 1) {
                got++;
            } else {
                epoll_ctl(ep, EPOLL_CTL_DEL, evs[k].data.fd, NULL);
                close(evs[k].data.fd);
                open_pipes--;
            }
        }
    }
    assert(got == 2);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);

    /* Nobody writes this pipe: select times out on the virtual clock. */
    int q[2];
    if (pipe(q))
        return 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fd_set r;
    FD_ZERO(&r);
    FD_SET(q[0], &r);
    struct timeval tv = {2, 0};
    int n = select(q[0] + 1, &r, NULL, NULL, &tv);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert(n == 0 && !FD_ISSET(q[0], &r));
    assert(t1.tv_sec - t0.tv_sec >= 2);
    close(q[0]);
    close(q[1]);
    close(ep);
    return 0;
}
