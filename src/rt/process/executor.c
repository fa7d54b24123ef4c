/*
 * executor.c - the loop of executions, run by the program's main thread.
 *
 *     snapshot the program (after its constructors ran)
 *     for each execution:
 *         restore the program (not before the first)
 *         run main under ravel's scheduler, until it returns, exits,
 *             fails or deadlocks
 *         unwind the threads still parked, release what it left
 *         classify: failure, non-zero exit status, declared result
 *         tell the supervisor; stop on a bug unless --keep-going
 *
 * Thread 1 of every execution is the process's real main thread, so the
 * program's main runs on its genuine stack; an execution that ends in
 * another thread wakes thread 1, which longjmps back here (sched.c).
 */
#include "../rt.h"

#include "../intercept/real.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#if defined(__GLIBC__)
#include <stdio_ext.h>
#endif
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sends a message to the supervisor (or handles it in this process when
 * there is none) and returns its reply. */
char ravel__sv_call(uint32_t type, uint32_t arg)
{
    struct ravel__rt *rt = &ravel__rt;
    if (!rt->supervised) {
        switch (type) {
        case RAVEL__MSG_BUG:
            return ravel__sv_on_bug() ? RAVEL__REPLY_GO : RAVEL__REPLY_STOP;
        case RAVEL__MSG_OUTCOME:
            ravel__sv_on_outcome(arg);
            return RAVEL__REPLY_GO;
        case RAVEL__MSG_SPIN:
            return RAVEL__REPLY_GO; /* nothing to start over */
        default:
            return RAVEL__REPLY_STOP;
        }
    }
    struct ravel__msg m = {type, arg};
    if (ravel__write_all(rt->to_sv, &m, sizeof m) != 0)
        REAL(_exit)(RAVEL__EXIT_USAGE); /* the supervisor is gone */
    char reply;
    for (;;) {
        ssize_t n = read(rt->from_sv, &reply, 1);
        if (n == 1)
            return reply;
        if (n < 0 && errno == EINTR)
            continue;
        REAL(_exit)(RAVEL__EXIT_USAGE);
    }
}

/*
 * Interrupts. The executor is in the terminal's process group, so a
 * Ctrl-C or `timeout` reaches it as well as the supervisor. That signal
 * is meant for the run, not for the program under test: it asks every
 * lane to stop after its current execution (the supervisor does the same
 * when only it was signalled), so that the summary can say what the run
 * covered. A signal the program sends itself (raise, kill of its own
 * pid) keeps its native meaning: unless the program handles it, it kills
 * the executor, and the supervisor reports that as a crash. A program
 * that installs its own handler gets every such signal, as it would
 * natively.
 */
