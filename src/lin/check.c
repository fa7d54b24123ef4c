/*
 * check.c - the linearizability search (see check.h for the contract).
 *
 * Each partition's operations become a doubly linked list of events in
 * time order: a call node per operation and a return node per operation
 * that returned (calls before returns at equal times, so operations that
 * touch at one instant overlap):
 *
 *   head -> call a -> call b -> ret a -> call c -> ret b -> ret c -> end
 *
 * The operations that may take effect next are exactly the calls before
 * the first return node: anything called later was called after some
 * pending operation returned. For each candidate the search asks the
 * model whether it can take effect in the current state, and if so (and
 * the resulting (set, state) pair is new) it "lifts" the call and its
 * return out of the list, pushes a frame and looks at the new
 * candidates. When no candidate works, the first return node's
 * operation cannot be placed: pop the last frame, put its nodes back
 * (dancing links: re-insertion in reverse order of removal is O(1)) and
 * try that frame's next alternative. The history is linearizable when no
 * return node is left (operations that never returned have none, so they
 * may stay unplaced), and not linearizable when there is nothing left to
 * undo.
 *
 * Candidates are tried in two phases (search_run explains why that is
 * exact): read-only ones first, without alternatives; then the others,
 * ordered by return time with a lookahead for the next read
 * (build_cand). The memo stores compact keys rather than whole bitsets
 * (build_key).
 *
 * The search is a resumable loop (struct search) so partitions can be
 * interleaved: each runs for a budget of steps, then yields.
 */
#include "check.h"

#include "../common/hash.h"
#include "../common/prng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define END UINT32_MAX

struct frame {
    uint32_t call;   /* node lifted */
    uint32_t succ;   /* which successor of the step was taken */
    uint32_t nsucc;  /* how many the step had; 0: forced (see below) */
    uint64_t before; /* state before the step */
};

/* A remembered (set of operations done, state) configuration. */
struct memo {
    uint64_t *hashes; /* full hash per slot; entries[slot] == 0: empty */
    uint32_t *entries; /* index + 1 into words */
    uint32_t cap, n;
    uint64_t *words; /* per entry: state, key length, key (build_key) */
    size_t nwords, words_cap;
};

struct search {
    const struct ravel__lin_history *h;
    const struct ravel__lin_model *m;
    void *self;
    uint32_t n;       /* operations */
    uint32_t *gop;    /* local op -> history op */
    const uint32_t *local; /* history op -> local op (shared) */
    uint32_t nnodes;  /* call and return nodes; node 0 is the head */
    uint32_t *nxt, *prv;
    uint32_t *nop;    /* node -> local op */
    uint32_t *match;  /* call node -> its return node, or END */
    bool *is_call;
    bool *ro;         /* local op never changes the state */
    uint32_t *twin;   /* never-returned op: previous identical one, or END */
    uint64_t *zob;    /* Zobrist key per local op */
    uint32_t w;       /* bitset words */
    uint64_t *bits;
    /* The memo's compact key (see build_key): */
    uint32_t *lim;    /* required op r: last op called by r's return */
    uint32_t *oidx;   /* never-returned op: its index among them */
    uint32_t nopt, ow; /* never-returned ops, words of their bitset */
    uint64_t *obits;
    uint32_t req_lo;  /* first required op not yet linearized */
    uint64_t *key;    /* scratch: the key of a configuration */
    uint32_t nkey, key_lo;
    uint64_t bits_hash;
    uint64_t state;
    uint32_t returns_left;
    struct frame *stack;
    uint32_t depth;
    uint32_t entry; /* node the walk is at */
    uint32_t resume_succ; /* successor to start from at `entry` */
    bool phase_b;   /* walking the other operations (see search_run) */
    bool plain;     /* no prunings beyond Lowe's memo (no_prune) */
    uint32_t *cand; /* phase B: candidate call nodes, by return time */
    uint32_t ncand, ci;
    struct memo memo;
    struct ravel__lin_next next, next2;
    /* Longest prefix seen, for the explanation. */
    uint32_t best_depth; /* tracked even without explanations */
    uint32_t best;
    uint32_t *best_ops;
    uint64_t *best_states;
    bool explain;
    int done; /* 0 running, 1 linearizable, 2 not linearizable, -1 error */
};

/* Shared between partitions. */
struct global {
    uint64_t memo_bytes, memo_limit, memo_entries;
    bool memo_full;
    uint64_t steps;
};

static uint64_t state_hash(struct search *s, uint64_t st)
{
    if (s->m->hash)
        return s->m->hash(s->self, st);
    return ravel__hash_ptr(st ^ 0x5bd1e9955bd1e995ULL);
}

static bool state_eq(struct search *s, uint64_t a, uint64_t b)
{
    if (s->m->equal)
        return s->m->equal(s->self, a, b);
    return a == b;
}

