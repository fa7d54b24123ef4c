/*
 * reset.c - putting the program back as it was before its first
 * execution.
 *
 * ravel re-runs main in the same process for every execution (fork per
 * execution costs about 2.5 ms here, a thousand times a handoff). So
 * between executions it restores what the program changed:
 *
 *   globals        .data/.bss of instrumented modules, copied at the start
 *                  and copied back (modules.c finds them)
 *   heap           blocks the execution allocated are freed, blocks from
 *                  before main get their contents back (heap.c)
 *   TLS            thread 1's _Thread_local variables; pooled threads get
 *                  theirs at each thread start (modules.c)
 *   files          FILE streams the program opened are closed, file
 *                  descriptors it left open are closed, 0/1/2 restored
 *   TSD keys       keys created during the execution are deleted; main's
 *                  values of older keys are put back
 *   exit handlers  atexit/__cxa_atexit registrations of the execution
 *   process state  working directory, signal mask, environ (the array
 *                  and its entries), argv, getopt's optind/opterr/optopt/
 *                  optarg, the offset of a regular-file stdin (a pipe
 *                  on stdin is read to its end first, when it ends:
 *                  ravel__reset_stdin_pipe)
 *
 * What lives inside uninstrumented libraries (the C library's own
 * buffers, rand() state, locale) is not restored; docs/limits.md lists
 * what that means for a program.
 */
#include "../rt.h"

#include "../intercept/real.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

#define MAX_DATA 64

static struct {
    uintptr_t lo[MAX_DATA], hi[MAX_DATA];
    void *copy[MAX_DATA];
    unsigned n;
} data;

static int cwd_fd = -1;
static int stdin_fd = -1;
static off_t stdin_off = -1;
static sigset_t main_mask;
static char **saved_environ;
static char **saved_environ_entries; /* the array's contents */
static size_t saved_environ_count;
/* getopt's state lives in the C library unless the program refers to it. */
static int saved_optind, saved_opterr, saved_optopt;
static char *saved_optarg;
/* argv as main received it: the array and the strings' contents. */
static char **argv_copy;
static char **argv_strings;
static size_t *argv_len; /* of each string, its terminator included */
/* File descriptors open before the first execution. */
static unsigned char *fd_open;
static int fd_limit;
static int first_free_fd;
static uint64_t restores;
bool ravel__changed_cwd, ravel__changed_sigmask, ravel__changed_stdio;
bool ravel__wrote_raw;
bool ravel__made_fd, ravel__placed_fd;

/* ---- exit handlers ----------------------------------------------------- */

struct handler {
    void (*fn)(void *);
    void *arg;
};
static struct handler *handlers;
static size_t nhandlers, handlers_cap;

bool ravel__atexit_record(void (*fn)(void *), void *arg, void *dso)
{
    (void)dso;
    if (nhandlers == handlers_cap) {
        size_t cap = handlers_cap ? handlers_cap * 2 : 16;
        struct handler *h = REAL(realloc)(handlers, cap * sizeof *h);
        if (!h)
            return false;
        handlers = h;
        handlers_cap = cap;
    }
    handlers[nhandlers++] = (struct handler){fn, arg};
    return true;
}

void ravel__atexit_run(void)
{
    while (nhandlers) {
        struct handler h = handlers[--nhandlers];
        h.fn(h.arg);
    }
}

/* ---- thread-specific data keys ---------------------------------------- */

struct key {
    pthread_key_t key;
    void (*dtor)(void *);
    bool in_execution;
    void *main_value; /* thread 1's value before the first execution */
};
static struct key keys[PTHREAD_KEYS_MAX];
static unsigned nkeys;

void ravel__keys_record(pthread_key_t key, void (*dtor)(void *))
{
    if (nkeys < PTHREAD_KEYS_MAX)
        keys[nkeys++] = (struct key){key, dtor, ravel__rt.executing, NULL};
}

