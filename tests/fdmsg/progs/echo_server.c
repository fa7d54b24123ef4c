/*
 * A loopback TCP echo server thread and two client threads, in one
 * process. The server accepts two connections and hands each to a
 * handler thread, which receives a line and echoes it back. The bug: the
 * handlers keep the connection's request in one shared buffer without a
 * lock, so a handler can echo the other client's line (the kernel's
 * stores into the buffer are the handlers' accesses: a data race).
 * FIXED gives each connection its own buffer.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define LINE 8

static int listener;
static struct sockaddr_in addr;
#ifndef FIXED
static char shared[LINE]; /* the bug: one buffer for every connection */
#endif

static void *handler(void *arg)
{
    int c = (int)(long)arg;
#ifdef FIXED
    char buf[LINE];
#else
    char *buf = shared;
#endif
    ssize_t n = recv(c, buf, LINE, MSG_WAITALL);
    if (n == LINE)
        (void)!send(c, buf, LINE, 0);
    close(c);
    return NULL;
}

static void *server(void *arg)
{
    (void)arg;
    pthread_t h[2];
    for (int i = 0; i < 2; i++) {
        int c = accept(listener, NULL, NULL);
        assert(c >= 0);
        pthread_create(&h[i], NULL, handler, (void *)(long)c);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(h[i], NULL);
    return NULL;
}

static void *client(void *arg)
{
    const char *line = arg;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    assert(s >= 0);
    int rc = connect(s, (struct sockaddr *)&addr, sizeof addr);
    assert(rc == 0);
    (void)!send(s, line, LINE, 0);
    char back[LINE];
    ssize_t n = recv(s, back, LINE, MSG_WAITALL);
    assert(n == LINE && memcmp(back, line, LINE) == 0);
    close(s);
    return NULL;
}

int main(void)
{
    listener = socket(AF_INET, SOCK_STREAM, 0);
    assert(listener >= 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0; /* any free port: bind picks one */
    socklen_t len = sizeof addr;
    if (bind(listener, (struct sockaddr *)&addr, sizeof addr) ||
        getsockname(listener, (struct sockaddr *)&addr, &len) ||
        listen(listener, 8))
        return 1;
    pthread_t s, c[2];
    pthread_create(&s, NULL, server, NULL);
    pthread_create(&c[0], NULL, client, "client1");
    pthread_create(&c[1], NULL, client, "client2");
    for (int i = 0; i < 2; i++)
        pthread_join(c[i], NULL);
    pthread_join(s, NULL);
    close(listener);
    return 0;
}