/*
 * The memo's key for the current set of linearized operations, in
 * s->key[0 .. s->nkey), with `extra` (an op whose bit was just set, or
 * END) counted in. A whole bitset would cost n/8 bytes per entry, which
 * for a history of 50 000 operations fills a gigabyte with 85 000
 * entries. But the set has a short description: every required
 * operation before the first unlinearized one (lo) is done, and no
 * operation called after that one returned (index > lim[lo]) can be
 * done yet, or real-time order would be broken; so the required part is
 * the words covering [lo, lim[lo]], and the never-returned operations
 * get a bitset of their own. The key is a function of the set and
 * determines it, so equal keys mean equal sets.
 *
 *   key = [lo | nwin << 32] [window words ...] [never-returned bits ...]
 */
static void build_key(struct search *s, uint32_t extra)
{
    uint32_t lo = s->req_lo;
    if (extra != END && extra == lo)
        while (lo < s->n && ((s->bits[lo >> 6] >> (lo & 63) & 1) ||
                             s->lim[lo] == END))
            lo++;
    s->key_lo = lo;
#if defined(__SANITIZE_ADDRESS__)
    /* Sanitizer builds also check the claim the key rests on: no
     * required operation past the window is linearized. O(n) per key,
     * which is why only they do. */
    for (uint32_t i = lo < s->n ? s->lim[lo] + 1 : s->n; i < s->n; i++)
        RAVEL__CHECK(s->lim[i] == END || !(s->bits[i >> 6] >> (i & 63) & 1));
#endif
    uint32_t nwin = 0, first = 0;
    if (lo < s->n) {
        first = lo >> 6;
        nwin = (s->lim[lo] >> 6) - first + 1;
    }
    uint64_t *k = s->key;
    k[0] = lo | (uint64_t)nwin << 32;
    memcpy(k + 1, s->bits + first, nwin * sizeof *k);
    if (s->ow)
        memcpy(k + 1 + nwin, s->obits, s->ow * sizeof *k);
    s->nkey = 1 + nwin + s->ow;
}

/* The remembered entry at words offset `at` equals (key, st)? Entries are
 * [state][key length][key words]. */
static bool entry_eq(struct search *s, const uint64_t *e, uint64_t st)
{
    return e[1] == s->nkey && state_eq(s, e[0], st) &&
           !memcmp(e + 2, s->key, s->nkey * sizeof *s->key);
}

/* True if (current set, st) with full hash `hsh` is remembered. */
static bool memo_has(struct search *s, uint64_t hsh, uint64_t st)
{
    struct memo *mm = &s->memo;
    if (!mm->cap)
        return false;
    build_key(s, END);
    uint32_t j = (uint32_t)hsh & (mm->cap - 1);
    for (; mm->entries[j]; j = (j + 1) & (mm->cap - 1))
        if (mm->hashes[j] == hsh &&
            entry_eq(s, mm->words + (size_t)(mm->entries[j] - 1), st))
            return true;
    return false;
}

/*
 * Looks (set with `extra` added, st) up in the memo with full hash
 * `hsh`; inserts it when absent and the memory limit allows. Returns true
 * if it was present. Leaves its key in s->key (and s->key_lo).
 */
static bool memo_seen(struct search *s, struct global *g, uint64_t hsh,
                      uint64_t st, uint32_t extra)
{
    struct memo *mm = &s->memo;
    build_key(s, extra);
    if (mm->cap) {
        uint32_t j = (uint32_t)hsh & (mm->cap - 1);
        for (; mm->entries[j]; j = (j + 1) & (mm->cap - 1))
            if (mm->hashes[j] == hsh &&
                entry_eq(s, mm->words + (size_t)(mm->entries[j] - 1), st))
                return true;
    }
    /* Absent: remember it if memory allows. */
    size_t size = 2 + (size_t)s->nkey;
    size_t entry_bytes = size * 8;
    size_t grow_bytes = 0;
    if ((mm->n + 1) * 2 > mm->cap)
        grow_bytes = (size_t)(mm->cap ? mm->cap : 512) * 2 * 12;
    size_t words_grow = 0;
    if (mm->nwords + size > mm->words_cap) {
        size_t cap = mm->words_cap ? mm->words_cap : 4096;
        while (cap < mm->nwords + size)
            cap *= 2;
        words_grow = (cap - mm->words_cap) * 8;
    }
    if (g->memo_bytes + entry_bytes + grow_bytes + words_grow >
            g->memo_limit ||
        mm->nwords + size >= UINT32_MAX) {
        g->memo_full = true;
        return false;
    }
    if (grow_bytes) {
        uint32_t cap = mm->cap ? mm->cap * 2 : 1024;
        uint64_t *nh = malloc((size_t)cap * sizeof *nh);
        uint32_t *ne = calloc(cap, sizeof *ne);
        if (!nh || !ne) {
            free(nh);
            free(ne);
            g->memo_full = true;
            return false;
        }
        for (uint32_t i = 0; i < mm->cap; i++) {
            if (!mm->entries[i])
                continue;
            uint32_t j = (uint32_t)mm->hashes[i] & (cap - 1);
            while (ne[j])
                j = (j + 1) & (cap - 1);
            ne[j] = mm->entries[i];
            nh[j] = mm->hashes[i];
        }
        g->memo_bytes += (uint64_t)(cap - mm->cap) * 12;
        free(mm->hashes);
        free(mm->entries);
        mm->hashes = nh;
        mm->entries = ne;
        mm->cap = cap;
    }
    if (words_grow) {
        size_t cap = mm->words_cap + words_grow / 8;
        uint64_t *nw = realloc(mm->words, cap * sizeof *nw);
        if (!nw) {
            g->memo_full = true;
            return false;
        }
        g->memo_bytes += words_grow;
        mm->words = nw;
        mm->words_cap = cap;
    }
    uint64_t *e = mm->words + mm->nwords;
    e[0] = st;
    e[1] = s->nkey;
    memcpy(e + 2, s->key, s->nkey * sizeof *s->key);
    uint32_t j = (uint32_t)hsh & (mm->cap - 1);
    while (mm->entries[j])
        j = (j + 1) & (mm->cap - 1);
    mm->entries[j] = (uint32_t)mm->nwords + 1;
    mm->hashes[j] = hsh;
    mm->nwords += size;
    mm->n++;
    g->memo_entries++;
    return false;
}