void ravel__keys_forget(pthread_key_t key)
{
    for (unsigned i = 0; i < nkeys; i++)
        if (keys[i].key == key) {
            keys[i] = keys[--nkeys];
            return;
        }
}

void ravel__keys_run_destructors(void)
{
    for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
        bool any = false;
        for (unsigned i = 0; i < nkeys; i++) {
            void *v = pthread_getspecific(keys[i].key);
            if (!v || !keys[i].dtor)
                continue;
            pthread_setspecific(keys[i].key, NULL);
            keys[i].dtor(v);
            any = true;
        }
        if (!any)
            return;
    }
}

void ravel__keys_clear_values(void)
{
    for (unsigned i = 0; i < nkeys; i++)
        if (pthread_getspecific(keys[i].key))
            pthread_setspecific(keys[i].key, NULL);
}

/* ---- streams ------------------------------------------------------------ */

static FILE **files;
static size_t nfiles, files_cap;

void ravel__files_record(FILE *f)
{
    if (nfiles == files_cap) {
        size_t cap = files_cap ? files_cap * 2 : 16;
        FILE **nf = REAL(realloc)(files, cap * sizeof *nf);
        if (!nf)
            return;
        files = nf;
        files_cap = cap;
    }
    files[nfiles++] = f;
}

void ravel__files_forget(FILE *f)
{
    for (size_t i = 0; i < nfiles; i++)
        if (files[i] == f) {
            files[i] = files[--nfiles];
            return;
        }
}

/* ---- file descriptors ---------------------------------------------------- */

/* Calls fn for every open descriptor (but the directory's own). */
static void each_fd(void (*fn)(int fd))
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return;
    int self = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        int fd = atoi(e->d_name);
        if (fd != self)
            fn(fd);
    }
    closedir(d);
}

static void note_open(int fd)
{
    if (fd >= fd_limit) {
        int n = fd_limit ? fd_limit : 256;
        while (n <= fd)
            n *= 2;
        unsigned char *nf = REAL(realloc)(fd_open, (size_t)n);
        RAVEL__CHECK(nf != NULL);
        memset(nf + fd_limit, 0, (size_t)(n - fd_limit));
        fd_open = nf;
        fd_limit = n;
    }
    fd_open[fd] = 1;
}

static unsigned closed_new; /* by the last scan */

static void close_if_new(int fd)
{
    if (fd >= fd_limit || !fd_open[fd]) {
        close(fd);
        closed_new++;
    }
}

/* Has the program probably opened a descriptor? New descriptors take the
 * lowest free number, so the first one that was free is checked: after an
 * execution that opened one through a call ravel intercepts (open, fopen,
 * socket, pipe, dup, accept ...: ravel__made_fd), and after every eighth
 * execution for the others (creat, mkstemp, opendir: descriptors the C
 * library opens for itself), since a system call per execution is a
 * tenth of a short one's cost. After dup2 or dup3 the whole table is
 * scanned (ravel__placed_fd). So is it now and then, for what none of
 * these sees (fcntl's F_DUPFD, a raw system call): after 64
 * executions, and after twice as many each time it found nothing to
 * close, up to 1024 (back to 64 when it found one). The scan reads
 * /proc/self/fd, about 6 us with the executor's own descriptors: every
 * 64 executions it was 3% of fib_bench's time. */
#define SCAN_FIRST 64
#define SCAN_MOST 1024
static uint64_t scan_at = SCAN_FIRST, scan_every = SCAN_FIRST;

static bool fds_changed(void)
{
    bool made = ravel__made_fd;
    ravel__made_fd = false;
    if (restores >= scan_at)
        return true;
    if (!made && (restores & 7) != 0)
        return false;
    return fcntl(first_free_fd, F_GETFD) != -1;
}

void ravel__reset_close_files(void)
{
    while (nfiles)
        REAL(fclose)(files[--nfiles]);
    each_fd(close_if_new);
}

/* ---- snapshot and restore ----------------------------------------------- */

