/*
 * rt.h - internal interface of the runtime (the code that runs inside the
 * program under test).
 *
 * Processes. A program built with ravel starts as usual; the runtime takes
 * over in __libc_start_main (init.c) and forks once:
 *
 *     supervisor (parent)                  executor (child)
 *     - waits, watches for hangs           - runs constructors, then main
 *     - prints reports, writes tickets       once per execution, under
 *     - survives crashes of the executor     ravel's scheduler
 *              ^                                    |
 *              |  struct ravel__shared (shm):       |
 *              +--- the current execution's model, -+
 *                   counters, outcomes; plus a pipe
 *                   pair for "bug found" / "go on"
 *
 * Threads. Inside the executor only one controlled thread runs at a time;
 * the others are parked on a futex in ravel's code. At every visible
 * operation the running thread publishes it, asks the strategy who runs
 * next and hands over the baton itself (sched.c); there is no scheduler
 * thread. Program threads run on pooled OS threads (backend/os.c).
 *
 * File map: init.c (takeover, options), supervisor.c, executor.c (the loop
 * of executions), reset.c (restoring the program between executions),
 * heap.c (allocation tracking), modules.c (which code is instrumented),
 * sched.c (scheduling points), backend/os.c (threads), crash.c (signals),
 * race.c and suppress.c (the data-race detector's side, memcpy/memset),
 * tso.c (x86-TSO store buffers),
 * and the interceptors: intercept/thread.c, intercept/sync.c,
 * intercept/tsan.c, intercept/libc.c, intercept/time.c, intercept/fd.c
 * (descriptors), api.c (the public ravel_* API).
 */
#ifndef RAVEL_RT_H
#define RAVEL_RT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "../common/common.h"
#include "../common/options.h"
#include "../explore/strategy.h"
#include "../explore/ticket.h"
#include "../model/model.h"
#include "intercept/hooks_abi.h"

#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

/* Exported from the shared object: interposed names, __tsan_* hooks and
 * the public ravel_* API. Everything else is hidden, but for what the
 * hooks linked into the program use (intercept/hooks_abi.h). */
#define RAVEL__EXPORT __attribute__((visibility("default")))

/* ---- shared with the supervisor --------------------------------------- */

#define RAVEL__SHARED_MAGIC 0x6c6576617221ULL
#define RAVEL__MAX_OUTCOMES 64
/* Distinct data races (pairs of code locations) remembered in one run;
 * beyond that a race may be reported again. */
#define RAVEL__MAX_RACES 256
/* Code locations race-directed scheduling can make visible operations. */
#define RAVEL__MAX_PROMOTED 64

/* A distinct result declared with ravel_result(). */
struct ravel__outcome {
    int64_t value;
    uint64_t pc; /* ravel_result call of its first execution */
    uint64_t count;
    uint64_t first_execution;
    char ticket[PATH_MAX];
};

struct ravel__shared {
    uint64_t magic;
    uint64_t seed;
    _Atomic uint64_t progress;        /* bumped at every step */
    _Atomic uint64_t executions_done; /* finished executions */
    _Atomic int32_t running_tid;      /* OS thread holding the baton */
    _Atomic uint32_t in_execution;    /* the watchdog is armed */
    _Atomic uint32_t probe_done;      /* hang probe captured a stack */
    uint32_t noutcomes;
    uint64_t outcomes_dropped;
    struct ravel__outcome outcomes[RAVEL__MAX_OUTCOMES];
    struct ravel__explore_stats stats; /* the strategy's figures */
    uint64_t blocked_runs;    /* executions abandoned as blocked */
    uint64_t cut_runs;        /* executions cut short at --max-threads */
    uint64_t fair_runs;       /* executions in which the fairness rule
                                 held an enabled thread back (sched.c) */
    uint8_t nondet_limited;   /* a __VERIFIER_nondet_* value of a wide type
                                 was chosen from --nondet-range only */
    uint8_t signals_handled;  /* a handler ran for a signal sent to one of
                                 the program's threads (backend/os.c):
                                 where it arrives is not scheduled */
    uint8_t have_last_complete;
    uint64_t out_start, err_start; /* capture offsets of this execution */
    /* Run directly, the printing lane's capture offsets forwarded to the
     * program's own stdout and stderr so far, and below which the bytes
     * repeat what an abandoned execution showed (executor.c, "printed
     * once"): the supervisor forwards the rest if the executor dies. */
    uint64_t shown_out, shown_err, dup_out, dup_err;
    /* Snapshots taken, and executions started from one (resume.c); why
     * none are taken in this run ("": they may be). */
    uint64_t snap_taken, snap_resumed;
    char snap_off[64];
    uint64_t plain_reads;     /* plain memory accesses, all executions */
    uint64_t plain_writes;
    uint64_t steps;           /* visible operations, all executions */
    /* --profile: clock ticks (ravel__ticks) spent resetting the program,
     * running executions (program and thread switches), in the
     * strategy's choices during them, and in its analysis after each. */
    uint64_t prof_reset, prof_run, prof_choose, prof_end;
    uint8_t exhausted;        /* the strategy explored everything */
    uint8_t stopped_by_limit; /* --executions or --time reached */
    uint8_t interrupted;      /* stopped by common->stop_requested */
    char error[512];          /* tool error raised by the executor */
    char exe_path[PATH_MAX];
    uint64_t exe_hash;
    /* Property-based testing (pbt.c): the outcome and the statistics of
     * the generated tests, for the summary. */
    uint8_t pbt;              /* the run tested a model */
    uint8_t pbt_failed;       /* 1: a test failed; 2: only a coverage
                                 requirement was not met */
    uint32_t pbt_tests, pbt_passed;
    uint64_t pbt_shrink_steps;
    uint32_t pbt_counterexample_commands, pbt_counterexample_parallel;
    uint32_t pbt_counterexample_branches;
    char pbt_text[4096];
    /* The reported linearizability failure's history, as the JSON the
     * HTML timeline is drawn from (lin/explain.h); "" when none or too
     * long. */
    char pbt_history[32768];
    struct ravel__exec exec; /* last: its arrays follow in the mapping */
};

/*
 * Lanes. With --jobs N the systematic strategies run N executors in
 * parallel, each with its own struct ravel__shared, pipes and capture
 * files (a lane); they share the search tree and this page, which numbers
 * executions across lanes and tells them when to stop.
 */
#define RAVEL__MAX_LANES 64

