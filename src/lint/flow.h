/*
 * flow.h - the analyses of ravel lint: check-then-act races (flow.c) and
 * inconsistently locked shared data (lockset.c).
 *
 * Both rest on one forward dataflow pass per function, run bottom-up over
 * the call graph (callees before callers, strongly connected components
 * iterated), that tracks at every point:
 *
 *     held       locks surely held (intersection where paths join)
 *     released   locks perhaps released since the function's entry
    lost       ... and perhaps not taken again since
    facts, cl  branch outcomes on loaded values known here, and locks
               held exactly where such an outcome holds (`if (c) lock`)
 *     live       threads perhaps created and not joined here (created:
               joined or not)
 *     pending    checks whose result an act may still rely on, each with
 *                the locks held continuously since the check
 *
 * and leaves a *summary* of the function for its callers, written in
 * terms of its parameters (ir.h: PARAM paths) so that a call site can
 * substitute its own arguments:
 *
 *     gen, kill  locks surely taken / perhaps released by a call
    lost       locks perhaps released and not taken again by its return
 *     out        checks still pending when it returns
 *     acts       acts reachable from its entry, with the locks perhaps
 *                released before each
 *     accs       memory accesses reachable from its entry, each with the
 *                locks held and released and the threads live at it
 *     insts      threads it creates (directly or through callees)
 *     capture    parameters whose address it keeps (escape analysis)
 *     writes     parameters it writes through, or other memory
 *
 * A check-then-act finding is made in the function where a pending check
 * meets an act on the same resource (the "meeting" function), so both
 * lines it names are in one function. The lockset analysis starts at the
 * roots of the call graph (main, and any function nobody calls), follows
 * each thread they create into its start function's summary, and compares
 * accesses of threads that can run at the same time.
 */
#ifndef RAVEL_LINT_FLOW_H
#define RAVEL_LINT_FLOW_H

#include "ir.h"
#include "pairs.h"
#include "report.h"
#include "source.h"

/* Locks tracked in one set: nesting deeper than 8 distinct locks is rare;
 * a must-set that overflows forgets locks (more reports), a may-set that
 * overflows becomes "any lock" (more reports). */
#define RAVEL__LINT_LOCKS_MAX 8
/* Threads tracked in one set (an overflowing set means "any thread"). */
#define RAVEL__LINT_THREADS_MAX 16
/* Pending checks tracked at one point; past this the oldest are dropped. */
#define RAVEL__LINT_PEND_MAX 64
/* Acts one summary keeps; beyond, the rest are dropped and counted. */
#define RAVEL__LINT_ACTS_MAX 256
/* Accesses one summary keeps (distinct address and place). */
#define RAVEL__LINT_ACCS_MAX 20000
/* Visits of one block before its function's fixpoint gives up: the
 * lattices are finite and small, so real code converges in a few. */
#define RAVEL__LINT_VISITS_MAX 64

/* A lock held in read mode (an rwlock's rdlock) is its path id with this
 * bit set; released sets hold plain ids. Path ids stay below it. */
#define RAVEL__LINT_LS_SHARED 0x80000000u

struct ravel__lint_lockset {
    uint8_t n;
    uint8_t all; /* may-sets only: perhaps any lock */
    uint32_t v[RAVEL__LINT_LOCKS_MAX];
};

struct ravel__lint_tset {
    uint8_t n;
    uint8_t all;
    uint32_t v[RAVEL__LINT_THREADS_MAX];
};

/* A check whose result may still be relied on. */
struct ravel__lint_pend {
    uint32_t site;  /* event of the check call itself (innermost) */
    uint32_t disp;  /* event in this function through which it was made */
    uint32_t fam;
    uint8_t nres;
    uint32_t res[RAVEL__LINT_RES_MAX]; /* value ids */
    struct ravel__lint_lockset held;   /* held continuously since the check */
};

/* An act reachable from a function's entry. */
struct ravel__lint_act {
    uint32_t site;  /* event of the act call itself */
    uint32_t fam;
    uint8_t nres;
    uint32_t res[RAVEL__LINT_RES_MAX];
    struct ravel__lint_lockset released; /* perhaps released before it */
    uint8_t nw;     /* objects the act writes through (values) ... */
    uint8_t wother; /* ... and whether it writes any other memory */
    uint32_t w[RAVEL__LINT_RES_MAX];
};

/* A memory access reachable from a function's entry. Its sets are
 * interned (ravel__lint_ls_get, ravel__lint_ts_get): a large program's
 * summaries hold over a million accesses between them but only a few
 * thousand distinct sets, so an access is 24 bytes instead of 160, and a
 * call site substitutes each distinct set of its callee once. */
struct ravel__lint_acc {
    uint32_t ap;       /* address accessed */
    uint32_t ev;       /* the load or store */
    uint32_t held;     /* lockset id: taken since entry, surely held */
    uint32_t lost;     /* lockset id: released since entry and perhaps not
                          taken again (a caller's lock no longer held) */
    uint32_t live;     /* thread set id: threads perhaps running */
    uint32_t created;  /* thread set id: threads perhaps created before,
                          joined or not (a thread they leave running when
                          they return still runs) */
    uint8_t write;
    uint8_t once;  /* on every path, made only where a global flag the
                      function sets was read as 0 (`if (G.isInit) return;`
                      first): the work of a first call only */
    uint8_t early; /* on some path, made with no thread of ours running */
};

