/*
 * tree.h - the search tree of the systematic strategies, in shared memory.
 *
 * A stateless search re-executes the program from the start for every
 * execution, so all it keeps is the tree of choices made so far. One node
 * per choice point (a scheduling point, or a data choice); a node records
 * what the executions that passed through it saw there (enabled threads,
 * the sleep set on arrival) and what is left to explore from it:
 *
 *            root
 *            /   \            lane 0's path: root -1-> a -2-> b
 *       1   /     \ 2         lane 1's path: root -2-> c
 *          a       c
 *          | 2            a branch is taken by exactly one lane; the
 *          b              nodes above it are shared by the paths
 *
 * Lanes are executor processes exploring the same tree in parallel
 * (--jobs). Each lane has a path: the nodes of its current execution and
 * the choice it made at each. When an execution ends, the lane adds what
 * the execution showed must still be explored (systematic.c), then takes
 * the next branch: the deepest pending one on its own path (depth-first,
 * so that memory stays one path per lane), or, if its path has none, the
 * shallowest pending one on another lane's path (the largest piece of
 * work: stealing is rare). A node is freed when no path goes through it.
 *
 * What is pending at a node depends on the search: threads in `backtrack`
 * and not `done` (bounded DFS, source-set DPOR), branches of the node's
 * wakeup tree (optimal DPOR), values not yet taken (data choices). A
 * wakeup tree is an ordered tree of thread steps (struct ravel__wnode):
 * each root-to-leaf path is a sequence of steps to replay from the node.
 * Two sibling steps of one thread differ in the value their data choice
 * takes first; the value node that choice creates keeps the continuation
 * of each value not taken yet.
 *
 * Everything lives in one shared mapping, addressed by 32-bit indices so
 * that every process can use it wherever it is mapped; index 0 is nil.
 * Nodes of a lane's own unfinished execution are written only by that
 * lane; everything else is changed under the tree's lock (a futex, shared
 * by the processes). The tree survives a crash of an executor: a new one
 * continues the same lane.
 */
#ifndef RAVEL_TREE_H
#define RAVEL_TREE_H

#include "depend.h"

#include "../common/hash.h"

#include <stdatomic.h>

#define RAVEL__NIL 0u

/* A step of a wakeup tree: the thread with key `tkey` runs (an operation
 * whose accesses are `acc`; a data choice it makes takes `value` first).
 * Steps name threads and objects by keys, which mean the same in every
 * execution; `slot` is the thread's index once the step is a pending
 * branch of a node. */
struct ravel__wnode {
    uint32_t child;   /* first child, RAVEL__NIL for a leaf */
    uint32_t sibling; /* next branch to the right */
    uint32_t slot;    /* RAVEL__NONE until known */
    uint32_t value;   /* RAVEL__NONE: no data choice recorded */
    /* The step's further data choices, when its block made several (two
     * ravel_choose calls between visible operations): a chain of steps
     * linked here whose `value` holds each in turn. Each value node
     * that follows the step takes `value` and pops the next one into
     * it (ravel__tree_wvalue_pop). */
    uint32_t vmore;
    uint32_t nvals;   /* how many values `value` was chosen among */
    uint64_t tkey;
    struct ravel__kaccess acc;
};

/* A choice point. Thread nodes use the masks; value nodes (nvalues > 0)
 * use vfirst and vtaken. */
struct ravel__tnode {
    uint64_t enabled;   /* threads enabled here */
    uint64_t sleep;     /* sleep set on arrival */
    uint64_t done;      /* threads whose branch was taken here */
    uint64_t backtrack; /* DFS, source DPOR: threads to take here */
    /* Optimal DPOR on several lanes: threads of `done` whose branch
     * another lane took from here (systematic.c, steal_unit). */
    uint64_t xdone;
    /* Threads known to do a failing compare-exchange (a read) as their
     * step here: of the sleep set, and of the threads taken here. */
    uint64_t sleep_read, done_read;
    /* Threads whose step here was a block of several operations (an
     * atomic section): their accesses are not kept, so they never sleep. */
    uint64_t done_multi;
    /* Sharding (--shard): alternatives left to other shards. */
    uint64_t foreign;
    uint8_t vforeign; /* value node: its other values are */
    /* Optimal DPOR: a thread node's pending branches, leftmost first; a
     * value node's wakeup continuations for values not taken yet (one
     * step per value: `value` says which, `child` what to replay after
     * it), so that a sequence reversing a race after value 2 is replayed
     * after value 2, not only after the value taken first. */
    uint32_t wut;
    _Atomic uint32_t refs; /* paths through this node; free list link */
    uint32_t current;   /* thread that reached the scheduling point */
    uint32_t step;      /* index of the event chosen here */
    uint32_t cost;      /* preemptions or delays before this choice */
    uint32_t nvalues;   /* value node: number of values; thread node: 0 */
    uint32_t vfirst;    /* value node: the value taken first */
    uint32_t vtaken;    /* value node: values taken so far */
};

