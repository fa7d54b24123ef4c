/*
 * rc11.c - the C11 memory model as repaired by RC11 (--memory-model
 * rc11), run operationally inside ravel's interleavings.
 *
 * ravel executes one thread at a time, so a memory model weaker than
 * sequential consistency has to be added as choices: which store a load
 * reads, and where in a location's modification order (mo) a store goes.
 * This file keeps what those choices need, with *views* (the approach of
 * view-based operational models of C11: a thread's view says, for every
 * atomic location, the newest store in mo it has seen):
 *
 *   - each atomic location keeps its stores in mo, starting with its
 *     initial value (the memory's content at its first atomic access);
 *     the memory itself always holds the mo-last store's value, so that
 *     plain reads after synchronisation (a join) see the final value;
 *   - each thread keeps a view, raised by every store it makes and load
 *     it makes (coherence), and joined with a store's *message view* when
 *     an acquire reads it (synchronisation);
 *   - a load may read any store of the location at or after its
 *     thread's view of it. Which one is a data choice
 *     (ravel__choose_data): DFS and DPOR enumerate it, random and PCT
 *     sample it, a ticket records it and a replay makes it again;
 *   - a store may go anywhere in mo after its thread's view, except
 *     between a store and the read-modify-write that read it (atomicity):
 *     also a data choice (2+2W's weak outcome needs a store placed before
 *     one made earlier in the interleaving);
 *   - a read-modify-write reads a store no other RMW has read, and goes
 *     right after it in mo;
 *   - message views: a release store carries its thread's view; a
 *     relaxed store carries what its thread's last release fence saw,
 *     joined with the view of its thread's last release store to the
 *     location (RC11's release sequence includes the releasing thread's
 *     later stores to it); an RMW also carries on the message of the
 *     store it read (release sequences continue through RMWs);
 *   - fences: a release fence remembers the view for later relaxed
 *     stores; an acquire fence joins what the thread's earlier relaxed
 *     loads read (their stores' messages);
 *   - seq_cst: one global SC view. A seq_cst fence joins it into its
 *     thread's view and publishes the result back; a seq_cst access does
 *     the same before and after the access. This is stronger than RC11's
 *     psc (it can forbid a few executions RC11 allows, never allow one
 *     it forbids); docs/memory-models.md says where;
 *   - synchronisation calls (mutexes, semaphores, condition variables,
 *     barriers, thread create and join ...) carry views along the same
 *     edges the race detector draws (src/model/detect.c).
 *
 * Loads only read stores already made in the interleaving, so
 * program order plus reads-from is acyclic: RC11's no-thin-air rule (no
 * load buffering) holds by construction.
 *
 * How choices are biased. A load with n > 1 readable stores first
 * chooses between the mo-last store and the others (two alternatives),
 * then, if it took the others, among them (n-1 alternatives). Random
 * and PCT pick uniformly at each, so the newest store is read with
 * probability 1/2 and each older one with 1/(2(n-1)): a stale read,
 * which is what weak-memory bugs need, is common, while a spin loop
 * still sees the store it waits for soon. DFS and DPOR enumerate all n
 * leaves, each once. Stores' places are chosen the same way (the end
 * of mo with probability 1/2).
 *
 * Counting. DPOR explores interleavings times choices, so one execution
 * graph (reads-from plus mo) is visited several times. At the end of an
 * execution this file computes the graph's fingerprint (exec.graph_fp):
 * reads-from and mo of every location, the order of each
 * synchronisation object's operations, and the program's own data
 * choices; the strategies count distinct fingerprints.
 *
 * Limits (refused with a tool error, not wrong results): 256 atomic
 * locations and 65,536 stores in one execution. State is
 * process-private and starts again in every execution.
 */
#include "rt.h"

#include "../common/hash.h"

#include <string.h>
#include <sys/mman.h>

#define LOCS 256
#define STORES 65536
#define SNAPS 65536
#define OBJMAP 4096
#define DPOOL (16u << 20) /* clock entries kept for the race detector */ /* open addressing, object index -> loc / view */

