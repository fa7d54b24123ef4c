/*
 * model.h - the execution model: what one execution of the program looks
 * like to ravel, and the semantics of every visible operation.
 *
 * An execution is a set of threads, each either running user code or
 * parked at a pending visible operation, plus the synchronisation objects
 * they act on and the log of events so far:
 *
 *     threads[]            objects[]             events[]
 *     +-------------+      +--------------+      +------------------+
 *     | "1"   LIVE  |      | mutex  owner |      | #1 1   create 1.1|
 *     |  pending op-+----->| cond   ...   |      | #2 1.1 start     |
 *     | "1.1" LIVE  |      | sem    value |      | #3 1.1 lock m    |
 *     +-------------+      +--------------+      +------------------+
 *
 * The model decides three things and nothing else: whether a pending
 * operation is enabled (could run now without blocking), what applying it
 * does to the state, and whether it is a misuse (unlocking a mutex one does
 * not hold ...). It makes no system calls and knows nothing of strategies,
 * OS threads or processes; src/rt drives it and src/explore chooses.
 *
 * The whole struct lives in memory shared with the supervisor process, so
 * that when the program crashes or hangs the supervisor can still read the
 * trace, the thread states and their stacks (docs/architecture.md). For the
 * same reason it holds no pointers to private memory, and it has fixed
 * capacities: one execution may create RAVEL__MAX_THREADS threads.
 */
#ifndef RAVEL_MODEL_H
#define RAVEL_MODEL_H

#include "../common/common.h"

#define RAVEL__NONE UINT32_MAX
/* Threads created in one execution (not alive at once: in total). */
#define RAVEL__MAX_THREADS 1024
/* Innermost frames kept of each thread's call stack for reports. */
#define RAVEL__STACK_FRAMES 64
/* Locks one thread can hold at once and still be tracked for reports. */
#define RAVEL__MAX_HELD 32
/* Thread names are creation paths: "1", "1.2", "1.2.1" ... */
#define RAVEL__NAME_MAX 48
/* Data choices (ravel_choose, property tests' generators) in one
 * execution, beyond the wake choices: a signal's choice of which waiter
 * wakes is made by one event, so an execution of max_events events has
 * room for max_events + RAVEL__MAX_VCHOICES choices (ravel__exec_layout)
 * and wake choices never run out. */
#define RAVEL__MAX_VCHOICES 4096
#define RAVEL__MSG_MAX 512
/* Reads one iteration of a spin loop may make and still be recognised
 * (src/model/spin.c): polling loops read one to a few locations. */
#define RAVEL__SPIN_WINDOW 16
/* Distinct reads (code location and address) a loop over plain memory
 * may make per iteration and still be recognised as a spin. */
#define RAVEL__QUIET_MAX 8
/* Stores one thread's store buffer holds under --memory-model tso
 * (src/rt/tso.c): a store to a full buffer waits for a flush, as a
 * processor stalls. */
#define RAVEL__SB_MAX 32

/* The memory model an execution follows (--memory-model). */
enum ravel__memory_model {
    RAVEL__MM_SC,  /* every access in one total order */
    RAVEL__MM_TSO, /* x86-TSO: FIFO store buffers (src/rt/tso.c) */
    RAVEL__MM_RC11, /* RC11: reads-from and modification-order choices
                       (src/rt/rc11.c) */
};

enum ravel__op_kind {
#define RAVEL_OP(n, t, k) RAVEL__OP_##n,
#include "ops.def"
#undef RAVEL_OP
    RAVEL__OP_COUNT
};

enum ravel__obj_kind {
    RAVEL__OBJ_NONE,
    RAVEL__OBJ_THREAD,
    RAVEL__OBJ_MUTEX,
    RAVEL__OBJ_COND,
    RAVEL__OBJ_RWLOCK,
    RAVEL__OBJ_SEM,
    RAVEL__OBJ_BARRIER,
    RAVEL__OBJ_SPIN,
    RAVEL__OBJ_ONCE,
    RAVEL__OBJ_ATOMIC,
    RAVEL__OBJ_PLAIN, /* plain memory at a promoted racing location */
    RAVEL__OBJ_SECTION, /* every atomic section (one per execution) */
    RAVEL__OBJ_FD,      /* a descriptor channel: a pipe, socket pair,
                           eventfd, socket connection, listening socket or
                           epoll set (src/rt/intercept/fd.c) */
};

