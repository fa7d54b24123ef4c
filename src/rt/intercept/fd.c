/*
 * intercept/fd.c - threads that talk through file descriptors: pipes,
 * socket pairs, eventfd, loopback sockets, poll, select and epoll.
 *
 * A thread that blocks in the kernel holds the baton: nothing else runs,
 * and the watchdog would call the execution a hang. So a controlled
 * thread never blocks in the kernel. Every call on a descriptor that
 * ravel controls is a visible operation on a *channel* object (model
 * kind RAVEL__OBJ_FD) and waits, if it must, in the model:
 *
 *     thread A: read(p[0])                thread B: write(p[1], "x", 1)
 *     publish "read pipe(3,4)" (waits)
 *     readiness: poll({3, POLLIN}, 0) = 0
 *       -> not enabled; B runs
 *                                         publish "write pipe(3,4)"
 *                                         chosen; write() for real
 *                                         (the kernel holds the byte)
 *     readiness again: POLLIN -> enabled
 *     chosen; read() for real: returns at once, the byte is there
 *
 * Readiness is asked of the kernel with zero-timeout polls while only
 * one thread runs (so nothing can change it between the test and the
 * call), before every choice in which some thread waits on a descriptor
 * and some descriptor call ran since the last test (ravel__fd_refresh,
 * from sched.c). The kernel keeps the data; ravel keeps only which
 * thread waits for what. A call that would block makes its thread
 * disabled, so a message that never comes is a deadlock, reported with
 * the descriptor and its peer (src/report/report.c). A poll, select or
 * epoll_wait with a timeout is always enabled: when nothing is ready it
 * times out and the virtual clock (time.c) jumps by its timeout; a
 * zero-timeout poll reads readiness.
 *
 * Channels. Both ends of a pipe or socket pair are one object, and so
 * are the two ends of a loopback connection (the connecting socket and
 * the one accept returned, paired through the listener's queue in
 * connect order), so that a write and the peer's read are dependent and
 * DPOR stays exact. Each descriptor operation also touches the
 * every-descriptor object (RAVEL__FD_ALL) in a class that commutes with
 * other descriptor operations but not with a poll of many channels or an
 * epoll_wait, which depend on everything (src/explore/depend.c); once a
 * channel is in an epoll set, its operations are dependent with every
 * descriptor operation, because epoll's ready list is in the order
 * descriptors became ready.
 * connect depends on the socket bound to the address it targets (found
 * by the address bind gave), so a connect before listen is explored too.
 *
 * Data flow. Each channel counts the units written into each of its
 * streams (bytes; messages on datagram sockets; the counter increments
 * of an eventfd) and the units read out; every read or write event
 * records where in its stream it starts, so the report can say which
 * write a read took its bytes from.
 *
 * Only descriptors a controlled thread created during the execution are
 * controlled (with their dup copies). Everything else - files on disk,
 * the standard streams, descriptors inherited or opened before main,
 * ones shared with other processes, stdio streams over pipes (the C
 * library reads them through its internal calls) - passes through to
 * the C library unchanged (docs/limits.md). Descriptors an execution
 * opened are closed between executions (process/reset.c), so numbering
 * starts the same in every execution.
 */
#include "../rt.h"

#include "../../common/hash.h"
#include "real.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

/* The C library's checking variants (_FORTIFY_SOURCE), which its
 * headers declare only as inline wrappers' targets. */
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *buf, size_t n, size_t buflen, int flags,
                       struct sockaddr *from, socklen_t *len);
int __poll_chk(struct pollfd *p, nfds_t n, int ms, size_t len);
int __ppoll_chk(struct pollfd *p, nfds_t n, const struct timespec *t,
                const sigset_t *mask, size_t len);

/* Descriptors above this are not controlled. */
#define MAX_FDS 4096
/* Connections a listening socket holds before accept pairs them. */
#define MAX_BACKLOG 64
/* Channel objects live at addresses no program memory has (above the
 * canonical user half on x86-64 and AArch64). */
#define CHAN_BASE 0xfd00000000000000ULL

struct fdent {
    uint32_t obj; /* channel object + 1; 0: not controlled */
    uint8_t end;
    uint8_t bound; /* `local` holds the address bind or listen gave */
    socklen_t local_len;
    struct sockaddr_storage local;
    /* A listening socket's queue of connections not yet accepted: the
     * connecting side's channel, oldest first. */
    uint32_t queue[MAX_BACKLOG];
    uint32_t qhead, qlen;
};

static struct fdent fds[MAX_FDS];
static int fds_high; /* highest controlled descriptor + 1 this execution */
static uint64_t chan_seq;
static uint32_t all_obj = RAVEL__NONE; /* the every-descriptor object */

/* What a thread parked at a descriptor operation waits for. */
enum { W_NONE, W_READ, W_WRITE, W_POLL, W_EPOLL };
struct waiter {
    uint8_t how;
    int fd;
    const struct pollfd *pfds;
    nfds_t n;
    uint64_t gen; /* fd_gen when its readiness was last tested */
};
static struct waiter waits[RAVEL__MAX_THREADS];
static uint32_t nwaiting;
static bool any_waited; /* waits[] has entries to clear */
/* Bumped by every real call on a controlled descriptor: readiness can
 * have changed only then. */
static uint64_t fd_gen = 1;

bool ravel__fd_opened(void)
{
    return fds_high > 0;
}

void ravel__fd_begin(void)
{
    memset(fds, 0, sizeof fds[0] * (size_t)fds_high);
    fds_high = 0;
    chan_seq = 0;
    all_obj = RAVEL__NONE;
    if (any_waited)
        memset(waits, 0, sizeof waits);
    any_waited = false;
    nwaiting = 0;
    fd_gen++;
}

/* The runtime's own code (libravel_rt.so's executable segments): its
 * calls (addr2line through a pipe when symbolizing, the supervisor's
 * pipes) are never the program's. */
static uint64_t rt_lo[4], rt_hi[4];
static int rt_n = -1;

static int rt_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    uint64_t me = (uint64_t)(uintptr_t)arg;
    int n = 0;
    uint64_t lo[4], hi[4];
    bool mine = false;
    for (int i = 0; i < info->dlpi_phnum && n < 4; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        lo[n] = info->dlpi_addr + ph->p_vaddr;
        hi[n] = lo[n] + ph->p_memsz;
        mine |= me >= lo[n] && me < hi[n];
        n++;
    }
    if (!mine)
        return 0;
    memcpy(rt_lo, lo, sizeof lo);
    memcpy(rt_hi, hi, sizeof hi);
    rt_n = n;
    return 1;
}

static bool in_runtime(uint64_t pc)
{
    if (rt_n < 0) {
        rt_n = 0;
        dl_iterate_phdr(rt_phdr, (void *)(uintptr_t)&in_runtime);
    }
    for (int i = 0; i < rt_n; i++)
        if (pc >= rt_lo[i] && pc < rt_hi[i])
            return true;
    return false;
}

/* The calling thread's worker when ravel controls it and the call at pc
 * is not the runtime's own, else NULL (the call passes through). */
static struct ravel__worker *caller(uint64_t pc)
{
    struct ravel__worker *w = ravel__controlled();
    return w && !in_runtime(pc) ? w : NULL;
}