static void on_stop_signal(int sig, siginfo_t *si, void *uc)
{
    bool own = (si->si_code == SI_USER || si->si_code == SI_TKILL ||
                si->si_code == SI_QUEUE) &&
               si->si_pid == getpid();
    if (own) {
        ravel__crash_record(sig, si, uc);
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    if (ravel__rt.common)
        atomic_store(&ravel__rt.common->stop_requested, 1);
}

static void stop_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_stop_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static bool stop_requested(void)
{
    struct ravel__rt *rt = &ravel__rt;
    return rt->supervised && rt->common &&
           atomic_load(&rt->common->stop_requested);
}

/* Bytes a capture file may hold before it is emptied: executions append
 * to it and the supervisor reads from where theirs began, so the files are
 * not truncated (two system calls each) after every execution. */
#define CAPTURE_KEEP (1u << 20)

/*
 * A program run directly prints its first execution's output as natively.
 * The lane that gets execution 0 passes its executions' output through
 * until one of them runs to an end: an execution abandoned (a spin-wait's
 * repeat, src/model/spin.c and src/rt/race/plain_spin.c, or redundant for
 * DPOR) does not count, and the next one on the lane is the program's
 * first again. How its output gets out once: "printed once", below.
 */
static bool passes_output(uint64_t number)
{
    struct ravel__rt *rt = &ravel__rt;
    if (!rt->direct || rt->real_out < 0)
        return false;
    uint32_t me = rt->lane + 1, unclaimed = 0;
    if (number == 0 &&
        atomic_compare_exchange_strong(&rt->common->passing_lane, &unclaimed,
                                       me))
        atomic_store(&rt->common->status_lane, me);
    return atomic_load(&rt->common->passing_lane) == me;
}

/*
 * Did the program write to its stdout or stderr since the last call?
 * Asking the kernel where each capture file stands costs two system
 * calls per execution, which on a virtual machine is a third of a short
 * execution's cost, so they are made only when something may have been
 * written:
 *
 *   - stdio: with glibc, a stream that has been written to since it was
 *     last flushed empty is marked as "putting" (a flag of its FILE,
 *     0x800 since the first libio) or holds unflushed bytes. After the
 *     flush here the flag is cleared on an empty line-buffered or
 *     unbuffered stream (the captured stdout and stderr are), the state
 *     of a stream never written to, so the next write of any kind (putc,
 *     printf, fwrite, perror, err) sets it again;
 *   - write and writev, which ravel intercepts (src/rt/intercept/fd.c),
 *     set ravel__wrote_raw;
 *   - anything else (pwrite, the C library's own messages, a raw system
 *     call) is caught by the full check every 64 executions: until then
 *     a report could show a few earlier executions' lines, never miss its
 *     own, since the offsets it starts from can only be too early.
 *
 * Without glibc every execution asks the kernel.
 */
#if defined(__GLIBC__)
#define STDIO_PUTTING 0x0800
static bool stream_written(FILE *f)
{
    return (f->_flags & STDIO_PUTTING) || f->_IO_write_ptr != f->_IO_write_base;
}

/* Only a stream whose next write must go through the library's slow path
 * (no room between write_ptr and write_end: a line-buffered or unbuffered
 * stream after a flush), which sets the flag again; a fully buffered one
 * copies into its buffer directly, and flushing it without the flag would
 * drop what it holds, so it keeps the flag (and costs the two calls). */
static void stream_mark_clean(FILE *f)
{
    if (f->_mode <= 0 && f->_IO_write_ptr == f->_IO_write_base &&
        f->_IO_write_end == f->_IO_write_ptr)
        f->_flags &= ~STDIO_PUTTING;
}
#endif

static bool output_since_last(void)
{
    static unsigned calls;
    bool any = (calls++ & 63) == 0 || ravel__wrote_raw ||
               ravel__changed_stdio;
#if defined(__GLIBC__)
    any = any || stream_written(stdout) || stream_written(stderr) ||
          stdout->_mode > 0 || stderr->_mode > 0;
#else
    any = true;
#endif
    ravel__wrote_raw = false;
    return any;
}

/*
 * ---- printed once ---------------------------------------------------------
 *
 * The first execution of a program run directly may be abandoned, perhaps
 * many times (a pool whose creator spins until its workers are up: 17
 * times for C-Thread-Pool's example), and each next try prints its lines
 * again. Writing them to the program's own stdout and stderr at once, a
 * terminal showed "Making threadpool with 4 threads" 17 times. So that
 * execution is captured like any other, and what it prints is forwarded
 * to the program's own files as it comes: at every step (ravel__step calls
 * ravel__passing_forward when stdio or write says something was written)
 * and at its end. Each stream keeps a ledger of what it has shown since
 * the first try began; a try's output that repeats the ledger is not
 * shown again, and what goes beyond it (or differs from it: a thread id,
 * a time) is. If the executor dies, the supervisor forwards what is left
 * past the ledger (shown_out and dup_out in the lane's shared state).
 *
 * The program sees its own files' isatty (intercept/fd.c), and its stdout
 * is buffered as theirs would be (capture_reset), so it prints what and
 * when it would natively. When stdout and stderr are one file (a
 * terminal, 2>&1) they are captured into one, so their lines keep their
 * order; when they are two files, a stdout line and a stderr line
 * written between the same two steps come out stdout first.
 *
 * The check at each step reads two stdio flags; the capture is read (a
 * system call) only after an intercepted write, or every 16th step while
 * stdio says something was written: a fully buffered stdout holding a
 * partial buffer says so at every step, and a first execution of
 * millions of steps must not pay a call for each.
 */
#define LEDGER_MAX (1u << 20) /* beyond: repeats are judged by length */

struct shown {
    int real, cap;    /* the program's own file; the capture */
    uint64_t start;   /* this try's output in cap: from here */
    uint64_t fwd;     /* forwarded (or found repeated) up to here */
    char *ledger;     /* what has been shown, from the first try's start */
    uint64_t len;     /* its length (only LEDGER_MAX bytes are kept) */
    bool differs;     /* this try's output left the ledger */
};
static struct shown shown[2];
static int nshown; /* 1: stdout and stderr are one file, and one stream */

/* Are the program's stdout and stderr one file (a terminal, 2>&1)? */
static int forward_merged(void)
{
    static int merged = -1;
    if (merged < 0) {
        struct stat a, b;
        merged = fstat(ravel__rt.real_out, &a) == 0 &&
                 fstat(ravel__rt.real_err, &b) == 0 &&
                 a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    }
    return merged;
}

/* ravel__write_all through the real write: the interposed one would
 * set ravel__wrote_raw, and every next step would read the capture. */
static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = REAL(write)(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return; /* the program's stdout is gone: as natively */
        p += w;
        n -= (size_t)w;
    }
}