/* What a descriptor channel is (object subtype, kind RAVEL__OBJ_FD). */
enum ravel__fd_type {
    RAVEL__FD_ALL,        /* every descriptor: what a poll of more than two
                             channels, or an epoll_wait, depends on */
    RAVEL__FD_PIPE,       /* end 0 reads, end 1 writes */
    RAVEL__FD_SOCKETPAIR, /* two connected ends */
    RAVEL__FD_EVENTFD,    /* one end: a counter */
    RAVEL__FD_SOCKET,     /* a socket not (yet) connected, or listening */
    RAVEL__FD_CONN,       /* a connection: end 0 connected, end 1 accepted */
    RAVEL__FD_EPOLL,      /* an epoll set */
};

/* The pending operation's arg for descriptor operations: the descriptor
 * in the low 32 bits, and how it waits. */
#define RAVEL__FD_WAITS (1LL << 32) /* blocks until ready (a blocking
                                       descriptor, an untimed poll) */
#define RAVEL__FD_TIMED (1LL << 33) /* a poll with a timeout: enabled
                                       always, times out when not ready */
#define RAVEL__FD_EPOLLED (1LL << 34) /* on a channel in an epoll set, or an
                                         epoll_ctl: the order of epoll's
                                         ready list makes it dependent with
                                         every descriptor operation */

enum ravel__thread_state {
    RAVEL__T_UNUSED,
    RAVEL__T_LIVE,
    RAVEL__T_FINISHED,
};

enum ravel__mutex_type {
    RAVEL__MUTEX_NORMAL,
    RAVEL__MUTEX_RECURSIVE,
    RAVEL__MUTEX_ERRORCHECK,
};

/* Where an object's memory came from, for naming it in reports. */
enum ravel__origin {
    RAVEL__ORIGIN_UNKNOWN,
    RAVEL__ORIGIN_GLOBAL, /* named by the symbol table at report time */
    RAVEL__ORIGIN_HEAP,   /* heap block allocated in this execution */
    RAVEL__ORIGIN_STACK,  /* a thread's stack */
};

/* A visible operation a thread is about to perform. */
struct ravel__op {
    uint16_t kind;
    uint32_t obj;  /* object index, or thread index for THREAD ops */
    uint32_t obj2; /* the mutex of a condition-variable wait */
    uint64_t pc;   /* call site in the program */
    int64_t arg;   /* exit status, "timed" flag, atomic size ... */
};

struct ravel__held {
    uint32_t obj;
    uint32_t count;
    uint8_t read; /* rwlock held for reading */
};

/* A model thread's plain memory accesses in this execution, as the
 * compiler's access hooks count them. Its layout is part of what the
 * hooks linked into the program share with the runtime
 * (src/rt/intercept/hooks_abi.h). */
struct ravel__plain_counts {
    uint64_t reads, writes; /* plain memory accesses */
    uint64_t side_writes;   /* of those writes, the ones outside its own
                               stack, plus clock reads: the side effects
                               the spin-wait rules see (src/model/spin.c) */
    uint64_t quiet_at;      /* reads at which the plain-spin check runs
                               next (src/rt/race/plain_spin.c) */
};

/* What the compiler's hooks keep of a model thread: its plain accesses
 * and its shadow call stack. Also part of what the hooks linked into the
 * program share with the runtime (hooks_abi.h); struct ravel__thread
 * names these fields directly too. */
struct ravel__hook_thread {
    struct ravel__plain_counts plain; /* its plain accesses */
    /* Its shadow call stack's depth: the frames are a ring of
     * RAVEL__STACK_FRAMES below it (the view's frames), so that the
     * innermost survive deep recursion. */
    uint64_t depth;
    uint32_t stack_id;  /* its call stack's node in the stack depot */
    uint32_t atomic_fn; /* __VERIFIER_atomic_* calls it is in */
};

/* Fairness (src/rt/sched.c): a thread's yield-like steps remembered
 * since another thread's step, to see one place come round again. */
#define RAVEL__YIELD_PCS 8