struct store {
    uint32_t loc;
    uint32_t pos;    /* place in the location's mo */
    uint32_t next;   /* next in mo (0: last) */
    uint32_t thread; /* RAVEL__NONE: initial value */
    uint32_t tidx;   /* the writer's n-th rc11 store */
    uint32_t event;  /* RAVEL__NONE: initial value or plain write */
    uint32_t msg;    /* message view (snapshot), 0: none */
    uint32_t rmw_of; /* an RMW: the store it read; else 0 */
    uint32_t dclk, dn; /* race detector's release clock (dpool) */
    uint8_t rmw_read; /* an RMW read this store */
    uint8_t plain;    /* a plain write found in memory */
    unsigned char bytes[16];
};

struct loc {
    uint32_t obj;
    uint32_t size;
    uint64_t addr;
    uint32_t first, last, n; /* mo list */
    uint32_t floor; /* the plain write everyone must read or follow */
};

struct read {
    uint32_t thread, ridx, store;
};

struct thread_state {
    uint64_t gen;
    uint32_t relfence; /* snapshot at the last release fence */
    uint32_t nstores, nreads;
};

static struct {
    uint64_t gen; /* the execution this state belongs to */
    struct store *st;
    uint32_t nst;
    uint32_t (*snap)[LOCS];
    uint32_t nsnap;
    uint32_t (*view)[LOCS];    /* per thread */
    uint32_t (*acq)[LOCS];     /* per thread: pending acquire-fence view */
    uint32_t (*relseq)[LOCS];  /* per thread: last release store's msg */
    struct thread_state *ts;   /* per thread */
    uint32_t *inherit;         /* per thread: snapshot at its creation */
    uint64_t *inherit_gen;
    uint32_t *finished;        /* per thread: snapshot at its end */
    struct loc locs[LOCS];
    uint32_t nlocs;
    uint32_t locmap_obj[OBJMAP], locmap_val[OBJMAP];
    uint32_t objmap_obj[OBJMAP], objmap_val[OBJMAP]; /* sync views */
    uint32_t sc[LOCS];
    struct read *reads;
    uint32_t nreads;
    uint8_t *mine; /* per data choice: made here */
    uint32_t nmine; /* mine[] is clear from here on */
    uint32_t *dpool; /* race-detector clocks of stores */
    uint32_t dused;
    uint32_t just_put; /* the store the detector is about to see */
    uint32_t max_choices;
} S;

static void *map(size_t n)
{
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        ravel__fatal("cannot map the rc11 state (--memory-model rc11)");
    return m;
}

/* Starts the state of a new execution when x is one. */
static void begin(void)
{
    struct ravel__exec *x = ravel__rt.x;
    if (RAVEL__UNLIKELY(!S.st)) {
        S.st = map(sizeof(struct store) * STORES);
        S.snap = map(sizeof(uint32_t[LOCS]) * SNAPS);
        S.view = map(sizeof(uint32_t[LOCS]) * RAVEL__MAX_THREADS);
        S.acq = map(sizeof(uint32_t[LOCS]) * RAVEL__MAX_THREADS);
        S.relseq = map(sizeof(uint32_t[LOCS]) * RAVEL__MAX_THREADS);
        S.ts = map(sizeof(struct thread_state) * RAVEL__MAX_THREADS);
        S.inherit = map(sizeof(uint32_t) * RAVEL__MAX_THREADS);
        S.inherit_gen = map(sizeof(uint64_t) * RAVEL__MAX_THREADS);
        S.finished = map(sizeof(uint32_t) * RAVEL__MAX_THREADS);
        S.reads = map(sizeof(struct read) * STORES);
        S.dpool = map(sizeof(uint32_t) * DPOOL);
        S.max_choices = x->max_vchoices;
        S.mine = map(S.max_choices + 1);
    }
    uint64_t g = x->number + 1;
    if (S.gen == g)
        return;
    S.gen = g;
    S.nst = 1;
    memset(&S.st[0], 0, sizeof S.st[0]);
    S.dused = 0;
    S.just_put = 0;
    S.nsnap = 1;
    S.nlocs = 0;
    S.nreads = 0;
    memset(S.locmap_obj, 0xff, sizeof S.locmap_obj);
    memset(S.objmap_obj, 0xff, sizeof S.objmap_obj);
    memset(S.sc, 0, sizeof S.sc);
    memset(S.mine, 0, S.nmine);
    S.nmine = 0;
}