struct ravel__pathent {
    uint32_t node;
    uint32_t chosen; /* thread, or value */
    uint64_t before; /* threads whose branch here was taken before this
                        path's (asleep in it) */
};

/* Each on cache lines of its own: two lanes' executors write their own
 * fields at every choice. */
struct __attribute__((aligned(64))) ravel__lane {
    uint32_t depth;     /* path entries of the current execution */
    uint32_t prefix;    /* the next execution replays path[0..prefix) */
    uint32_t committed; /* entries other lanes may take branches from */
    /* The branch taken at path[prefix - 1]: threads that may be asleep
     * after it (those asleep or already taken there), and, following a
     * wakeup tree, the steps to replay after it. */
    uint64_t branch_sleep, branch_read, branch_before;
    uint32_t branch_wut;
    uint32_t branch_value;
    uint32_t branch_vmore; /* its further values (ravel__wnode.vmore) */
    /* Optimal DPOR: the same thread's other steps of that wakeup tree,
     * which take other values at its data choice (ravel__tnode.wut). */
    uint32_t branch_valts;
    uint32_t busy;      /* holds a branch to explore */
    uint32_t unit;      /* work units: the unit it explores (RAVEL__NONE:
                           none) */
    /* Optimal DPOR on several lanes: the entries at the top of the path
     * copied from another lane's when this one stole its branch, and
     * the lock that keeps the path still while another lane steals from
     * it (its owner holds it while it changes the entries others may
     * take from: after an execution, and when it takes a branch). */
    uint32_t xtop;
    _Atomic uint32_t lock;
    uint32_t wn_free; /* wakeup steps it gave back (ravel__tree_wnode_new) */
    /* Optimal DPOR: trace fingerprints not yet in the shared set, added
     * in batches under the tree's lock; here, not in the executor, so that
     * a crash of the executor loses none. */
    uint32_t nfpbuf;
    uint64_t fpbuf[64];
    /* Its executions, those abandoned and those complete (of which
     * without atomic sections): written by the lane only, on its own
     * cache lines; the totals are their sums (ravel__tree_count). */
    _Atomic uint64_t executions, blocked, complete, complete_plain;
    /* Its node pool's free lists: the nodes it gave back itself, which
     * only it touches (plain loads and stores), and those other lanes
     * gave back (a lock-free push; it takes the whole list when its own
     * is empty). With one list for both, every node taken and given back
     * was a locked instruction: a sixth of fib_bench's time with two
     * lanes went to the nodes. */
    uint32_t free_nodes;
    _Atomic uint32_t remote_nodes;
    uint32_t node_top;   /* nodes of its pool ever handed out */
};

/*
 * Work units (--shard, --checkpoint; systematic.c, "work units"). A unit
 * is a branch of the search tree together with the nodes above it, as
 * they stood when the unit was made: enough to load it into a lane's
 * path and explore it, and everything it finds, as a search of its own.
 * Its entries are copies of those nodes and path entries.
 */
enum ravel__unit_state {
    RAVEL__UNIT_PENDING, /* made, not yet given out */
    RAVEL__UNIT_SPLIT,   /* explored one execution deep, then split into
                            units of its own (all shards do this) */
    RAVEL__UNIT_OWN,     /* this shard's: to explore */
    RAVEL__UNIT_OTHER,   /* another shard's */
};

struct ravel__unit {
    uint32_t first, len;  /* entries [first, first + len); the unit's
                             branch is at the last one */
    uint8_t state;        /* enum ravel__unit_state */
    uint8_t only;         /* a data choice's one value: once it is taken,
                             the node's other values are other units' */
    uint8_t leaf;         /* not to be split (nothing to split it at) */
    uint32_t weight;      /* how large it looks: the alternatives its
                             first execution left below its branch */
    uint8_t taken;        /* a lane has taken it (the run) */
    _Atomic uint8_t done; /* explored completely (set after every trace
                             it found is in the fingerprint set) */
};

struct ravel__unit_entry {
    struct ravel__tnode node;
    struct ravel__pathent pe;
};

enum ravel__unit_phase { RAVEL__UNITS_OFF, RAVEL__UNITS_SPLIT,
                         RAVEL__UNITS_RUN };