static void forward_one(struct shown *sh)
{
    char buf[8192];
    for (;;) {
        ssize_t n = pread(sh->cap, buf, sizeof buf, (off_t)sh->fwd);
        if (n <= 0)
            return;
        uint64_t pos = sh->fwd - sh->start; /* in this try's output */
        size_t skip = 0;
        if (!sh->differs && pos < sh->len) {
            size_t k = (size_t)(sh->len - pos < (uint64_t)n ? sh->len - pos
                                                              : (uint64_t)n);
            while (skip < k && (pos + skip >= LEDGER_MAX ||
                                sh->ledger[pos + skip] == buf[skip]))
                skip++;
            sh->differs = skip < k;
        }
        write_all(sh->real, buf + skip, (size_t)n - skip);
        /* The ledger now holds this try's bytes where it showed them. */
        for (size_t i = skip; i < (size_t)n && pos + i < LEDGER_MAX; i++)
            sh->ledger[pos + i] = buf[i];
        if (pos + (uint64_t)n > sh->len)
            sh->len = pos + (uint64_t)n;
        sh->fwd += (uint64_t)n;
    }
}

static void forward_publish(void)
{
    struct ravel__shared *sh = ravel__rt.sh;
    sh->shown_out = shown[0].fwd;
    sh->shown_err = shown[1].fwd;
    sh->dup_out = shown[0].start + shown[0].len;
    sh->dup_err = nshown > 1 ? shown[1].start + shown[1].len : UINT64_MAX;
}

void ravel__passing_forward(void)
{
    bool any = ravel__wrote_raw;
#if defined(__GLIBC__)
    any = any || stream_written(stdout) || stream_written(stderr);
#else
    any = true;
#endif
    static unsigned calls;
    if (!any || (!ravel__wrote_raw && (++calls & 15) != 0))
        return;
    ravel__wrote_raw = false;
    for (int k = 0; k < nshown; k++)
        forward_one(&shown[k]);
    forward_publish();
#if defined(__GLIBC__)
    stream_mark_clean(stdout);
    stream_mark_clean(stderr);
#endif
}

/* A try of the first execution begins at the capture's offsets o, e. */
static void forward_begin(uint64_t o, uint64_t e)
{
    struct ravel__rt *rt = &ravel__rt;
    if (!shown[0].ledger) {
        for (int k = 0; k < 2; k++) {
            shown[k].ledger = REAL(malloc)(LEDGER_MAX);
            RAVEL__CHECK(shown[k].ledger != NULL);
        }
        shown[0].real = rt->real_out;
        shown[1].real = rt->real_err;
        shown[0].cap = rt->cap_out;
        shown[1].cap = rt->cap_err;
        nshown = forward_merged() ? 1 : 2;
    }
    shown[0].start = shown[0].fwd = o;
    shown[1].start = shown[1].fwd = e;
    shown[0].differs = shown[1].differs = false;
    forward_publish();
}