static void mark_mine(uint32_t k)
{
    if (k < S.max_choices) {
        S.mine[k] = 1;
        if (k + 1 > S.nmine)
            S.nmine = k + 1;
    }
}

static uint32_t pos_of(uint32_t id)
{
    return id ? S.st[id].pos : 0;
}

/* The later in mo of two stores of one location (0: nothing seen). */
static uint32_t later(uint32_t a, uint32_t b)
{
    return pos_of(a) >= pos_of(b) ? a : b;
}

static void join_into(uint32_t *dst, const uint32_t *src)
{
    for (uint32_t l = 0; l < S.nlocs; l++)
        dst[l] = later(dst[l], src[l]);
}

static uint32_t snapshot(const uint32_t *v)
{
    if (S.nsnap >= SNAPS)
        ravel__tool_error(ravel__controlled(),
                          "--memory-model rc11: one execution needs more "
                          "than %d message views", SNAPS);
    uint32_t id = S.nsnap++;
    memcpy(S.snap[id], v, sizeof S.snap[id]);
    return id;
}

/* A new snapshot a joined with b (either 0: none). */
static uint32_t snap_join(uint32_t a, uint32_t b)
{
    if (!a || a == b)
        return b;
    if (!b)
        return a;
    uint32_t id = snapshot(S.snap[a]);
    join_into(S.snap[id], S.snap[b]);
    return id;
}

/* Thread t's state, started at its first use in the execution. */
static struct thread_state *thr(uint32_t t)
{
    struct thread_state *s = &S.ts[t];
    if (s->gen != S.gen) {
        s->gen = S.gen;
        s->relfence = 0;
        s->nstores = s->nreads = 0;
        if (S.inherit_gen[t] == S.gen && S.inherit[t])
            memcpy(S.view[t], S.snap[S.inherit[t]], sizeof S.view[t]);
        else
            memset(S.view[t], 0, sizeof S.view[t]);
        memset(S.acq[t], 0, sizeof S.acq[t]);
        memset(S.relseq[t], 0, sizeof S.relseq[t]);
        S.finished[t] = 0;
    }
    return s;
}

static uint32_t slot_of(const uint32_t *keys, uint32_t obj, bool *found)
{
    uint32_t h = (uint32_t)(ravel__hash_ptr(obj) & (OBJMAP - 1));
    while (keys[h] != RAVEL__NONE && keys[h] != obj)
        h = (h + 1) & (OBJMAP - 1);
    *found = keys[h] == obj;
    return h;
}

static void read_memory(uint64_t addr, unsigned size, unsigned char *out)
{
    const volatile void *a = (const volatile void *)(uintptr_t)addr;
    switch (size) {
    case 1: { uint8_t v = __atomic_load_n((const volatile uint8_t *)a, __ATOMIC_SEQ_CST); memcpy(out, &v, 1); return; }
    case 2: { uint16_t v = __atomic_load_n((const volatile uint16_t *)a, __ATOMIC_SEQ_CST); memcpy(out, &v, 2); return; }
    case 4: { uint32_t v = __atomic_load_n((const volatile uint32_t *)a, __ATOMIC_SEQ_CST); memcpy(out, &v, 4); return; }
    case 8: { uint64_t v = __atomic_load_n((const volatile uint64_t *)a, __ATOMIC_SEQ_CST); memcpy(out, &v, 8); return; }
    default: memcpy(out, (const void *)(uintptr_t)addr, size); return;
    }
}

static void write_memory(uint64_t addr, unsigned size, const unsigned char *in)
{
    volatile void *a = (volatile void *)(uintptr_t)addr;
    switch (size) {
    case 1: { uint8_t v; memcpy(&v, in, 1); __atomic_store_n((volatile uint8_t *)a, v, __ATOMIC_SEQ_CST); return; }
    case 2: { uint16_t v; memcpy(&v, in, 2); __atomic_store_n((volatile uint16_t *)a, v, __ATOMIC_SEQ_CST); return; }
    case 4: { uint32_t v; memcpy(&v, in, 4); __atomic_store_n((volatile uint32_t *)a, v, __ATOMIC_SEQ_CST); return; }
    case 8: { uint64_t v; memcpy(&v, in, 8); __atomic_store_n((volatile uint64_t *)a, v, __ATOMIC_SEQ_CST); return; }
    default: memcpy((void *)(uintptr_t)addr, in, size); return;
    }
}