/*
 * Standard input from a file is read from where it started by every
 * execution (the restore seeks back to stdin_off). Each lane's executor
 * needs an offset of its own: fd 0 as inherited is one open file shared
 * by every lane, and one lane's seek moved the others' reads (on two
 * lanes a program reading a 300 kB file to its end got 0 or 20,480
 * bytes of it). So it opens the file again, which gives it its own, and
 * makes that fd 0. A file it cannot open again (no /proc, a file since
 * replaced) keeps the shared one.
 */
static void private_stdin(const struct stat *st)
{
    if (stdin_off < 0)
        return;
    int fd = open("/proc/self/fd/0", O_RDONLY | O_CLOEXEC);
    struct stat again;
    if (fd < 0)
        return;
    if (fstat(fd, &again) != 0 || again.st_dev != st->st_dev ||
        again.st_ino != st->st_ino || lseek(fd, stdin_off, SEEK_SET) < 0) {
        close(fd);
        return;
    }
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 100);
    close(fd);
    if (high < 0)
        return;
    if (dup2(high, 0) < 0) {
        close(high);
        return;
    }
    close(stdin_fd);
    stdin_fd = high;
}

/*
 * Standard input from a pipe (`echo input | ./test`, a here-document)
 * can be read only once: every execution after the first found it at
 * its end, and a test that needs its input exited with another status,
 * a bug that was ravel's. Before the first execution (and before the
 * lanes fork) the supervisor reads the pipe into a memory file and makes
 * that fd 0, a regular file each lane then reads from its start in every
 * execution (private_stdin). It reads only while the writer keeps
 * writing: past a writer silent for STDIN_WAIT_MS (a program in a
 * dialogue with its caller), one still writing after STDIN_MOST_S, or
 * STDIN_MAX bytes (`yes |`), the bytes read so far and then the rest as
 * it comes are handed on through a new pipe by a helper process, as
 * natively; then only the first execution reads all of it
 * (docs/limits.md).
 */
#define STDIN_WAIT_MS 1000
#define STDIN_MAX ((size_t)256 << 20)
#define STDIN_MOST_S 10.0 /* and a writer still writing after 10 s */

static bool put_all(int fd, const char *b, size_t n)
{
    while (n) {
        ssize_t w = REAL(write)(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        b += w;
        n -= (size_t)w;
    }
    return true;
}

/* The bytes of mem, then the rest of fd 0 as it comes, into a new pipe
 * that becomes fd 0 (in a helper process that dies with this one). */
static void stdin_hand_on(int mem)
{
    int p[2];
    if (REAL(pipe)(p) != 0)
        return; /* fd 0 stays the pipe: the bytes read are lost */
    pid_t pid = REAL(fork)();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        REAL(close)(p[0]);
        char b[65536];
        ssize_t n;
        lseek(mem, 0, SEEK_SET);
        while ((n = REAL(read)(mem, b, sizeof b)) > 0)
            if (!put_all(p[1], b, (size_t)n))
                REAL(_exit)(0);
        for (;;) {
            n = REAL(read)(0, b, sizeof b);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0 || !put_all(p[1], b, (size_t)n))
                REAL(_exit)(0);
        }
    }
    REAL(close)(p[1]);
    if (pid > 0)
        REAL(dup2)(p[0], 0);
    REAL(close)(p[0]);
}

void ravel__reset_stdin_pipe(void)
{
    struct stat st;
    if (fstat(0, &st) != 0 || !S_ISFIFO(st.st_mode))
        return;
    int mem = memfd_create("ravel-stdin", MFD_CLOEXEC);
    if (mem < 0)
        return;
    char b[65536];
    size_t total = 0;
    double until = ravel__now() + STDIN_MOST_S;
    for (;;) {
        struct pollfd pf = {.fd = 0, .events = POLLIN};
        int r = REAL(poll)(&pf, 1, STDIN_WAIT_MS);
        if (r < 0 && errno == EINTR)
            continue;
        ssize_t n = r > 0 ? REAL(read)(0, b, sizeof b) : -1;
        if (n < 0 && r > 0 && errno == EINTR)
            continue;
        if (n == 0) /* its end: every execution reads all of it */
            break;
        if (n < 0 || !put_all(mem, b, (size_t)n) ||
            (total += (size_t)n) > STDIN_MAX || ravel__now() > until) {
            stdin_hand_on(mem);
            REAL(close)(mem);
            return;
        }
    }
    lseek(mem, 0, SEEK_SET);
    REAL(dup2)(mem, 0);
    REAL(close)(mem);
}