static struct fdent *ctl(int fd)
{
    if (fd < 0 || fd >= MAX_FDS || !fds[fd].obj)
        return NULL;
    return &fds[fd];
}

static struct ravel__object *obj_of(uint32_t i)
{
    return &ravel__rt.x->objects[i];
}

static uint32_t find_obj(struct ravel__worker *w, uint64_t addr)
{
    struct ravel__exec *x = ravel__rt.x;
    bool created;
    uint32_t i = ravel__obj_find(x, addr, RAVEL__OBJ_FD, &created);
    if (i == RAVEL__NONE)
        ravel__tool_error(w,
                          "one execution uses more than %u synchronisation "
                          "objects",
                          x->max_objects);
    return i;
}

static uint32_t every_fd(struct ravel__worker *w)
{
    if (all_obj == RAVEL__NONE) {
        all_obj = find_obj(w, CHAN_BASE);
        struct ravel__object *o = obj_of(all_obj);
        o->subtype = RAVEL__FD_ALL;
        o->key = ravel__hash_ptr(0x616c6c6664ULL);
        o->fd[0] = o->fd[1] = -1;
    }
    return all_obj;
}

/* A new channel made by thread w. Its key is the making thread's and the
 * number of steps it took before, the same in every execution whatever
 * the interleaving. */
static uint32_t chan_new(struct ravel__worker *w, uint8_t type, int fd0,
                         int fd1)
{
    struct ravel__exec *x = ravel__rt.x;
    uint32_t i = find_obj(w, CHAN_BASE + (++chan_seq << 4));
    struct ravel__object *o = obj_of(i);
    const struct ravel__thread *th = &x->threads[w->slot];
    o->subtype = type;
    o->key = ravel__hash_ptr(th->key ^
                             ravel__hash_ptr(((uint64_t)th->steps << 8) ^
                                             0x4644ULL));
    o->fd[0] = fd0;
    o->fd[1] = fd1;
    return i;
}

static void attach(int fd, uint32_t obj, uint8_t end)
{
    if (fd < 0 || fd >= MAX_FDS)
        return;
    memset(&fds[fd], 0, sizeof fds[fd]);
    fds[fd].obj = obj + 1;
    fds[fd].end = end;
    if (fd + 1 > fds_high)
        fds_high = fd + 1;
}

static bool poll1(int fd, short events)
{
    struct pollfd p = {fd, events, 0};
    return REAL(poll)(&p, 1, 0) != 0; /* ready, error or bad descriptor */
}

static bool ready_now(const struct waiter *wt)
{
    switch (wt->how) {
    case W_READ:
    case W_EPOLL:
        return poll1(wt->fd, POLLIN);
    case W_WRITE:
        return poll1(wt->fd, POLLOUT);
    case W_POLL: {
        static struct pollfd copy[1024];
        if (wt->n > 1024)
            return true; /* the call itself says what it says */
        memcpy(copy, wt->pfds, wt->n * sizeof *copy);
        return REAL(poll)(copy, wt->n, 0) != 0;
    }
    default:
        return true;
    }
}

void ravel__fd_refresh(struct ravel__exec *x)
{
    if (!nwaiting)
        return;
    int saved = errno;
    for (uint32_t t = 0; t < x->nthreads; t++) {
        struct waiter *wt = &waits[t];
        if (wt->how == W_NONE || wt->gen == fd_gen)
            continue;
        wt->gen = fd_gen;
        x->threads[t].fd_ready = ready_now(wt);
    }
    errno = saved;
}

/* One visible descriptor operation of w: publishes it with what it waits
 * for, and returns its event once chosen (*ready: the descriptor was
 * ready when it was chosen). A scheduling point. */
static struct ravel__event *fd_step(struct ravel__worker *w, uint16_t kind,
                                    uint32_t obj, uint32_t obj2, int fd,
                                    int64_t wait, uint8_t how,
                                    const struct pollfd *pfds, nfds_t n,
                                    uint64_t pc, bool *ready)
{
    struct ravel__exec *x = ravel__rt.x;
    struct waiter *wt = &waits[w->slot];
    int saved = errno, rc;
    if (how != W_NONE) {
        *wt = (struct waiter){how, fd, pfds, n, fd_gen - 1};
        nwaiting++;
        any_waited = true;
    }
    x->threads[w->slot].fd_ready = how == W_NONE;
    if (kind == RAVEL__OP_FD_CTL ||
        (obj != RAVEL__NONE && obj_of(obj)->fd_epolled))
        wait |= RAVEL__FD_EPOLLED;
    struct ravel__event *ev = ravel__step(
        w, kind, obj, obj2, (int64_t)(uint32_t)fd | wait, pc, &rc);
    if (how != W_NONE) {
        wt->how = W_NONE;
        nwaiting--;
    }
    if (ready)
        *ready = x->threads[w->slot].fd_ready;
    struct fdent *e = ctl(fd);
    if (e && e->end)
        ev->flags |= RAVEL__EV_END1;
    errno = saved;
    return ev;
}

static bool is_blocking(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl >= 0 && !(fl & O_NONBLOCK);
}