static uint32_t new_store(uint32_t l)
{
    if (S.nst >= STORES)
        ravel__tool_error(ravel__controlled(),
                          "--memory-model rc11: one execution makes more "
                          "than %d atomic stores", STORES);
    uint32_t id = S.nst++;
    struct store *s = &S.st[id];
    memset(s, 0, sizeof *s);
    s->loc = l;
    s->thread = RAVEL__NONE;
    s->event = RAVEL__NONE;
    return id;
}

/* Puts store id into location l's mo right after store `after` (0: at
 * the front), renumbering the stores after it. */
static void insert_after(uint32_t l, uint32_t after, uint32_t id)
{
    struct loc *L = &S.locs[l];
    struct store *s = &S.st[id];
    if (!after) {
        s->next = L->first;
        L->first = id;
    } else {
        s->next = S.st[after].next;
        S.st[after].next = id;
    }
    if (!s->next)
        L->last = id;
    L->n++;
    uint32_t p = after ? S.st[after].pos + 1 : 0;
    for (uint32_t k = id; k; k = S.st[k].next)
        S.st[k].pos = p++;
}

/* The location of atomic object obj at addr (its initial store made at
 * its first access); a plain write the memory shows since its last
 * atomic store becomes a store everyone must read or follow. */
static uint32_t loc_of(uint32_t obj, const volatile void *a, unsigned size)
{
    bool found;
    uint32_t h = slot_of(S.locmap_obj, obj, &found);
    uint32_t l;
    unsigned char mem[16];
    read_memory((uint64_t)(uintptr_t)a, size, mem);
    if (!found) {
        if (S.nlocs >= LOCS || S.nlocs >= OBJMAP / 2)
            ravel__tool_error(ravel__controlled(),
                              "--memory-model rc11: one execution uses more "
                              "than %d atomic locations", LOCS);
        l = S.nlocs++;
        S.locmap_obj[h] = obj;
        S.locmap_val[h] = l;
        struct loc *L = &S.locs[l];
        memset(L, 0, sizeof *L);
        L->obj = obj;
        L->size = size;
        L->addr = (uint64_t)(uintptr_t)a;
        uint32_t id = new_store(l);
        memcpy(S.st[id].bytes, mem, size);
        insert_after(l, 0, id);
        L->floor = id;
        /* Snapshots and views made before this location existed hold
         * 0 for it: the initial store (pos 0). */
        return l;
    }
    l = S.locmap_val[h];
    struct loc *L = &S.locs[l];
    if (memcmp(S.st[L->last].bytes, mem, size < L->size ? size : L->size)) {
        uint32_t id = new_store(l);
        S.st[id].plain = 1;
        memcpy(S.st[id].bytes, mem, size);
        insert_after(l, L->last, id);
        L->floor = id;
    }
    return l;
}

/* A choice among n alternatives, the last (newest) one with probability
 * 1/2 under random and PCT (the file's comment). */
static uint32_t choose_biased(struct ravel__worker *w, uint32_t n)
{
    if (n <= 1)
        return 0;
    struct ravel__exec *x = ravel__rt.x;
    uint32_t k = x->nvchoices;
    uint32_t older = ravel__choose_data(w, 2);
    mark_mine(k);
    if (!older)
        return n - 1;
    k = x->nvchoices;
    uint32_t c = ravel__choose_data(w, n - 1);
    if (n - 1 > 1)
        mark_mine(k);
    return c;
}

static bool mo_acq(int mo)
{
    return mo == __ATOMIC_CONSUME || mo == __ATOMIC_ACQUIRE ||
           mo == __ATOMIC_ACQ_REL || mo == __ATOMIC_SEQ_CST;
}

static bool mo_rel(int mo)
{
    return mo == __ATOMIC_RELEASE || mo == __ATOMIC_ACQ_REL ||
           mo == __ATOMIC_SEQ_CST;
}

