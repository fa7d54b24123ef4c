/*
 * Small enough for DFS to try every interleaving: a byte through a pipe,
 * a count through an eventfd and a datagram through a socket pair, from
 * three threads, and a reader that polls the pipe and the eventfd and
 * then reads all three. DPOR must find exactly DFS's traces.
 */
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

static int p[2], sp[2], efd;

static void *by_pipe(void *arg)
{
    (void)arg;
    (void)!write(p[1], "a", 1);
    return NULL;
}

static void *by_eventfd(void *arg)
{
    (void)arg;
    uint64_t one = 1;
    (void)!write(efd, &one, sizeof one);
    return NULL;
}

static void *by_socket(void *arg)
{
    (void)arg;
    (void)!send(sp[1], "b", 1, 0);
    return NULL;
}

int main(void)
{
    if (pipe(p) || socketpair(AF_UNIX, SOCK_DGRAM, 0, sp))
        return 1;
    efd = eventfd(0, EFD_NONBLOCK);
    pthread_t t[3];
    pthread_create(&t[0], NULL, by_pipe, NULL);
    pthread_create(&t[1], NULL, by_eventfd, NULL);
    pthread_create(&t[2], NULL, by_socket, NULL);
    struct pollfd w[2] = {{p[0], POLLIN, 0}, {efd, POLLIN, 0}};
    (void)!poll(w, 2, -1);
    char c;
    uint64_t v;
    (void)!read(efd, &v, sizeof v); /* may find nothing: EAGAIN */
    (void)!read(p[0], &c, 1);
    (void)!recv(sp[0], &c, 1, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    return 0;
}
