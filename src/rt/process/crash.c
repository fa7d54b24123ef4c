/*
 * crash.c - what the executor leaves behind when the program crashes or
 * hangs.
 *
 * A crashing program cannot be trusted to print anything (its heap may be
 * corrupt, its stack exhausted), so the handlers here only record: signal,
 * faulting address and pc, and the native stack, into the failure record
 * in shared memory. Then the process dies of the same signal and the
 * supervisor, a separate process, builds the report from that record and
 * the trace so far.
 *
 * Handlers run on an alternate signal stack (installed in every thread
 * ravel runs), so a stack overflow is recorded too. backtrace() is called
 * once at start-up, because its first call loads the unwinder, which is
 * not safe inside a handler.
 *
 * The hang probe: when no thread reaches a visible operation for the
 * watchdog's time, the supervisor sends RAVEL__PROBE_SIGNAL to the thread
 * holding the baton; the handler records where it is, and the supervisor
 * then kills the executor.
 */
#include "../rt.h"

#include <execinfo.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                                    SIGABRT, SIGTRAP, SIGSYS};

/* Alternate signal stack size: the handler plus backtrace()'s unwinder. */
#define ALTSTACK_SIZE (64 * 1024)

static uint64_t context_pc(void *ucv)
{
    ucontext_t *uc = ucv;
#if defined(__x86_64__)
    return (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uint64_t)uc->uc_mcontext.pc;
#else
    (void)uc;
    return 0;
#endif
}

/* Native stack from the interrupted pc outward. */
static void record_frames(struct ravel__failure *f, uint64_t pc)
{
    void *buf[RAVEL__NATIVE_FRAMES + 8];
    int n = backtrace(buf, (int)RAVEL__COUNT(buf));
    int start = -1;
    for (int i = 0; i < n; i++)
        if ((uint64_t)(uintptr_t)buf[i] == pc) {
            start = i;
            break;
        }
    f->nframes = 0;
    if (start < 0) {
        f->frames[f->nframes++] = pc;
        start = n; /* the unwinder lost the way: the pc is all we have */
    }
    for (int i = start; i < n && f->nframes < RAVEL__NATIVE_FRAMES; i++)
        f->frames[f->nframes++] = (uint64_t)(uintptr_t)buf[i];
    f->frames_exact = 1;
}

static bool near_stack_guard(uint64_t addr)
{
    struct ravel__worker *w = ravel__self;
    if (!w || !w->stack_lo)
        return false;
    uint64_t lo = (uint64_t)(uintptr_t)w->stack_lo;
    return addr + 256 * 1024 >= lo && addr < lo + 4096;
}

static const char *describe(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    default: return "signal";
    }
}

void ravel__crash_record(int sig, siginfo_t *si, void *uc)
{
    struct ravel__shared *sh = ravel__rt.sh;
    bool executing = ravel__rt.executing;
    /* From here on interceptors must pass calls through: the unwinder in
     * backtrace() calls pthread_once, for one. */
    ravel__set_executing(false);
    if (sh && executing && sh->exec.failure.kind == RAVEL__FAIL_NONE) {
        struct ravel__exec *x = &sh->exec;
        struct ravel__failure *f = &x->failure;
        struct ravel__worker *w = ravel__self;
        uint64_t addr = (uint64_t)(uintptr_t)si->si_addr;
        f->kind = RAVEL__FAIL_CRASH;
        f->value = sig;
        f->addr = addr;
        f->pc = context_pc(uc);
        f->thread = w && w->slot != RAVEL__NONE ? w->slot : x->running;
        f->step = x->nevents;
        f->obj = RAVEL__NONE;
        if (sig == SIGSEGV && near_stack_guard(addr))
            snprintf(f->message, sizeof f->message,
                     "stack overflow (SIGSEGV) in thread %s",
                     x->threads[f->thread].name);
        else if ((sig == SIGSEGV || sig == SIGBUS) && addr < 4096)
            snprintf(f->message, sizeof f->message,
                     "%s: null pointer dereference (address 0x%llx) in "
                     "thread %s",
                     describe(sig), (unsigned long long)addr,
                     x->threads[f->thread].name);
        else if (sig == SIGSEGV || sig == SIGBUS)
            snprintf(f->message, sizeof f->message,
                     "%s: invalid memory access in thread %s",
                     describe(sig), x->threads[f->thread].name);
        else if (sig == SIGABRT)
            snprintf(f->message, sizeof f->message,
                     "SIGABRT in thread %s (the C library aborted the "
                     "program; see its output)",
                     x->threads[f->thread].name);
        else
            snprintf(f->message, sizeof f->message, "%s in thread %s",
                     describe(sig), x->threads[f->thread].name);
        record_frames(f, f->pc);
    }
}

static void on_crash(int sig, siginfo_t *si, void *uc)
{
    ravel__crash_record(sig, si, uc);
    /* Die of the same signal: a fault re-executes the instruction with
     * the default action; a sent signal is raised again. */
    signal(sig, SIG_DFL);
    if (si->si_code <= 0 || sig == SIGABRT)
        raise(sig);
}

static void on_probe(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si;
    struct ravel__shared *sh = ravel__rt.sh;
    if (!sh)
        return;
    struct ravel__failure *f = &sh->exec.failure;
    ravel__set_executing(false); /* the process is about to be killed */
    if (f->kind == RAVEL__FAIL_NONE && f->nframes == 0)
        record_frames(f, context_pc(uc));
    atomic_store(&sh->probe_done, 1);
}

void ravel__crash_thread_init(void)
{
    void *stack = mmap(NULL, ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == MAP_FAILED)
        return;
    stack_t ss = {.ss_sp = stack, .ss_size = ALTSTACK_SIZE, .ss_flags = 0};
    sigaltstack(&ss, NULL);
}

void ravel__crash_prewarm(void)
{
    void *buf[4];
    backtrace(buf, 4);
}

void ravel__crash_install(void)
{
    ravel__crash_prewarm();
    ravel__crash_thread_init();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_crash;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < RAVEL__COUNT(crash_signals); i++)
        sigaction(crash_signals[i], &sa, NULL);
    sa.sa_sigaction = on_probe;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigaction(RAVEL__PROBE_SIGNAL, &sa, NULL);
}