/* Interned sets: equal sets have equal ids; id 0 is the empty set. */
struct ravel__lint_lspool {
    struct ravel__lint_lockset *v;
    uint32_t n, cap;
    uint32_t *hash, hash_cap;
};
struct ravel__lint_tspool {
    struct ravel__lint_tset *v;
    uint32_t n, cap;
    uint32_t *hash, hash_cap;
};

/* A thread created by a function or its callees. */
struct ravel__lint_inst {
    uint32_t ev;      /* the call through which it is created here */
    uint32_t sub;     /* the callee's instance, or NONE when ev creates it */
    uint32_t site;    /* the pthread_create call itself */
    uint32_t start;   /* function it runs, or NONE when unknown */
    uint32_t start_ap; /* the start routine as passed (a path), to resolve
                          it in a caller when it was a parameter */
    uint32_t arg;     /* value passed to it */
    uint32_t handle;  /* path of the pthread_t it is stored in */
    uint8_t multi;    /* perhaps several at once (created in a loop) */
    struct ravel__lint_tset live_at; /* threads perhaps running at creation */
};

struct ravel__lint_summary {
    bool done;
    struct ravel__lint_lockset gen, kill;
    struct ravel__lint_lockset lost; /* perhaps released and not taken
                                        again at return: unlike kill, a
                                        lock dropped and retaken inside
                                        (SQLite's sqlite3MallocAlarm) is
                                        still the caller's afterwards */
    struct ravel__lint_pend *out;
    uint32_t nout, capout;
    struct ravel__lint_act *acts;
    uint32_t nacts, capacts;
    struct ravel__lint_acc *accs;
    uint32_t naccs, capaccs;
    uint32_t *acchash;
    uint32_t acchash_cap;
    struct ravel__lint_inst *insts;
    uint32_t ninsts, capinsts;
    struct ravel__lint_tset live_out; /* own instances live at return */
    uint32_t *joins; /* handle paths joined (interface terms) */
    uint32_t njoins, capjoins;
    uint64_t capture; /* parameters whose address escapes */
    uint64_t wmask;   /* parameters written through */
    uint8_t wother;   /* writes other (global) memory */
};

/* What the analyses work on and where they put their findings. */
struct ravel__lint_ctx {
    struct ravel__lint_prog *prog;
    const struct ravel__lint_specs *specs;
    struct ravel__lint_sources *src;
    struct ravel__lint_findings *out;
    bool cta;     /* check-then-act analysis on */
    bool lockset; /* lockset analysis on */

    /* Filled by the analyses. */
    struct ravel__lint_summary *sum; /* one per function */
    uint32_t *sym_spec;  /* first spec index per symbol, or NONE */
    uint32_t *sym_state; /* per function symbol without a body: the path of
                            the hidden state a thread-unsafe C library
                            function keeps (rand, strtok), or NONE */
    uint8_t *ev_loop;    /* per event: its block is in a cycle */
    uint8_t *local_esc;  /* per path id of a LOCAL root: it escapes */
    uint8_t *fixed_int;  /* per symbol: an integer global that nothing
                            writes and whose address nothing takes, so
                            every load of it reads its initial value */
    uint32_t dropped;    /* summary entries dropped at the bounds */
    struct ravel__lint_lspool lsets; /* the locksets accesses name */
    struct ravel__lint_tspool tsets; /* the thread sets accesses name */
};

/*
 * Runs the enabled analyses over a linked program (ravel__lint_prog_link)
 * and appends their findings to cx->out. Allocates the summaries; free
 * them with ravel__lint_ctx_free.
 */
void ravel__lint_analyze(struct ravel__lint_ctx *cx);
void ravel__lint_ctx_free(struct ravel__lint_ctx *cx);

/* Set helpers shared by flow.c and lockset.c. */
bool ravel__lint_ls_has(const struct ravel__lint_lockset *s, uint32_t x);
bool ravel__lint_ls_disjoint(const struct ravel__lint_lockset *a,
                             const struct ravel__lint_lockset *b);
/* True when some lock is surely held at both a and b, and held in write
 * mode at one of them at least: two read-mode holders of an rwlock run at
 * the same time. */
bool ravel__lint_ls_excludes(const struct ravel__lint_lockset *a,
                             const struct ravel__lint_lockset *b);
bool ravel__lint_ts_has(const struct ravel__lint_tset *s, uint32_t x);

/* Interning (see struct ravel__lint_acc): the id of a set equal to *s,
 * and the set of an id. A pointer from a get stays valid only until the
 * next intern into the same pool. */
uint32_t ravel__lint_ls_intern(struct ravel__lint_ctx *cx, const struct ravel__lint_lockset *s);
uint32_t ravel__lint_ts_intern(struct ravel__lint_ctx *cx, const struct ravel__lint_tset *s);
static inline const struct ravel__lint_lockset *ravel__lint_ls_get(const struct ravel__lint_ctx *cx,
                                                                   uint32_t id)
{
    return &cx->lsets.v[id];
}
static inline const struct ravel__lint_tset *ravel__lint_ts_get(const struct ravel__lint_ctx *cx,
                                                                uint32_t id)
{
    return &cx->tsets.v[id];
}

/* Quotes the call at event ev ("lookup_name(name)") into buf. */
void ravel__lint_quote_event(struct ravel__lint_ctx *cx, uint32_t ev, char *buf,
                             size_t len);

#endif