static bool is_socket(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* ---- data flow ------------------------------------------------------ */

/* Which stream a read (or write) at end `end` of channel o moves. */
static unsigned stream_of(const struct ravel__object *o, uint8_t end,
                          bool reading)
{
    if (o->subtype == RAVEL__FD_EVENTFD)
        return 0;
    return reading ? 1u - end : end;
}

/* Units a call moved: bytes, one message, or an eventfd's counter. */
static uint64_t units(const struct ravel__object *o, ssize_t r,
                      const void *buf)
{
    if (o->subtype == RAVEL__FD_EVENTFD && r == 8 && buf) {
        uint64_t v;
        memcpy(&v, buf, 8);
        return v;
    }
    if (o->fd_dgram)
        return 1;
    return (uint64_t)r;
}

/* Fills a read or write event in with what the real call did. */
static void record(struct ravel__event *ev, int fd, bool reading,
                   ssize_t r, int err, const void *buf, bool peek)
{
    struct fdent *e = ctl(fd);
    fd_gen++;
    if (!e)
        return;
    struct ravel__object *o = obj_of(e->obj - 1);
    unsigned s = stream_of(o, e->end, reading);
    if (r < 0) {
        ev->value = err;
        if (err != EAGAIN && err != EWOULDBLOCK)
            ev->flags |= RAVEL__EV_ERROR;
        return;
    }
    uint64_t u = units(o, r, buf);
    ev->value = (int64_t)u;
    if (reading) {
        ev->value2 = (int64_t)o->taken[s];
        if (!peek)
            o->taken[s] += u;
    } else {
        ev->value2 = (int64_t)o->sent[s];
        o->sent[s] += u;
    }
}

/* The kernel reads or writes the program's buffer for it: the data-race
 * detector sees that as the calling thread's access (a read's bytes
 * stored into a shared buffer race like stores of the program's own). */
static void mem_access(struct ravel__worker *w, const void *p, ssize_t n,
                       bool write, uint64_t pc)
{
    if (ravel__race_on && p && n > 0 && ravel__pc_instrumented(pc))
        ravel__race_access(w, p, (uint64_t)n, write, pc);
}

static void iov_access(struct ravel__worker *w, const struct iovec *v, int nv,
                       ssize_t n, bool write, uint64_t pc)
{
    for (int i = 0; i < nv && n > 0; i++) {
        ssize_t k = (ssize_t)v[i].iov_len < n ? (ssize_t)v[i].iov_len : n;
        mem_access(w, v[i].iov_base, k, write, pc);
        n -= k;
    }
}

/* ---- making channels ------------------------------------------------ */

static void made(struct ravel__worker *w, uint8_t type, int fd0, int fd1,
                 bool dgram, uint64_t pc)
{
    ravel__made_fd = true;
    uint32_t c = chan_new(w, type, fd0, fd1);
    obj_of(c)->fd_dgram = dgram;
    attach(fd0, c, 0);
    if (fd1 >= 0)
        attach(fd1, c, 1);
    struct ravel__event *ev = fd_step(w, RAVEL__OP_FD_NEW, c, every_fd(w),
                                      fd0, 0, W_NONE, NULL, 0, pc, NULL);
    ev->value2 = fd0;
}

RAVEL__EXPORT int pipe(int p[2])
{
    int r = REAL(pipe)(p);
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (w && r == 0)
        made(w, RAVEL__FD_PIPE, p[0], p[1], false, RAVEL__CALLER_PC);
    return r;
}

RAVEL__EXPORT int pipe2(int p[2], int flags)
{
    int r = REAL(pipe2)(p, flags);
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (w && r == 0)
        made(w, RAVEL__FD_PIPE, p[0], p[1], (flags & O_DIRECT) != 0,
             RAVEL__CALLER_PC);
    return r;
}

RAVEL__EXPORT int socketpair(int domain, int type, int proto, int sv[2])
{
    int r = REAL(socketpair)(domain, type, proto, sv);
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (w && r == 0) {
        int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
        made(w, RAVEL__FD_SOCKETPAIR, sv[0], sv[1], base != SOCK_STREAM,
             RAVEL__CALLER_PC);
    }
    return r;
}

RAVEL__EXPORT int eventfd(unsigned initval, int flags)
{
    int r = REAL(eventfd)(initval, flags);
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (w && r >= 0)
        made(w, RAVEL__FD_EVENTFD, r, -1, false, RAVEL__CALLER_PC);
    return r;
}

RAVEL__EXPORT int socket(int domain, int type, int proto)
{
    int r = REAL(socket)(domain, type, proto);
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (w && r >= 0) {
        int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
        made(w, RAVEL__FD_SOCKET, r, -1, base != SOCK_STREAM,
             RAVEL__CALLER_PC);
    }
    return r;
}

RAVEL__EXPORT int epoll_create(int size)
{
    int r = REAL(epoll_create)(size);
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (w && r >= 0)
        made(w, RAVEL__FD_EPOLL, r, -1, false, RAVEL__CALLER_PC);
    return r;
}

RAVEL__EXPORT int epoll_create1(int flags)
{
    int r = REAL(epoll_create1)(flags);
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (w && r >= 0)
        made(w, RAVEL__FD_EPOLL, r, -1, false, RAVEL__CALLER_PC);
    return r;
}

/* ---- closing and copying -------------------------------------------- */

/* A step on fd's channel that waits for nothing (close, listen ...). */
static void plain_step(struct ravel__worker *w, uint16_t kind, int fd,
                       uint64_t pc)
{
    struct fdent *e = ctl(fd);
    struct ravel__event *ev = fd_step(w, kind, e->obj - 1, every_fd(w), fd,
                                      0, W_NONE, NULL, 0, pc, NULL);
    ev->value2 = fd;
}

RAVEL__EXPORT int close(int fd)
{
    ravel__snap_spoil();
    if (fd <= 2 && ravel__rt.executing)
        ravel__changed_stdio = true;
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    struct fdent *e = ctl(fd);
    if (!e)
        return REAL(close)(fd);
    if (w) {
        plain_step(w, RAVEL__OP_FD_CLOSE, fd, RAVEL__CALLER_PC);
        struct ravel__object *o = obj_of(e->obj - 1);
        bool other = false; /* another descriptor still open on this end */
        for (int i = 0; i < fds_high; i++)
            other |= i != fd && fds[i].obj == e->obj && fds[i].end == e->end;
        if (!other)
            o->fd_closed |= (uint8_t)(1u << e->end);
    }
    memset(e, 0, sizeof *e);
    fd_gen++;
    return REAL(close)(fd);
}

/* Run directly, fds 1 and 2 are capture files in every execution, the
 * first one's output forwarded as it is printed (process/executor.c,
 * "printed once"): the program asks about its own stdout and stderr, as
 * natively, unless it changed them. */
RAVEL__EXPORT int isatty(int fd)
{
    struct ravel__rt *rt = &ravel__rt;
    if ((fd == 1 || fd == 2) && rt->direct && rt->real_out >= 0 &&
        rt->executing && !ravel__changed_stdio)
        fd = fd == 1 ? rt->real_out : rt->real_err;
    return REAL(isatty)(fd);
}

static void copied(int from, int to, uint64_t pc)
{
    ravel__made_fd = true;
    struct fdent *e = ctl(from);
    if (to >= 0 && to < MAX_FDS)
        memset(&fds[to], 0, sizeof fds[to]);
    if (e && caller(pc) && to >= 0 && to != from)
        attach(to, e->obj - 1, e->end);
    fd_gen++;
}

RAVEL__EXPORT int dup(int fd)
{
    int r = REAL(dup)(fd);
    if (r >= 0)
        copied(fd, r, RAVEL__CALLER_PC);
    return r;
}

RAVEL__EXPORT int dup2(int from, int to)
{
    if (to <= 2 && ravel__rt.executing)
        ravel__changed_stdio = true;
    int r = REAL(dup2)(from, to);
    if (r >= 0) {
        copied(from, r, RAVEL__CALLER_PC);
        if (ravel__rt.executing) /* not ravel's own, between executions */
            ravel__placed_fd = true;
    }
    return r;
}

RAVEL__EXPORT int dup3(int from, int to, int flags)
{
    if (to <= 2 && ravel__rt.executing)
        ravel__changed_stdio = true;
    int r = REAL(dup3)(from, to, flags);
    if (r >= 0) {
        copied(from, r, RAVEL__CALLER_PC);
        if (ravel__rt.executing) /* not ravel's own, between executions */
            ravel__placed_fd = true;
    }
    return r;
}

RAVEL__EXPORT int shutdown(int fd, int how)
{
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(fd))
        return REAL(shutdown)(fd, how);
    plain_step(w, RAVEL__OP_FD_SHUTDOWN, fd, RAVEL__CALLER_PC);
    int r = REAL(shutdown)(fd, how);
    fd_gen++;
    return r;
}

/* ---- reading -------------------------------------------------------- */

/*
 * The shape of every read: wait (in the model) until fd is readable
 * unless it does not block, then make the real call, which cannot block
 * now; returns its result with errno set. Uses `pc`.
 */
