/*
 * tree.c - storage of the shared search tree (see tree.h): layout, the
 * lock, and the pools of nodes, wakeup steps and trace fingerprints.
 *
 * Pools are arrays with free lists. A lane allocates the nodes of its own
 * execution while it runs, without the lock, so each lane has a pool of
 * its own; any lane may free a node (the last path through it may be
 * another lane's), so frees push onto the owner's list with a
 * compare-and-swap while only the owner pops. Wakeup steps are allocated
 * under the lock and freed by whoever consumes them: one list, popped
 * under the lock, pushed without it.
 */
#include "tree.h"

#include "../common/hash.h"

#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TREE_MAGIC 0x7261766c74726565ULL

/* Slots of the fingerprint set (8 bytes each; touched only when used). */
#define FP_SLOTS (1u << 22)
#define FP_FIRST (1u << 13) /* slots in use at first: 64 KiB */
/* Wakeup steps available to a run. */
#define WNODES (1u << 23)

static size_t align64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

static uint32_t path_cap(uint64_t max_steps)
{
    /* A choice of thread per step, and a value choice per step (which
     * waiter a signal wakes) plus the data choices. */
    uint64_t n = 2 * (max_steps + 64) + RAVEL__MAX_VCHOICES + 16;
    return n > UINT32_MAX / 4 ? UINT32_MAX / 4 : (uint32_t)n;
}

/* Work units and their entries (copies of nodes above a branch). */
#define UNITS (1u << 16)
#define UENTRIES (1u << 21)

struct layout {
    size_t lanes_off, paths_off, nodes_off, wnodes_off, fp_off, units_off,
        uentries_off, size;
};

static struct layout layout(uint64_t max_steps, uint32_t lanes)
{
    struct layout l;
    size_t pc = path_cap(max_steps);
    l.lanes_off = align64(sizeof(struct ravel__tree));
    l.paths_off = align64(l.lanes_off + lanes * sizeof(struct ravel__lane));
    l.nodes_off = align64(l.paths_off +
                          (size_t)lanes * pc * sizeof(struct ravel__pathent));
    /* Node 0 is nil; each lane's pool holds its path and as many nodes
     * again for branches shared with other lanes. */
    size_t nodes = 1 + (size_t)lanes * (lanes > 1 ? 2 * pc : pc);
    l.wnodes_off = align64(l.nodes_off + nodes * sizeof(struct ravel__tnode));
    l.fp_off = align64(l.wnodes_off +
                       (size_t)WNODES * sizeof(struct ravel__wnode));
    l.units_off = align64(l.fp_off + (size_t)FP_SLOTS * sizeof(uint64_t));
    l.uentries_off =
        align64(l.units_off + (size_t)UNITS * sizeof(struct ravel__unit));
    l.size = l.uentries_off +
             (size_t)UENTRIES * sizeof(struct ravel__unit_entry);
    return l;
}

size_t ravel__tree_size(uint64_t max_steps, uint32_t lanes)
{
    return layout(max_steps, lanes ? lanes : 1).size;
}

struct ravel__tree *ravel__tree_init(void *mem, size_t size,
                                     uint64_t max_steps, uint32_t lanes)
{
    if (!lanes)
        lanes = 1;
    struct layout lay = layout(max_steps, lanes);
    if (size < lay.size)
        return NULL;
    struct ravel__tree *t = mem;
    memset(t, 0, sizeof *t); /* magic too: not valid until published */
    t->nlanes = lanes;
    t->path_cap = path_cap(max_steps);
    t->lane_nodes = lanes > 1 ? 2 * t->path_cap : t->path_cap;
    t->wn_cap = WNODES;
    t->wn_top = 1;
    t->fp_cap = FP_SLOTS;
    t->fp_active = FP_FIRST;
    /* The region may hold an earlier phase's fingerprints: the slots in
     * use are cleared here, the others as the set grows into them. */
    memset((char *)mem + lay.fp_off, 0, (size_t)FP_FIRST * sizeof(uint64_t));
    t->bound = -1;
    t->lanes_off = lay.lanes_off;
    t->paths_off = lay.paths_off;
    t->nodes_off = lay.nodes_off;
    t->wnodes_off = lay.wnodes_off;
    t->fp_off = lay.fp_off;
    t->units_off = lay.units_off;
    t->uentries_off = lay.uentries_off;
    t->units_cap = UNITS;
    t->uentries_cap = UENTRIES;
    t->unit_cur = RAVEL__NONE;
    t->split_node = RAVEL__NONE;
    memset(ravel__tree_lane(t, 0), 0, lanes * sizeof(struct ravel__lane));
    for (uint32_t l = 0; l < lanes; l++) {
        ravel__tree_lane(t, l)->branch_wut = RAVEL__NIL;
        ravel__tree_lane(t, l)->branch_value = RAVEL__NONE;
        ravel__tree_lane(t, l)->branch_vmore = RAVEL__NIL;
        ravel__tree_lane(t, l)->branch_valts = RAVEL__NIL;
        ravel__tree_lane(t, l)->unit = RAVEL__NONE;
    }
    return t;
}