struct ravel__tree {
    uint64_t magic;
    _Atomic uint32_t lock; /* 0 free, 1 held, 2 held with waiters */
    uint32_t nlanes;
    /* No lane's path holds another's nodes (optimal DPOR's lanes copy
     * what they steal: steal_unit), so each node has one reference and
     * only its own lane touches it. */
    uint32_t private_nodes;
    uint32_t busy; /* lanes holding a branch (under the lock) */
    int32_t bound; /* current bound of an iterated bounded search, or -1 */
    uint8_t exhausted;
    uint8_t abandoned; /* the search was stopped before it was exhausted */
    char abandon_why[160]; /* why, when not for the budget ("" then) */
    /* Executions abandoned because the program did not repeat its
     * recorded prefix: the search went on without their branches, so it
     * can no longer promise every trace. */
    _Atomic uint64_t diverged;
    /* Optimal DPOR: reversals not followed because a semaphore wait
     * they need found no unit there (wakeup.c: notdep, sems_ok); another
     * post might have served it, so the search proves nothing. A wait
     * whose unit was posted after the reversed step is left out of the
     * sequence when the race does not need it. */
    _Atomic uint64_t unfollowed;
    /* Optimal DPOR on several lanes: a unit was stolen (steal_unit), and
     * executions with a block of several operations (an atomic section)
     * were run. Together they prove nothing: the differential oracle
     * found a program with four atomic sections where two lanes now and
     * then printed "exhausted" with 10,838 of its 12,307 traces (tests/
     * oracle/open/optimal_lanes_4314_27, not diagnosed). */
    _Atomic uint32_t units_stolen, lane_blocks;
    uint32_t diverged_step; /* where the first one did (1-based) */
    uint32_t path_cap;  /* entries of one lane's path */
    uint32_t lane_nodes; /* nodes of one lane's pool */
    uint32_t wn_cap;
    _Atomic uint32_t wn_top; /* wakeup steps ever handed out (the free
                                ones are on their lanes' lists) */
    uint32_t fp_cap; /* slots of the shared trace-fingerprint set */
    uint32_t fp_active; /* of which in use now (a power of two) */
    /* Fingerprints counted (complete executions without atomic sections
     * are distinct traces, counted by lane: ravel__lane; those with are
     * counted by fingerprint). */
    _Atomic uint64_t fp_count;
    _Atomic uint64_t fp_digest; /* sum of a hash of each fingerprint */
    _Atomic uint8_t fp_full; /* a fingerprint did not fit: fp_count is low */
    uint64_t lanes_off, paths_off, nodes_off, wnodes_off, fp_off;
    /* Work units (one lane only). */
    uint64_t units_off, uentries_off;
    uint32_t units_cap, uentries_cap;
    uint32_t nunits, nuentries;
    uint32_t unit_phase;  /* enum ravel__unit_phase */
    uint32_t unit_cur;    /* the unit being explored (RAVEL__NONE: none) */
    uint32_t split_node;  /* splitting: the path entry whose every
                             alternative is being run once (RAVEL__NONE:
                             none yet) */
    uint32_t split_first; /* the alternative taken there first */
    uint32_t split_weight[64]; /* each alternative's weight there */
    uint64_t split_before[64]; /* the alternatives run there before it */
    uint32_t units_own, units_done;
    uint32_t units_expect; /* resumed: the units the checkpoint had (0) */
    uint32_t units_mismatch; /* the split made another number of units */
};

static inline struct ravel__unit *ravel__tree_unit(struct ravel__tree *t,
                                                   uint32_t i)
{
    return (struct ravel__unit *)((char *)t + t->units_off) + i;
}

static inline struct ravel__unit_entry *
ravel__tree_uentry(struct ravel__tree *t, uint32_t i)
{
    return (struct ravel__unit_entry *)((char *)t + t->uentries_off) + i;
}

/* Bytes needed for `lanes` lanes of executions of up to max_steps steps
 * (mapped with MAP_NORESERVE: only what is used is ever touched). */
size_t ravel__tree_size(uint64_t max_steps, uint32_t lanes);
/* Lays out an empty tree in mem (size bytes, zeroed by mmap). */
struct ravel__tree *ravel__tree_init(void *mem, size_t size,
                                     uint64_t max_steps, uint32_t lanes);
/* Is mem a laid-out tree (after ravel__tree_publish)? */
bool ravel__tree_valid(const void *mem);
/* Marks a laid-out tree ready for the other lanes. */
void ravel__tree_publish(struct ravel__tree *t);
/* Frees every node and wakeup step and empties every path (a new bound). */
void ravel__tree_clear(struct ravel__tree *t);