struct ravel__common {
    _Atomic uint64_t next_number; /* the next execution's number */
    /* Data races reported in the run, by pair of code locations (a <= b),
     * so that no lane reports one twice (race.c). */
    _Atomic uint32_t nraces;
    struct {
        uint64_t pc_a, pc_b;
    } races[RAVEL__MAX_RACES];
    /* Race-directed scheduling: code locations whose plain accesses are
     * visible operations in this phase of the run (set by the
     * supervisor between phases, or from a replayed ticket). */
    uint32_t npromoted;
    uint64_t promoted[RAVEL__MAX_PROMOTED];
    /* ... and memory every access to which is a visible operation, from
     * any code location: the racing variables (8-byte granules of module
     * data, named as ravel__addr_global names them), so that the
     * consequences of a race are interleaved too, not only its two
     * accesses. Heap and stack memory is promoted by code location only. */
    uint32_t npromoted_data;
    uint64_t promoted_data[RAVEL__MAX_PROMOTED];
    uint32_t phase; /* explorations restarted after a promotion */
    /* --timeouts late held a sleep or a timed wait back in some
     * execution: the guarantee covers only such timings (supervisor.c). */
    uint8_t late_held;
    _Atomic uint64_t limit; /* no execution numbered >= limit starts (a
                               bug was found before it) */
    /* A program run directly (ravel__rt.direct): passing_lane is the
     * lane (+1) whose executions print to the program's own stdout and
     * stderr - the one that ran execution 0, until one of its executions
     * ends other than cut short by a spin-wait (then RAVEL__NONE): the
     * program's first execution. first_status is the exit status of the
     * first execution of that lane (status_lane) that exits, which the
     * run exits with when ravel finds nothing and against which the other
     * executions' statuses are judged; first_known is set once it is
     * known (0 when none of the lane's executions exited). */
    _Atomic uint32_t first_known;
    int64_t first_status;
    _Atomic uint32_t passing_lane, status_lane;
    /* The run was interrupted (SIGINT, SIGTERM, SIGHUP): set by the
     * supervisor, or by an executor the signal reached; every executor
     * stops after its current execution, abandons its share of the
     * search and says what it covered (executor.c). */
    _Atomic uint32_t stop_requested;
    /* The pid of the executor whose execution holds the machine's socket
     * addresses (0: none): lanes bind and connect to them one at a time
     * (intercept/fd.c, "lanes share the machine"). */
    _Atomic int32_t addr_holder;
};

/* One lane as the supervisor sees it (set up before the fork). */
struct ravel__lane_io {
    struct ravel__shared *sh;
    struct ravel__exec *x;
    int cap_out, cap_err;  /* capture files of its executor's output */
    int to_sv, from_sv;    /* executor's pipe ends */
    int sv_in, sv_out;     /* supervisor's pipe ends */
    pid_t child;           /* its executor, 0 when none */
    bool done;             /* its executor finished the run */
    bool exiting;          /* and said so (RAVEL__MSG_DONE): all it does
                              after the reply is exit, which the run waits
                              for only after its summary (the process's
                              teardown takes about a millisecond) */
    double done_at;        /* when `done` was set while the executor was
                              still alive: it must exit soon after */
    uint64_t last_progress;
    uint64_t last_accesses; /* the lone thread's plain accesses then */
    uint64_t last_side_writes; /* the running thread's side writes then */
    uint32_t last_running;  /* and which thread that was */
    double last_change;
    double last_step;      /* when it last took a step (or was between
                              executions): computing's bound */
    bool computing;        /* its silence has been a computation */
    /* The watchdog: the running thread's CPU seconds, read once the
     * lane has been silent for half the watchdog (-1: not read). */
    double silent_cpu, silent_at;
};

/* Messages on the executor -> supervisor pipe (the reply is one byte). */
enum ravel__msg_type {
    RAVEL__MSG_BUG = 1,     /* exec.failure is set; reply go on / stop */
    RAVEL__MSG_OUTCOME = 2, /* new distinct result: arg = its index */
    RAVEL__MSG_DONE = 3,    /* the run is over */
    RAVEL__MSG_ERROR = 4,   /* tool error in shared->error */
    RAVEL__MSG_SPIN = 5,    /* exec.nquiet: a spin on plain memory; reply
                               stop (its reads are promoted: the
                               exploration starts over) or go on (they
                               cannot be: the execution is a hang) */
};
struct ravel__msg {
    uint32_t type;
    uint32_t arg;
};
enum { RAVEL__REPLY_GO = 'g', RAVEL__REPLY_STOP = 's' };

/* A cheap clock for --profile: the time-stamp counter where there is one
 * (the same in every process of the run), converted with the rate
 * measured over the run. */
static inline uint64_t ravel__ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* ---- process-private state -------------------------------------------- */

typedef int (*ravel__main_fn)(int, char **, char **);

struct ravel__rt {
    struct ravel__options opt;
    bool active;              /* ravel runs this process's main */
    bool supervised;          /* a supervisor process exists */
    double door_time;         /* a door's --time (the door applies it) */
    /* Run directly, not by `ravel run`/`ravel replay`: the program keeps
     * its first execution's stdout, stderr and exit status; ravel speaks
     * only on stderr and only when it finds something (docs/output.md). */
    bool direct;
    int real_out, real_err;   /* the program's own stdout and stderr
                                 (direct runs, in the executor), or -1 */
    bool passing;             /* this execution's output is forwarded to
                                 those as it is printed (executor.c) */
    int result_fd;            /* result_fd: the JSON summary for a test
                                 driver (src/unit), or -1 */
    volatile bool executing;  /* inside an execution */
    bool premain;             /* program constructors are running */
    struct ravel__shared *sh;
    struct ravel__exec *x;
    /* With --trace: the last execution that ran to its end (shared), for
     * the trace of a run without bugs. */
    struct ravel__exec *last_complete;
    struct ravel__strategy *strategy;
    void *strategy_mem; /* shared: the systematic strategies' search tree */
    size_t strategy_mem_size;
    struct ravel__ticket ticket;
    bool have_ticket;
    /* --checkpoint, --resume (src/explore/checkpoint.h): the search's
     * and the program's hashes, and the checkpoint resumed (read by the
     * supervisor before the executors are forked). */
    uint64_t search_hash, program_hash;
    struct ravel__checkpoint *resumed;
    double last_checkpoint;
    ravel__main_fn main;
    uint64_t main_pc; /* thread 1's start in traces (0: main) */
    int argc;
    char **argv;
    char **envp;
    jmp_buf loop; /* where thread 1 returns when an execution ends */
    int cap_out, cap_err; /* memfds capturing stdout/stderr, or -1 */
    int to_sv, from_sv;   /* executor's ends of the pipes, or -1 */
    int sv_in, sv_out;    /* supervisor's ends: messages in, replies out */
    double start_time;
    /* Lanes (--jobs): this process's lane (the executor's own; in the
     * supervisor, the one whose event is being handled), and all of them.
     * The fields above (sh, x, capture files, pipes) are those of `lane`:
     * ravel__use_lane() switches them. */
    uint32_t lane, nlanes;
    struct ravel__lane_io *lanes;
    struct ravel__common *common;
    uint64_t start_ticks; /* ravel__ticks() at start_time */
    /* The process its user started (the supervisor), whose pid the
     * program's getpid() returns (intercept/time.c); 0 without one. */
    pid_t program_pid;
};
extern struct ravel__rt ravel__rt;

/* ---- threads (backend/os.c) ------------------------------------------- */

