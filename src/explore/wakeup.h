/*
 * wakeup.h - wakeup sequences and wakeup trees: how optimal DPOR turns a
 * race into exactly the steps that reverse it (Abdulla, Aronis, Jonsson
 * and Sagonas, "Optimal dynamic partial order reduction", POPL 2014;
 * "Source sets", JACM 2017).
 *
 * In a finished execution E, let e < e2 be a race: e2 depends on e, and
 * e happens before e2 through nothing else. To see the other order, a
 * later execution must run, from the choice point where e was chosen,
 *
 *     v = the steps after e that do not happen after it, then e2
 *
 * and only then e. v is a wakeup sequence. It is inserted into the
 * wakeup tree of that choice point unless a thread that is asleep there,
 * or whose branch was already taken there, is a weak initial of v (it
 * could go first in some reordering of v, or commutes with all of v):
 * then an execution equivalent to E.v was or will be explored from that
 * branch. Insertion walks down the tree along the leftmost branch whose
 * step is a weak initial of what is left of v, and ends at a leaf (v is
 * already covered) or appends the rest of v as a new branch.
 *
 * Steps are blocks: a thread's visible operation, with the operations of
 * an atomic section that follow it without a scheduling point. The
 * accesses of a block with more than one operation are not tracked; it
 * counts as dependent with everything (conservative: more exploration,
 * never less). Accesses are those of the operation before it ran (a
 * compare-exchange counts as a write), so that they hold in any order.
 */
#ifndef RAVEL_WAKEUP_H
#define RAVEL_WAKEUP_H

#include "tree.h"

/* The execution as the wakeup functions see it. */
struct ravel__wctx {
    const struct ravel__exec *x;
    const struct ravel__hb *hb;
    const uint32_t *blk_first; /* event -> first event of its block */
    const uint32_t *blk_last;  /* event -> last event of its block */
    bool multi;                /* some block has more than one event */
    /* Per thread, its events in order (for "the next step of t after
     * event e"): thr_ev[thr_off[t] .. thr_off[t + 1]). */
    const uint32_t *thr_ev;
    const uint32_t *thr_off;
    const uint32_t *ev_value; /* event -> data choice it made, or NONE */
    /* A block's data choices, when it made any: x->vchoices[ev_vidx[f]]
     * and the ev_vn[f] - 1 after it, for the block's first event f. */
    const uint32_t *ev_vidx, *ev_vn;
};

struct ravel__wentry {
    uint32_t thread;      /* index in this execution */
    uint64_t tkey;        /* key (the same in every execution) */
    uint32_t first, last; /* events of its block (all of e2's too) */
    uint32_t tfirst;      /* index of `first` within its thread */
    uint32_t value;       /* data choice of its first event, or NONE */
    const struct ravel__vchoice *vc; /* all of its block's choices */
    uint32_t vn;                     /* (value is vc[0].value) */
    bool removed;         /* insertion: already matched by a tree step */
    bool after_give;      /* a sem_wait, its thread's first step in v, that
                             can run only after a sem_post earlier in v */
    struct ravel__kaccess acc;
    const uint32_t *clk;  /* what happens before it, within v */
};

/* Slots of ravel__wseq's thread index: a power of two, at least twice
 * RAVEL__HB_THREADS (threads of one execution), so probes stay short. */
#define RAVEL__WSEQ_SLOTS 128

struct ravel__wseq {
    struct ravel__wentry *e;
    uint32_t n, cap;
    uint32_t *e2clk; /* RAVEL__HB_THREADS: clock of the last entry */
    bool no_unit;    /* the build failed for a sem_wait without a unit */
    uint32_t ex_min[RAVEL__HB_THREADS];
    /* An index of e[0..n), for the weak-initial test that wakeup-tree
     * insertion makes at every branch it passes (wakeup.c: wseq_index).
     * Built at the first test after v changed; kept up to date as
     * insertion removes entries. */
    bool indexed;
    uint32_t *next_of;   /* cap: the next entry of the same thread */
    uint32_t gen;        /* index generation: slots of others are free */
    uint32_t slot_gen[RAVEL__WSEQ_SLOTS];
    uint64_t slot_key[RAVEL__WSEQ_SLOTS];   /* a thread's key */
    uint32_t slot_first[RAVEL__WSEQ_SLOTS]; /* its first entry not removed,
                                               or RAVEL__NONE */
    uint64_t touched;    /* bit (key & 63) of every key an entry accesses */
    bool any_global;     /* an entry is dependent with everything */
    uint32_t next_cap;
};

/*
 * Builds v for the race e1 < e2, reversed at the choice point whose block
 * starts at event s (s <= e1, same thread). Returns false when the race
 * cannot be reversed there (e2's block began with something that depends
 * on s, or a sem_wait in v would find no unit: the posts it needs happen
 * after s; v->no_unit is then set).
 */
bool ravel__wseq_build(struct ravel__wseq *v, const struct ravel__wctx *c,
                       uint32_t s, uint32_t e2);
/*
 * Builds v for the race of event e1 with the pending operation of thread
 * t (which never ran: the execution was cut short), reversed at the
 * choice point whose block starts at event s (s <= e1, same thread): the
 * steps after s that do not happen after it, then t's pending step.
 * Returns false when an earlier step of t depends on s, or a sem_wait in
 * v would find no unit.
 */
bool ravel__wseq_build_pending(struct ravel__wseq *v,
                               const struct ravel__wctx *c, uint32_t s,
                               uint32_t t);
/* v = the single step of thread t after event e (for exit()). */
void ravel__wseq_single(struct ravel__wseq *v, const struct ravel__wctx *c,
                        uint32_t t, uint32_t e);
/* The accesses of thread t's next step after event e (its pending
 * operation if it has no later event), valid whatever runs before it. */
void ravel__wnext_access(const struct ravel__wctx *c, uint32_t t, uint32_t e,
                         struct ravel__kaccess *a);
/* Is the thread with key tkey an initial of what is left of v: does it
 * have a step in v that nothing in v happens before? */
bool ravel__wseq_initial(struct ravel__wseq *v, uint64_t tkey);

/* Is the thread with key tkey, whose next step has accesses `acc`, a weak
 * initial of what is left of v? */
bool ravel__wseq_weak_initial(struct ravel__wseq *v, uint64_t tkey,
                              const struct ravel__kaccess *acc);
/*
 * Inserts v into the wakeup tree whose branches start at *list (the
 * pending branches of a node). A step of the tree begins v only if it is
 * a weak initial of v and, when both made a data choice, with the same
 * value (the other values' continuations are replayed from the value
 * node, ravel__tnode.wut); otherwise v becomes a sibling. Returns 1 if it added steps, 0 if v was
 * covered, -1 if the pool is full.
 */
int ravel__wseq_insert(struct ravel__tree *t, uint32_t *list,
                       struct ravel__wseq *v);
void ravel__wseq_free(struct ravel__wseq *v);

#endif