void ravel__tree_publish(struct ravel__tree *t)
{
    atomic_store((_Atomic uint64_t *)&t->magic, TREE_MAGIC);
}

bool ravel__tree_valid(const void *mem)
{
    return atomic_load((_Atomic const uint64_t *)mem) == TREE_MAGIC;
}

void ravel__tree_clear(struct ravel__tree *t)
{
    for (uint32_t l = 0; l < t->nlanes; l++) {
        struct ravel__lane *ln = ravel__tree_lane(t, l);
        ln->depth = ln->prefix = ln->committed = 0;
        ln->free_nodes = RAVEL__NIL;
        atomic_store_explicit(&ln->remote_nodes, RAVEL__NIL,
                              memory_order_relaxed);
        ln->node_top = 0;
        ln->branch_sleep = 0;
        ln->branch_wut = RAVEL__NIL;
        ln->branch_value = RAVEL__NONE;
        ln->branch_vmore = RAVEL__NIL;
        ln->branch_valts = RAVEL__NIL;
        ln->xtop = 0;
        ln->wn_free = RAVEL__NIL;
        ln->nfpbuf = 0;
        atomic_store(&ln->lock, 0);
    }
    atomic_store(&t->wn_top, 1);
}

/* ---- the lock ------------------------------------------------------------ */

static long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
    return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