enum ravel__worker_state {
    RAVEL__W_IDLE,  /* in the pool */
    RAVEL__W_BOUND, /* runs (or will run) a program thread */
};

/* An OS thread that runs program threads, one after another. */
struct ravel__worker {
    /* First: what the hooks linked into the program read through
     * ravel__self (intercept/hooks_abi.h): the counts of the thread it
     * runs, its stack (stack_lo, stack_hi) and the thread's shadow-stack
     * frames. */
    union {
        struct ravel__hook_view view;
        struct {
            struct ravel__plain_counts *counts;
            void *stack_lo, *stack_hi;
            uint64_t *frames;
        };
    };
    _Atomic uint32_t go;    /* the baton: 1 = may run (futex word) */
    _Atomic uint32_t state; /* enum ravel__worker_state (futex word) */
    uint32_t slot;          /* model thread it runs, RAVEL__NONE if idle */
    uint32_t last_slot;     /* thread it was last bound to in this
                               execution (owned by the baton holder) */
    _Atomic uint32_t abandon; /* drop the thread: the execution is over */
    bool is_main;
    bool started;
    void *(*fn)(void *);
    void *arg;
    pthread_t handle;
    int tid;
    size_t stack_size;
    void *prog_top; /* frame that calls the program's code (the thread's
                       start routine, or main): the top of what an
                       atomic section's checkpoint copies (section.c) */
    sigset_t start_mask;
    /* OS threads: the program's signals are held (blocked) from the
     * thread's park to its next visible operation, whose start gives it
     * back sig_mask (backend/os.c, ravel__os_signals_release). */
    bool sig_held;
    sigset_t sig_mask;
    jmp_buf base; /* top of the worker loop */
    struct ravel__worker *next;
    /* fiber backend */
    void *sp;            /* saved stack pointer while switched out */
    void *stack_map;     /* its stack mapping (guard page included) */
    size_t stack_map_len;
    void *tls;           /* its _Thread_local variables while out */
    int saved_errno;
    void **tsd;          /* its pthread_setspecific values */
    /* race.c: the execution (ravel__race_begin's count) whose thread last
     * started on this stack; 0 for none */
    uint64_t race_exec;
    /* Snapshots (fiber.c): times it was switched to or bound, and a copy
     * of its stack in a snapshot that its stack still equals while that
     * count and its saved stack pointer stay as they were then (NULL:
     * none). */
    uint32_t ran, snap_ran;
    const unsigned char *snap_copy;
    void *snap_sp;
};

/* The worker running on this OS thread (NULL: not one of ravel's).
 * Exported: the hooks linked into the program read it. */
extern _Thread_local struct ravel__worker *ravel__self
    __attribute__((tls_model("initial-exec")));

/* The calling thread's worker if ravel controls it right now, else NULL:
 * interceptors pass the call through to libc when this is NULL. */
static inline struct ravel__worker *ravel__controlled(void)
{
    struct ravel__worker *w = ravel__self;
    if (RAVEL__LIKELY(w == NULL) || !ravel__rt.executing ||
        w->slot == RAVEL__NONE)
        return NULL;
    return w;
}

/* Binds w to model thread `slot` (RAVEL__NONE: to none). Every change of
 * a worker's slot goes through here, so that the view the program's
 * hooks read stays true: counts (and frames) non-NULL exactly when slot is
 * a thread. */
static inline void ravel__worker_bind(struct ravel__worker *w, uint32_t slot)
{
    w->slot = slot;
    struct ravel__thread *th =
        slot != RAVEL__NONE && ravel__rt.x ? &ravel__rt.x->threads[slot] : NULL;
    w->counts = th ? &th->plain : NULL;
    w->frames = th ? th->frames : NULL;
}

/* An execution starts or ends in this process (also what the program's
 * hooks test). */
static inline void ravel__set_executing(bool on)
{
    ravel__rt.executing = on;
    RAVEL__HOOKS_ABI.executing = on;
}

/*
 * A thread backend: how program threads are run and how the baton moves.
 * The scheduler (sched.c) and the interceptors go only through this table;
 * backend/os.c implements it with pooled OS threads. (A user-level fiber
 * backend would implement the same operations.)
 */
struct ravel__backend {
    const char *name;
    /* Sets up the worker of the process's main thread (thread 1). */
    void (*init_main)(void);
    struct ravel__worker *(*main)(void);
    /* An idle worker with at least stack_size of stack, created if
     * needed; NULL if the system refuses a new thread. */
    struct ravel__worker *(*get)(size_t stack_size);
    /* Binds w to program thread `slot` of the current execution; it runs
     * w->fn(w->arg) when first given the baton. */
    void (*bind)(struct ravel__worker *w, uint32_t slot);
    struct ravel__worker *(*of_slot)(uint32_t slot);
    /* Waits for the baton; returns when it is the caller's (see sched.c
     * for what happens when the execution was abandoned meanwhile). */
    void (*park)(struct ravel__worker *w);
    void (*unpark)(struct ravel__worker *w);
    /* Unwinds every bound worker but the main one and waits until they are
     * back in the pool (end of an execution). */
    void (*abandon_all)(void);
};

extern const struct ravel__backend ravel__backend_os;
/* Holds the calling program thread's signals (see sig_held), and gives
 * them back. */
void ravel__os_signals_hold(struct ravel__worker *w);
void ravel__os_signals_release(struct ravel__worker *w);
extern const struct ravel__backend ravel__backend_fiber;
/* The backend in use (chosen in the executor, before main). */
extern const struct ravel__backend *ravel__backend;
/* Is the fiber backend in use? */
static inline bool ravel__fibers(void)
{
    return ravel__backend == &ravel__backend_fiber;
}
/* Chooses the backend from the options and the program's imports. */
void ravel__choose_backend(void);
/* The body of a program thread on a worker (both backends): fresh TLS and
 * errno, START, the thread function, FINISH. Returns when it finished. */
void ravel__thread_body(struct ravel__worker *w);
/* Thread-specific data of fibers (intercept/thread.c). */
void *ravel__fiber_getspecific(struct ravel__worker *w, pthread_key_t k);
void ravel__fiber_setspecific(struct ravel__worker *w, pthread_key_t k,
                              uintptr_t v);

/* ---- scheduling (sched.c) --------------------------------------------- */

/*
 * A visible operation of the calling (controlled) thread: publishes it,
 * lets the strategy choose who runs, waits for the baton if needed, then
 * applies it. Returns the logged event; *result gets the model's result.
 * Never returns when the execution ends here (deadlock, misuse, limit).
 */
struct ravel__event *ravel__step(struct ravel__worker *w, uint16_t kind,
                                 uint32_t obj, uint32_t obj2, int64_t arg,
                                 uint64_t pc, int *result);
/* The first step of a thread (START) when it gets the baton. */
void ravel__thread_started(struct ravel__worker *w, uint64_t fn_pc);
/* Ends the calling thread: TSD destructors, FINISH, hand-over. Returns
 * to the caller (the worker loop) for threads other than thread 1. */