/* Marks local op `op` linearized or not, in both bitsets. */
static void set_op(struct search *s, uint32_t op)
{
    s->bits[op >> 6] |= 1ull << (op & 63);
    if (s->lim[op] == END)
        s->obits[s->oidx[op] >> 6] |= 1ull << (s->oidx[op] & 63);
}

static void clear_op(struct search *s, uint32_t op)
{
    s->bits[op >> 6] &= ~(1ull << (op & 63));
    if (s->lim[op] == END)
        s->obits[s->oidx[op] >> 6] &= ~(1ull << (s->oidx[op] & 63));
}

static void lift(struct search *s, uint32_t c)
{
    s->nxt[s->prv[c]] = s->nxt[c];
    if (s->nxt[c] != END)
        s->prv[s->nxt[c]] = s->prv[c];
    uint32_t r = s->match[c];
    if (r != END) {
        s->nxt[s->prv[r]] = s->nxt[r];
        if (s->nxt[r] != END)
            s->prv[s->nxt[r]] = s->prv[r];
        s->returns_left--;
    }
}

static void unlift(struct search *s, uint32_t c)
{
    uint32_t r = s->match[c];
    if (r != END) {
        s->nxt[s->prv[r]] = r;
        if (s->nxt[r] != END)
            s->prv[s->nxt[r]] = r;
        s->returns_left++;
    }
    s->nxt[s->prv[c]] = c;
    if (s->nxt[c] != END)
        s->prv[s->nxt[c]] = c;
}

struct ev {
    uint64_t t;
    uint32_t kind; /* 0 call, 1 return */
    uint32_t op;
};