struct ravel__thread {
    char name[RAVEL__NAME_MAX];
    uint8_t state;
    uint8_t detached;
    uint8_t joined;
    uint8_t cond_signaled; /* waiting on a condvar and has been signaled */
    uint32_t signal_ev;    /* if so, the signal or broadcast event that
                              did it (its COND_WAKE's happens-before) */
    uint8_t fd_ready;      /* its pending descriptor operation would not
                              block (tested by the runtime before every
                              choice, src/rt/intercept/fd.c) */
    uint32_t parent;
    uint32_t nchildren;
    uint64_t key;          /* identity that does not depend on the order
                              threads were created in (from its name) */
    uint32_t heap_allocs;  /* heap blocks it allocated this execution */
    uint32_t create_event; /* index of the event that created it */
    struct ravel__op pending;
    uint64_t wait_seq;    /* order of condition-variable waits */
    uint32_t saved_count; /* mutex recursion count across a cond wait */
    uint32_t barrier_gen;
    uint32_t nheld;        /* entries in held[] (below) */
    uint64_t retval;
    int32_t tid; /* OS thread id, for the supervisor's hang probe */
    uint32_t steps;
    uint64_t yield_wait;    /* fairness: threads that must run before this
                               one, after it yielded (threads < 64) */
    uint64_t others_enabled; /* other threads enabled when it was last
                                chosen (for yield_wait) */
    uint32_t yield_at;      /* fairness: index + 1 of its last yield-like
                               event (0: none yet) */
    uint32_t nyield_pcs;    /* and the code locations of those it made
                               since another thread's step */
    uint64_t yield_pcs[RAVEL__YIELD_PCS];
    uint32_t atomic;        /* depth of atomic sections it is in */
    uint64_t atomic_fn_depth[8]; /* shadow-stack depth of each such call */
    uint8_t section_wait;   /* its last section was rolled back at a false
                               assumption: it may enter one again only
                               after another thread's section */
    uint8_t capped;         /* stopped at pthread_create over --max-threads
                               (never enabled again) */
    uint32_t section_gen;   /* sections completed when it began waiting */
    uint32_t nsection_reads; /* objects its rolled-back section read with */
    uint32_t section_reads[8]; /* a visible step (promoted, atomic): a write
                                  to one by another thread ends the wait */
    uint64_t wake_at;       /* virtual time (ns from the execution's start,
                               src/rt/intercept/time.c) at which its
                               pending sleep ends or timed wait expires,
                               set before the step; 0: no deadline */
    /* Its plain memory accesses this execution and its shadow call
     * stack: the fields of struct ravel__hook_thread, also reachable as
     * that struct (hook) and its counts (plain). The stack's frames are
     * a ring (frames, below), so the innermost frames survive deep
     * recursion; stack_id is its call stack in the runtime's stack depot
     * (src/rt/race/race.c), for race reports. */
    union {
        struct ravel__hook_thread hook;
        struct ravel__plain_counts plain;
        struct {
            uint64_t reads, writes, side_writes, quiet_at;
            uint64_t depth;
            uint32_t stack_id;
            uint32_t atomic_fn; /* of its atomic sections, those opened
                                   by __VERIFIER_atomic_ calls */
        };
    };
    uint32_t ignore;        /* depth of ravel_ignore_begin() sections */
    /* x86-TSO store buffers (src/rt/tso.c). A program thread's buffer is
     * flushed by a pseudo-thread of its own, created at its first
     * buffered store: sb is that pseudo-thread's index + 1 (0: none).
     * The pseudo-thread has sb_owner = the program thread's index + 1,
     * sb_n stores waiting, and FLUSH pending (enabled while sb_n > 0). */
    uint32_t sb;
    uint32_t sb_owner;
    uint32_t sb_n;
    /* Spin-waits (src/model/spin.c): the reads it made since its last
     * side effect, and whether it went round a loop of only those reads,
     * so that it waits for the rest of the execution. */
    uint8_t spin_blocked;  /* it came back to a read of its window */
    uint8_t spin_written;  /* another thread wrote what the repeated
                              iteration read, after it read it */
    uint8_t spin_sure;     /* the iteration repeated the one before it,
                              value for value */
    uint8_t spin_verify;   /* let go alone to see whether it repeats */
    uint16_t spin_n;       /* entries in spin_win */
    uint32_t spin_proof;   /* exact repetitions made alone */
    uint16_t spin_from;    /* the repeated iteration: spin_win[from..n) */
    uint64_t spin_writes;  /* its side_writes when the window opened */
    /*
     * Everything from here on is left as it was when a thread is started
     * (memset up to RAVEL__THREAD_CLEARED, model.c): each array is read
     * only below its count, which is cleared. The locks it holds and its
     * spin window were most of what starting a thread cleared (fib_bench
     * starts four per execution, casrot(10) eleven).
     */
    struct ravel__held held[RAVEL__MAX_HELD]; /* [0, nheld) */
    struct ravel__spin_read {
        uint64_t site;  /* pc, call depth and caller of the read */
        int64_t value;  /* what it read */
        uint32_t obj;
        uint32_t event; /* the read's index in the event log */
        uint8_t carry;  /* a failed compare-exchange: it also wrote what
                           it saw into the thread's expected value */
    } spin_win[RAVEL__SPIN_WINDOW]; /* [0, spin_n) */
    uint64_t frames[RAVEL__STACK_FRAMES]; /* below depth */
};

