/*
 * sockfill.c - two socket tests in the shape of a network library's
 * suite (the shapes come from tezc/sc's sc_socket_test, run with
 * CC=ravel-cc under ctest; this code is written here), each once failing
 * under ravel when run directly:
 *
 *   fill    main connects to its own loopback listener, makes both ends
 *           non-blocking, sends 7 bytes at a time until the kernel says
 *           EAGAIN, then reads the bytes back one per recv until EAGAIN.
 *           Every call is a visible step: tens of thousands of reads,
 *           each taking its byte from one of thousands of writes. With
 *           an argument "fail" it then fails an assertion, so a report
 *           shows that long execution: the report's data-flow notes
 *           ("read fd5 = 1 (from 1)") looked for each read's writes by
 *           scanning every earlier step, quadratic in the length (the
 *           sc suite's 4.6 million steps took hours to report), and are
 *           now found by a binary search (src/report/report.c).
 *   accept  four threads each poll a non-blocking listening socket for
 *           2 s and try to accept; main sleeps 0.5 s, connects once and
 *           expects exactly one thread to have accepted it (the others
 *           get EAGAIN or time out). Natively it passes unless main is
 *           held up for 1.5 s. The first execution of a direct run made
 *           the new threads' polls time out at once (main's sleep lets
 *           them run, and a timeout is always a possible choice), so the
 *           program's own run failed; the systematic strategies now
 *           prefer a thread that does not time out when they pick a new
 *           branch (src/explore/systematic.c). Exploring further still
 *           finds the schedule where every poll times out first: the
 *           test does depend on timing.
 *
 *   leak    main opens a socket, then listens on a fixed loopback port
 *           (from its pid, the same in every execution of a run) with
 *           SO_REUSEADDR, closes the first socket and leaves the
 *           listener open for the process's exit to close, as tests do;
 *           two threads race on a counter so that there are several
 *           executions. Between executions ravel closes what one left
 *           open, but looked for leftovers only when the lowest free
 *           descriptor was taken: here it is free (the first socket was
 *           closed) and the listener above it stayed bound, so the next
 *           execution's bind failed with EADDRINUSE.
 *
 * Expected, run directly: "fill ok" / "accepted 1" / "leak ok" on stdout,
 * exit 0 (accept: with RAVEL_OPTIONS=executions=1, its own run only).
 * e2e group "written".
 */
#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int listener(struct sockaddr_in *a)
{
    int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    assert(l >= 0);
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(a, 0, sizeof *a);
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof *a;
    int rc = bind(l, (struct sockaddr *)a, sizeof *a);
    assert(rc == 0);
    rc = listen(l, 8);
    assert(rc == 0);
    rc = getsockname(l, (struct sockaddr *)a, &len);
    assert(rc == 0);
    (void)rc;
    return l;
}

static int fill_test(int fail)
{
    struct sockaddr_in a;
    int l = listener(&a);
    int c = socket(AF_INET, SOCK_STREAM, 0);
    int rc = connect(c, (struct sockaddr *)&a, sizeof a);
    assert(rc == 0);
    int s = accept(l, NULL, NULL);
    assert(s >= 0);
    /* Small kernel buffers keep the test short. */
    int sz = 65536;
    setsockopt(s, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
    setsockopt(c, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
    fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
    fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK);
    long sent = 0, got = 0;
    for (;;) {
        ssize_t w = send(s, "blaBLA", 7, 0);
        if (w < 0) {
            assert(errno == EAGAIN || errno == EWOULDBLOCK);
            break;
        }
        sent += w;
    }
    assert(sent > 0);
    while (got < sent) {
        char b;
        ssize_t r = recv(c, &b, 1, 0);
        if (r < 0) {
            assert(errno == EAGAIN || errno == EWOULDBLOCK);
            struct pollfd p = {c, POLLIN, 0};
            poll(&p, 1, -1);
            continue;
        }
        assert(r == 1);
        got++;
    }
    assert(got == sent);
    assert(!fail);
    close(s);
    close(c);
    close(l);
    puts("fill ok");
    return 0;
}

static int srv;

static void *acceptor(void *arg)
{
    (void)arg;
    struct pollfd p = {srv, POLLIN, 0};
    if (poll(&p, 1, 2000) != 1)
        return NULL; /* timed out */
    int s = accept(srv, NULL, NULL);
    if (s < 0) {
        assert(errno == EAGAIN || errno == EWOULDBLOCK);
        return NULL; /* another thread took it */
    }
    close(s);
    return &srv;
}

static int accept_test(void)
{
    enum { N = 4 };
    struct sockaddr_in a;
    srv = listener(&a);
    fcntl(srv, F_SETFL, fcntl(srv, F_GETFL) | O_NONBLOCK);
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, acceptor, NULL);
    usleep(500 * 1000);
    int c = socket(AF_INET, SOCK_STREAM, 0);
    int rc = connect(c, (struct sockaddr *)&a, sizeof a);
    assert(rc == 0);
    (void)rc;
    int accepted = 0;
    for (int i = 0; i < N; i++) {
        void *r;
        pthread_join(t[i], &r);
        accepted += r != NULL;
    }
    printf("accepted %d\n", accepted);
    assert(accepted == 1);
    close(c);
    close(srv);
    return 0;
}

static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static int count;

static void *bump(void *arg)
{
    pthread_mutex_lock(&count_lock);
    count++;
    pthread_mutex_unlock(&count_lock);
    return arg;
}

static int leak_test(void)
{
    int first = socket(AF_INET, SOCK_STREAM, 0);
    int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    assert(first >= 0 && l > first);
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((unsigned short)(20000 + getpid() % 20000));
    if (bind(l, (struct sockaddr *)&a, sizeof a) != 0) {
        perror("leak: bind");
        return 1;
    }
    int rc = listen(l, 4);
    assert(rc == 0);
    (void)rc;
    close(first);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, bump, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    puts("leak ok");
    return 0; /* l stays open until exit */
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "fill";
    if (!strcmp(mode, "fill"))
        return fill_test(argc > 2 && !strcmp(argv[2], "fail"));
    if (!strcmp(mode, "accept"))
        return accept_test();
    if (!strcmp(mode, "leak"))
        return leak_test();
    fprintf(stderr, "sockfill: unknown mode %s\n", mode);
    return 2;
}