static int cmp_ev(const void *a, const void *b)
{
    const struct ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

static void search_free(struct search *s)
{
    free(s->gop);
    free(s->nxt);
    free(s->prv);
    free(s->nop);
    free(s->match);
    free(s->is_call);
    free(s->ro);
    free(s->twin);
    free(s->cand);
    free(s->zob);
    free(s->bits);
    free(s->lim);
    free(s->oidx);
    free(s->obits);
    free(s->key);
    free(s->stack);
    free(s->memo.hashes);
    free(s->memo.entries);
    free(s->memo.words);
    free(s->next.v);
    free(s->next2.v);
    free(s->best_ops);
    free(s->best_states);
}

/* Sets up the search over history ops gop[0..n) (taken over). */
static int search_init(struct search *s, const struct ravel__lin_history *h,
                       const struct ravel__lin_model *m, void *self,
                       uint32_t *gop, uint32_t n, uint32_t *local,
                       bool explain, bool plain, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->plain = plain;
    s->local = local;
    for (uint32_t i = 0; i < n; i++)
        local[gop[i]] = i;
    s->h = h;
    s->m = m;
    s->self = self;
    s->gop = gop;
    s->n = n;
    s->explain = explain;
    uint32_t nn = 1;
    for (uint32_t i = 0; i < n; i++)
        nn += 1 + (h->ops[gop[i]].ret != RAVEL__LIN_NEVER);
    s->nnodes = nn;
    s->w = (n + 63) / 64;
    s->nxt = malloc(nn * sizeof *s->nxt);
    s->prv = malloc(nn * sizeof *s->prv);
    s->nop = malloc(nn * sizeof *s->nop);
    s->match = malloc(nn * sizeof *s->match);
    s->is_call = malloc(nn * sizeof *s->is_call);
    s->ro = calloc((size_t)n + 1, sizeof *s->ro);
    s->cand = malloc(((size_t)n + 1) * sizeof *s->cand);
    s->twin = malloc(((size_t)n + 1) * sizeof *s->twin);
    s->zob = malloc(((size_t)n + 1) * sizeof *s->zob);
    s->bits = calloc((size_t)s->w + 1, sizeof *s->bits);
    s->lim = malloc(((size_t)n + 1) * sizeof *s->lim);
    s->oidx = malloc(((size_t)n + 1) * sizeof *s->oidx);
    s->stack = malloc(((size_t)n + 1) * sizeof *s->stack);
    struct ev *evs = malloc(nn * sizeof *evs);
    if (explain) {
        s->best_ops = malloc(((size_t)n + 1) * sizeof *s->best_ops);
        s->best_states = malloc(((size_t)n + 1) * sizeof *s->best_states);
    }
    if (!s->nxt || !s->prv || !s->nop || !s->match || !s->is_call ||
        !s->ro || !s->twin || !s->cand || !s->lim || !s->oidx || !s->zob || !s->bits || !s->stack || !evs ||
        (explain && (!s->best_ops || !s->best_states))) {
        free(evs);
        return -1;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct ravel__lin_op *o = &h->ops[gop[i]];
        evs[k++] = (struct ev){o->call, 0, i};
        if (o->ret != RAVEL__LIN_NEVER)
            evs[k++] = (struct ev){o->ret, 1, i};
    }
    qsort(evs, k, sizeof *evs, cmp_ev);
    /* call node of each op, to link returns to their calls */
    uint32_t *call_node = malloc(((size_t)n + 1) * sizeof *call_node);
    if (!call_node) {
        free(evs);
        return -1;
    }
    s->nxt[0] = k ? 1 : END;
    s->prv[0] = END;
    s->is_call[0] = false;
    s->match[0] = END;
    s->nop[0] = END;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t node = i + 1;
        s->nop[node] = evs[i].op;
        s->is_call[node] = evs[i].kind == 0;
        s->match[node] = END;
        s->prv[node] = i;
        s->nxt[node] = i + 1 < k ? node + 1 : END;
        if (evs[i].kind == 0) {
            call_node[evs[i].op] = node;
        } else {
            s->match[call_node[evs[i].op]] = node;
            s->returns_left++;
        }
    }
    free(call_node);
    free(evs);
    /* Never-returned operations with the same f, key and input are
     * interchangeable (model.h): link each to the previous one. */
    uint32_t *last = malloc(((size_t)n + 1) * sizeof *last);
    if (!last)
        return -1;
    uint32_t nlast = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct ravel__lin_op *o = &h->ops[gop[i]];
        s->ro[i] = !plain && m->read_only && m->read_only(self, gop[i]);
        s->twin[i] = END;
        if (plain || o->ret != RAVEL__LIN_NEVER ||
            o->out != RAVEL__LIN_V_NONE)
            continue;
        for (uint32_t k2 = nlast; k2-- > 0;) {
            const struct ravel__lin_op *q = &h->ops[gop[last[k2]]];
            if (q->f == o->f && q->key == o->key && q->in == o->in) {
                s->twin[i] = last[k2];
                last[k2] = i;
                goto linked;
            }
        }
        last[nlast++] = i;
    linked:;
    }
    free(last);
    /* The memo key's pieces (build_key): lim of each required op by
     * binary search over calls (local ops are in call order), an index
     * for each never-returned one. */
    for (uint32_t i = 0; i < n; i++) {
        const struct ravel__lin_op *o = &h->ops[gop[i]];
        if (o->ret == RAVEL__LIN_NEVER) {
            s->lim[i] = END;
            s->oidx[i] = s->nopt++;
            continue;
        }
        uint32_t lo = i, hi = n; /* last index with call <= o->ret */
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (h->ops[gop[mid]].call <= o->ret)
                lo = mid;
            else
                hi = mid;
        }
        s->lim[i] = lo;
    }
    s->ow = (s->nopt + 63) / 64;
    s->obits = calloc((size_t)s->ow + 1, sizeof *s->obits);
    s->key = malloc(((size_t)s->w + s->ow + 2) * sizeof *s->key);
    if (!s->obits || !s->key)
        return -1;
    s->req_lo = 0;
    while (s->req_lo < n && s->lim[s->req_lo] == END)
        s->req_lo++;
    struct ravel__prng rng;
    ravel__prng_seed(&rng, seed, 0x11ea);
    for (uint32_t i = 0; i < n; i++)
        s->zob[i] = ravel__prng_next(&rng);
    s->state = m->init(self);
    s->entry = s->nxt[0];
    return 0;
}