/* How much of a thread starting afresh is cleared (see above). */
#define RAVEL__THREAD_CLEARED offsetof(struct ravel__thread, held)

struct ravel__object {
    uint64_t addr;
    uint8_t kind;
    uint8_t subtype; /* enum ravel__mutex_type for mutexes */
    uint8_t origin;  /* enum ravel__origin */
    uint8_t destroyed;
    uint8_t once_state; /* 0 never run, 1 running, 2 done */
    uint32_t slot;      /* its entry in the address index */
    uint32_t origin_thread;
    uint64_t origin_seq; /* heap block number in the execution */
    uint64_t origin_off; /* offset inside that block */
    /* Identity across executions: the same for the same memory however
     * the threads interleaved (address of a global; allocating thread,
     * its allocation number and offset for heap memory; owning thread and
     * offset for stack memory). Set by the runtime; 0 until then. */
    uint64_t key;
    uint32_t first_event;
    uint32_t owner; /* holder (mutex, spin, rwlock writer, once runner) */
    uint32_t count; /* recursion count */
    uint32_t readers;
    int64_t value;  /* semaphore value; barrier arrivals */
    uint32_t limit; /* barrier count */
    uint32_t generation;
    /* Descriptor channels (kind FD): the descriptor of each end when it
     * was opened (-1: none), which ends are closed (bit per end), and the
     * units (bytes, messages, counter increments) written into each
     * stream so far: stream e carries what end e wrote (an eventfd has
     * one stream, read and written at end 0). */
    int32_t fd[2];
    uint8_t fd_closed;
    uint8_t fd_dgram; /* messages, not a byte stream */
    uint8_t fd_epolled; /* added to an epoll set in this execution */
    uint64_t sent[2];
    uint64_t taken[2]; /* units read from each stream so far */
};

enum ravel__event_flag {
    RAVEL__EV_FAILED = 1,   /* busy / would block: the try-variant failed */
    RAVEL__EV_TIMEDOUT = 2, /* a timed wait timed out */
    RAVEL__EV_SERIAL = 4,   /* barrier: this thread completed the round */
    RAVEL__EV_ERROR = 8,    /* returned an error code (value holds it) */
    RAVEL__EV_PREEMPT = 16, /* chosen while the previous thread could
                               have continued (a preemption) */
    RAVEL__EV_EXACT_PC = 32, /* pc is a function address, not a return
                                address (thread start) */
    /* Atomics and fences: the memory order the program asked for
     * (consume counts as acquire; acq_rel and seq_cst set both). The
     * report draws release -> acquire synchronisation from them
     * (src/report/graph.c). */
    RAVEL__EV_ACQUIRE = 64,
    RAVEL__EV_RELEASE = 128,
    RAVEL__EV_VOLATILE = 256, /* a load or store of a volatile object
                                 (not an atomic); a store's value is
                                 unknown */
    /* --memory-model tso (src/rt/tso.c): */
    RAVEL__EV_BUFFERED = 512,   /* a store that went to the thread's store
                                   buffer (a FLUSH event writes it later) */
    RAVEL__EV_FORWARDED = 1024, /* a load that read the thread's own
                                   buffered store */
    RAVEL__EV_STALE = 2048,     /* a load that read memory while another
                                   thread's store to the location waited
                                   in its buffer (aux: that store's
                                   event). --memory-model rc11: a load
                                   that did not read the newest store in
                                   modification order (aux: the store's
                                   event, RAVEL__NONE the initial value;
                                   value2: the newest store's event) */
    RAVEL__EV_DRAINS = 4096,    /* an operation that waited for its
                                   thread's store buffer to drain */
    /* Descriptor operations: done at end 1 of the channel (else end 0).
     * A read or write event's value is its result (units moved, or
     * -errno with RAVEL__EV_ERROR) and value2 the position in its stream
     * of the first unit moved, which is how a report tells which write
     * a read took its bytes from. */
    RAVEL__EV_END1 = 8192,
    RAVEL__EV_EPOLLED = 16384, /* from RAVEL__FD_EPOLLED */
    RAVEL__EV_BLOCKING = 32768, /* a descriptor operation that could wait
                                   (RAVEL__FD_WAITS) */
};