/* What an execution left in stdin's FILE: what it read ahead of the
 * offset the restore seeks back to, and its end-of-file flag (set, every
 * later fread returned 0 at once, and a program reading its input in
 * each execution found none after the first). With glibc, only a stream
 * that has been read (it has a buffer, or a flag). */
static void stdin_forget(void)
{
#if defined(__GLIBC__)
    if (!stdin->_IO_buf_base && !(stdin->_flags & (_IO_EOF_SEEN | _IO_ERR_SEEN)))
        return;
#endif
    __fpurge(stdin);
    clearerr(stdin);
}

void ravel__reset_snapshot(void)
{
    data.n = ravel__modules_data(data.lo, data.hi, MAX_DATA);
    for (unsigned i = 0; i < data.n; i++) {
        size_t len = data.hi[i] - data.lo[i];
        data.copy[i] = REAL(malloc)(len ? len : 1);
        RAVEL__CHECK(data.copy[i] != NULL);
        memcpy(data.copy[i], (void *)data.lo[i], len);
    }
    ravel__heap_snapshot();

    cwd_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st;
    if (fstat(0, &st) == 0) {
        stdin_fd = fcntl(0, F_DUPFD_CLOEXEC, 100);
        if (S_ISREG(st.st_mode)) {
            stdin_off = lseek(0, 0, SEEK_CUR);
            private_stdin(&st);
        }
    }
    pthread_sigmask(SIG_SETMASK, NULL, &main_mask);
    saved_environ = environ;
    while (environ && environ[saved_environ_count])
        saved_environ_count++;
    saved_environ_entries =
        REAL(malloc)((saved_environ_count + 1) * sizeof(char *));
    RAVEL__CHECK(saved_environ_entries != NULL);
    memcpy(saved_environ_entries, environ,
           (saved_environ_count + 1) * sizeof(char *));
    saved_optind = optind;
    saved_opterr = opterr;
    saved_optopt = optopt;
    saved_optarg = optarg;

    int argc = ravel__rt.argc;
    argv_copy = REAL(calloc)((size_t)argc + 1, sizeof *argv_copy);
    argv_strings = REAL(calloc)((size_t)argc + 1, sizeof *argv_strings);
    argv_len = REAL(calloc)((size_t)argc + 1, sizeof *argv_len);
    RAVEL__CHECK(argv_copy && argv_strings && argv_len);
    for (int i = 0; i < argc; i++) {
        argv_copy[i] = ravel__rt.argv[i];
        size_t n = strlen(ravel__rt.argv[i]) + 1;
        argv_len[i] = n;
        argv_strings[i] = REAL(malloc)(n);
        RAVEL__CHECK(argv_strings[i] != NULL);
        memcpy(argv_strings[i], ravel__rt.argv[i], n);
    }

    for (unsigned i = 0; i < nkeys; i++)
        keys[i].main_value = pthread_getspecific(keys[i].key);

    each_fd(note_open);
    first_free_fd = 0;
    while (first_free_fd < fd_limit && fd_open[first_free_fd])
        first_free_fd++;
}