#define READ_BODY(fd, nonblock_flag, buf, peek, REALCALL)                      \
    do {                                                                       \
        uint64_t pc_ = pc;                                                     \
        struct fdent *e_ = ctl(fd);                                            \
        bool wait_ = !(nonblock_flag) && is_blocking(fd);                     \
        struct ravel__event *ev_ = fd_step(                                    \
            w, RAVEL__OP_FD_READ, e_->obj - 1, every_fd(w), fd,                \
            wait_ ? RAVEL__FD_WAITS : 0, W_READ, NULL, 0, pc_, NULL);         \
        ssize_t r_ = (REALCALL);                                               \
        int err_ = errno;                                                      \
        record(ev_, fd, true, r_, err_, (buf), (peek));                        \
        ACCESS(r_);                                                            \
        errno = err_;                                                          \
        return r_;                                                             \
    } while (0)

#define ACCESS(r) mem_access(w, buf, r, true, pc_)

static ssize_t read_impl(int fd, void *buf, size_t n, uint64_t pc)
{
    struct ravel__worker *w = caller(pc);
    if (!w || !ctl(fd))
        return REAL(read)(fd, buf, n);
    READ_BODY(fd, false, buf, false, REAL(read)(fd, buf, n));
}

RAVEL__EXPORT ssize_t read(int fd, void *buf, size_t n)
{
    return read_impl(fd, buf, n, RAVEL__CALLER_PC);
}

RAVEL__EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
    if (n > buflen)
        return REAL(__read_chk)(fd, buf, n, buflen);
    return read_impl(fd, buf, n, RAVEL__CALLER_PC);
}

RAVEL__EXPORT ssize_t readv(int fd, const struct iovec *iov, int n)
{
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(fd))
        return REAL(readv)(fd, iov, n);
    uint64_t pc = RAVEL__CALLER_PC;
#undef ACCESS
#define ACCESS(r) iov_access(w, iov, n, r, true, pc_)
    READ_BODY(fd, false, n > 0 ? iov[0].iov_base : NULL, false,
              REAL(readv)(fd, iov, n));
#undef ACCESS
#define ACCESS(r) mem_access(w, buf, r, true, pc_)
}

static ssize_t recv_impl(int fd, void *buf, size_t n, int flags, uint64_t pc)
{
    struct ravel__worker *w = caller(pc);
    if (!w || !ctl(fd))
        return REAL(recv)(fd, buf, n, flags);
    if (flags & MSG_WAITALL) {
        /* Until n bytes, end of stream or an error: one step per piece. */
        size_t got = 0;
        int f = flags & ~MSG_WAITALL;
        for (;;) {
            struct fdent *e = ctl(fd);
            if (!e)
                return REAL(recv)(fd, (char *)buf + got, n - got, flags);
            bool blocks = !(f & MSG_DONTWAIT) && is_blocking(fd);
            struct ravel__event *ev = fd_step(
                w, RAVEL__OP_FD_READ, e->obj - 1, every_fd(w), fd,
                blocks ? RAVEL__FD_WAITS : 0, W_READ, NULL, 0, pc, NULL);
            ssize_t r = REAL(recv)(fd, (char *)buf + got, n - got,
                                   f | MSG_DONTWAIT);
            int err = errno;
            record(ev, fd, true, r, err, NULL, (f & MSG_PEEK) != 0);
            mem_access(w, (char *)buf + got, r, true, pc);
            if (r > 0)
                got += (size_t)r;
            if (r == 0 || got == n || (r < 0 && (err != EAGAIN || !blocks)))
                return got ? (ssize_t)got : r;
            if (r < 0)
                errno = err;
        }
    }
    READ_BODY(fd, flags & MSG_DONTWAIT, buf, (flags & MSG_PEEK) != 0,
              REAL(recv)(fd, buf, n, flags));
}

RAVEL__EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags)
{
    return recv_impl(fd, buf, n, flags, RAVEL__CALLER_PC);
}

RAVEL__EXPORT ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen,
                                 int flags)
{
    if (n > buflen)
        return REAL(__recv_chk)(fd, buf, n, buflen, flags);
    return recv_impl(fd, buf, n, flags, RAVEL__CALLER_PC);
}

static ssize_t recvfrom_impl(int fd, void *buf, size_t n, int flags,
                             struct sockaddr *from, socklen_t *len,
                             uint64_t pc)
{
    struct ravel__worker *w = caller(pc);
    if (!w || !ctl(fd))
        return REAL(recvfrom)(fd, buf, n, flags, from, len);
    READ_BODY(fd, flags & MSG_DONTWAIT, buf, (flags & MSG_PEEK) != 0,
              REAL(recvfrom)(fd, buf, n, flags & ~MSG_WAITALL, from, len));
}

RAVEL__EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags,
                               __SOCKADDR_ARG from, socklen_t *len)
{
    return recvfrom_impl(fd, buf, n, flags, from.__sockaddr__, len,
                         RAVEL__CALLER_PC);
}

RAVEL__EXPORT ssize_t __recvfrom_chk(int fd, void *buf, size_t n,
                                     size_t buflen, int flags,
                                     struct sockaddr *from, socklen_t *len)
{
    if (n > buflen)
        return REAL(__recvfrom_chk)(fd, buf, n, buflen, flags, from, len);
    return recvfrom_impl(fd, buf, n, flags, from, len, RAVEL__CALLER_PC);
}

RAVEL__EXPORT ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(fd))
        return REAL(recvmsg)(fd, m, flags);
    uint64_t pc = RAVEL__CALLER_PC;
#undef ACCESS
#define ACCESS(r) iov_access(w, m->msg_iov, (int)m->msg_iovlen, r, true, pc_)
    READ_BODY(fd, flags & MSG_DONTWAIT, NULL, (flags & MSG_PEEK) != 0,
              REAL(recvmsg)(fd, m, flags & ~MSG_WAITALL));
#undef ACCESS
}

RAVEL__EXPORT int eventfd_read(int fd, eventfd_t *value)
{
    return read_impl(fd, value, sizeof *value, RAVEL__CALLER_PC) ==
                   sizeof *value
               ? 0
               : -1;
}

/* ---- writing -------------------------------------------------------- */

/* Writes without blocking: the descriptor was ready, but a blocking
 * write of more than the room there is would wait for the rest. */
static ssize_t write_nb(int fd, bool sock, const void *buf, size_t n,
                        int flags, const struct sockaddr *to, socklen_t tolen,
                        uint8_t type)
{
    if (sock)
        return REAL(sendto)(fd, buf, n, flags | MSG_DONTWAIT, to, tolen);
    if (n <= PIPE_BUF && type == RAVEL__FD_PIPE)
        return REAL(write)(fd, buf, n); /* POLLOUT: a page is free */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0 && !(fl & O_NONBLOCK))
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    ssize_t r = REAL(write)(fd, buf, n);
    int err = errno;
    if (fl >= 0 && !(fl & O_NONBLOCK))
        fcntl(fd, F_SETFL, fl);
    errno = err;
    return r;
}

/* write, send, sendto: until all is written on a blocking descriptor, one
 * step per piece that fits. */