/* Sub-operations of an atomic read-modify-write (event aux). */
enum ravel__rmw {
    RAVEL__RMW_XCHG,
    RAVEL__RMW_ADD,
    RAVEL__RMW_SUB,
    RAVEL__RMW_AND,
    RAVEL__RMW_OR,
    RAVEL__RMW_XOR,
    RAVEL__RMW_NAND,
};

/* One step of the execution: thread `thread` performed operation `kind`. */
/* A COND_WAKE event's value2: the index of the signal or broadcast event
 * that woke it plus one (0: it timed out), and RAVEL__WAKE_TIMED if the
 * wait was a timed one. */
#define RAVEL__WAKE_TIMED ((int64_t)1 << 40)
#define RAVEL__WAKE_BY(ev) ((uint32_t)((ev)->value2 & 0xffffffff))

struct ravel__event {
    uint32_t thread;
    uint16_t kind;
    uint16_t flags;
    uint32_t obj;
    uint32_t aux; /* create/join: the other thread; rmw: sub-operation;
                     cas: 1 on success; signal: the woken thread */
    uint64_t pc;
    int64_t value;  /* value read or written, result, error code */
    int64_t value2; /* rmw operand; cas desired value */
};

/* A choice of data rather than of thread (which waiter a signal wakes). */
struct ravel__vchoice {
    uint32_t step; /* events logged before the choice was made */
    uint32_t n;
    uint32_t value;
    uint32_t thread; /* the thread that made it */
    uint32_t tstep;  /* that thread's events logged before it */
    uint32_t data;   /* 1: ravel_choose; 0: which waiter a signal wakes */
};

enum ravel__fail_kind {
    RAVEL__FAIL_NONE,
    RAVEL__FAIL_ASSERTION,
    RAVEL__FAIL_CRASH,
    RAVEL__FAIL_DEADLOCK,
    RAVEL__FAIL_LOCK_MISUSE,
    RAVEL__FAIL_STEP_LIMIT,
    RAVEL__FAIL_NONDETERMINISM,
    RAVEL__FAIL_EXIT_STATUS,
    RAVEL__FAIL_HANG,
    RAVEL__FAIL_DATA_RACE, /* details in exec.race (src/rt/race/race.c) */
    RAVEL__FAIL_POSTCONDITION,    /* a sequential call's result is wrong */
    RAVEL__FAIL_LINEARIZABILITY,  /* parallel calls' results are not
                                     linearizable (pbt) */
    RAVEL__FAIL_COUNT
};

#define RAVEL__NATIVE_FRAMES 64
/* Frames kept of each access of a data race (innermost first). */
#define RAVEL__RACE_FRAMES 32

/* One side of a data race, as the report shows it. */
struct ravel__race_access {
    uint64_t addr, size;
    uint32_t thread;
    uint8_t write;
    uint8_t freed; /* the access was free() or realloc() of the block */
    uint8_t atomic; /* an atomic operation (racing with a plain access) */
    uint32_t nframes;
    uint64_t frames[RAVEL__RACE_FRAMES]; /* frames[0]: the access's pc */
};

/* The data race of a failure of kind RAVEL__FAIL_DATA_RACE (the runtime
 * fills it, src/rt/race/race.c; report.c prints it). */
struct ravel__race {
    struct ravel__race_access cur, prev;
    uint8_t origin;        /* enum ravel__origin of the memory */
    uint64_t block, block_size; /* heap block holding it */
    uint64_t block_seq;    /* its number in the execution (heap#N) */
    uint32_t alloc_thread; /* thread that allocated it (NONE: before main) */
    uint32_t alloc_nframes;
    uint64_t alloc_frames[RAVEL__RACE_FRAMES];
    uint32_t stack_thread; /* origin STACK: whose */
};

/* What went wrong in an execution; filled once, by whoever sees it first. */
struct ravel__failure {
    uint8_t kind;
    uint8_t frames_exact; /* frames[0] is a faulting pc, not a return addr */
    uint32_t thread;
    uint32_t step; /* events logged when it happened */
    uint32_t obj;
    uint64_t pc;
    int64_t value; /* exit status, signal number ... */
    uint64_t addr; /* faulting address */
    char message[RAVEL__MSG_MAX];
    char file[256]; /* source location given by assert() */
    uint32_t line;
    char func[128];
    uint32_t nframes; /* native stack (crash, hang), innermost first */
    uint64_t frames[RAVEL__NATIVE_FRAMES];
};