/* The global seq_cst view meets thread t's. */
static void sc_sync(uint32_t t)
{
    join_into(S.view[t], S.sc);
    memcpy(S.sc, S.view[t], sizeof S.sc);
}

/* Thread t reads store id (the load's part of any read). */
static void take(uint32_t t, uint32_t l, uint32_t id, int mo)
{
    struct thread_state *ts = &S.ts[t];
    S.view[t][l] = later(S.view[t][l], id);
    uint32_t m = S.st[id].msg;
    if (m) {
        if (mo_acq(mo))
            join_into(S.view[t], S.snap[m]);
        else
            join_into(S.acq[t], S.snap[m]);
    }
    if (S.nreads < STORES)
        S.reads[S.nreads++] = (struct read){t, ts->nreads, id};
    ts->nreads++;
}

/* Readable stores of l for thread t, in mo: fills out[], returns n.
 * kind: 0 load, 1 RMW (not already read by one), 2 compare-exchange
 * expecting `expect` (a store holding it must be free for the RMW). */
static uint32_t readable(uint32_t t, uint32_t l, int kind,
                         const unsigned char *expect, uint32_t *out)
{
    struct loc *L = &S.locs[l];
    uint32_t from = later(S.view[t][l], L->floor);
    uint32_t n = 0;
    for (uint32_t k = from ? from : L->first; k; k = S.st[k].next) {
        const struct store *s = &S.st[k];
        if (kind == 1 && s->rmw_read)
            continue;
        if (kind == 2 && s->rmw_read && !memcmp(s->bytes, expect, L->size))
            continue;
        out[n++] = k;
    }
    return n;
}

static uint32_t scratch[STORES];

/* The message a store of thread t to l carries (after t's view has it). */
static uint32_t message(uint32_t t, uint32_t l, int mo, uint32_t read)
{
    uint32_t m;
    if (mo_rel(mo))
        m = snapshot(S.view[t]);
    else
        m = snap_join(S.ts[t].relfence, S.relseq[t][l]);
    if (read)
        m = snap_join(S.st[read].msg, m);
    return m;
}

/* The race detector: the atomic access about to be checked reads store
 * id (0: a plain store, which releases only what a release fence did),
 * so it acquires that store's release clock, not the newest one's. */
static void race_from(uint32_t obj, uint32_t id)
{
    if (!ravel__race_on)
        return;
    const struct store *s = &S.st[id];
    ravel__race_obj_clock_set(obj, S.dpool + s->dclk, s->dn);
}

static uint32_t dtmp[RAVEL__MAX_THREADS];

void ravel__rc11_raced(const struct ravel__event *ev)
{
    if (!ravel__race_on || !S.just_put)
        return;
    struct store *s = &S.st[S.just_put];
    S.just_put = 0;
    uint32_t n = ravel__race_obj_clock_get(ev->obj, dtmp);
    if (S.dused + n > DPOOL)
        ravel__tool_error(ravel__controlled(),
                          "--memory-model rc11: one execution needs more "
                          "than %u clock entries for race detection", DPOOL);
    memcpy(S.dpool + S.dused, dtmp, n * sizeof *dtmp);
    s->dclk = S.dused;
    s->dn = n;
    S.dused += n;
}

static void note_read(struct ravel__event *ev, uint32_t l, uint32_t id)
{
    struct loc *L = &S.locs[l];
    if (ev->kind != RAVEL__OP_ATOMIC_LOAD || id == L->last)
        return;
    ev->flags |= RAVEL__EV_STALE;
    ev->aux = S.st[id].event;
    ev->value2 = S.st[L->last].event == RAVEL__NONE
                     ? -1
                     : (int64_t)S.st[L->last].event;
}

