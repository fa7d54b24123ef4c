/*
 * A server thread and a client thread on a fixed loopback port, as test
 * suites write them (the port is argv[1]). Natively, run once at a time,
 * bind never fails. Lanes (--jobs) run executions at the same time in
 * several processes of one machine, so each execution's bind must not
 * meet another lane's listener (fd.c, "lanes share the machine").
 */
#include <arpa/inet.h>
#include <assert.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static struct sockaddr_in addr;
static int listener;
static _Atomic int counter;
static int rounds = 3;

/* Two of these make the executions many (their increments interleave in
 * every order), so that two lanes' executions overlap in time. */
static void *counting(void *arg)
{
    (void)arg;
    for (int i = 0; i < rounds; i++)
        counter++;
    return NULL;
}

static void *server(void *arg)
{
    (void)arg;
    int c = accept(listener, NULL, NULL);
    assert(c >= 0);
    char buf[4];
    ssize_t n = recv(c, buf, sizeof buf, MSG_WAITALL);
    if (n == (ssize_t)sizeof buf)
        (void)!send(c, buf, sizeof buf, 0);
    close(c);
    return NULL;
}

static void *client(void *arg)
{
    (void)arg;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    assert(s >= 0);
    int rc = connect(s, (struct sockaddr *)&addr, sizeof addr);
    assert(rc == 0);
    (void)!send(s, "ping", 4, 0);
    char back[4];
    ssize_t n = recv(s, back, sizeof back, MSG_WAITALL);
    assert(n == 4 && memcmp(back, "ping", 4) == 0);
    close(s);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    listener = socket(AF_INET, SOCK_STREAM, 0);
    assert(listener >= 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((unsigned short)atoi(argv[1]));
    int rc = bind(listener, (struct sockaddr *)&addr, sizeof addr);
    assert(rc == 0);
    rc = listen(listener, 4);
    assert(rc == 0);
    if (argc > 2)
        rounds = atoi(argv[2]);
    pthread_t s, c, k[2];
    pthread_create(&s, NULL, server, NULL);
    pthread_create(&c, NULL, client, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&k[i], NULL, counting, NULL);
    pthread_join(c, NULL);
    pthread_join(s, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(k[i], NULL);
    close(listener);
    return 0;
}