/*
 * Points the program's stdout and stderr at the capture files, where
 * execution `number`'s output goes, and notes where it begins there.
 */
static void capture_reset(uint64_t number)
{
    struct ravel__rt *rt = &ravel__rt;
    static int target = -1; /* fds 1 and 2 as `mode` below set them */
    static off_t o = -1, e = -1; /* where the capture files stand */
    if (rt->cap_out < 0)
        return;
    /* After a try of the first execution, the stdio flags say nothing
     * (ravel__passing_forward cleared them): ask the kernel. */
    bool wrote = output_since_last() || rt->passing;
    /* Nothing written (the flags above): nothing for fflush to write,
     * and its two calls were a hundredth of a short execution. */
    if (wrote) {
        fflush(stdout);
        fflush(stderr);
    }
    if (wrote || o < 0 || e < 0) {
        o = lseek(rt->cap_out, 0, SEEK_CUR);
        e = lseek(rt->cap_err, 0, SEEK_CUR);
    }
    if (o > CAPTURE_KEEP) {
        (void)!ftruncate(rt->cap_out, 0);
        o = lseek(rt->cap_out, 0, SEEK_SET);
    }
    if (e > CAPTURE_KEEP) {
        (void)!ftruncate(rt->cap_err, 0);
        e = lseek(rt->cap_err, 0, SEEK_SET);
    }
    bool want = passes_output(number);
    if (want) {
        /* Forwarded from exactly here: ask the kernel. */
        o = lseek(rt->cap_out, 0, SEEK_CUR);
        e = lseek(rt->cap_err, 0, SEEK_CUR);
    }
    rt->sh->out_start = o > 0 ? (uint64_t)o : 0;
    rt->sh->err_start = e > 0 ? (uint64_t)e : 0;
    /* 0: captured; 1: the first execution, forwarded; 2: the same, with
     * stdout and stderr one file (a terminal, 2>&1): captured into one,
     * so that their lines keep their order. */
    int mode = want ? 1 + forward_merged() : 0;
    if (mode != target || ravel__changed_stdio) {
        /* First time, a switch, or the program closed or redirected
         * them. Captured output is line-buffered, so that what was
         * printed before a crash is in the report; the first execution's
         * stdout is buffered as natively (line-buffered on a terminal,
         * fully on a pipe or a file). */
        dup2(rt->cap_out, 1);
        dup2(mode == 2 ? rt->cap_out : rt->cap_err, 2);
        if (mode != target)
            setvbuf(stdout, NULL,
                    mode && !REAL(isatty)(rt->real_out) ? _IOFBF : _IOLBF,
                    BUFSIZ);
        target = mode;
        ravel__changed_stdio = false;
        /* An error the last execution's writes met on a descriptor it
         * closed is not this one's (a program that checks ferror at its
         * end would report it). */
        clearerr(stdout);
        clearerr(stderr);
    }
    rt->passing = want;
    if (want)
        forward_begin(rt->sh->out_start, rt->sh->err_start);
#if defined(__GLIBC__)
    stream_mark_clean(stdout);
    stream_mark_clean(stderr);
#endif
}

/* Runs thread 1 of the execution: main, from the start or from where a
 * snapshot was taken (process/resume.c). Its frame is the top of thread
 * 1's stack that a snapshot copies (prog_top): the same function called
 * from the same place in every execution, it is at the same address,
 * and a snapshot's copy of the frames below it is put back under it. */
static __attribute__((noinline)) void enter_program(struct ravel__worker *w)
{
    struct ravel__rt *rt = &ravel__rt;
    w->prog_top = __builtin_frame_address(0);
    /* The program starts with errno 0, whatever ravel's own calls since
     * the restore left there (a nonblocking read's EAGAIN). */
    errno = 0;
    ravel__snap_enter(w); /* does not return when it resumes */
    ravel__begin_main(w, rt->main_pc ? rt->main_pc
                                     : (uint64_t)(uintptr_t)rt->main);
    int status = rt->main(rt->argc, rt->argv, rt->envp);
    ravel__program_exit(w, status, 0, true);
}