void ravel__rc11_load(struct ravel__worker *w, struct ravel__event *ev,
                      const volatile void *a, unsigned size, int mo,
                      void *out)
{
    begin();
    uint32_t t = w->slot;
    thr(t);
    uint32_t l = loc_of(ev->obj, a, size);
    if (mo == __ATOMIC_SEQ_CST)
        sc_sync(t);
    uint32_t n = readable(t, l, 0, NULL, scratch);
    RAVEL__CHECK(n >= 1);
    uint32_t id = scratch[choose_biased(w, n)];
    take(t, l, id, mo);
    if (mo == __ATOMIC_SEQ_CST)
        sc_sync(t);
    note_read(ev, l, id);
    race_from(ev->obj, id);
    memcpy(out, S.st[id].bytes, size);
    ev->value = ravel__value_of(S.st[id].bytes, size);
}

/* Thread t's store of `val` to l goes right after `after` in mo. */
static void put(struct ravel__worker *w, struct ravel__event *ev, uint32_t l,
                uint32_t after, const void *val, int mo, uint32_t read)
{
    uint32_t t = w->slot;
    struct thread_state *ts = &S.ts[t];
    struct loc *L = &S.locs[l];
    uint32_t id = new_store(l);
    struct store *s = &S.st[id];
    memcpy(s->bytes, val, L->size);
    s->thread = t;
    s->tidx = ts->nstores++;
    s->event = (uint32_t)(ev - ravel__rt.x->events);
    if (read) {
        s->rmw_of = read;
        S.st[read].rmw_read = 1;
    }
    insert_after(l, after, id);
    S.view[t][l] = id;
    s->msg = message(t, l, mo, read);
    if (mo_rel(mo) && !read)
        S.relseq[t][l] = s->msg;
    if (L->last == id)
        write_memory(L->addr, L->size, s->bytes);
    S.just_put = id;
}

void ravel__rc11_store(struct ravel__worker *w, struct ravel__event *ev,
                       const volatile void *a, unsigned size, const void *val,
                       int mo)
{
    begin();
    uint32_t t = w->slot;
    thr(t);
    uint32_t l = loc_of(ev->obj, a, size);
    if (mo == __ATOMIC_SEQ_CST)
        sc_sync(t);
    /* Places: right after any store at or after the view, but not
     * between a store and the RMW that read it. */
    struct loc *L = &S.locs[l];
    uint32_t from = later(S.view[t][l], L->floor);
    uint32_t n = 0;
    for (uint32_t k = from ? from : L->first; k; k = S.st[k].next) {
        uint32_t nx = S.st[k].next;
        if (nx && S.st[nx].rmw_of == k)
            continue;
        scratch[n++] = k;
    }
    RAVEL__CHECK(n >= 1 && scratch[n - 1] == L->last);
    uint32_t after = scratch[choose_biased(w, n)];
    put(w, ev, l, after, val, mo, 0);
    race_from(ev->obj, 0); /* a new release sequence */
    if (mo == __ATOMIC_SEQ_CST)
        sc_sync(t);
}

bool ravel__rc11_rmw(struct ravel__worker *w, struct ravel__event *ev,
                     const volatile void *a, unsigned size, int mo,
                     const void *expect, void *old,
                     void (*compute)(const void *old, void *new_, void *ctx),
                     void *ctx)
{
    begin();
    uint32_t t = w->slot;
    thr(t);
    uint32_t l = loc_of(ev->obj, a, size);
    if (mo == __ATOMIC_SEQ_CST)
        sc_sync(t);
    uint32_t n = readable(t, l, expect ? 2 : 1,
                          (const unsigned char *)expect, scratch);
    RAVEL__CHECK(n >= 1);
    uint32_t id = scratch[choose_biased(w, n)];
    if (id != S.locs[l].last) /* for the spin-wait rule (spin.c) */
        ev->flags |= RAVEL__EV_STALE;
    memcpy(old, S.st[id].bytes, size);
    bool writes = !expect || !memcmp(old, expect, size);
    /* A failed compare-exchange is a load (its failure order is at most
     * its order; ravel keeps the success order, which is stronger). */
    take(t, l, id, writes ? mo : (mo == __ATOMIC_RELEASE   ? __ATOMIC_RELAXED
                                  : mo == __ATOMIC_ACQ_REL ? __ATOMIC_ACQUIRE
                                                           : mo));
    if (writes) {
        unsigned char nv[16];
        compute(old, nv, ctx);
        put(w, ev, l, id, nv, mo, id);
    }
    race_from(ev->obj, id); /* an RMW continues its release sequence */
    if (mo == __ATOMIC_SEQ_CST)
        sc_sync(t);
    return writes;
}