void ravel__thread_finish(struct ravel__worker *w, void *retval, uint64_t pc);
/* exit(status) (or return from main) in a controlled thread. */
RAVEL__NORETURN void ravel__program_exit(struct ravel__worker *w, int status,
                                         uint64_t pc, bool run_handlers);
/* Records a failure of the calling thread and ends the execution. */
RAVEL__NORETURN void ravel__fail_now(struct ravel__worker *w, uint8_t kind,
                                     uint64_t pc, const char *fmt, ...)
    RAVEL__PRINTF(4, 5);
/* Ends the current execution from the thread holding the baton. */
RAVEL__NORETURN void ravel__end_execution(struct ravel__worker *w);
/* Tool error inside an execution (diverged replay, capacity): ends the
 * run with exit status 2. */
RAVEL__NORETURN void ravel__tool_error(struct ravel__worker *w,
                                       const char *fmt, ...)
    RAVEL__PRINTF(2, 3);
/* True (once) when the execution ended on a tool error (see sh->error). */
bool ravel__tool_failed(void);
/* Ends the execution as blocked (abandoned, not a bug). */
RAVEL__NORETURN void ravel__block_execution(struct ravel__worker *w);
/* pthread_create over --max-threads: the calling thread stops there for
 * good (never enabled again); the others go on, and when none can, the
 * execution ends cut short (END_CUT). A scheduling point; never returns. */
RAVEL__NORETURN void ravel__stop_at_thread_cap(struct ravel__worker *w,
                                               uint64_t pc);
/* A data choice in [0, n) made by the strategy (recorded in the trace). */
uint32_t ravel__choose_data(struct ravel__worker *w, uint32_t n);

/*
 * Doors (DESIGN.md, "the doors a user comes through"). By default `main`
 * is the test: every execution runs it once. A door is another way in,
 * a module above the runtime that drives the executions itself (src/pbt:
 * property programs). The runtime knows a door only through this table:
 * no file in rt/ names a door's functions. A door registers itself from
 * a constructor (ravel__door_register); at start-up init.c asks each
 * registered door whether it claims the program, and the one that does
 * is `ravel__door` for the whole run (NULL: main is the test).
 *
 * Every callback runs in the executor unless it says otherwise.
 */
struct ravel__elf;
struct ravel__strbuf;
struct ravel__door {
    const char *name;
    /* Start-up, in the process that becomes the supervisor: does this
     * door drive the program? (It reads the program's ELF image.) */
    bool (*claim)(const struct ravel__elf *exe);
    /* Start-up, before anything is set up (NULL: every argument is one of
     * ravel's options): the index in argv where ravel's options start,
     * or -1 when the program is to run natively, ravel staying out of
     * the way (a unit test program's driver, src/unit). */
    int (*arguments)(int argc, char **argv);
    /* Start-up, after the options (also read from the program's own
     * arguments, init.c) are final: adjust them for this door. */
    void (*setup)(struct ravel__rt *rt);
    /* Shared memory the door keeps across executors and with the
     * supervisor: its size, and where it was mapped (before the fork). */
    size_t (*shared_size)(void);
    void (*attach)(void *mem);
    /* A data choice in [0, n): answer it in *v and return true, or return
     * false to let the strategy choose (sched.c). */
    bool (*choose)(uint32_t n, uint32_t *v);
    /* After an execution, before it is classified: judge its results
     * and record a failure in the execution. */
    void (*judge)(void);
    /* Is this execution's failure the door's business, not to be
     * reported? (Executor and supervisor.) */
    bool (*quiet)(void);
    /* After the strategy's end (`more`: the strategy has more): decide
     * what runs next; false ends the run. */
    bool (*next)(bool more);
    /* A new executor after the previous one died in an execution:
     * resume the door's work. Returns whether to go on. */
    bool (*resume)(void);
    /* Supervisor: the door's account of an execution that died (crash,
     * hang), added to the report's program output. */
    void (*dead_text)(struct ravel__strbuf *sb);
    /* Supervisor: the door's final execution died; finish its summary. */
    void (*dead_final)(void);
    /* Supervisor: race-directed scheduling starts the run over. */
    void (*start_over)(void);
    /* In the executor, after the program's constructors ran, before the
     * first execution: get ready (a unit test puts its body in place of
     * rt->main). False, with a message in err, is a tool error. */
    bool (*begin)(struct ravel__rt *rt, char *err, size_t errlen);
    /* What this run tests when it is not the whole program (a unit test's
     * SUITE/NAME): named in ticket files and the JSON summary. */
    const char *(*case_name)(void);
};
/* Every callback but name and claim may be NULL: the runtime then does
 * what it does for `main` programs. */
/* Registers a door (from a constructor; at most a few exist). */
void ravel__door_register(const struct ravel__door *d);
/* The door that drives this run, or NULL. */
extern const struct ravel__door *ravel__door;
/* Is the current execution's failure the door's business (quiet)? */
static inline bool ravel__door_quiet(void)
{
    return ravel__door && ravel__door->quiet && ravel__door->quiet();
}
/* The door's name for what this run tests, or NULL (the program). */
static inline const char *ravel__door_case(void)
{
    return ravel__door && ravel__door->case_name ? ravel__door->case_name()
                                                 : NULL;
}
/* The value an atomic access of `size` bytes at b stands for in an
 * event (sign-extended, as the access hooks log it): for the stores that
 * tso.c buffers and rc11.c keeps in modification order. */
static inline int64_t ravel__value_of(const unsigned char *b, unsigned size)
{
    switch (size) {
    case 1: { int8_t v; memcpy(&v, b, 1); return v; }
    case 2: { int16_t v; memcpy(&v, b, 2); return v; }
    case 4: { int32_t v; memcpy(&v, b, 4); return v; }
    default: { int64_t v; memcpy(&v, b, 8); return v; }
    }
}

/* x86-TSO store buffers (tso.c, --memory-model tso).
 * ravel__tso_store: the calling thread's store event ev was buffered by
 * the model (flag RAVEL__EV_BUFFERED): keep its bytes (size <= 16, val
 * copied) as the newest entry of its buffer. Not a scheduling point.
 * ravel__tso_load: what the calling thread's load of [a, a+size) reads:
 * memory overlaid with its own buffered stores; copies the bytes to out,
 * returns them as a number, and flags the event (FORWARDED or STALE,
 * aux: the store concerned). Not a scheduling point.
 * ravel__tso_flushed: pseudo-thread p's FLUSH event ev was just logged:
 * writes the oldest buffered store of its thread to memory, fills the
 * event, and sets the flush that comes next. */
void ravel__tso_store(struct ravel__worker *w, struct ravel__event *ev,
                      const volatile void *a, unsigned size, const void *val,
                      int mo);
int64_t ravel__tso_load(struct ravel__worker *w, struct ravel__event *ev,
                        const volatile void *a, unsigned size, void *out);
