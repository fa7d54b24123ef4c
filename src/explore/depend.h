/*
 * depend.h - which visible operations commute, and the happens-before
 * order of an execution built from that.
 *
 * Systematic strategies need one notion: two events are *dependent* when
 * executing them in the other order could change what the program sees.
 * Each event accesses up to two objects, each access in a class:
 *
 *     READ     atomic load, failed compare-exchange, a
 *              promoted plain read (race-directed scheduling)
 *     WRITE    atomic store / read-modify-write / successful CAS, a
 *              promoted plain write
 *     ACQUIRE  taking a lock (lock, wrlock, spin lock, cond wake)
 *     RELEASE  giving it back (unlock, cond wait's release)
 *     TEST     observing without blocking (trylock, tryjoin, join,
 *              detach, a thread finishing, destroying an object; the
 *              other operations on a semaphore (trywait, timedwait,
 *              getvalue), barrier or once: they choose, count or wait on
 *              each other; every operation on a descriptor channel,
 *              and on the every-descriptor object an operation on a
 *              channel in an epoll set)
 *     TAKE     sem_wait: takes a unit of a semaphore
 *     GIVE     sem_post: adds one
 *     SHARED   rdlock: readers commute with readers; any descriptor
 *              operation on the every-descriptor object, which a poll
 *              of many channels or an epoll_wait ACQUIREs
 *     WAIT     joining a condition variable's waiters
 *     NOTIFY   signal, broadcast: which waiters it wakes depends on who
 *              waits
 *     WOKEN    taking the mutex back after a signal or broadcast (a
 *              wake that timed out, or may have, is TEST instead)
 *
 *     dependent?  READ WRITE ACQ  REL  TEST SHARED WAIT NOTIFY WOKEN TAKE GIVE
 *     READ         -    x    -    -    -    -      -    -      -     -    -
 *     WRITE        x    x    -    -    -    -      -    -      -     -    -
 *     ACQUIRE      -    -    x    -    x    x      -    -      -     -    -
 *     RELEASE      -    -    -    -    x    -      -    -      -     -    -
 *     TEST         -    -    x    x    x    x      x    x      x     x    x
 *     SHARED       -    -    x    -    x    -      -    -      -     -    -
 *     WAIT         -    -    -    -    x    -      -    x      -     -    -
 *     NOTIFY       -    -    -    -    x    -      x    x      -     -    -
 *     WOKEN        -    -    -    -    x    -      -    -      -     -    -
 *     TAKE         -    -    -    -    x    -      -    -      -     x    -
 *     GIVE         -    -    -    -    x    -      -    -      -     -    -
 *
 * Two waits commute (a signal may wake either: a data choice), and a wait
 * commutes with another thread's wake: making them dependent would hide
 * the race between a lock and a woken thread taking the mutex back behind
 * the wait that released it. For the same reason a notification commutes
 * with a wake: the thread left the waiters when it was notified, so later
 * notifications do not see it. The one that woke it happens before the
 * wake (an edge of its own, from the event the wake records), and
 * enables it. A notification that found nobody waiting was once ordered
 * before the wake and hid the race between main's next lock and the
 * woken worker (tests/dpor/progs/condvar_shutdown.c).
 *
 * Two sem_waits compete for the units; a sem_post commutes with another
 * post, and with a sem_wait that can run anyway (both enabled: the count
 * is positive, and either order leaves the same count). A post that a
 * wait waited for is an enabling, not a race, and no happens-before edge
 * either: "the wait took that post's unit" is not recorded (with
 * several units it may have taken an older one), so a post->wait edge
 * would order things that need not be, and hide their races; the race
 * that matters is between the two waits (tests/oracle/regress/
 * cond_sem_deadlock: a deadlock when the other waiter goes first).
 * Optimal DPOR's wakeup sequences still need the enabling: wakeup.c
 * counts the units each wait of a sequence would meet (sems_ok).
 *
 * A release and an acquire of the same lock are never enabled at the same
 * time (the lock is held), so they are independent; making them dependent
 * would hide the race between two acquisitions behind the release, and
 * DPOR would never try the other lock order. Fences, yields, sleeps and
 * thread starts touch nothing. exit() is dependent with everything of
 * other threads.
 *
 * Happens-before (for DPOR's races and for identifying traces) is program
 * order, dependency, creating a thread before its first event, a
 * notification before the wake it caused, and a lock's release before
 * its next acquisition. That last edge is added
 * after the acquisition was checked against earlier acquisitions, so that
 * it never hides the race between two critical sections. Vector clocks are per event and only support up to
 * RAVEL__HB_THREADS threads; executions with more are not handled by the
 * systematic strategies. Random and PCT need only the fingerprint, which
 * ravel__hbfp_fingerprint computes in one pass without keeping a clock
 * per event.
 *
 * Cost: analysing an execution is linear in its length (O(events x
 * threads) time, O(events x threads) memory for DPOR's clocks): each
 * object keeps, per access class, at most one event per thread.
 */