void ravel__rc11_fence(struct ravel__worker *w, int mo)
{
    begin();
    uint32_t t = w->slot;
    struct thread_state *ts = thr(t);
    if (mo_acq(mo))
        join_into(S.view[t], S.acq[t]);
    if (mo == __ATOMIC_SEQ_CST)
        sc_sync(t);
    if (mo_rel(mo))
        ts->relfence = snapshot(S.view[t]);
}

/* The view of synchronisation object o (0: none yet); set. */
static uint32_t *obj_view(uint32_t o)
{
    bool found;
    uint32_t h = slot_of(S.objmap_obj, o, &found);
    if (!found) {
        S.objmap_obj[h] = o;
        S.objmap_val[h] = 0;
    }
    return &S.objmap_val[h];
}

static void release_to(uint32_t t, uint32_t o)
{
    if (o == RAVEL__NONE)
        return;
    uint32_t *v = obj_view(o);
    uint32_t m = snapshot(S.view[t]);
    *v = snap_join(*v, m);
}

static void acquire_from(uint32_t t, uint32_t o)
{
    if (o == RAVEL__NONE)
        return;
    uint32_t v = *obj_view(o);
    if (v)
        join_into(S.view[t], S.snap[v]);
}

void ravel__rc11_sync(const struct ravel__event *ev)
{
    struct ravel__exec *x = ravel__rt.x;
    begin();
    uint32_t t = ev->thread;
    thr(t);
    bool failed = ev->flags & (RAVEL__EV_FAILED | RAVEL__EV_TIMEDOUT |
                               RAVEL__EV_ERROR);
    switch (ev->kind) {
    case RAVEL__OP_CREATE:
        if (ev->aux != RAVEL__NONE && ev->aux < RAVEL__MAX_THREADS) {
            S.inherit[ev->aux] = snapshot(S.view[t]);
            S.inherit_gen[ev->aux] = S.gen;
        }
        return;
    case RAVEL__OP_FINISH:
        S.finished[t] = snapshot(S.view[t]);
        return;
    case RAVEL__OP_JOIN:
    case RAVEL__OP_TRYJOIN:
    case RAVEL__OP_TIMEDJOIN:
        if (!failed && ev->aux < x->nthreads &&
            x->threads[ev->aux].state == RAVEL__T_FINISHED &&
            S.ts[ev->aux].gen == S.gen && S.finished[ev->aux])
            join_into(S.view[t], S.snap[S.finished[ev->aux]]);
        return;
    case RAVEL__OP_MUTEX_LOCK:
    case RAVEL__OP_MUTEX_TRYLOCK:
    case RAVEL__OP_MUTEX_TIMEDLOCK:
    case RAVEL__OP_SPIN_LOCK:
    case RAVEL__OP_SPIN_TRYLOCK:
    case RAVEL__OP_SEM_WAIT:
    case RAVEL__OP_SEM_TRYWAIT:
    case RAVEL__OP_SEM_TIMEDWAIT:
    case RAVEL__OP_RW_RDLOCK:
    case RAVEL__OP_RW_TRYRDLOCK:
    case RAVEL__OP_RW_TIMEDRDLOCK:
    case RAVEL__OP_RW_WRLOCK:
    case RAVEL__OP_RW_TRYWRLOCK:
    case RAVEL__OP_RW_TIMEDWRLOCK:
        if (!failed)
            acquire_from(t, ev->obj);
        return;
    case RAVEL__OP_SEM_GETVALUE:
    case RAVEL__OP_ONCE:
    case RAVEL__OP_BARRIER_LEAVE:
    case RAVEL__OP_FD_READ:
    case RAVEL__OP_FD_ACCEPT:
    case RAVEL__OP_FD_POLL_ALL:
        acquire_from(t, ev->obj);
        return;
    case RAVEL__OP_FD_POLL:
        acquire_from(t, ev->obj);
        acquire_from(t, ev->aux);
        return;
    case RAVEL__OP_MUTEX_UNLOCK:
    case RAVEL__OP_SPIN_UNLOCK:
    case RAVEL__OP_SEM_POST:
    case RAVEL__OP_ONCE_DONE:
    case RAVEL__OP_COND_SIGNAL:
    case RAVEL__OP_COND_BROADCAST:
    case RAVEL__OP_RW_UNLOCK:
    case RAVEL__OP_BARRIER_WAIT:
        release_to(t, ev->obj);
        return;
    case RAVEL__OP_COND_WAIT:
    case RAVEL__OP_COND_TIMEDWAIT:
        release_to(t, ev->aux);
        return;
    case RAVEL__OP_COND_WAKE:
        acquire_from(t, ev->aux);
        if (!(ev->flags & RAVEL__EV_TIMEDOUT))
            acquire_from(t, ev->obj);
        return;
    case RAVEL__OP_FD_SHUTDOWN:
    case RAVEL__OP_FD_CTL:
        release_to(t, ev->obj);
        release_to(t, ev->aux);
        return;
    default:
        return;
    }
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    return ravel__hash_ptr(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) +
                                (h >> 2)));
}