static void run_one(uint64_t number)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__exec *x = rt->x;
    struct ravel__worker *w = ravel__backend->main();
    ravel__exec_begin(x, number);
    ravel__race_begin();
    x->threads[0].tid = w->tid;
    rt->strategy->ops->begin(rt->strategy, number);
    ravel__snap_begin();
    x->spin_wake = rt->strategy->wake_spins;
    capture_reset(number);
    ravel__vtime_begin();
    ravel__fd_begin();
    atomic_store(&rt->sh->running_tid, w->tid);
    atomic_fetch_add(&rt->sh->progress, 1);
    atomic_store(&rt->sh->in_execution, 1);
    ravel__worker_bind(w, w->slot); /* rt->x is this lane's (use_lane) */
    ravel__set_executing(true);
    if (setjmp(rt->loop) == 0)
        enter_program(w);
    ravel__set_executing(false);
    /* --memory-model rc11: what the strategies count (src/rt/rc11.c). */
    if (x->memory_model == RAVEL__MM_RC11)
        x->graph_fp = ravel__rc11_graph(x);
    atomic_store(&rt->sh->in_execution, 0);
    ravel__backend->abandon_all();
#if defined(__GLIBC__)
    /* A try of the first execution that was abandoned: what it left in
     * stdio's buffers was never written, and is dropped (its next try
     * writes it, where the program does). */
    if (rt->passing && (x->ended == RAVEL__END_BLOCKED || x->nquiet)) {
        __fpurge(stdout);
        __fpurge(stderr);
    }
    /* fflush(NULL) walks every FILE the C library has, a hundredth of a
     * short execution: a program none of whose modules imports a stdio
     * function can only have written stdout and stderr (through ravel's
     * API), and they are looked at instead. */
    if (!ravel__snap_imports_listed() || stream_written(stdout) ||
        stream_written(stderr))
        fflush(NULL);
#else
    fflush(NULL);
#endif
    if (rt->passing) {
        ravel__wrote_raw = true;
        ravel__passing_forward();
    }
    ravel__fd_let_go(); /* before any wait for another lane */
    for (uint32_t t = 0; t < x->nthreads; t++) {
        rt->sh->plain_reads += x->threads[t].reads;
        rt->sh->plain_writes += x->threads[t].writes;
    }
    rt->sh->steps += x->nevents;
}

/* A distinct result declared with ravel_result(): tally it, and let the
 * supervisor write a ticket the first time a value appears. */
static void tally_outcome(int64_t value, uint64_t pc, uint64_t number)
{
    struct ravel__shared *sh = ravel__rt.sh;
    for (uint32_t i = 0; i < sh->noutcomes; i++) {
        if (sh->outcomes[i].value == value) {
            sh->outcomes[i].count++;
            return;
        }
    }
    if (sh->noutcomes >= RAVEL__MAX_OUTCOMES) {
        sh->outcomes_dropped++;
        return;
    }
    uint32_t i = sh->noutcomes++;
    sh->outcomes[i].value = value;
    sh->outcomes[i].pc = pc;
    sh->outcomes[i].count = 1;
    sh->outcomes[i].first_execution = number;
    sh->outcomes[i].ticket[0] = 0;
    ravel__sv_call(RAVEL__MSG_OUTCOME, i);
}

void ravel__first_status(int64_t status)
{
    /* Several may set it (the status lane, the supervisor, a lane that
     * gave up waiting: wait_first_status): the first one does, in two
     * steps (2 while it writes), and readers wait for 1. */
    struct ravel__common *c = ravel__rt.common;
    uint32_t unknown = 0;
    if (atomic_compare_exchange_strong(&c->first_known, &unknown, 2)) {
        c->first_status = status;
        atomic_store(&c->first_known, 1);
    }
    atomic_store(&c->status_lane, RAVEL__NONE);
}