void ravel__tso_flushed(struct ravel__exec *x, uint32_t p,
                        struct ravel__event *ev);

/* RC11 (rc11.c, --memory-model rc11): every atomic access of a program
 * thread goes through these once its event is logged; they make the
 * reads-from and modification-order choices, keep the views, and write
 * memory when a store is the last in modification order.
 * ravel__rc11_load: the value (size bytes into out) the load reads.
 * ravel__rc11_store: the store of val.
 * ravel__rc11_rmw: a read-modify-write (expect NULL) or compare-exchange
 * (expect: the expected bytes): copies the value read into old, and,
 * when it writes, stores compute(old) right after it; returns whether
 * it wrote. ravel__rc11_fence: a fence. ravel__rc11_sync: a logged
 * synchronisation event (views travel along its edges).
 * ravel__rc11_graph: the fingerprint of the ended execution's graph. */
void ravel__rc11_load(struct ravel__worker *w, struct ravel__event *ev,
                      const volatile void *a, unsigned size, int mo,
                      void *out);
void ravel__rc11_store(struct ravel__worker *w, struct ravel__event *ev,
                       const volatile void *a, unsigned size, const void *val,
                       int mo);
bool ravel__rc11_rmw(struct ravel__worker *w, struct ravel__event *ev,
                     const volatile void *a, unsigned size, int mo,
                     const void *expect, void *old,
                     void (*compute)(const void *old, void *new_, void *ctx),
                     void *ctx);
void ravel__rc11_fence(struct ravel__worker *w, int mo);
/* After the race detector saw an rc11 store or read-modify-write: keeps
 * the release clock it left with the store. */
void ravel__rc11_raced(const struct ravel__event *ev);
void ravel__rc11_sync(const struct ravel__event *ev);
uint64_t ravel__rc11_graph(const struct ravel__exec *x);

/* Atomic sections (section.c). ravel__section_enter: the calling thread
 * enters its outermost section; a scheduling point (SECTION), after which
 * the thread runs without preemption; returns again (after another step)
 * if the section is rolled back. ravel__section_leave: it left its
 * outermost section. ravel__section_assume_failed: a false assumption
 * inside a section; rolls the section back and does not return when it
 * can, else returns (the caller discards the execution). */
void ravel__section_enter(struct ravel__worker *w, uint64_t pc);
void ravel__section_leave(struct ravel__worker *w);
void ravel__section_assume_failed(struct ravel__worker *w);
uint32_t ravel__section_object(struct ravel__worker *w);

/* Functions SV-COMP's conventions give a meaning by name, found in the
 * instrumented modules' symbol tables: is pc inside a __VERIFIER_atomic_*
 * function (it runs as an atomic section), inside the program's own
 * reach_error (calling it is the error), or neither? */
enum { RAVEL__FN_NONE, RAVEL__FN_ATOMIC, RAVEL__FN_REACH_ERROR };
int ravel__pc_special_function(uint64_t pc);
/* How many special functions the modules have (0 but in SV-COMP
 * programs): function entries look them up only when there are some. */
extern unsigned ravel__nspecial_fns;
/* The address of module data named `where` by ravel__addr_global (in
 * this process), or false. */
bool ravel__addr_from_global(uint64_t where, uint64_t *addr);
/* SV-COMP's error reached (svcomp.c): an assertion failure at pc. */
RAVEL__NORETURN void ravel__svcomp_error(struct ravel__worker *w, uint64_t pc,
                                         const char *what);
/* Caller's return address, the "pc" of an intercepted call. */
#define RAVEL__CALLER_PC ((uint64_t)(uintptr_t)__builtin_return_address(0))
/* Forgets an object's state (re-initialisation of the memory). */
void ravel__object_forget(const void *addr);
/* Finds or creates the object for addr, naming where its memory is. */
uint32_t ravel__object(struct ravel__worker *w, const void *addr,
                       uint8_t kind, bool *created);

/* --max-steps of a program run directly when RAVEL_OPTIONS does not set
 * it: its first execution is the program's own run (a test of a test
 * suite), which must be able to finish as it does natively; `ravel run`
 * keeps options.def's default (init.c). */
#define RAVEL__DIRECT_MAX_STEPS 10000000ULL
/* And the time after which it starts no more executions, unless the run
 * names --executions or --time (init.c): under the 30 s a test of meson's
 * gets by default, with a first execution of a few seconds. */
#define RAVEL__DIRECT_TIME 10.0

/* ---- virtual time and hidden inputs (intercept/time.c) --------------- */

/* Where the virtual clocks start: CLOCK_REALTIME at 2026-01-01 00:00:00
 * UTC, the monotonic clocks at 1,000 s; each read advances them by 10 ms. */
#define RAVEL__VTIME_EPOCH 1767225600ULL
#define RAVEL__VTIME_MONO 1000ULL
#define RAVEL__VTIME_READ_NS 10000000ULL
/* Starts an execution's clock, C-library generators and entropy afresh. */
void ravel__vtime_begin(void);
/* Before a timed wait by the baton holder: its deadline, an absolute
 * time of `clock` (-1 when the call does not say; NULL: none), or ns
 * from now (0: none), which --timeouts late holds it back until. */
void ravel__vtime_deadline(clockid_t clock, const struct timespec *abs);
void ravel__vtime_deadline_ns(uint64_t ns);
/* After a timed wait by the baton holder: when rc is ETIMEDOUT, time has
 * reached the deadline abs (of `clock`, -1 when the call does not say).
 * Returns rc. */
int ravel__vtime_waited(int rc, clockid_t clock, const struct timespec *abs);
/* After a wait of ns set by ravel__vtime_deadline_ns timed out. */
void ravel__vtime_timed_out_ns(uint64_t ns);
/* Before a sleep of the baton holder (its SLEEP step): the clock
 * advances by t (to t if absolute) at once, or with --timeouts late
 * when ravel__vtime_woke is called after the step. */
void ravel__vtime_sleep(clockid_t clock, bool absolute,
                        const struct timespec *t);
void ravel__vtime_sleep_ns(uint64_t ns);
void ravel__vtime_woke(void);
/* fopen of /dev/urandom or /dev/random by the program in an execution: a
 * stream of this execution's generated bytes; NULL for the real file. */
FILE *ravel__devrandom_fopen(const char *path, const char *mode,
                             uint64_t pc);

/* ---- descriptors (intercept/fd.c) ------------------------------------ */

/* Starts an execution with no controlled descriptor and no waiter. */
void ravel__fd_begin(void);
/* Did the execution that ran last (until the next ravel__fd_begin) create
 * a controlled descriptor? process/reset.c then closes every stray one. */
bool ravel__fd_opened(void);
/* Before a choice (sched.c): tests the readiness of every thread's
 * pending descriptor operation that may have changed (zero-timeout polls,
 * only after some descriptor call ran) into its fd_ready. Not a
 * scheduling point. */