static ssize_t write_all(struct ravel__worker *w, int fd, const void *buf,
                         size_t n, int flags, const struct sockaddr *to,
                         socklen_t tolen, bool sock, uint64_t pc)
{
    size_t done = 0;
    for (;;) {
        struct fdent *e = ctl(fd);
        if (!e)
            return REAL(write)(fd, (const char *)buf + done, n - done);
        uint8_t type = obj_of(e->obj - 1)->subtype;
        bool blocks = !(flags & MSG_DONTWAIT) && is_blocking(fd);
        struct ravel__event *ev =
            fd_step(w, RAVEL__OP_FD_WRITE, e->obj - 1, every_fd(w), fd,
                    blocks ? RAVEL__FD_WAITS : 0, W_WRITE, NULL, 0, pc, NULL);
        ssize_t r = write_nb(fd, sock, (const char *)buf + done, n - done,
                             flags, to, tolen, type);
        int err = errno;
        record(ev, fd, false, r, err, (const char *)buf + done, false);
        mem_access(w, (const char *)buf + done, r, false, pc);
        if (r > 0)
            done += (size_t)r;
        bool more = blocks && done < n &&
                    (r > 0 || (r < 0 && (err == EAGAIN || err == EWOULDBLOCK)));
        if (!more || obj_of(e->obj - 1)->fd_dgram) {
            if (done)
                return (ssize_t)done;
            errno = err;
            return r;
        }
    }
}

RAVEL__EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
    if (fd != ravel__rt.to_sv) {
        ravel__wrote_raw = true;
        ravel__snap_spoil();
    }
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(fd))
        return REAL(write)(fd, buf, n);
    return write_all(w, fd, buf, n, 0, NULL, 0, is_socket(fd),
                     RAVEL__CALLER_PC);
}

RAVEL__EXPORT ssize_t send(int fd, const void *buf, size_t n, int flags)
{
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(fd))
        return REAL(send)(fd, buf, n, flags);
    return write_all(w, fd, buf, n, flags, NULL, 0, true, RAVEL__CALLER_PC);
}

RAVEL__EXPORT ssize_t sendto(int fd, const void *buf, size_t n, int flags,
                             __CONST_SOCKADDR_ARG toarg, socklen_t tolen)
{
    const struct sockaddr *to = toarg.__sockaddr__;
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(fd))
        return REAL(sendto)(fd, buf, n, flags, to, tolen);
    return write_all(w, fd, buf, n, flags, to, tolen, true, RAVEL__CALLER_PC);
}

/* writev and sendmsg: waits until writable, then one call that does not
 * block; a blocking descriptor gets the rest in further steps. */
static ssize_t gather_write(struct ravel__worker *w, int fd,
                            const struct iovec *iov, int niov, int flags,
                            const struct msghdr *m, uint64_t pc)
{
    struct iovec local[64];
    if (niov < 0 || niov > 64)
        return m ? REAL(sendmsg)(fd, m, flags) : REAL(writev)(fd, iov, niov);
    memcpy(local, iov, (size_t)niov * sizeof *iov);
    struct iovec *v = local;
    int nv = niov;
    bool sock = m || is_socket(fd);
    size_t total = 0;
    for (int i = 0; i < niov; i++)
        total += iov[i].iov_len;
    size_t done = 0;
    for (;;) {
        struct fdent *e = ctl(fd);
        if (!e)
            return REAL(writev)(fd, v, nv);
        bool blocks = !(flags & MSG_DONTWAIT) && is_blocking(fd);
        struct ravel__event *ev =
            fd_step(w, RAVEL__OP_FD_WRITE, e->obj - 1, every_fd(w), fd,
                    blocks ? RAVEL__FD_WAITS : 0, W_WRITE, NULL, 0, pc, NULL);
        ssize_t r;
        if (sock) {
            struct msghdr h = {0};
            if (m)
                h = *m;
            h.msg_iov = v;
            h.msg_iovlen = (size_t)nv;
            r = REAL(sendmsg)(fd, &h, flags | MSG_DONTWAIT);
            m = NULL; /* ancillary data and address go with the first */
        } else {
            int fl = fcntl(fd, F_GETFL);
            if (fl >= 0 && !(fl & O_NONBLOCK))
                fcntl(fd, F_SETFL, fl | O_NONBLOCK);
            r = REAL(writev)(fd, v, nv);
            int err = errno;
            if (fl >= 0 && !(fl & O_NONBLOCK))
                fcntl(fd, F_SETFL, fl);
            errno = err;
        }
        int err = errno;
        record(ev, fd, false, r, err, nv ? v[0].iov_base : NULL, false);
        iov_access(w, v, nv, r, false, pc);
        if (r > 0) {
            done += (size_t)r;
            size_t k = (size_t)r;
            while (nv && k >= v->iov_len) {
                k -= v->iov_len;
                v++;
                nv--;
            }
            if (nv) {
                v->iov_base = (char *)v->iov_base + k;
                v->iov_len -= k;
            }
        }
        bool more = blocks && done < total &&
                    (r > 0 || (r < 0 && (err == EAGAIN || err == EWOULDBLOCK)));
        if (!more || obj_of(e->obj - 1)->fd_dgram) {
            if (done)
                return (ssize_t)done;
            errno = err;
            return r;
        }
    }
}

RAVEL__EXPORT ssize_t writev(int fd, const struct iovec *iov, int n)
{
    ravel__wrote_raw = true;
    ravel__snap_spoil();
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(fd))
        return REAL(writev)(fd, iov, n);
    return gather_write(w, fd, iov, n, 0, NULL, RAVEL__CALLER_PC);
}

RAVEL__EXPORT ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(fd))
        return REAL(sendmsg)(fd, m, flags);
    return gather_write(w, fd, m->msg_iov, (int)m->msg_iovlen, flags, m,
                        RAVEL__CALLER_PC);
}

RAVEL__EXPORT int eventfd_write(int fd, eventfd_t value)
{
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    ssize_t r = (!w || !ctl(fd))
                    ? REAL(write)(fd, &value, sizeof value)
                    : write_all(w, fd, &value, sizeof value, 0, NULL, 0,
                                false, RAVEL__CALLER_PC);
    return r == sizeof value ? 0 : -1;
}

/* ---- lanes share the machine's names: addresses and files ----------
 *
 * Lanes (--jobs) are processes of one machine running executions at the
 * same time, and a socket address belongs to the machine. Two lanes'
 * executions that both listen on 127.0.0.1:11000 collide: one bind
 * fails with EADDRINUSE, a failure that no run of the program alone has
 * (tezc/sc's socket test asserted there), and a client in one lane can
 * reach the other lane's server. So an execution that binds a named
 * address (a port, a socket path) or connects to one on this machine
 * first holds the addresses: one lane at a time, common->addr_holder
 * naming its executor's pid. It lets go once the execution is over and
 * the streams and descriptors it opened are closed (ravel__fd_let_go,
 * from executor.c, before the lane waits for any other), or when its
 * process dies: a lane that waits sees the pid gone and takes over. The
 * executions that bind run one after another, as a test suite's runs
 * that use fixed ports must natively; the others do not wait. Waiting is
 * progress, not a hang, for the watchdog.
 *
 * Files are the machine's names too. libuv's fs_file_async, run directly
 * on two lanes, creates, writes and renames test_file in the working
 * directory; the other lane's execution renamed it away in between and
 * the rename failed with ENOENT. So an execution whose program changes
 * a file's contents or names - opens one for writing (open, openat,
 * creat, fopen "w", "a" or "+"), renames, links, unlinks or removes one,
 * makes or removes a directory, truncates by name - holds them as a
 * bind does, from that call on. Reads do not: a file no execution
 * writes is the same for every lane.
 */