/*
 * The status another lane's executions are judged against, run directly:
 * the first exit of the status lane, the one that printed. That lane may
 * never give it: all its executions so far ended blocked and it has run
 * out of branches, waiting for this lane's (C-Thread-Pool's example on
 * two lanes waited so for ever). So while the status lane stays out of
 * any execution for STATUS_PATIENCE seconds, this execution's status is
 * taken instead: an exit of the program all the same.
 */
#define STATUS_PATIENCE 0.05

static int64_t wait_first_status(int64_t mine)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__common *c = rt->common;
    double idle_since = 0;
    while (atomic_load(&c->first_known) != 1) {
        uint32_t sl = atomic_load(&c->status_lane);
        if (sl == RAVEL__NONE || sl > rt->nlanes ||
            atomic_load(&rt->lanes[sl - 1].sh->in_execution)) {
            idle_since = 0;
        } else if (idle_since == 0) {
            idle_since = ravel__now();
        } else if (ravel__now() - idle_since > STATUS_PATIENCE) {
            ravel__first_status(mine);
            continue;
        }
        REAL(usleep)(200);
    }
    return c->first_status;
}

/* Classifies the finished execution; returns false to stop the run. */
static bool after_execution(uint64_t number)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__exec *x = rt->x;
    if (ravel__tool_failed()) {
        ravel__sv_call(RAVEL__MSG_ERROR, 0);
        return false;
    }
    if (rt->direct) {
        /* The program's first execution, unless a spin cut it short. */
        if (rt->passing && x->ended != RAVEL__END_BLOCKED && !x->nquiet)
            atomic_store(&rt->common->passing_lane, RAVEL__NONE);
        /* The status the run will exit with if nothing is found. */
        bool exited = x->failure.kind == RAVEL__FAIL_NONE &&
                      (x->ended == RAVEL__END_EXIT ||
                       x->ended == RAVEL__END_ALL_FINISHED);
        if (exited &&
            atomic_load(&rt->common->status_lane) == rt->lane + 1)
            ravel__first_status(x->exit_status);
    }
    /* A thread spun on plain memory (src/rt/race/plain_spin.c): the
     * supervisor makes the loop's reads scheduling points and starts the
     * exploration over, or it cannot, and under this schedule the loop
     * never ends: a hang. */
    if (x->nquiet) {
        if (ravel__sv_call(RAVEL__MSG_SPIN, 0) == RAVEL__REPLY_STOP)
            return false;
        ravel__quiet_hang(x);
    }
    if (x->fair_held)
        rt->sh->fair_runs++;
    if (x->ended == RAVEL__END_BLOCKED) {
        rt->sh->blocked_runs++;
        return true;
    }
    if (x->ended == RAVEL__END_CUT)
        rt->sh->cut_runs++;
    if (rt->last_complete) {
        ravel__exec_copy(rt->last_complete, x);
        rt->sh->have_last_complete = 1;
    }
    /* Run directly, the program's exit status is its own: an execution
     * is wrong when it exits otherwise than the first did (whose status
     * other lanes may have to wait for). */
    int64_t expected = 0;
    if (rt->direct && x->failure.kind == RAVEL__FAIL_NONE &&
        x->ended == RAVEL__END_EXIT && !rt->opt.ignore_exit_status) {
        expected = wait_first_status(x->exit_status);
    }
    if (x->failure.kind == RAVEL__FAIL_NONE && x->ended == RAVEL__END_EXIT &&
        x->exit_status != expected && !rt->opt.ignore_exit_status) {
        uint32_t t = 0;
        uint64_t pc = 0;
        for (uint32_t i = x->nevents; i-- > 0;)
            if (x->events[i].kind == RAVEL__OP_EXIT) {
                t = x->events[i].thread;
                pc = x->events[i].pc;
                break;
            }
        if (rt->direct)
            ravel__fail(x, RAVEL__FAIL_EXIT_STATUS, t, pc,
                        "the program exited with status %lld; its first "
                        "execution exited with status %lld",
                        (long long)x->exit_status, (long long)expected);
        else
            ravel__fail(x, RAVEL__FAIL_EXIT_STATUS, t, pc,
                        "the program exited with status %lld",
                        (long long)x->exit_status);
        x->failure.value = x->exit_status;
    }
    /* A thread went round a spin loop in vain (src/model/spin.c): a
     * longer form of an execution explored without that iteration. */
    if (x->failure.kind == RAVEL__FAIL_NONE && x->spun) {
        x->ended = RAVEL__END_BLOCKED;
        rt->sh->blocked_runs++;
        return true;
    }
    if (x->failure.kind == RAVEL__FAIL_NONE && x->has_result)
        tally_outcome(x->result, x->result_pc, number);
    if (x->failure.kind != RAVEL__FAIL_NONE && ravel__door_quiet())
        return true; /* a test case being shrunk */
    if (x->failure.kind != RAVEL__FAIL_NONE)
        return ravel__sv_call(RAVEL__MSG_BUG, 0) == RAVEL__REPLY_GO;
    if (!strcmp(rt->opt.strategy, "replay"))
        ravel__sv_call(RAVEL__MSG_BUG, 0); /* shows the replayed trace */
    return true;
}

