/*
 * epoll's ready list is in the order descriptors became ready: two
 * producers write to their own pipes and a loop reads them in the order
 * epoll_wait gives. Writes to different pipes of one epoll set do not
 * commute; DPOR must find exactly the traces DFS finds.
 */
#include <pthread.h>
#include <sys/epoll.h>
#include <unistd.h>
static int p[2][2];
static void *producer(void *a) { int *q = a; (void)!write(q[1], "a", 1); return 0; }
int main(void) {
    int ep = epoll_create1(0);
    for (int i = 0; i < 2; i++) { pipe(p[i]);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = p[i][0]};
    epoll_ctl(ep, EPOLL_CTL_ADD, p[i][0], &ev); }
    pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, producer, p[i]);
    int got = 0;
    while (got < 2) {
        struct epoll_event evs[2];
        int n = epoll_wait(ep, evs, 2, -1);
        for (int k = 0; k < n; k++) { char c; if (read(evs[k].data.fd, &c, 1) == 1) got++; }
    }
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    return 0;
}