static void note_best(struct search *s)
{
    if (s->depth > s->best_depth)
        s->best_depth = s->depth;
    if (!s->explain || s->depth <= s->best)
        return;
    /* The stack below the old best may have changed since: copy it all
     * (at most n times over the whole search). */
    for (uint32_t i = 0; i < s->depth; i++) {
        s->best_ops[i] = s->nop[s->stack[i].call];
        s->best_states[i] =
            i + 1 < s->depth ? s->stack[i + 1].before : s->state;
    }
    s->best = s->depth;
}

/* For models' doomed(): has history op x taken effect? */
static bool op_done(const void *ctx, uint32_t x)
{
    const struct search *s = ctx;
    uint32_t l = s->local[x];
    return s->bits[l >> 6] >> (l & 63) & 1;
}

/*
 * Lookahead for doomed configurations: after a step that changed the
 * state, asks the model about the next LOOKAHEAD required read-only
 * operations called after the first return node (not yet callable, so
 * phase A cannot see them). A model's doomed() speaks of every state
 * reachable through the operations not yet done, whether or not `op` has
 * been called, so a "yes" for any of them means no linearization
 * extends this configuration.
 */
#ifndef LOOKAHEAD
#define LOOKAHEAD 8
#endif
static bool future_doomed(struct search *s)
{
    uint32_t e = s->nxt[0];
    while (e != END && s->is_call[e])
        e = s->nxt[e];
    uint32_t seen = 0;
    for (; e != END && seen < LOOKAHEAD; e = s->nxt[e]) {
        if (!s->is_call[e])
            continue;
        seen++;
        uint32_t op = s->nop[e];
        if (s->ro[op] && s->match[e] != END &&
            s->m->doomed(s->self, s->state, s->gop[op], op_done, s))
            return true;
    }
    return false;
}

/* Return time of a node's operation (never-returned ones sort last). */
static uint64_t ret_time(const struct search *s, uint32_t node)
{
    return s->h->ops[s->gop[s->nop[node]]].ret;
}

/*
 * Collects the candidates of phase B (calls before the first return node
 * that are not read-only), ordered by return time: the operation that
 * returned first is the likeliest to have taken effect first, so a
 * linearizable history is usually found without backtracking. Stable
 * (insertion sort of a list in call order), so the order is a function
 * of the configuration and a frame can find its place again.
 * Never-returned operations come last, then the lookahead below moves
 * to the front those that let the next read happen.
 */
static void build_cand(struct search *s)
{
    uint32_t n = 0;
    /* Returned operations (at most one per process) by insertion; the
     * never-returned ones all sort last, so they follow in call order
     * without sorting (a history may have thousands of them). */
    for (uint32_t e = s->nxt[0]; e != END && s->is_call[e]; e = s->nxt[e]) {
        if (s->ro[s->nop[e]] || s->match[e] == END)
            continue;
        uint64_t t = ret_time(s, e);
        uint32_t j = n++;
        while (j > 0 && !s->plain && ret_time(s, s->cand[j - 1]) > t) {
            s->cand[j] = s->cand[j - 1];
            j--;
        }
        s->cand[j] = e;
    }
    uint32_t e = s->nxt[0];
    for (; e != END && s->is_call[e]; e = s->nxt[e])
        if (!s->ro[s->nop[e]] && s->match[e] == END)
            s->cand[n++] = e;
    s->ncand = n;
    s->ci = 0;
    /*
     * Lookahead: e is now the first return node, the operation that must
     * take effect next. When it is read-only it was rejected (phase A
     * found nothing), so some candidate must change the state for it:
     * try first those after which it is accepted (a read of 3 wants a
     * write of 3, perhaps one that never returned). Stable, so the order
     * is still a function of the configuration.
     */
    if (s->plain || e == END || !s->ro[s->nop[e]])
        return;
    uint32_t d = s->gop[s->nop[e]], front = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = s->cand[i], op = s->nop[c];
        if (s->twin[op] != END &&
            !(s->bits[s->twin[op] >> 6] >> (s->twin[op] & 63) & 1))
            continue;
        s->next.n = 0;
        int k = s->m->step(s->self, s->state, s->gop[op], &s->next);
        bool enables = false;
        for (int x = 0; x < k && !enables; x++) {
            s->next2.n = 0;
            enables = s->m->step(s->self, s->next.v[x], d, &s->next2) > 0;
        }
        if (enables) {
            memmove(s->cand + front + 1, s->cand + front,
                    (i - front) * sizeof *s->cand);
            s->cand[front++] = c;
        }
    }
}