/* The executor said it is done: it ends here. The C library's exit
 * would run the program's destructors and flush its streams, whose locks
 * a thread cut short in the last execution may still hold (a run then
 * never ended); nothing they could print is read any more. */
RAVEL__NORETURN static void done(void)
{
    REAL(_exit)(0);
    __builtin_unreachable();
}

/* The strategy stopped on a tool error (its search tree is full). */
static int strategy_failed(void)
{
    struct ravel__rt *rt = &ravel__rt;
    snprintf(rt->sh->error, sizeof rt->sh->error, "%s", rt->strategy->error);
    if (!rt->supervised) {
        fprintf(stderr, "ravel: error: %s\n", rt->sh->error);
        return RAVEL__EXIT_USAGE;
    }
    ravel__sv_call(RAVEL__MSG_ERROR, 0);
    return 0;
}

/* The executor cannot start: says why (to the supervisor, which prints
 * it and exits with 2, or on stderr). */
static int start_failed(const char *msg)
{
    struct ravel__rt *rt = &ravel__rt;
    if (!rt->supervised) {
        fprintf(stderr, "ravel: error: %s\n", msg);
        return RAVEL__EXIT_USAGE;
    }
    snprintf(rt->sh->error, sizeof rt->sh->error, "%s", msg);
    ravel__sv_call(RAVEL__MSG_ERROR, 0);
    return 0;
}

