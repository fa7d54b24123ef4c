/*
 * A dispatcher and two workers over socket pairs. The dispatcher sends
 * request 1 to worker A and request 2 to worker B, each on its own
 * socket pair; both workers answer on one shared reply socket pair (a
 * datagram per reply). The bug: the dispatcher takes the first reply to
 * be the answer to request 1 - but B can answer first, and its reply
 * overtakes A's. FIXED matches replies by their request id.
 */
#include <assert.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

static int to_worker[2][2]; /* [worker][end]: the dispatcher writes 0 */
static int replies[2];      /* workers write end 1, the dispatcher reads 0 */

static void *worker(void *arg)
{
    int me = (int)(long)arg;
    int req;
    if (read(to_worker[me][1], &req, sizeof req) != sizeof req)
        return NULL;
    int reply[2] = {req, req * 10};
    (void)!send(replies[1], reply, sizeof reply, 0);
    return NULL;
}

int main(void)
{
    for (int i = 0; i < 2; i++)
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, to_worker[i]))
            return 1;
    if (socketpair(AF_UNIX, SOCK_DGRAM, 0, replies))
        return 1;
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++) {
        int req = i + 1;
        (void)!write(to_worker[i][0], &req, sizeof req);
    }
    int answer[3] = {0, 0, 0};
    for (int i = 0; i < 2; i++) {
        int reply[2];
        if (recv(replies[0], reply, sizeof reply, 0) != sizeof reply)
            return 1;
#ifdef FIXED
        answer[reply[0]] = reply[1];
#else
        answer[i + 1] = reply[1]; /* assumes replies come in order */
#endif
    }
    assert(answer[1] == 10 && answer[2] == 20);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