void ravel__fd_refresh(struct ravel__exec *x);
/* After an execution (executor.c): if it held the machine's names (its
 * socket addresses and files), closes what it opened and lets the other
 * lanes have them. */
void ravel__fd_let_go(void);
/* A call of the program at pc that changes a file's contents or names
 * (an open for writing, fopen "w" or "a"): its execution holds the
 * machine's names until it ends (intercept/fd.c). */
void ravel__fd_hold_files(uint64_t pc);
/* Run directly, in the execution that prints as the program (sched.c,
 * at each step): forwards what it printed since (executor.c). */
void ravel__passing_forward(void);

/* ---- the program's memory and resources (reset.c, heap.c, modules.c) -- */

/* Registers the module containing `pc` as instrumented (from __tsan_init). */
void ravel__modules_register(uint64_t pc);
/* Is pc inside code compiled with ravel's instrumentation? */
bool ravel__pc_instrumented(uint64_t pc);
/* How many instrumented modules are known (only grows): a pc found not
 * instrumented stays so while this does not change. */
unsigned ravel__modules_count(void);
/* How many of them call the hooks (0: nothing of the program is seen). */
unsigned ravel__modules_hooked(void);
/* Is addr in a writable segment of an instrumented module (a global)? */
/* Is addr in the data of an instrumented module? `where` names it
 * independently of where the module was loaded. */
bool ravel__addr_global(uint64_t addr, uint64_t *where);
/* The instrumented modules' thread-local storage, as one block: its size,
 * and saving/loading the calling OS thread's copy (fibers switch it). */
size_t ravel__tls_total(void);
void ravel__tls_save(void *buf);
void ravel__tls_load(const void *buf);
void ravel__modules_scan(void);
/* Writable data ranges of the instrumented modules; returns how many. */
unsigned ravel__modules_data(uintptr_t *lo, uintptr_t *hi, unsigned max);

/* Set by interceptors when the program changes process state that is
 * costly to restore unconditionally (reset.c restores it only then). */
extern bool ravel__changed_cwd, ravel__changed_sigmask, ravel__changed_stdio;
/* The program called write or writev on a descriptor of its own (so the
 * capture files may have grown: executor.c, output_since_last). */
extern bool ravel__wrote_raw;
/* The program opened, duplicated or accepted a descriptor through a call
 * ravel intercepts (reset.c checks for strays only then, or now and then). */
extern bool ravel__made_fd;
/* It put one at a number of its choosing (dup2, dup3): reset.c scans for
 * strays after that execution, as the lowest free number says nothing. */
extern bool ravel__placed_fd;
void ravel__reset_snapshot(void);
/* A pipe on stdin read to its end into a file, when it ends (reset.c). */
void ravel__reset_stdin_pipe(void);
void ravel__reset_restore(void);
/* Closes the streams and descriptors the last execution opened (the
 * restore does it too; fd.c does it early, to let go of an address). */
void ravel__reset_close_files(void);
void ravel__reset_thread_tls(void);
/* exit handlers registered during the execution (atexit/__cxa_atexit). */
bool ravel__atexit_record(void (*fn)(void *), void *arg, void *dso);
void ravel__atexit_run(void);
/* TSD keys created during the execution, and destructors of a thread. */
void ravel__keys_record(pthread_key_t key, void (*dtor)(void *));
void ravel__keys_forget(pthread_key_t key);
void ravel__keys_run_destructors(void);
void ravel__keys_clear_values(void);
/* FILE streams opened during the execution. */
void ravel__files_record(FILE *f);
void ravel__files_forget(FILE *f);

/* Heap blocks allocated by the program during the execution. */
struct ravel__heap_pos {
    uint64_t seq, off; /* block number in the execution, offset in it */
    uint64_t tkey;     /* allocating thread's key (0: not a program thread) */
    uint32_t tseq;     /* block number within that thread */
};
bool ravel__heap_origin(uint64_t addr, struct ravel__heap_pos *pos);
void ravel__heap_release(void);
void ravel__heap_snapshot(void);
void ravel__heap_restore(void);
/* Is addr on a controlled thread's stack? Sets the thread. */
/* Which live thread's stack holds addr, and how far below its top. */
bool ravel__stack_owner(uint64_t addr, uint32_t *slot, uint64_t *depth);

/* No program heap block exists (none from before main, none allocated
 * in this execution and still live): snapshots need that. */
bool ravel__heap_untouched(void);

/* ---- snapshots (process/resume.c) ------------------------------------- */

/*
 * An execution may save itself at a choice point and a later one start
 * there (resume.c says when, and what is saved). ravel__step takes one
 * when x->nevents reaches ravel__snap_at (UINT32_MAX: none in this
 * execution); ravel__snap_take returns twice, the second time in a later
 * execution that started from it. ravel__snap_begin, at an execution's
 * start (after the strategy's begin), chooses the snapshot it starts
 * from; ravel__snap_enter, from the frame that calls main, goes there
 * (it does not return then) or returns to run main.
 */
extern uint32_t ravel__snap_at;
/* The execution did something no snapshot holds (opened, wrote or
 * closed a descriptor: interceptors of calls resume.c lets a program
 * import): none is taken for the rest of it. */
static inline void ravel__snap_spoil(void)
{
    ravel__snap_at = UINT32_MAX;
}
void ravel__snap_take(struct ravel__worker *w);
void ravel__snap_begin(void);
void ravel__snap_enter(struct ravel__worker *w);
struct ravel__elf;
/* modules.c: an instrumented module's imports (resume.c's list); NULL
 * for one whose file could not be read. */
void ravel__snap_check_imports(const struct ravel__elf *e);
/* No instrumented module imports anything outside that list, which has
 * no function that writes a FILE (executor.c's flush at an execution's
 * end is then stdout's and stderr's only). */
bool ravel__snap_imports_listed(void);
/* The snapshot being written or read: where the next bytes go or come
 * from, and the end of the room (resume.c sets them). */
struct ravel__snapio {
    unsigned char *p, *end;
};
extern struct ravel__snapio ravel__snapio;
/* The C library's copy, not the interposed memcpy (race.c), whose
 * caller test would be most of the cost of a snapshot's small pieces. */
extern void *__memcpy_chk(void *, const void *, size_t, size_t);
static inline void ravel__snap_copy(void *d, const void *s, size_t n)
{
    if (__builtin_constant_p(n) && n >= 64) {
        /* In 32-byte pieces: GCC copies a known size of this order with
         * a string instruction, whose start-up was half the time of
         * resuming a snapshot's model (a thread's 400 bytes). */
        char *dc = (char *)d;
        const char *sc = (const char *)s;
        size_t i = 0;
#pragma GCC unroll 32
        for (; i + 32 <= n; i += 32)
            __builtin_memcpy(dc + i, sc + i, 32);
        __builtin_memcpy(dc + i, sc + i, n - i);
    } else if (__builtin_constant_p(n)) {
        __builtin_memcpy(d, s, n);
    } else if (n) {
        __memcpy_chk(d, s, n, n);
    }
}
/* Appends n bytes (copied from src unless NULL) to the snapshot being
 * written and returns where they are, NULL when there is no room. */