void ravel__reset_restore(void)
{
    restores++;
    /* Streams first (flushing them), then stray descriptors. */
    while (nfiles)
        REAL(fclose)(files[--nfiles]);
    /* An execution that made sockets or pipes may leave one open above
     * a lower one it closed (a listening socket still bound to its port
     * would make the next execution's bind fail): scan. */
    bool full = fds_changed() || ravel__fd_opened() || ravel__placed_fd;
    ravel__placed_fd = false;
    if (full) {
        closed_new = 0;
        each_fd(close_if_new);
        if (restores >= scan_at) { /* the periodic scan */
            scan_every = closed_new ? SCAN_FIRST
                         : scan_every < SCAN_MOST ? 2 * scan_every
                                                  : SCAN_MOST;
            scan_at = restores + scan_every;
        }
    }
    if (stdin_fd >= 0 && (full || ravel__changed_stdio))
        dup2(stdin_fd, 0);
    if (stdin_off >= 0)
        lseek(0, stdin_off, SEEK_SET);
    stdin_forget();

    for (unsigned i = 0; i < nkeys;) {
        if (keys[i].in_execution) {
            REAL(pthread_key_delete)(keys[i].key);
            keys[i] = keys[--nkeys];
            continue;
        }
        pthread_setspecific(keys[i].key, keys[i].main_value);
        i++;
    }
    nhandlers = 0;

    ravel__heap_release();
    ravel__heap_restore();
    for (unsigned i = 0; i < data.n; i++)
        memcpy((void *)data.lo[i], data.copy[i], data.hi[i] - data.lo[i]);
    ravel__reset_thread_tls();

    if (cwd_fd >= 0 && ravel__changed_cwd)
        (void)!fchdir(cwd_fd);
    if (ravel__changed_sigmask)
        pthread_sigmask(SIG_SETMASK, &main_mask, NULL);
    ravel__changed_cwd = ravel__changed_sigmask = false;
    environ = saved_environ;
    if (saved_environ)
        memcpy(saved_environ, saved_environ_entries,
               (saved_environ_count + 1) * sizeof(char *));
    optind = saved_optind;
    opterr = saved_opterr;
    optopt = saved_optopt;
    optarg = saved_optarg;
    for (int i = 0; i < ravel__rt.argc; i++) {
        ravel__rt.argv[i] = argv_copy[i];
        strcpy(argv_copy[i], argv_strings[i]);
    }
    ravel__rt.argv[ravel__rt.argc] = NULL;
    errno = 0;
}

/* Snapshots (process/resume.c): the globals as they are now, and argv
 * (its array and strings, which live above main's frames). */
size_t ravel__reset_data_size(void)
{
    size_t n = 0;
    for (unsigned i = 0; i < data.n; i++)
        n += data.hi[i] - data.lo[i];
    return n;
}

bool ravel__reset_snap_put(void)
{
    for (unsigned i = 0; i < data.n; i++)
        if (!ravel__snap_put((const void *)data.lo[i], data.hi[i] - data.lo[i]))
            return false;
    int argc = ravel__rt.argc;
    if (!ravel__snap_put(ravel__rt.argv, ((size_t)argc + 1) * sizeof(char *)))
        return false;
    for (int i = 0; i < argc; i++)
        if (!ravel__snap_put(argv_copy[i], argv_len[i]))
            return false;
    return true;
}

void ravel__reset_snap_get(void)
{
    for (unsigned i = 0; i < data.n; i++)
        ravel__snap_get_to((void *)data.lo[i], data.hi[i] - data.lo[i]);
    int argc = ravel__rt.argc;
    ravel__snap_get_to(ravel__rt.argv, ((size_t)argc + 1) * sizeof(char *));
    for (int i = 0; i < argc; i++)
        ravel__snap_get_to(argv_copy[i], argv_len[i]);
}

bool ravel__stack_owner(uint64_t addr, uint32_t *slot, uint64_t *depth)
{
    struct ravel__exec *x = ravel__rt.x;
    for (uint32_t t = 0; t < x->nthreads; t++) {
        struct ravel__worker *w = ravel__backend->of_slot(t);
        if (w && x->threads[t].state == RAVEL__T_LIVE &&
            addr >= (uintptr_t)w->stack_lo && addr < (uintptr_t)w->stack_hi) {
            *slot = t;
            *depth = (uintptr_t)w->stack_hi - addr;
            return true;
        }
    }
    return false;
}