/*
 * Runs the search for at most `budget` steps. Sets s->done when
 * finished. Returns -1 on a tool error (model out of memory).
 *
 * At each configuration the candidates (calls before the first return
 * node) are walked twice. Phase A looks only at read-only operations: if
 * one is possible now, it is linearized at once and no alternative is
 * tried here (its frame is "forced": nsucc 0). That is complete: in any
 * linearization from here, moving that operation to the front keeps
 * real-time order (everything that must precede it already does) and
 * changes no state, so if there is none with it first there is none at
 * all. Phase B branches over the other operations as Wing & Gong do,
 * with two more prunings for operations that never returned, which are
 * optional: of several identical ones only the earliest unused is tried
 * (they are interchangeable), and one whose result state is remembered
 * for the current set without it is skipped (whatever can follow it can
 * follow that configuration, which has been or is being explored).
 */
static int search_run(struct search *s, struct global *g, uint64_t budget)
{
    uint64_t steps = 0;
    uint32_t entry = s->entry, si = s->resume_succ;
    bool phase_b = s->phase_b;
    const struct ravel__lin_model *m = s->m;
    while (s->done == 0) {
        if (s->returns_left == 0) {
            s->done = 1;
            break;
        }
        if (steps >= budget)
            break;
        steps++;
        if (!phase_b) {
            if (entry == END || !s->is_call[entry]) {
                /* No read-only operation can go next: branch on the rest. */
                phase_b = true;
                build_cand(s);
                si = 0;
                continue;
            }
            uint32_t op = s->nop[entry];
            if (!s->ro[op]) {
                entry = s->nxt[entry];
                continue;
            }
            s->next.n = 0;
            int k = m->step(s->self, s->state, s->gop[op], &s->next);
            if (k < 0) {
                s->done = -1;
                break;
            }
            if (k == 0) {
                /* A pending operation that must still take effect and
                 * never can again dooms this configuration. */
                if (m->doomed && !s->plain && s->match[entry] != END &&
                    m->doomed(s->self, s->state, s->gop[op], op_done, s))
                    goto back;
                entry = s->nxt[entry];
                continue;
            }
            RAVEL__CHECK(k == 1 && state_eq(s, s->next.v[0], s->state));
            uint64_t bh = s->bits_hash ^ s->zob[op];
            set_op(s, op);
            if (memo_seen(s, g, bh ^ state_hash(s, s->state), s->state,
                          op)) {
                /* Explored before and failed: so does this one. */
                clear_op(s, op);
                goto back;
            }
            s->stack[s->depth++] = (struct frame){entry, 0, 0, s->state};
            s->bits_hash = bh;
            s->req_lo = s->key_lo;
            lift(s, entry);
            note_best(s);
            entry = s->nxt[0];
            continue;
        }
        if (s->ci < s->ncand) {
            entry = s->cand[s->ci];
            uint32_t op = s->nop[entry];
            if (s->twin[op] != END) {
                uint32_t t = s->twin[op];
                if (!(s->bits[t >> 6] >> (t & 63) & 1)) {
                    s->ci++;
                    continue;
                }
            }
            s->next.n = 0;
            int k = m->step(s->self, s->state, s->gop[op], &s->next);
            if (k < 0) {
                s->done = -1;
                break;
            }
            uint64_t bh = s->bits_hash ^ s->zob[op];
            bool optional = s->match[entry] == END;
            bool moved = false;
            for (uint32_t i = si; i < (uint32_t)k; i++) {
                uint64_t ns = s->next.v[i];
                uint64_t sh = state_hash(s, ns);
                if (optional && !s->plain &&
                    memo_has(s, s->bits_hash ^ sh, ns))
                    continue;
                set_op(s, op);
                if (memo_seen(s, g, bh ^ sh, ns, op)) {
                    clear_op(s, op);
                    continue;
                }
                s->stack[s->depth++] =
                    (struct frame){entry, i, (uint32_t)k, s->state};
                s->state = ns;
                s->bits_hash = bh;
                s->req_lo = s->key_lo;
                lift(s, entry);
                note_best(s);
                moved = true;
                break;
            }
            si = 0;
            if (moved && m->doomed && !s->plain && future_doomed(s))
                goto back;
            if (moved) {
                entry = s->nxt[0];
                phase_b = false;
            } else {
                s->ci++;
            }
            continue;
        }
    back:
        /* No candidate left: undo frames until one has an alternative
         * left; forced frames have none. */
        for (;;) {
            if (s->depth == 0) {
                s->done = 2;
                break;
            }
            struct frame f = s->stack[--s->depth];
            uint32_t op = s->nop[f.call];
            clear_op(s, op);
            if (s->lim[op] != END && op < s->req_lo)
                s->req_lo = op;
            s->bits_hash ^= s->zob[op];
            s->state = f.before;
            unlift(s, f.call);
            if (f.nsucc == 0)
                continue;
            phase_b = true;
            build_cand(s);
            while (s->ci < s->ncand && s->cand[s->ci] != f.call)
                s->ci++;
            RAVEL__CHECK(s->ci < s->ncand);
            if (f.succ + 1 < f.nsucc) {
                si = f.succ + 1;
            } else {
                s->ci++;
                si = 0;
            }
            break;
        }
    }
    s->entry = entry;
    s->resume_succ = si;
    s->phase_b = phase_b;
    g->steps += steps;
    return s->done < 0 ? -1 : 0;
}