enum ravel__end_reason {
    RAVEL__END_NONE,
    RAVEL__END_EXIT,         /* exit() or return from main */
    RAVEL__END_ALL_FINISHED, /* main called pthread_exit, all finished */
    RAVEL__END_FAILURE,
    RAVEL__END_BLOCKED, /* abandoned: redundant (sleep set), a false
                           ravel_assume, or every thread left waits at a
                           false assumption in an atomic section */
    RAVEL__END_CUT,     /* cut short: a thread reached --max-threads, and
                           every other one finished or blocked */
};

struct ravel__exec {
    uint64_t number; /* execution number within the run, from 0 */
    uint32_t max_events, max_objects, index_mask;
    uint32_t max_vchoices; /* max_events + RAVEL__MAX_VCHOICES */
    uint32_t nthreads, nobjects, nevents, nvchoices;
    /* Bit t set: thread t (t < 64) is RAVEL__T_LIVE. Kept by model.c,
     * the only place that changes a thread's state, so that finding the
     * enabled threads at every step visits the live ones only. */
    uint64_t live;
    /* Bit t set: thread t's pending operation is one that may block
     * (ravel__op_may_block), or t stopped at --max-threads; threads
     * without it are enabled whenever they are live, no thread spins
     * and memory is sequentially consistent (ravel__enabled). Set by
     * ravel__note_pending when a thread publishes its operation. */
    uint64_t slow;
    uint32_t section_waiters; /* threads with section_wait set */
    uint32_t running;       /* thread holding the baton */
    uint32_t choice_points; /* real choices (more than one option) */
    uint64_t choice_mask;   /* the threads (< 64) the strategy is offered
                               at this thread choice, as a mask: the
                               scheduler (src/rt/sched.c) has it already,
                               the systematic strategies need it */
    uint8_t ended;          /* enum ravel__end_reason */
    uint8_t has_result;
    int64_t result; /* ravel_result() */
    uint64_t result_pc; /* where it was declared */
    int64_t exit_status;
    uint64_t wait_seq;
    uint64_t heap_seq; /* heap blocks allocated this execution */
    uint16_t next_flags; /* flags for the next logged event (preemption) */
    uint32_t spinning;   /* threads waiting in a spin loop (spin.c) */
    uint8_t spun;        /* some thread did: the execution repeats a
                            shorter one, it is not a trace of its own */
    uint8_t fair_held;   /* the fairness rule kept an enabled thread from
                            a choice (src/rt/sched.c): executions where
                            it went on at once were not offered */
    uint8_t spin_cut;    /* and another wrote what it waits for: nothing
                            after this is new either (spin.c) */
    uint8_t spin_wake;   /* instead, such a write wakes the waiting thread
                            and the execution is a real one (random, PCT:
                            the strategy's wake_spins) */
    /* A thread went round a loop of plain reads without a visible
     * operation (src/rt/race/plain_spin.c): the code locations and
     * addresses its loop read, which the supervisor makes scheduling
     * points; nquiet is 0 otherwise. */
    uint32_t quiet_thread, nquiet;
    uint64_t quiet_pc[RAVEL__QUIET_MAX], quiet_addr[RAVEL__QUIET_MAX];
    uint8_t memory_model; /* enum ravel__memory_model: set by the runtime
                             once, kept by ravel__exec_begin */
    /* --timeouts late (set once, kept like memory_model): a sleep, or a
     * timed wait whose resource is not available, is enabled only once
     * the virtual clock reaches its wake_at, or when no other thread
     * can run and no deadline comes sooner (the clock then jumps to it).
     * With 'any' (0) a timed wait may time out whenever it is chosen. */
    uint8_t timeouts_late;
    uint64_t vnow; /* the virtual clock, ns (src/rt/intercept/time.c) */
    /* --memory-model rc11: the fingerprint of the execution graph
     * (reads-from, modification order, order of each synchronisation
     * object's operations, program data choices), set when the execution
     * ends (src/rt/rc11.c); 0 otherwise. Strategies count distinct graphs
     * by it instead of traces. */
    uint64_t graph_fp;
    struct ravel__failure failure;
    struct ravel__race race; /* with failure kind data-race */
    /* Arrays laid out after the struct by ravel__exec_layout. */
    struct ravel__object *objects;
    uint32_t *index; /* open addressing: object index + 1, 0 = empty */
    struct ravel__event *events;
    struct ravel__vchoice *vchoices;
    struct ravel__thread threads[RAVEL__MAX_THREADS];
};