static bool addr_held;

/* Is `a` a name other processes of this machine can bind or reach: a
 * port, or a socket path (also abstract)? A port 0 bind picks a free
 * one. Connecting, only an address of this machine counts. */
static bool machine_name(const struct sockaddr *a, socklen_t len,
                         bool connecting)
{
    if (!a)
        return false;
    if (a->sa_family == AF_UNIX)
        return len > offsetof(struct sockaddr_un, sun_path) + 1 ||
               (len == offsetof(struct sockaddr_un, sun_path) + 1 &&
                ((const struct sockaddr_un *)a)->sun_path[0]);
    if (a->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *v = (const void *)a;
        uint32_t ip = ntohl(v->sin_addr.s_addr);
        if (!connecting)
            return v->sin_port != 0;
        return (ip >> 24) == 127 || ip == INADDR_ANY;
    }
    if (a->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *v = (const void *)a;
        if (!connecting)
            return v->sin6_port != 0;
        return IN6_IS_ADDR_LOOPBACK(&v->sin6_addr) ||
               IN6_IS_ADDR_UNSPECIFIED(&v->sin6_addr) ||
               (IN6_IS_ADDR_V4MAPPED(&v->sin6_addr) &&
                v->sin6_addr.s6_addr[12] == 127);
    }
    return false;
}

static void hold_addresses(void)
{
    struct ravel__rt *rt = &ravel__rt;
    if (addr_held || rt->nlanes <= 1 || !rt->common)
        return;
    int err = errno;
    int32_t me = (int32_t)REAL(getpid)();
    _Atomic int32_t *h = &rt->common->addr_holder;
    for (unsigned waited = 0;; waited++) {
        int32_t cur = 0;
        if (atomic_compare_exchange_strong(h, &cur, me))
            break;
        if (cur == me) /* a crashed executor's pid, reused: ours now */
            break;
        if (REAL(kill)(cur, 0) < 0 && errno == ESRCH) {
            atomic_compare_exchange_strong(h, &cur, 0);
            continue;
        }
        REAL(usleep)(waited < 100 ? 100 : 1000);
        atomic_fetch_add(&rt->sh->progress, 1);
    }
    addr_held = true;
    errno = err;
}

void ravel__fd_hold_files(uint64_t pc)
{
    if (!addr_held && caller(pc))
        hold_addresses();
}

/* The calls that change names, each holding them first. */
#define HOLD_FIRST(ret, name, params, args)                                    \
    RAVEL__EXPORT ret name params                                              \
    {                                                                          \
        ravel__fd_hold_files(RAVEL__CALLER_PC);                                \
        return REAL(name) args;                                                \
    }
HOLD_FIRST(int, rename, (const char *a, const char *b), (a, b))
HOLD_FIRST(int, renameat, (int da, const char *a, int db, const char *b),
           (da, a, db, b))
HOLD_FIRST(int, renameat2,
           (int da, const char *a, int db, const char *b, unsigned f),
           (da, a, db, b, f))
HOLD_FIRST(int, unlink, (const char *a), (a))
HOLD_FIRST(int, unlinkat, (int d, const char *a, int f), (d, a, f))
HOLD_FIRST(int, remove, (const char *a), (a))
HOLD_FIRST(int, link, (const char *a, const char *b), (a, b))
HOLD_FIRST(int, linkat, (int da, const char *a, int db, const char *b, int f),
           (da, a, db, b, f))
HOLD_FIRST(int, symlink, (const char *a, const char *b), (a, b))
HOLD_FIRST(int, symlinkat, (const char *a, int d, const char *b), (a, d, b))
HOLD_FIRST(int, mkdir, (const char *a, mode_t m), (a, m))
HOLD_FIRST(int, mkdirat, (int d, const char *a, mode_t m), (d, a, m))
HOLD_FIRST(int, rmdir, (const char *a), (a))
HOLD_FIRST(int, truncate, (const char *a, off_t n), (a, n))
HOLD_FIRST(int, creat, (const char *a, mode_t m), (a, m))
#undef HOLD_FIRST

void ravel__fd_let_go(void)
{
    if (!addr_held)
        return;
    int err = errno;
    ravel__reset_close_files();
    atomic_store(&ravel__rt.common->addr_holder, 0);
    addr_held = false;
    errno = err;
}

/* ---- sockets: bind, listen, connect, accept ------------------------- */

static void remember_local(int fd)
{
    struct fdent *e = ctl(fd);
    if (!e)
        return;
    e->local_len = sizeof e->local;
    e->bound = getsockname(fd, (struct sockaddr *)&e->local,
                           &e->local_len) == 0;
}

RAVEL__EXPORT int bind(int fd, __CONST_SOCKADDR_ARG a, socklen_t len)
{
    bool mine = caller(RAVEL__CALLER_PC) != NULL;
    if (mine && machine_name(a.__sockaddr__, len, false))
        hold_addresses();
    int r = REAL(bind)(fd, a.__sockaddr__, len);
    if (r == 0 && mine && ctl(fd))
        remember_local(fd);
    return r;
}

RAVEL__EXPORT int listen(int fd, int backlog)
{
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(fd))
        return REAL(listen)(fd, backlog);
    plain_step(w, RAVEL__OP_FD_LISTEN, fd, RAVEL__CALLER_PC);
    int r = REAL(listen)(fd, backlog);
    int err = errno;
    remember_local(fd);
    fd_gen++;
    errno = err;
    return r;
}

/* Does a connection to `a` reach the socket bound to `b`? */
static bool same_address(const struct sockaddr *a, socklen_t alen,
                         const struct sockaddr_storage *b)
{
    if (a->sa_family != b->ss_family)
        return false;
    if (a->sa_family == AF_INET && alen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *x = (const void *)a, *y = (const void *)b;
        return x->sin_port == y->sin_port &&
               (x->sin_addr.s_addr == y->sin_addr.s_addr ||
                y->sin_addr.s_addr == htonl(INADDR_ANY));
    }
    if (a->sa_family == AF_INET6 && alen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *x = (const void *)a, *y = (const void *)b;
        return x->sin6_port == y->sin6_port &&
               (!memcmp(&x->sin6_addr, &y->sin6_addr, sizeof x->sin6_addr) ||
                !memcmp(&y->sin6_addr, &in6addr_any, sizeof y->sin6_addr));
    }
    if (a->sa_family == AF_UNIX) {
        const struct sockaddr_un *x = (const void *)a, *y = (const void *)b;
        size_t n = alen > offsetof(struct sockaddr_un, sun_path)
                       ? alen - offsetof(struct sockaddr_un, sun_path)
                       : 0;
        if (n > sizeof x->sun_path)
            n = sizeof x->sun_path;
        return n > 0 && !strncmp(x->sun_path, y->sun_path, n);
    }
    return false;
}

static int bound_to(const struct sockaddr *a, socklen_t len)
{
    if (!a)
        return -1;
    for (int i = 0; i < fds_high; i++)
        if (fds[i].obj && fds[i].bound && same_address(a, len, &fds[i].local))
            return i;
    return -1;
}