/* ---- explanation ------------------------------------------------------- */

static int explain(struct search *s, struct ravel__lin_result *r)
{
    const struct ravel__lin_history *h = s->h;
    uint32_t n = s->n;
    bool *done = calloc((size_t)n + 1, 1);
    r->part_ops = malloc(((size_t)n + 1) * sizeof *r->part_ops);
    r->prefix = malloc(((size_t)s->best + 1) * sizeof *r->prefix);
    r->prefix_states = malloc(((size_t)s->best + 1) * sizeof(uint64_t));
    r->stuck = malloc(((size_t)n + 1) * sizeof *r->stuck);
    r->stuck_kind = malloc((size_t)n + 1);
    if (!done || !r->part_ops || !r->prefix || !r->prefix_states ||
        !r->stuck || !r->stuck_kind) {
        free(done);
        return -1;
    }
    memcpy(r->part_ops, s->gop, n * sizeof *s->gop);
    r->npart_ops = n;
    r->initial_state = s->m->init(s->self);
    uint64_t st = r->initial_state;
    for (uint32_t i = 0; i < s->best; i++) {
        r->prefix[i] = s->gop[s->best_ops[i]];
        r->prefix_states[i] = s->best_states[i];
        done[s->best_ops[i]] = true;
        st = s->best_states[i];
    }
    r->nprefix = s->best;
    uint64_t min_ret = RAVEL__LIN_NEVER;
    uint32_t dl = RAVEL__LIN_V_NONE;
    for (uint32_t i = 0; i < n; i++) {
        const struct ravel__lin_op *o = &h->ops[s->gop[i]];
        if (!done[i] && o->ret < min_ret) {
            min_ret = o->ret;
            dl = s->gop[i];
        }
    }
    r->deadline_op = dl;
    r->nstuck = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct ravel__lin_op *o = &h->ops[s->gop[i]];
        if (done[i] || o->call > min_ret || o->ret == RAVEL__LIN_NEVER)
            continue;
        s->next.n = 0;
        int k = s->m->step(s->self, st, s->gop[i], &s->next);
        if (k < 0) {
            free(done);
            return -1;
        }
        r->stuck[r->nstuck] = s->gop[i];
        r->stuck_kind[r->nstuck++] =
            k == 0 ? RAVEL__LIN_REJECTED : RAVEL__LIN_DEAD_END;
    }
    free(done);
    return 0;
}

/* ---- partitions and the driver ------------------------------------------ */

struct keyop {
    uint32_t key, op;
};