static inline void *ravel__snap_put(const void *src, size_t n)
{
    struct ravel__snapio *io = &ravel__snapio;
    size_t r = (n + 7) & ~(size_t)7;
    if (RAVEL__UNLIKELY((size_t)(io->end - io->p) < r))
        return NULL;
    unsigned char *d = io->p;
    io->p += r;
    if (r != n) /* the padding, so that equal states are equal bytes */
        __builtin_memset(d + r - 8, 0, 8);
    if (src)
        ravel__snap_copy(d, src, n);
    return d;
}
/* The next n bytes of the snapshot being read, in the order put. */
static inline const void *ravel__snap_get(size_t n)
{
    struct ravel__snapio *io = &ravel__snapio;
    const unsigned char *p = io->p;
    io->p += (n + 7) & ~(size_t)7;
    RAVEL__CHECK(io->p <= io->end);
    return p;
}
static inline void ravel__snap_get_to(void *d, size_t n)
{
    ravel__snap_copy(d, ravel__snap_get(n), n);
}
/* Each module's part, put while taking and got back while resuming in
 * this order (resume.c): false when there was no room. */
bool ravel__defer_snap_put(void);
void ravel__defer_snap_get(void);
bool ravel__sched_snap_put(void);
void ravel__sched_snap_get(void);
bool ravel__thread_snap_put(void);
void ravel__thread_snap_get(void);
bool ravel__reset_snap_put(void);
void ravel__reset_snap_get(void);
/* Bytes of the instrumented modules' globals. */
size_t ravel__reset_data_size(void);
/* backend/fiber.c: every fiber of the execution, the caller (holding
 * the baton) included, into the snapshot. Returns true when it returns a
 * second time, in an execution resumed from it; *ok false when there was
 * no room. ravel__fiber_resume puts them back from the snapshot being
 * read and goes on as the caller of ravel__fiber_snapshot. race_exec:
 * race.c's count of executions, now. ravel__fiber_snap_diff compares two
 * snapshots' fiber parts but for their stacks' bytes: the offset of the
 * first difference, or SIZE_MAX (--snapshots-check). */
bool ravel__fiber_snapshot(struct ravel__worker *cur, uint32_t nthreads,
                           uint64_t race_exec, bool *ok);
size_t ravel__fiber_snap_diff(const unsigned char *a, size_t alen,
                              const unsigned char *b, size_t blen);
/* The snapshots' bytes from `above` on are gone (dropped, or not kept):
 * stacks refer to none of them any more; nor thread 1's, which ran
 * ravel's own code since (backend/fiber.c). */
void ravel__fiber_snap_forget(const unsigned char *above);
RAVEL__NORETURN void ravel__fiber_resume(uint64_t race_exec);

/* Where an execution's heap block came from (for race reports). */
struct ravel__heap_info {
    uint64_t ptr, size;
    uint64_t pc;     /* the allocation call */
    uint32_t thread; /* allocating thread (RAVEL__NONE: not a program one) */
    uint32_t stack;  /* its stack id then (race.c's depot) */
};
bool ravel__heap_info(uint64_t addr, struct ravel__heap_info *info);

/* ---- data races (race.c, suppress.c) ---------------------------------- */

/* Detection is on in this executor (--races and memory for the shadow). */
extern bool ravel__race_on;
/* The running thread is alone: nothing it accesses now can race, so plain
 * accesses are not checked (race.c says when). */
extern bool ravel__race_alone;
/* The detector (NULL while detection is off) and the number of promoted
 * variables' granules: the access hooks read them for their inline
 * check (intercept/tsan.c). */
extern struct ravel__detector *ravel__race_det;
extern uint32_t ravel__race_nploc;
/* Sets up the detector (executor start) and starts an execution. */
void ravel__race_init(void);
void ravel__race_begin(void);
/* Executions begun so far in this process; an execution started from a
 * snapshot (process/resume.c) recomputes whether a thread runs alone. */
uint64_t ravel__race_exec_count(void);
void ravel__race_resumed(void);
/* The happens-before effect of an event the model just applied (arg:
 * the operation's argument). */
void ravel__race_event(const struct ravel__event *ev, int64_t arg);
/* Atomic loads, stores, RMWs and compare-exchanges skip that: their hook
 * calls this once the memory effect is done (and ev->aux says whether a
 * compare-exchange stored), with the location; it applies the
 * happens-before effect around checking the access against plain ones. */
static inline bool ravel__op_is_atomic_access(uint16_t kind)
{
    return kind == RAVEL__OP_ATOMIC_LOAD || kind == RAVEL__OP_ATOMIC_STORE ||
           kind == RAVEL__OP_ATOMIC_RMW || kind == RAVEL__OP_ATOMIC_CAS;
}
/* --memory-model rc11: the release clock atomic loads of object o
 * acquire, read and set (src/rt/rc11.c keeps one per store, so that a
 * load synchronises with the store it read). */
uint32_t ravel__race_obj_clock_get(uint32_t o, uint32_t *out);
void ravel__race_obj_clock_set(uint32_t o, const uint32_t *in, uint32_t n);
void ravel__race_atomic_now(struct ravel__worker *w,
                            const struct ravel__event *ev, int64_t mo,
                            const volatile void *p, uint64_t size);
bool ravel__defer_atomic(uint32_t slot, const struct ravel__event *ev,
                         int64_t mo, uint64_t addr, uint64_t size,
                         uint32_t stack, bool ignored);
extern bool ravel__defer_on;
/* An atomic access (event ev) for the detector, once its memory effect
 * is done. Inline as far as the deferral (race/defer.c), which takes
 * nearly every atomic of a systematic search: the hooks call the log
 * directly, without a frame of their own (about 40 instructions per
 * atomic); ravel__race_atomic_now makes the detector's call. */
static inline void ravel__race_atomic(struct ravel__worker *w,
                                      const struct ravel__event *ev,
                                      int64_t mo, const volatile void *p,
                                      uint64_t size)
{
    if (!ravel__race_on)
        return;
    if (ravel__defer_on) {
        const struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
        if (ravel__defer_atomic(w->slot, ev, mo, (uint64_t)(uintptr_t)p,
                                size, th->stack_id, th->ignore))
            return;
    }
    ravel__race_atomic_now(w, ev, mo, p, size);
}
/* A plain access by the calling controlled thread. */
void ravel__race_access(struct ravel__worker *w, const void *p,
                        uint64_t size, bool write, uint64_t pc);
/* The access hooks call the detector themselves (ravel__det_read/write)
 * once they checked what ravel__race_access checks first (detection on,
 * the thread not alone, not in an ignore section, no promoted location);
 * this reports the race it found. */
struct ravel__det_hit;
void ravel__race_plain_race(struct ravel__worker *w, const void *p,
                            uint64_t size, bool write, uint64_t pc,
                            const struct ravel__det_hit *hit);