int ravel__executor_main(int argc, char **argv, char **envp)
{
    struct ravel__rt *rt = &ravel__rt;
    rt->premain = false;
    rt->argc = argc;
    rt->argv = argv;
    rt->envp = envp;
    ravel__crash_install();
    if (rt->supervised)
        stop_signals_install();
    if (ravel__door && ravel__door->begin) {
        /* The constructors ran: the door gets ready (a unit test puts
         * its body in place of main, src/unit). */
        char err[sizeof rt->sh->error];
        if (!ravel__door->begin(rt, err, sizeof err))
            return start_failed(err);
    }
    /* Loaded, but no code of the program calls the hooks (gcc -flto
     * without ravel-cc instruments nothing): every guarantee about it
     * would be false. */
    if (ravel__modules_hooked() == 0)
        return start_failed(
            "no code of the program is instrumented: it loads "
            "libravel_rt.so, but none of its modules was compiled with "
            "ravel's instrumentation, so its atomics and memory accesses "
            "are not seen (built with gcc -flto? build with ravel-cc, "
            "which adds -fno-lto, or ravel_instrument())");
    if (rt->cap_out >= 0) {
        /* Output printed by constructors has already gone out once, as
         * it would natively; from here on each execution's is captured
         * (capture_reset), and a direct run's first execution's is
         * forwarded to the program's own stdout and stderr, kept here
         * ("printed once"). */
        fflush(stdout);
        fflush(stderr);
        if (rt->direct) {
            rt->real_out = fcntl(1, F_DUPFD_CLOEXEC, 900);
            rt->real_err = fcntl(2, F_DUPFD_CLOEXEC, 900);
            if (rt->real_out < 0 || rt->real_err < 0)
                rt->real_out = -1; /* capture it like the others */
        }
        dup2(rt->cap_out, 1);
        dup2(rt->cap_err, 2);
    }
    ravel__reset_snapshot();
    ravel__race_init();
    if (rt->lane != 0)
        rt->last_complete = NULL; /* --trace keeps lane 0's */
    ravel__make_strategy(rt->opt.resume_at > 0);
    struct ravel__strategy *st = rt->strategy;
    bool run = true;
    if (rt->opt.resume_at > 0 && strcmp(rt->opt.strategy, "replay") != 0) {
        /* An executor died in the previous execution (still in shared
         * memory): let the strategy learn from it before going on. */
        run = st->ops->end(st, rt->x, false);
        if (ravel__door && ravel__door->resume) /* go on shrinking */
            run = ravel__door->resume();
    } else if (st->ops->start) {
        run = st->ops->start(st);
    }
    if (!run) {
        if (st->failed)
            return strategy_failed();
        st->ops->finish(st);
        if (st->exhausted)
            rt->sh->exhausted = 1;
        if (!rt->supervised)
            return 0;
        ravel__sv_call(RAVEL__MSG_DONE, 0);
        done();
    }

    const struct ravel__options *o = &rt->opt;
    double deadline = o->time > 0 ? rt->start_time + o->time : 0;
    bool first = true;
    for (;;) {
        /* Executions are numbered across lanes (--jobs). */
        if (stop_requested()) {
            rt->sh->interrupted = 1;
            if (rt->strategy->ops->abandon)
                rt->strategy->ops->abandon(rt->strategy);
            break;
        }
        uint64_t number = atomic_fetch_add(&rt->common->next_number, 1);
        if (o->executions && number >= o->executions) {
            rt->sh->stopped_by_limit = 1;
            break;
        }
        if (deadline && !first && ravel__now() >= deadline) {
            rt->sh->stopped_by_limit = 1;
            break;
        }
        uint64_t t0 = o->profile ? ravel__ticks() : 0;
        if (!first)
            ravel__reset_restore();
        first = false;
        uint64_t t1 = o->profile ? ravel__ticks() : 0;
        run_one(number);
        if (ravel__door && ravel__door->judge)
            ravel__door->judge();
        uint64_t t2 = o->profile ? ravel__ticks() : 0;
        bool go_on = after_execution(number);
        atomic_fetch_add(&rt->sh->executions_done, 1);
        uint64_t t3 = o->profile ? ravel__ticks() : 0;
        /* A run that stops on this bug kills the other lanes wherever
         * they are, perhaps holding the lock of the search tree they
         * share (src/explore/tree.h): then this lane must not touch the
         * tree again. Alone, it learns from the execution as usual. */
        bool more = false;
        if (go_on || rt->nlanes <= 1)
            more = rt->strategy->ops->end(rt->strategy, rt->x,
                                          rt->x->ended == RAVEL__END_BLOCKED);
        if (ravel__door && ravel__door->next) /* may switch rt->strategy */
            more = ravel__door->next(more);
        if (o->profile) {
            rt->sh->prof_reset += t1 - t0;
            rt->sh->prof_run += t2 - t1;
            rt->sh->prof_end += ravel__ticks() - t3;
        }
        /* A door that decides what runs next owns the guarantee. */
        if (rt->strategy->exhausted && !(ravel__door && ravel__door->next))
            rt->sh->exhausted = 1;
        if (rt->strategy->failed)
            return strategy_failed();
        if (!go_on || !more)
            break;
    }
    rt->strategy->ops->finish(rt->strategy);
    if (!rt->supervised)
        return ravel__sv_finish();
    ravel__sv_call(RAVEL__MSG_DONE, 0);
    done();
}