void ravel__tree_lock(struct ravel__tree *t);
void ravel__tree_unlock(struct ravel__tree *t);

static inline struct ravel__lane *ravel__tree_lane(struct ravel__tree *t,
                                                   uint32_t l)
{
    return (struct ravel__lane *)((char *)t + t->lanes_off) + l;
}

/* A lane's counter (ravel__lane's executions ...), by its owner. */
static inline void ravel__lane_count(_Atomic uint64_t *c)
{
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* The total of one counter over the lanes (offsetof a ravel__lane field). */
static inline uint64_t ravel__tree_count(struct ravel__tree *t, size_t off)
{
    uint64_t n = 0;
    for (uint32_t l = 0; l < t->nlanes; l++)
        n += atomic_load_explicit(
            (_Atomic uint64_t *)((char *)ravel__tree_lane(t, l) + off),
            memory_order_relaxed);
    return n;
}

static inline struct ravel__pathent *ravel__tree_path(struct ravel__tree *t,
                                                      uint32_t l)
{
    return (struct ravel__pathent *)((char *)t + t->paths_off) +
           (size_t)l * t->path_cap;
}

static inline struct ravel__tnode *ravel__tree_node(struct ravel__tree *t,
                                                    uint32_t i)
{
    return (struct ravel__tnode *)((char *)t + t->nodes_off) + i;
}

static inline struct ravel__wnode *ravel__tree_wnode(struct ravel__tree *t,
                                                     uint32_t i)
{
    return (struct ravel__wnode *)((char *)t + t->wnodes_off) + i;
}

/* A fresh node from lane l's pool (refs = 1), or RAVEL__NIL when full. */
uint32_t ravel__tree_node_new(struct ravel__tree *t, uint32_t l);
/* Lane l drops one reference; the last frees the node and its wakeup
 * tree. */
void ravel__tree_node_unref(struct ravel__tree *t, uint32_t i, uint32_t l);

/* The lane this process explores, whose list takes the wakeup steps it
 * frees and gives those it takes. */
void ravel__tree_use_lane(uint32_t l);
/* A wakeup step (fields zeroed), or RAVEL__NIL when the pool is full. */
uint32_t ravel__tree_wnode_new(struct ravel__tree *t);
/* Frees one step (not its children or siblings). */
void ravel__tree_wnode_free(struct ravel__tree *t, uint32_t i);
/* Frees a whole list of branches with their subtrees. */
void ravel__tree_wlist_free(struct ravel__tree *t, uint32_t first);
/* Frees a chain of further values (ravel__wnode.vmore). */
void ravel__tree_wchain_free(struct ravel__tree *t, uint32_t first);
/* A value node took w's value: the next of its chain becomes w's value
 * (RAVEL__NONE when the chain is empty). */
void ravel__tree_wvalue_pop(struct ravel__tree *t, struct ravel__wnode *w);

/* A fingerprint's term in the digest of a set of traces: the digest
 * (trace_digest in the --json summary) is the sum of the terms of the
 * set's fingerprints, so it does not depend on the order they were found
 * in, and ravel merge can compute the digest of a union of sets. */
static inline uint64_t ravel__fp_digest_term(uint64_t fp)
{
    return ravel__hash_ptr((fp ? fp : 1) ^ 0x6469676573ULL);
}

/* Adds a trace fingerprint to the shared set; true if it is new. When the
 * set is full nothing is added and false is returned (*full set). Called
 * with the tree's lock held (or by one lane alone): the set uses only the
 * first fp_active slots of its region and doubles them, rehashing, when
 * half are taken, so a search with few traces touches few pages (each
 * first touch is a page fault, and faults are dear in virtual machines). */
bool ravel__tree_fp_add(struct ravel__tree *t, uint64_t fp, bool *full);

/* Starts loading the slot where ravel__tree_fp_add will look for fp
 * first: a batch of adds then waits for several cache misses at once,
 * not for each in turn. */
static inline void ravel__tree_fp_prefetch(const struct ravel__tree *t,
                                           uint64_t fp)
{
    uint32_t n = t->fp_active ? t->fp_active : t->fp_cap;
    if (fp == 0)
        fp = 1;
    __builtin_prefetch((const char *)t + t->fp_off +
                           ((uint32_t)fp & (n - 1)) * sizeof(uint64_t),
                       1);
}

/* Writes every fingerprint of the shared set to fd, one hexadecimal
 * number per line, in increasing order. Returns -1 on a write error. */
int ravel__tree_fp_write(const struct ravel__tree *t, int fd);

#endif