static int cmp_keyop(const void *a, const void *b)
{
    const struct keyop *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

/* First round's budget per partition; doubled every round, so a
 * partition that needs B steps costs at most ~2B, and a failing
 * partition is found within about (partitions x its own steps). */
#define FIRST_BUDGET 1024u
/* The deadline is checked between budgets and at least this often: at
 * 10-50 ns a step (bench/lin.py), every millisecond or so, which keeps
 * --timeout precise without a clock read per step. */
#define CLOCK_EVERY 65536u

int ravel__lin_check(const struct ravel__lin_history *h,
                     const struct ravel__lin_model *m, void *self,
                     const struct ravel__lin_options *o,
                     struct ravel__lin_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->part_key = RAVEL__LIN_V_NONE;
    r->deadline_op = RAVEL__LIN_V_NONE;
    double t0 = ravel__now();
    struct global g = {0};
    g.memo_limit = o && o->max_memory ? o->max_memory
                                      : RAVEL__LIN_DEFAULT_MEMORY;
    bool by_key = o && o->by_key;
    bool partition = (m->partition || by_key) && !(o && o->no_partition);
    bool all_keys = o && o->all_keys;
    bool want_explain = !(o && o->no_explain);
    uint32_t n = h->nops;

    /* Group operations by partition key, keeping call order inside. */
    struct keyop *ko = malloc(((size_t)n + 1) * sizeof *ko);
    if (!ko) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        ko[i] = (struct keyop){!partition ? 0
                               : by_key   ? h->ops[i].key
                                          : m->partition(self, i),
                               i};
    if (partition)
        qsort(ko, n, sizeof *ko, cmp_keyop);
    uint32_t nparts = 0;
    for (uint32_t i = 0; i < n; i++)
        if (i == 0 || ko[i].key != ko[i - 1].key)
            nparts++;
    struct search *ss = calloc((size_t)nparts + 1, sizeof *ss);
    uint32_t *keys = calloc((size_t)nparts + 1, sizeof *keys);
    uint32_t *local = calloc((size_t)n + 1, sizeof *local);
    if (!ss || !keys || !local) {
        free(ko);
        free(ss);
        free(keys);
        free(local);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    uint32_t built = 0;
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i;
        while (j < n && ko[j].key == ko[i].key)
            j++;
        uint32_t *gop = malloc((size_t)(j - i) * sizeof *gop);
        if (!gop) {
            rc = -1;
            break;
        }
        for (uint32_t k = i; k < j; k++)
            gop[k - i] = ko[k].op;
        keys[built] = partition ? ko[i].key : RAVEL__LIN_V_NONE;
        if (search_init(&ss[built], h, m, self, gop, j - i, local,
                        want_explain, o && o->no_prune, built + 1) != 0) {
            built++;
            rc = -1;
            break;
        }
        built++;
        i = j;
    }
    free(ko);
    if (rc != 0) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    r->nparts = nparts;
    r->keys = calloc((size_t)nparts + 1, sizeof *r->keys);
    r->key_verdict = calloc((size_t)nparts + 1, 1);
    r->key_ops = calloc((size_t)nparts + 1, sizeof *r->key_ops);
    if (!r->keys || !r->key_verdict || !r->key_ops) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto out;
    }
    r->verdict = RAVEL__LIN_OK;
    double deadline = o && o->timeout > 0 ? t0 + o->timeout : 0;
    uint64_t budget = FIRST_BUDGET;
    uint32_t live = nparts;
    int failed = -1;
    while (live > 0 && (failed < 0 || all_keys)) {
        for (uint32_t p = 0; p < nparts && (failed < 0 || all_keys); p++) {
            struct search *s = &ss[p];
            if (s->done)
                continue;
            uint64_t left = budget;
            while (left > 0 && !s->done) {
                uint64_t chunk = left < CLOCK_EVERY ? left : CLOCK_EVERY;
                if (o && o->max_steps && g.steps + chunk > o->max_steps)
                    chunk = o->max_steps > g.steps ? o->max_steps - g.steps
                                                   : 0;
                if (chunk == 0) {
                    r->verdict = RAVEL__LIN_UNKNOWN;
                    r->unknown_why = "step limit";
                    goto finished;
                }
                if (search_run(s, &g, chunk) != 0) {
                    snprintf(err, errlen, "out of memory in the model");
                    rc = -1;
                    goto out;
                }
                left -= chunk;
                if (deadline && !s->done && ravel__now() > deadline) {
                    r->verdict = RAVEL__LIN_UNKNOWN;
                    r->unknown_why = "timeout";
                    goto finished;
                }
            }
            if (s->done == 2 && failed < 0)
                failed = (int)p;
            if (s->done)
                live--;
        }
        budget *= 2;
    }
finished:
    /* A failure found is certain, even when a budget stopped the rest. */
    if (failed >= 0) {
        r->verdict = RAVEL__LIN_FAIL;
        r->part_key = keys[failed];
        if (want_explain && explain(&ss[failed], r) != 0) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            goto out;
        }
    }
    for (uint32_t p = 0; p < nparts; p++) {
        r->keys[p] = keys[p];
        r->key_ops[p] = ss[p].n;
        r->key_verdict[p] = ss[p].done == 1   ? RAVEL__LIN_OK
                            : ss[p].done == 2 ? RAVEL__LIN_FAIL
                                              : RAVEL__LIN_UNKNOWN;
    }
    if (r->verdict == RAVEL__LIN_UNKNOWN) {
        /* Say how far the search got where it got least far. */
        r->unknown_key = RAVEL__LIN_V_NONE;
        double worst = 2;
        for (uint32_t p = 0; p < nparts; p++) {
            if (ss[p].done)
                continue;
            double f = (double)ss[p].best_depth / (ss[p].n ? ss[p].n : 1);
            if (f < worst) {
                worst = f;
                r->unknown_key = keys[p];
                r->unknown_best = ss[p].best_depth;
                r->unknown_ops = ss[p].n;
            }
        }
    }
    r->steps = g.steps;
    r->memo_entries = g.memo_entries;
    r->memo_bytes = g.memo_bytes;
    r->memo_full = g.memo_full;
    r->seconds = ravel__now() - t0;
out:
    for (uint32_t p = 0; p < built; p++)
        search_free(&ss[p]);
    free(ss);
    free(keys);
    free(local);
    if (rc != 0)
        ravel__lin_result_free(r);
    return rc;
}

void ravel__lin_result_free(struct ravel__lin_result *r)
{
    free(r->part_ops);
    free(r->prefix);
    free(r->prefix_states);
    free(r->stuck);
    free(r->stuck_kind);
    r->part_ops = r->prefix = r->stuck = NULL;
    r->prefix_states = NULL;
    r->stuck_kind = NULL;
    free(r->keys);
    free(r->key_verdict);
    free(r->key_ops);
    r->keys = r->key_ops = NULL;
    r->key_verdict = NULL;
    r->npart_ops = r->nprefix = r->nstuck = 0;
}