#ifndef RAVEL_DEPEND_H
#define RAVEL_DEPEND_H

#include "../model/model.h"

#define RAVEL__HB_THREADS 64

/* Copying and clearing a few words - a clock of a handful of threads, an
 * object's short list - as the analyses after an execution do at every
 * event. A call of memcpy or memset is ravel's own interposer in the
 * runtime (race.c) and costs more than the copy for such sizes; the
 * empty asm keeps the compilers from turning the loops back into that
 * call. Longer ranges take the call. */
static inline void ravel__words_copy(uint32_t *restrict dst,
                                     const uint32_t *restrict src, size_t n)
{
    if (n > 8) { /* callgrind: the loop wins for 4 threads, not 11 */
        __builtin_memcpy(dst, src, n * sizeof *dst);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        dst[i] = src[i];
        __asm__("" : : "r"(i));
    }
}
static inline void ravel__words_zero(uint32_t *dst, size_t n)
{
    if (n > 8) {
        __builtin_memset(dst, 0, n * sizeof *dst);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        dst[i] = 0;
        __asm__("" : : "r"(i));
    }
}

enum ravel__acc_class {
    RAVEL__ACC_NONE,
    RAVEL__ACC_READ,
    RAVEL__ACC_WRITE,
    RAVEL__ACC_ACQUIRE,
    RAVEL__ACC_RELEASE,
    RAVEL__ACC_TEST,
    RAVEL__ACC_SHARED,
    RAVEL__ACC_WAIT,
    RAVEL__ACC_NOTIFY,
    RAVEL__ACC_WOKEN,
    RAVEL__ACC_TAKE,
    RAVEL__ACC_GIVE,
    RAVEL__ACC_CLASSES
};

/* Objects of thread operations are named apart from model objects. */
#define RAVEL__THREAD_OBJ(t) (0x80000000u | (t))
/* Set once by the runtime before any analysis (src/rt/process/init.c):
 * the run follows --memory-model tso, so a pending relaxed or release
 * store goes to a store buffer and is dependent with nothing. */
extern bool ravel__depend_tso;
/* Likewise for --memory-model rc11 (src/rt/rc11.c): seq_cst (and, as
 * the events cannot tell them apart, acq_rel) atomics and fences all
 * read and update one global view, so they are all dependent: they
 * access this pseudo-object (named after a thread slot no thread has)
 * as WRITE. */
extern bool ravel__depend_rc11;
#define RAVEL__RC11_SC_OBJ RAVEL__THREAD_OBJ(RAVEL__MAX_THREADS)

struct ravel__access {
    uint32_t obj[2];
    uint8_t cls[2];
    uint8_t n;
    bool global; /* exit(): dependent with everything */
};

/* Accesses named by keys that mean the same in every execution (object
 * and thread keys, see model.h), for comparing steps of different
 * executions. */
struct ravel__kaccess {
    uint64_t key[2];
    uint8_t cls[2];
    uint8_t n;
    bool global;
};
void ravel__access_keys(const struct ravel__access *a,
                        const struct ravel__exec *x,
                        struct ravel__kaccess *k);
bool ravel__kaccess_dependent(const struct ravel__kaccess *a,
                              const struct ravel__kaccess *b);

/* Accesses of an executed event (uses its outcome: a failed CAS reads). */
void ravel__event_access(const struct ravel__event *ev,
                         struct ravel__access *a);
/* Accesses of an executed event as they would be in any order (a CAS
 * counts as a write whether or not it succeeded here). */
void ravel__event_access_any(const struct ravel__event *ev,
                             struct ravel__access *a);
/* Accesses of thread t's pending operation, before it ran (conservative:
 * a CAS may write). */
void ravel__op_access(const struct ravel__op *op, uint32_t t,
                      struct ravel__access *a);
bool ravel__access_dependent(const struct ravel__access *a,
                             const struct ravel__access *b);

/* A vector clock: per thread, the number of its events that happen
 * before (or are) the event. */
typedef uint32_t ravel__clock[RAVEL__HB_THREADS];