/* Bytes needed for an exec with the given capacities. */
size_t ravel__exec_size(uint32_t max_events, uint32_t max_objects);
/* Lays out the exec and its arrays in `mem` (ravel__exec_size bytes,
 * zeroed). */
struct ravel__exec *ravel__exec_layout(void *mem, uint32_t max_events,
                                       uint32_t max_objects);
/* Copies the record of execution src into dst (laid out with at least the
 * same capacities): everything reports and tickets read. */
void ravel__exec_copy(struct ravel__exec *dst, const struct ravel__exec *src);
/* Starts execution `number`: forgets all state, creates thread "1". */
void ravel__exec_begin(struct ravel__exec *x, uint64_t number);

/*
 * Finds the object at addr, creating it with `kind` if absent or if the
 * memory was last used as another kind (it was freed and reused).
 * *created tells the caller to fill in the initial state. Returns
 * RAVEL__NONE when the object table is full.
 */
uint32_t ravel__obj_find(struct ravel__exec *x, uint64_t addr, uint8_t kind,
                         bool *created);
/* Where the object index's probe for addr starts (masked). */
static inline uint32_t ravel__obj_hash(uint64_t addr)
{
    return (uint32_t)(addr >> 3) * 2654435761u;
}
/* Looks up without creating; RAVEL__NONE if absent. */
static inline uint32_t ravel__obj_peek(const struct ravel__exec *x,
                                       uint64_t addr)
{
    for (uint32_t i = ravel__obj_hash(addr) & x->index_mask;;
         i = (i + 1) & x->index_mask) {
        uint32_t e = x->index[i];
        if (e == 0)
            return RAVEL__NONE;
        if (x->objects[e - 1].addr == addr)
            return e - 1;
    }
}
/*
 * ravel__obj_find's common case, inline for the atomic hooks: the index
 * of the object of this kind at addr when the execution has one (nothing
 * to create or fill in), else RAVEL__NONE - then ravel__obj_find creates
 * it or takes it over. An atomic's lookup through the scheduler's
 * ravel__object and ravel__obj_find cost about 80 instructions, 4% of
 * fib_bench's execution; this one about 15.
 */
static inline uint32_t ravel__obj_known(const struct ravel__exec *x,
                                        uint64_t addr, uint8_t kind)
{
    uint32_t i = ravel__obj_peek(x, addr);
    return i != RAVEL__NONE && x->objects[i].kind == kind ? i : RAVEL__NONE;
}

/* Is thread t's pending operation enabled (would not block)? Under
 * --timeouts late, a sleep or a timed wait that would time out is
 * enabled only at its deadline or when nothing else can run. */
bool ravel__op_enabled(const struct ravel__exec *x, uint32_t t);
/* Can an operation of this kind ever be disabled (under sequential
 * consistency, for a live thread that is not spin-blocked or capped)?
 * The kinds ravel__op_enabled decides by looking further. */
bool ravel__op_may_block(uint16_t kind);
/* Thread t just published its pending operation (th->pending): keeps
 * x->slow. */
void ravel__note_pending(struct ravel__exec *x, uint32_t t);
/* Would thread t's pending operation, enabled, be a timed wait that times
 * out (its resource not available now)? The systematic strategies' first
 * choice prefers another thread, as a real timeout comes only after its
 * delay (src/explore/systematic.c). */
bool ravel__op_times_out(const struct ravel__exec *x, uint32_t t);
/* --timeouts late: is a thread that could otherwise run held back? */
bool ravel__late_holds(const struct ravel__exec *x);
/* Fills out[] with the enabled live threads in creation order; returns
 * how many. out must hold nthreads entries. With mask, also sets a bit
 * for each of them below 64. */
uint32_t ravel__enabled(const struct ravel__exec *x, uint32_t *out,
                        uint64_t *mask);

/* Atomic sections (the SECTION operation). Sections are mutually
 * exclusive because a thread in one is never preempted; the section
 * object's generation counts the sections that ran to their end:
 * section_done adds one (thread t's outermost section ended, applied
 * without a step: only a waiting thread's enabledness reads it).
 * section_rolled_back: thread t's section, begun by `event`, was undone
 * at a false assumption; the event is flagged FAILED and t waits (its
 * SECTION is disabled) until another section is done. */
void ravel__section_done(struct ravel__exec *x, uint32_t obj);
void ravel__section_rolled_back(struct ravel__exec *x, uint32_t t,
                                uint32_t obj, uint32_t event);
/* The wait also ends when another thread writes (a promoted plain write,
 * an atomic store) an object the rolled-back section read in a visible
 * step: the events after `event` (the section's) are the section's. */