/* free() or a moving realloc() of block p by the calling thread. */
void ravel__race_free(const void *p, uint64_t pc);
/* Memory handed out afresh: its earlier accesses are forgotten. */
void ravel__race_forget(const void *p, size_t n);
/* A program thread starts on worker w: its stack and TLS are new. */
void ravel__race_thread_start(struct ravel__worker *w);
/* Forgets the calling OS thread's TLS blocks (modules.c). */
void ravel__race_forget_tls(void);
/* The stack depot (race.c; its nodes: intercept/hooks_abi.h). */
extern struct ravel__depot_node *ravel__depot;
/* The node for call site pc under parent (the hashing side). */
uint32_t ravel__depot_intern(uint32_t parent, uint64_t pc);
/* Function entry/exit of thread th: its stack id follows. */
static inline void ravel__race_push(struct ravel__thread *th,
                                    uint64_t caller_pc)
{
    const struct ravel__depot_node *n = &ravel__depot[th->stack_id];
    th->stack_id = RAVEL__LIKELY(n->last_pc == caller_pc && n->last_child)
                       ? n->last_child
                       : ravel__depot_intern(th->stack_id, caller_pc);
}
static inline void ravel__race_pop(struct ravel__thread *th)
{
    th->stack_id = ravel__depot[th->stack_id].parent;
}
/* Thread t enters (begin) or leaves its outermost atomic section. */
void ravel__race_atomic_section(uint32_t t, bool begin);
/* Reports a race the detector found outside an access's own check
 * (race/defer.c's replay, where it cannot happen), as the running
 * thread's. */
void ravel__race_report(uint64_t addr, uint64_t size, uint8_t flags,
                        uint64_t pc, const struct ravel__det_hit *hit);
/* The detector's calls put off while no access could race with another
 * thread's on its granule: one of the two a write, not both atomic
 * (race/defer.c). While
 * ravel__defer_on, each ravel__defer_* logs its call and returns true, or
 * replays the log into the detector, ends the deferral and returns false
 * (the caller then makes its call); ravel__defer_on and
 * ravel__defer_atomic are declared above, with ravel__race_atomic. */
void ravel__defer_begin(void);
void ravel__defer_catch_up(void);
bool ravel__defer_event(const struct ravel__event *ev, int64_t arg);
bool ravel__defer_plain(uint32_t slot, uint64_t addr, uint64_t size,
                        bool write, uint64_t pc, uint32_t stack);
bool ravel__defer_reset(uint64_t addr, uint64_t size);
bool ravel__defer_section(uint32_t t, bool begin);
/* Shadow memory mapped, in bytes. */
size_t ravel__race_mapped(void);
/* Spins on plain memory (plain_spin.c). The access hook calls
 * ravel__quiet_read when the running thread's plain reads reach its
 * quiet_at: it watches whether the thread goes round a loop that only
 * reads plain memory, and if so records the loop's reads in
 * exec.quiet_* and ends the execution (as blocked; the executor asks the
 * supervisor to promote them). Not a scheduling point. */
void ravel__quiet_read(struct ravel__worker *w, const void *a, uint64_t pc);
/* The supervisor could not promote the spin's reads: the execution is a
 * hang at the loop (fills exec.failure, clears nquiet). */
void ravel__quiet_hang(struct ravel__exec *x);
/* A code address as (instrumented module index, offset), stable across
 * runs of one program (tickets), and back; false when unknown. */
bool ravel__pc_to_module(uint64_t pc, uint32_t *module, uint64_t *off);
bool ravel__pc_from_module(uint32_t module, uint64_t off, uint64_t *pc);
/* Suppressions (suppress.c): loads --suppressions (a bad file is a fatal
 * usage error), and tells whether a race between the access at (pc,
 * stack) and the earlier one at (prev_pc, prev_stack) on addr is
 * suppressed. */
void ravel__race_suppressions_load(void);
bool ravel__race_suppressed(uint64_t pc, uint32_t stack, uint64_t prev_pc,
                            uint32_t prev_stack, uint64_t addr);
/* The call sites of stack id s, innermost first (for suppressions). */
uint32_t ravel__race_frames(uint32_t s, uint64_t *out, uint32_t max);

/* ---- the run (executor.c, supervisor.c, crash.c, init.c) -------------- */

int ravel__executor_main(int argc, char **argv, char **envp);
/* Builds rt.strategy from the options; `resume`: continue the search of
 * an executor that crashed. */
void ravel__make_strategy(bool resume);
/* Supervisor side handlers; in a run without a supervisor process the
 * executor calls them directly. Return true to go on after a bug. */
/* Run directly: the exit status of the program's first execution that
 * exited (0: none did), against which the others are judged (see
 * common->status_lane). */
void ravel__first_status(int64_t status);
bool ravel__sv_on_bug(void);
void ravel__sv_on_outcome(uint32_t index);
/* Prints the summary; returns the exit code. */
int ravel__sv_finish(void);
RAVEL__NORETURN void ravel__supervisor_main(void);
/* Sends a message to the supervisor and waits for its reply. */
char ravel__sv_call(uint32_t type, uint32_t arg);
/* Makes lane l the current one (rt.sh, rt.x, capture files, pipes). */
void ravel__use_lane(uint32_t l);
/* Forks a new executor for the current lane (supervisor side); `resume`:
 * the lane's previous executor died in an execution. */
void ravel__spawn_executor(bool resume);
/* Thread 1's first step of an execution. */
void ravel__begin_main(struct ravel__worker *w, uint64_t pc);

/* Interposed to take over main (init.c). */
int __libc_start_main(ravel__main_fn main, int argc, char **argv,
                      void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void *stack_end);

void ravel__crash_install(void);
/* Records a fatal signal of the program (signal, address, native stack)
 * as the current execution's failure, unless one is recorded; does not
 * die (crash.c; the caller re-raises). Async-signal-safe enough for a
 * dying process. */
void ravel__crash_record(int sig, siginfo_t *si, void *uc);
void ravel__crash_thread_init(void);
void ravel__crash_prewarm(void);
/* Signal the supervisor sends to the running thread of a hung execution. */
#define RAVEL__PROBE_SIGNAL (SIGRTMAX)

/* Error before any execution (bad options, bad ticket): message, exit 2. */
RAVEL__NORETURN void ravel__fatal(const char *fmt, ...) RAVEL__PRINTF(1, 2);
/* Appends the JSON object naming what decides a run's set of traces
 * (program, arguments, options): the --json summary's "search", whose
 * hash names the search in a checkpoint (supervisor.c). */
void ravel__search_json(struct ravel__strbuf *sb);
/* Writes the --checkpoint file now (supervisor; no-op without one). */
void ravel__sv_checkpoint(void);
/* Path and hash of the running executable (cached). */
const char *ravel__exe_path(void);
uint64_t ravel__exe_hash(void);
/* A short program name for ticket files ("counter"). */
const char *ravel__program_name(void);

#endif