/* Per-execution happens-before analysis. */
struct ravel__hb {
    uint32_t nevents;
    uint32_t nt; /* threads of the execution last analysed */
    uint32_t cap;
    uint32_t stride;    /* clock slots per event (>= nt) */
    uint32_t *clocks;   /* nevents * stride */
    uint32_t *tindex;   /* event -> its index within its thread (1-based) */
    /* event -> what it accesses, as last computed: the kept prefix of the
     * next analysis (its events are this one's) is not classified again */
    struct ravel__access *acc;
    /* per object: the events that accessed it, in order; model objects
     * first, then thread objects from obj_base */
    struct ravel__hb_obj *objs;
    uint32_t objs_cap;
    uint32_t obj_base;
    uint32_t gen;
    uint32_t *per_thread_last; /* RAVEL__HB_THREADS: last event + 1 */
    /* The objects' release clocks, nt slots each, for this analysis
     * only: an object that is released gets one (not RAVEL__HB_THREADS
     * slots in every object). */
    uint32_t *rel;
    uint32_t nrel;   /* clocks used */
    size_t relcap;   /* room, in slots */
    /* The fingerprint's sums of event hashes: fpsum[e] over events
     * before e, valid for e <= fp_valid. A kept prefix keeps its events'
     * clocks and so their hashes: only the rest is hashed again. */
    uint64_t *fpsum;
    uint32_t fpcap, fp_valid;
    /* Set by the caller when it will want the fingerprint: the analysis
     * then also keeps csum[e], the sum of the hashes of event e's
     * nonzero clock entries (each event's share of the fingerprint
     * hashes its clock so), updated as the clock is built from its
     * thread's previous one: only the entries a join raised are hashed,
     * not all nt at every event. Valid for e < csum_valid. */
    bool sums;
    uint64_t *csum;
    uint32_t csum_valid;
    /* Scratch: an event's candidate predecessors (kept between analyses
     * rather than allocated for each). */
    uint32_t *cands;
    uint32_t ncands;
    /* The slots of objects this analysis met (hb_obj), in order. */
    uint32_t *touched;
    uint32_t ntouched, touched_cap;
    /* Checkpoints of the state the kept prefix leaves (depend.c,
     * "checkpoints"): a stack of records in one array of words, each
     * with the `from` it was taken at and where it starts. */
    uint32_t *ck;
    size_t ck_len, ck_cap;
    uint32_t ck_at[64];
    size_t ck_start[64];
    uint32_t nck;
};

/*
 * Called for each race e < e2 (e2's index is `later`): events of different
 * threads, dependent, e not happening before e2 through other events.
 */
typedef void (*ravel__race_fn)(void *ctx, uint32_t earlier, uint32_t later);

/*
 * Computes clocks for every event of x, calling `race` for each race
 * ending at or after event `from` if `race` is not NULL. Events before
 * `from` must be those of the execution hb last analysed, whose clocks
 * are kept (an execution that replayed a prefix of the previous one):
 * only the state they leave is rebuilt. Returns -1 when the execution has
 * more than RAVEL__HB_THREADS threads (nothing computed).
 */
int ravel__hb_compute(struct ravel__hb *hb, const struct ravel__exec *x,
                      uint32_t from, ravel__race_fn race, void *ctx);
void ravel__hb_free(struct ravel__hb *hb);
/* Event e's vector clock (entries for the execution's threads). */
static inline const uint32_t *ravel__hb_clock(const struct ravel__hb *hb,
                                              uint32_t e)
{
    return &hb->clocks[(size_t)e * hb->stride];
}
/* Does event a happen before event b (a < b)? */
bool ravel__hb_before(const struct ravel__hb *hb, const struct ravel__exec *x,
                      uint32_t a, uint32_t b);
/* The fingerprint's version: bumped whenever the hash of a trace changes
 * (2: event_hash mixes twice, not four times), so that a checkpoint's
 * fingerprints are never mixed with another scheme's (it is in the
 * search's JSON, supervisor.c, which a checkpoint's hash and ravel
 * merge's comparison cover). */
#define RAVEL__FP_SCHEME 2

/* The execution's Mazurkiewicz trace as a 64-bit fingerprint: equal for
 * equivalent executions (same events, same happens-before). Hashes only
 * the events after the prefix ravel__hb_compute kept (fpsum). */
uint64_t ravel__hb_fingerprint(struct ravel__hb *hb,
                               const struct ravel__exec *x);

/* The same fingerprint without keeping a clock per event (random and PCT
 * count traces and need nothing else): one pass, memory for the objects'
 * latest events only (depend.c). */
struct ravel__hbfp {
    struct ravel__fp_obj *objs;
    uint32_t objs_cap, obj_base, gen;
    uint32_t last[RAVEL__HB_THREADS]; /* each thread's latest event */
    uint32_t *rel; /* the objects' release clocks, as in ravel__hb */
    uint32_t nrel;
    size_t relcap;
};
/* Sets *fp to ravel__hb_fingerprint's value after ravel__hb_compute and
 * returns 0; returns -1 for an execution of more than RAVEL__HB_THREADS
 * threads, 1 for one with --memory-model tso's flushes or a condition
 * variable's signalled wake (use ravel__hb_compute then). */
int ravel__hbfp_fingerprint(struct ravel__hbfp *f, const struct ravel__exec *x,
                            uint64_t *fp);
void ravel__hbfp_free(struct ravel__hbfp *f);

#endif