void ravel__tree_lock(struct ravel__tree *t)
{
    uint32_t c = 0;
    if (atomic_compare_exchange_strong(&t->lock, &c, 1))
        return;
    for (int i = 0; i < 200; i++) {
        c = 0;
        if (atomic_compare_exchange_weak(&t->lock, &c, 1))
            return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    /* Shared between processes: not a private futex. */
    if (c != 2)
        c = atomic_exchange(&t->lock, 2);
    while (c != 0) {
        futex(&t->lock, FUTEX_WAIT, 2);
        c = atomic_exchange(&t->lock, 2);
    }
}

void ravel__tree_unlock(struct ravel__tree *t)
{
    if (atomic_fetch_sub(&t->lock, 1) != 1) {
        atomic_store(&t->lock, 0);
        futex(&t->lock, FUTEX_WAKE, 1);
    }
}

/* ---- nodes ------------------------------------------------------------- */

static uint32_t owner_of(const struct ravel__tree *t, uint32_t i)
{
    return (i - 1) / t->lane_nodes;
}

uint32_t ravel__tree_node_new(struct ravel__tree *t, uint32_t l)
{
    struct ravel__lane *ln = ravel__tree_lane(t, l);
    uint32_t i = ln->free_nodes;
    /* Nodes other lanes gave back (none when nodes are private). */
    if (i == RAVEL__NIL && t->nlanes > 1 && !t->private_nodes)
        i = atomic_exchange_explicit(&ln->remote_nodes, RAVEL__NIL,
                                     memory_order_acquire);
    if (i != RAVEL__NIL) {
        ln->free_nodes = ravel__tree_node(t, i)->wut;
    } else {
        if (ln->node_top >= t->lane_nodes)
            return RAVEL__NIL;
        i = 1 + l * t->lane_nodes + ln->node_top++;
    }
    struct ravel__tnode *nd = ravel__tree_node(t, i);
    /* Copied from a zero node: seven vector stores, where a memset of
     * its 112 bytes was a string instruction, a third of the cost of
     * taking a node (perf). */
    static const struct ravel__tnode zero;
    *nd = zero;
    atomic_store_explicit(&nd->refs, 1, memory_order_relaxed);
    return i;
}

void ravel__tree_node_unref(struct ravel__tree *t, uint32_t i, uint32_t l)
{
    struct ravel__tnode *nd = ravel__tree_node(t, i);
    if (t->nlanes == 1 || t->private_nodes) {
        /* One lane, or lanes with nodes of their own: this executor is
         * the only process that takes and gives back this node. */
        uint32_t r = atomic_load_explicit(&nd->refs, memory_order_relaxed);
        atomic_store_explicit(&nd->refs, r - 1, memory_order_relaxed);
        if (r != 1)
            return;
    } else if (atomic_fetch_sub(&nd->refs, 1) != 1) {
        return;
    }
    ravel__tree_wlist_free(t, nd->wut);
    uint32_t owner = owner_of(t, i);
    struct ravel__lane *ln = ravel__tree_lane(t, owner);
    if (owner == l) {
        nd->wut = ln->free_nodes;
        ln->free_nodes = i;
        return;
    }
    uint32_t h = atomic_load_explicit(&ln->remote_nodes, memory_order_relaxed);
    do
        nd->wut = h;
    while (!atomic_compare_exchange_weak_explicit(
        &ln->remote_nodes, &h, i, memory_order_release, memory_order_relaxed));
}

/* ---- wakeup steps ---------------------------------------------------------- */

/* The lane of the process (each executor is one lane), whose free list
 * takes the steps it gives back and gives the steps it takes: one owner
 * per list, no atomics, and a lane reuses its own recent cache lines
 * (with one shared list, two lanes' steps interleaved on cache lines that
 * moved between the cores at every execution). */
static uint32_t wn_lane;

void ravel__tree_use_lane(uint32_t l)
{
    wn_lane = l;
}

uint32_t ravel__tree_wnode_new(struct ravel__tree *t)
{
    struct ravel__lane *ln = ravel__tree_lane(t, wn_lane);
    uint32_t i = ln->wn_free;
    if (i != RAVEL__NIL) {
        ln->wn_free = ravel__tree_wnode(t, i)->sibling;
    } else {
        i = atomic_fetch_add_explicit(&t->wn_top, 1, memory_order_relaxed);
        if (i >= t->wn_cap)
            return RAVEL__NIL;
    }
    memset(ravel__tree_wnode(t, i), 0, sizeof(struct ravel__wnode));
    return i;
}

void ravel__tree_wnode_free(struct ravel__tree *t, uint32_t i)
{
    struct ravel__lane *ln = ravel__tree_lane(t, wn_lane);
    ravel__tree_wnode(t, i)->sibling = ln->wn_free;
    ln->wn_free = i;
}

void ravel__tree_wlist_free(struct ravel__tree *t, uint32_t first)
{
    /* Iterative: subtrees can be as deep as an execution is long. */
    while (first != RAVEL__NIL) {
        struct ravel__wnode *w = ravel__tree_wnode(t, first);
        uint32_t next = w->sibling;
        if (w->child != RAVEL__NIL) {
            /* Splice the children in front of the remaining siblings. */
            uint32_t c = w->child, last = c;
            while (ravel__tree_wnode(t, last)->sibling != RAVEL__NIL)
                last = ravel__tree_wnode(t, last)->sibling;
            ravel__tree_wnode(t, last)->sibling = next;
            next = c;
        }
        ravel__tree_wchain_free(t, w->vmore);
        ravel__tree_wnode_free(t, first);
        first = next;
    }
}

void ravel__tree_wchain_free(struct ravel__tree *t, uint32_t first)
{
    while (first != RAVEL__NIL) {
        uint32_t next = ravel__tree_wnode(t, first)->vmore;
        ravel__tree_wnode_free(t, first);
        first = next;
    }
}

void ravel__tree_wvalue_pop(struct ravel__tree *t, struct ravel__wnode *w)
{
    uint32_t h = w->vmore;
    if (h == RAVEL__NIL) {
        w->value = RAVEL__NONE;
        return;
    }
    struct ravel__wnode *c = ravel__tree_wnode(t, h);
    w->value = c->value;
    w->vmore = c->vmore;
    ravel__tree_wnode_free(t, h);
}

/* ---- trace fingerprints ------------------------------------------------------ */

static void fp_insert(uint64_t *set, uint32_t mask, uint64_t fp)
{
    uint32_t j = (uint32_t)fp & mask;
    while (set[j] != 0)
        j = (j + 1) & mask;
    set[j] = fp;
}

/* Doubles the slots in use: takes the fingerprints out, clears the old
 * slots and the new ones (an earlier phase may have written them) and
 * puts them back. */
static bool fp_grow(struct ravel__tree *t, uint64_t *set)
{
    uint32_t old = t->fp_active, n = 0;
    for (uint32_t j = 0; j < old; j++)
        n += set[j] != 0;
    uint64_t *all = malloc(((size_t)n + 1) * sizeof *all);
    if (!all)
        return false;
    n = 0;
    for (uint32_t j = 0; j < old; j++)
        if (set[j])
            all[n++] = set[j];
    memset(set, 0, (size_t)old * 2 * sizeof *set);
    t->fp_active = old * 2;
    for (uint32_t i = 0; i < n; i++)
        fp_insert(set, t->fp_active - 1, all[i]);
    free(all);
    return true;
}

bool ravel__tree_fp_add(struct ravel__tree *t, uint64_t fp, bool *full)
{
    uint64_t *set = (uint64_t *)((char *)t + t->fp_off);
    if (fp == 0)
        fp = 1;
    if (!t->fp_active)
        t->fp_active = t->fp_cap; /* a tree laid out before fp_active */
    while (atomic_load(&t->fp_count) * 2 >= t->fp_active) {
        if (t->fp_active >= t->fp_cap || !fp_grow(t, set)) {
            *full = true;
            atomic_store(&t->fp_full, 1);
            return false;
        }
    }
    uint32_t mask = t->fp_active - 1;
    for (uint32_t j = (uint32_t)fp & mask;; j = (j + 1) & mask) {
        if (set[j] == fp)
            return false;
        if (set[j] == 0) {
            /* Not read-modify-writes: the lock (or one lane alone) keeps
             * other writers out, and a locked add waited here for the
             * store above, a cache miss in a table of megabytes (two
             * lanes on fib_bench: 4.6% of their time in this function,
             * most of it at the two adds). Readers load them whole. */
            set[j] = fp;
            atomic_store_explicit(
                &t->fp_count,
                atomic_load_explicit(&t->fp_count, memory_order_relaxed) + 1,
                memory_order_relaxed);
            atomic_store_explicit(
                &t->fp_digest,
                atomic_load_explicit(&t->fp_digest, memory_order_relaxed) +
                    ravel__fp_digest_term(fp),
                memory_order_relaxed);
            return true;
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int ravel__tree_fp_write(const struct ravel__tree *t, int fd)
{
    const uint64_t *set = (const uint64_t *)((const char *)t + t->fp_off);
    size_t n = 0;
    uint64_t *all = malloc((atomic_load(&((struct ravel__tree *)t)->fp_count) + 1) *
                           sizeof *all);
    if (!all)
        return -1;
    uint32_t slots = t->fp_active ? t->fp_active : t->fp_cap;
    for (uint32_t j = 0; j < slots; j++)
        if (set[j])
            all[n++] = set[j];
    qsort(all, n, sizeof *all, cmp_u64);
    char buf[4096];
    size_t len = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%016llx\n",
                                (unsigned long long)all[i]);
        if (len > sizeof buf - 32 || i + 1 == n) {
            if (write(fd, buf, len) != (ssize_t)len)
                rc = -1;
            len = 0;
        }
    }
    free(all);
    return rc;
}