/* No thread is enabled, but not by a deadlock: some live thread waits at
 * a false assumption in an atomic section (the execution is infeasible)
 * or was stopped at the thread cap (*cut: the execution was cut short). */
bool ravel__stuck_not_deadlocked(const struct ravel__exec *x, bool *cut);

/*
 * Checks, before thread t's pending operation is scheduled, whether it is
 * a misuse that would block the thread forever on itself (relocking a
 * non-recursive mutex it holds ...). Fills the failure and returns true.
 */
bool ravel__op_selfblock(struct ravel__exec *x, uint32_t t);

/* --memory-model tso: does thread t's pending operation wait for its
 * store buffer to drain (a locked instruction, a seq_cst store or fence,
 * any synchronisation call), or, a store that would be buffered, for
 * room in it? Only for program threads; false under sc. */
bool ravel__op_waits_buffer(const struct ravel__exec *x, uint32_t t);
/* Is op (a program thread's) one that drains its store buffer under
 * tso: everything but loads, buffered stores, fences weaker than
 * seq_cst, yields and sleeps? */
bool ravel__op_drains(const struct ravel__op *op);
/* Would thread t's pending atomic store go to its store buffer? */
bool ravel__op_buffered_store(const struct ravel__exec *x, uint32_t t);
/* Thread t's store-buffer pseudo-thread, created ("1.2/sb", FLUSH
 * pending, nothing buffered) if it has none; RAVEL__NONE when the thread
 * table is full. Not a step: no event is logged. */
uint32_t ravel__sb_thread(struct ravel__exec *x, uint32_t t);
/* Is t a store-buffer pseudo-thread (no program code runs on it)? */
static inline bool ravel__is_sb(const struct ravel__exec *x, uint32_t t)
{
    return x->threads[t].sb_owner != 0;
}
/* Is t a program thread that has not finished, or a store buffer with
 * something to flush (for reports of who is blocked)? */
static inline bool ravel__thread_pending(const struct ravel__exec *x,
                                         uint32_t t)
{
    const struct ravel__thread *th = &x->threads[t];
    return th->state == RAVEL__T_LIVE && (!th->sb_owner || th->sb_n);
}

/* Result of applying an operation. */
enum {
    RAVEL__APPLY_MISUSE = -1, /* failure filled in: lock misuse */
    RAVEL__APPLY_FULL = -2,   /* a capacity was exceeded */
};

/* Chooses a value in [0, n) (supplied by the strategy). */
typedef uint32_t (*ravel__choose_fn)(void *ctx, uint32_t n);

/*
 * Applies thread t's pending operation (it must be enabled), appends its
 * event, and returns the operation's result: 0, an errno value (EBUSY,
 * ETIMEDOUT, ...), 1 for ONCE meaning "run the init function", or a
 * negative RAVEL__APPLY_* code. *ev receives the logged event so that the
 * caller can add values (atomics).
 */
int ravel__op_apply(struct ravel__exec *x, uint32_t t, ravel__choose_fn choose,
                    void *ctx, struct ravel__event **ev);

/* Records a failure (the first one of the execution wins). */
void ravel__fail(struct ravel__exec *x, uint8_t kind, uint32_t thread,
                 uint64_t pc, const char *fmt, ...) RAVEL__PRINTF(5, 6);

/* Thread t's pending operation, for the deadlock report: fills `who`
 * with the thread holding what t waits for, or RAVEL__NONE. */
uint32_t ravel__blocker(const struct ravel__exec *x, uint32_t t);

const char *ravel__op_name(uint16_t kind);
uint8_t ravel__op_obj_kind(uint16_t kind);
const char *ravel__obj_kind_name(uint8_t kind);
/* "assertion", "crash", ... as used in JSON and tickets. */
const char *ravel__fail_kind_name(uint8_t kind);
int ravel__fail_kind_parse(const char *name);

/* Shadow call stack (called from the compiler's entry/exit hooks). */
static inline void ravel__stack_push(struct ravel__thread *th, uint64_t pc)
{
    th->frames[th->depth % RAVEL__STACK_FRAMES] = pc;
    th->depth++;
}
static inline void ravel__stack_pop(struct ravel__thread *th)
{
    if (th->depth)
        th->depth--;
}

/* The key of the n-th child (from 1) of the thread with key `parent`. */
static inline uint64_t ravel__thread_key(uint64_t parent, uint32_t n)
{
    uint64_t x = (parent ^ 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL + n;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 29;
    return x | 1; /* never 0 */
}

#endif