RAVEL__EXPORT int connect(int fd, __CONST_SOCKADDR_ARG aarg, socklen_t len)
{
    const struct sockaddr *a = aarg.__sockaddr__;
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    struct fdent *e = ctl(fd);
    if (w && machine_name(a, len, true))
        hold_addresses();
    if (!w || !e)
        return REAL(connect)(fd, a, len);
    uint64_t pc = RAVEL__CALLER_PC;
    int srv = bound_to(a, len);
    uint32_t target = srv >= 0 ? fds[srv].obj - 1 : e->obj - 1;
    struct ravel__event *ev = fd_step(w, RAVEL__OP_FD_CONNECT, target,
                                      every_fd(w), fd, 0, W_NONE, NULL, 0,
                                      pc, NULL);
    /* On loopback to a listening socket the handshake is done by the
     * kernel alone: the call returns without anyone accepting. */
    int r = REAL(connect)(fd, a, len);
    int err = errno;
    ev->value2 = fd;
    if (r < 0) {
        ev->value = err;
        ev->flags |= RAVEL__EV_ERROR;
    }
    fd_gen++;
    if (r == 0 || err == EINPROGRESS) {
        uint32_t c = chan_new(w, RAVEL__FD_CONN, fd, -1);
        e = ctl(fd);
        if (e) {
            e->obj = c + 1;
            e->end = 0;
        }
        struct fdent *l = srv >= 0 ? &fds[srv] : NULL;
        if (l && l->qlen < MAX_BACKLOG)
            l->queue[(l->qhead + l->qlen++) % MAX_BACKLOG] = c;
    }
    errno = err;
    return r;
}

static int accept_common(int fd, struct sockaddr *a, socklen_t *len,
                         int flags, uint64_t pc)
{
    ravel__made_fd = true;
    struct ravel__worker *w = caller(pc);
    struct fdent *e = ctl(fd);
    if (!w || !e)
        return REAL(accept4)(fd, a, len, flags);
    bool blocks = is_blocking(fd);
    struct ravel__event *ev =
        fd_step(w, RAVEL__OP_FD_ACCEPT, e->obj - 1, every_fd(w), fd,
                blocks ? RAVEL__FD_WAITS : 0, W_READ, NULL, 0, pc, NULL);
    int r = REAL(accept4)(fd, a, len, flags);
    int err = errno;
    ev->value = r < 0 ? err : r;
    ev->value2 = fd;
    if (r < 0)
        ev->flags |= RAVEL__EV_ERROR;
    fd_gen++;
    if (r >= 0) {
        e = ctl(fd);
        uint32_t c;
        if (e && e->qlen) {
            /* The oldest connection: the kernel's queue is in connect
             * order too. */
            c = e->queue[e->qhead];
            e->qhead = (e->qhead + 1) % MAX_BACKLOG;
            e->qlen--;
            obj_of(c)->fd[1] = r;
        } else {
            c = chan_new(w, RAVEL__FD_CONN, -1, r);
        }
        attach(r, c, 1);
    }
    errno = err;
    return r;
}