static uint64_t obj_key(const struct ravel__exec *x, uint32_t o)
{
    if (o >= x->nobjects)
        return o;
    const struct ravel__object *ob = &x->objects[o];
    return ob->key ? ob->key : ravel__hash_ptr(ob->addr);
}

static uint64_t store_key(const struct ravel__exec *x, uint32_t id)
{
    const struct store *s = &S.st[id];
    if (s->thread == RAVEL__NONE)
        return mix(s->plain ? 0x706c61696eULL : 0x696e6974ULL, s->pos);
    return mix(x->threads[s->thread].key, s->tidx);
}

uint64_t ravel__rc11_graph(const struct ravel__exec *x)
{
    if (S.gen != x->number + 1) /* no atomics at all */
        begin();
    uint64_t h = 0x72633131ULL;
    /* Modification order, location by location (a sum: locations in
     * any order). */
    for (uint32_t l = 0; l < S.nlocs; l++) {
        uint64_t lh = obj_key(x, S.locs[l].obj);
        for (uint32_t k = S.locs[l].first; k; k = S.st[k].next)
            lh = mix(lh, store_key(x, k));
        h += mix(lh, 1);
    }
    /* Reads-from. */
    for (uint32_t i = 0; i < S.nreads; i++) {
        const struct read *r = &S.reads[i];
        h += mix(mix(x->threads[r->thread].key, r->ridx),
                 store_key(x, r->store));
    }
    /* The order of every synchronisation object's operations (lock
     * order ...), with their outcomes. */
    uint32_t *seq = scratch; /* per object, up to STORES objects */
    uint32_t nobj = x->nobjects < STORES ? x->nobjects : STORES;
    memset(seq, 0, nobj * sizeof *seq);
    for (uint32_t e = 0; e < x->nevents; e++) {
        const struct ravel__event *ev = &x->events[e];
        uint8_t ok = ravel__op_obj_kind(ev->kind);
        if (ok == RAVEL__OBJ_NONE || ok == RAVEL__OBJ_THREAD ||
            ok == RAVEL__OBJ_ATOMIC || ok == RAVEL__OBJ_PLAIN ||
            ev->obj >= nobj)
            continue;
        h += mix(mix(mix(obj_key(x, ev->obj), seq[ev->obj]++),
                     x->threads[ev->thread].key),
                 /* outcome flags only: PREEMPT and the like say how
                  * the interleaving went, not what happened */
                 (uint64_t)(ev->flags &
                            (RAVEL__EV_FAILED | RAVEL__EV_TIMEDOUT |
                             RAVEL__EV_SERIAL | RAVEL__EV_ERROR)) *
                         31 +
                     (uint64_t)ev->value);
    }
    /* The program's own data choices. */
    for (uint32_t i = 0; i < x->nvchoices; i++) {
        if (i < S.max_choices && S.mine[i])
            continue;
        const struct ravel__vchoice *c = &x->vchoices[i];
        h += mix(mix(x->threads[c->thread].key, c->tstep),
                 (uint64_t)c->value * 2 + c->data);
    }
    return h ? h : 1;
}