RAVEL__EXPORT int accept(int fd, __SOCKADDR_ARG a, socklen_t *len)
{
    return accept_common(fd, a.__sockaddr__, len, 0, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int accept4(int fd, __SOCKADDR_ARG a, socklen_t *len,
                          int flags)
{
    return accept_common(fd, a.__sockaddr__, len, flags, RAVEL__CALLER_PC);
}

/* ---- poll, select, epoll -------------------------------------------- */

/* How a wait of `ms` milliseconds waits (-1: for ever). */
static int64_t wait_flags(int ms)
{
    return ms < 0 ? RAVEL__FD_WAITS : ms > 0 ? RAVEL__FD_TIMED : 0;
}

/* The objects a poll of these descriptors depends on: the channel of
 * each controlled one (up to two), or the every-descriptor object.
 * Returns how many controlled descriptors there are. */
static nfds_t poll_objects(struct ravel__worker *w, const struct pollfd *p,
                           nfds_t n, uint16_t *kind, uint32_t *o1,
                           uint32_t *o2)
{
    nfds_t k = 0;
    *o1 = *o2 = RAVEL__NONE;
    *kind = RAVEL__OP_FD_POLL;
    for (nfds_t i = 0; i < n; i++) {
        struct fdent *e = ctl(p[i].fd);
        if (!e)
            continue;
        k++;
        uint32_t c = e->obj - 1;
        if (c == *o1 || c == *o2 || *kind == RAVEL__OP_FD_POLL_ALL)
            continue;
        if (*o1 == RAVEL__NONE)
            *o1 = c;
        else if (*o2 == RAVEL__NONE)
            *o2 = c;
        else
            *kind = RAVEL__OP_FD_POLL_ALL;
    }
    if (*kind == RAVEL__OP_FD_POLL_ALL) {
        *o1 = every_fd(w);
        *o2 = RAVEL__NONE;
    }
    return k;
}

/* The controlled part of poll and ppoll: ms < 0 waits for ever. The
 * program's sigmask (ppoll) applies to the zero-timeout call. */
static int poll_controlled(struct ravel__worker *w, struct pollfd *p,
                           nfds_t n, int ms, const sigset_t *mask,
                           uint64_t pc)
{
    uint16_t kind;
    uint32_t o1, o2;
    poll_objects(w, p, n, &kind, &o1, &o2);
    ravel__vtime_deadline_ns(ms > 0 ? (uint64_t)ms * 1000000u : 0);
    for (;;) {
        struct ravel__event *ev =
            fd_step(w, kind, o1, o2, n ? p[0].fd : -1, wait_flags(ms),
                    W_POLL, p, n, pc, NULL);
        struct timespec zero = {0, 0};
        int r = mask ? REAL(ppoll)(p, n, &zero, mask) : REAL(poll)(p, n, 0);
        int err = errno;
        ev->value = r;
        ev->value2 = n ? p[0].fd : -1;
        fd_gen++;
        if (r == 0 && ms > 0)
            ravel__vtime_timed_out_ns((uint64_t)ms * 1000000u);
        if (r != 0 || ms >= 0) {
            errno = err;
            return r;
        }
    }
}

/* A poll with nothing controlled to wait for and a timeout is a sleep on
 * the virtual clock (poll(NULL, 0, ms) is a common one). */
static int poll_sleep(struct ravel__worker *w, int ms, uint64_t pc)
{
    int saved = errno, rc;
    if (ms > 0)
        ravel__vtime_sleep_ns((uint64_t)ms * 1000000u);
    ravel__step(w, RAVEL__OP_SLEEP, RAVEL__NONE, RAVEL__NONE, 0, pc, &rc);
    ravel__vtime_woke();
    errno = saved;
    return 0;
}

static int poll_common(struct pollfd *p, nfds_t n, int ms,
                       const sigset_t *mask, bool have_mask, uint64_t pc)
{
    struct ravel__worker *w = caller(pc);
    uint16_t kind;
    uint32_t o1, o2;
    if (w && poll_objects(w, p, n, &kind, &o1, &o2))
        return poll_controlled(w, p, n, ms, have_mask ? mask : NULL, pc);
    if (w && n == 0 && ms > 0)
        return poll_sleep(w, ms, pc);
    if (w && n == 0 && ms < 0)
        return poll_controlled(w, p, n, ms, NULL, pc); /* for ever */
    if (have_mask) {
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        return REAL(ppoll)(p, n, ms < 0 ? NULL : &ts, mask);
    }
    return REAL(poll)(p, n, ms);
}

static int ms_of(const struct timespec *t)
{
    if (!t)
        return -1;
    int64_t ms = (int64_t)t->tv_sec * 1000 + (t->tv_nsec + 999999) / 1000000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

RAVEL__EXPORT int poll(struct pollfd *p, nfds_t n, int ms)
{
    return poll_common(p, n, ms, NULL, false, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int __poll_chk(struct pollfd *p, nfds_t n, int ms, size_t len)
{
    if (n > len / sizeof *p)
        return REAL(__poll_chk)(p, n, ms, len);
    return poll_common(p, n, ms, NULL, false, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int ppoll(struct pollfd *p, nfds_t n, const struct timespec *t,
                        const sigset_t *mask)
{
    return poll_common(p, n, ms_of(t), mask, true, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int __ppoll_chk(struct pollfd *p, nfds_t n,
                              const struct timespec *t, const sigset_t *mask,
                              size_t len)
{
    if (n > len / sizeof *p)
        return REAL(__ppoll_chk)(p, n, t, mask, len);
    return poll_common(p, n, ms_of(t), mask, true, RAVEL__CALLER_PC);
}

/* select and pselect: the sets as a poll array for the readiness test
 * and the dependencies; the real call, with a zero timeout, fills the
 * program's sets. */
static int select_common(int nfd, fd_set *r, fd_set *wr, fd_set *ex,
                         int ms, const sigset_t *mask, bool have_mask,
                         struct timeval *tv, const struct timespec *ts,
                         uint64_t pc)
{
    struct ravel__worker *w = caller(pc);
    struct pollfd p[256];
    nfds_t n = 0;
    bool controlled = false;
    if (w && nfd >= 0 && nfd <= FD_SETSIZE) {
        for (int fd = 0; fd < nfd; fd++) {
            short ev = 0;
            if (r && FD_ISSET(fd, r))
                ev |= POLLIN;
            if (wr && FD_ISSET(fd, wr))
                ev |= POLLOUT;
            if (ex && FD_ISSET(fd, ex))
                ev |= POLLPRI;
            if (!ev)
                continue;
            if (n == 256) {
                controlled = false;
                break;
            }
            p[n++] = (struct pollfd){fd, ev, 0};
            controlled |= ctl(fd) != NULL;
        }
    }
    if (!controlled) {
        if (w && nfd == 0 && ms > 0)
            return poll_sleep(w, ms, pc);
        return have_mask ? REAL(pselect)(nfd, r, wr, ex, ts, mask)
                         : REAL(select)(nfd, r, wr, ex, tv);
    }
    uint16_t kind;
    uint32_t o1, o2;
    poll_objects(w, p, n, &kind, &o1, &o2);
    fd_set r0, w0, e0;
    if (r)
        r0 = *r;
    if (wr)
        w0 = *wr;
    if (ex)
        e0 = *ex;
    ravel__vtime_deadline_ns(ms > 0 ? (uint64_t)ms * 1000000u : 0);
    for (;;) {
        struct ravel__event *ev = fd_step(w, kind, o1, o2, p[0].fd,
                                          wait_flags(ms), W_POLL, p, n, pc,
                                          NULL);
        int rc;
        if (have_mask) {
            struct timespec zero = {0, 0};
            rc = REAL(pselect)(nfd, r, wr, ex, &zero, mask);
        } else {
            struct timeval zero = {0, 0};
            rc = REAL(select)(nfd, r, wr, ex, &zero);
        }
        int err = errno;
        ev->value = rc;
        ev->value2 = p[0].fd;
        fd_gen++;
        if (rc == 0 && ms > 0) {
            ravel__vtime_timed_out_ns((uint64_t)ms * 1000000u);
            if (tv)
                tv->tv_sec = tv->tv_usec = 0;
        }
        if (rc != 0 || ms >= 0) {
            errno = err;
            return rc;
        }
        if (r)
            *r = r0;
        if (wr)
            *wr = w0;
        if (ex)
            *ex = e0;
    }
}

RAVEL__EXPORT int select(int nfd, fd_set *r, fd_set *wr, fd_set *ex,
                         struct timeval *tv)
{
    int ms = -1;
    if (tv) {
        int64_t v = (int64_t)tv->tv_sec * 1000 + (tv->tv_usec + 999) / 1000;
        ms = v > INT_MAX ? INT_MAX : (int)v;
    }
    return select_common(nfd, r, wr, ex, ms, NULL, false, tv, NULL,
                         RAVEL__CALLER_PC);
}

RAVEL__EXPORT int pselect(int nfd, fd_set *r, fd_set *wr, fd_set *ex,
                          const struct timespec *t, const sigset_t *mask)
{
    return select_common(nfd, r, wr, ex, ms_of(t), mask, true, NULL, t,
                         RAVEL__CALLER_PC);
}

RAVEL__EXPORT int epoll_ctl(int ep, int op, int fd, struct epoll_event *ev)
{
    struct ravel__worker *w = caller(RAVEL__CALLER_PC);
    if (!w || !ctl(ep))
        return REAL(epoll_ctl)(ep, op, fd, ev);
    plain_step(w, RAVEL__OP_FD_CTL, ep, RAVEL__CALLER_PC);
    int r = REAL(epoll_ctl)(ep, op, fd, ev);
    int err = errno;
    struct fdent *e = ctl(fd);
    if (r == 0 && op == EPOLL_CTL_ADD && e)
        obj_of(e->obj - 1)->fd_epolled = 1; /* for the rest of the
                                               execution: conservative */
    fd_gen++;
    errno = err;
    return r;
}

static int epoll_common(int ep, struct epoll_event *evs, int max, int ms,
                        const sigset_t *mask, bool have_mask, uint64_t pc)
{
    struct ravel__worker *w = caller(pc);
    if (!w || !ctl(ep))
        return have_mask ? REAL(epoll_pwait)(ep, evs, max, ms, mask)
                         : REAL(epoll_wait)(ep, evs, max, ms);
    ravel__vtime_deadline_ns(ms > 0 ? (uint64_t)ms * 1000000u : 0);
    for (;;) {
        /* What is ready in the set is decided by every descriptor. */
        struct ravel__event *ev =
            fd_step(w, RAVEL__OP_FD_POLL_ALL, every_fd(w), RAVEL__NONE, ep,
                    wait_flags(ms), W_EPOLL, NULL, 0, pc, NULL);
        int r = have_mask ? REAL(epoll_pwait)(ep, evs, max, 0, mask)
                          : REAL(epoll_wait)(ep, evs, max, 0);
        int err = errno;
        ev->value = r;
        ev->value2 = ep;
        fd_gen++;
        if (r == 0 && ms > 0)
            ravel__vtime_timed_out_ns((uint64_t)ms * 1000000u);
        if (r != 0 || ms >= 0) {
            errno = err;
            return r;
        }
    }
}

RAVEL__EXPORT int epoll_wait(int ep, struct epoll_event *evs, int max, int ms)
{
    return epoll_common(ep, evs, max, ms, NULL, false, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int epoll_pwait(int ep, struct epoll_event *evs, int max,
                              int ms, const sigset_t *mask)
{
    return epoll_common(ep, evs, max, ms, mask, true, RAVEL__CALLER_PC);
}
