/*
 * model_kv.c - the key/value model: get, put and append on string values,
 * checked key by key.
 *
 * The obvious state, the string itself, is what made this model slow:
 * every append the search tries would copy and hash a string that grows
 * to kilobytes. Instead a state is a node of a hash-consed rope:
 *
 *     node = (prev node, appended string)   or   (none, whole string)
 *
 * with the string's length and a polynomial hash of its bytes kept in
 * the node, so an append is O(1) (h(s t) = h(s) B^|t| + h(t) mod 2^64)
 * and equal strings still get one node (interning by hash and length,
 * verified byte by byte when both match, so a hash collision costs time,
 * never a wrong answer).
 *
 * Whether a node spells a prefix of a get's output is answered by
 * walking the rope backwards and comparing each piece with the matching
 * bytes of the output; the walk stops at the first mismatch (for a wrong
 * order of appends that is the last piece) or at a node already known to
 * be a prefix (answers are cached), so it costs about one piece.
 *
 * A state of the model as a whole maps keys to nodes: a sorted list of
 * (key, node) pairs for the keys whose value is not the initial one,
 * interned like the nodes. Checked key by key (the default), every map
 * has at most one pair; checked all together (--no-partition), a state
 * says what every key holds, as the model requires.
 *
 * That prefix test also powers `doomed`: appends only lengthen a string,
 * so a get whose output does not start with the current string can never
 * be satisfied again unless some put of the key writes a prefix of that
 * output. The checker uses this to abandon a configuration as soon as a
 * pending get becomes impossible, instead of at the get's return, which
 * for long-running gets is what kept the search busy.
 */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Odd multiplier of the polynomial hash (any large odd constant works;
 * this one is the 64-bit golden ratio). */
#define BASE 0x9e3779b97f4a7c15ULL
#define NONE UINT32_MAX

enum { KV_GET = 1, KV_PUT, KV_APPEND };

struct node {
    uint32_t prev; /* NONE for a whole string */
    uint32_t val;  /* value id of the piece */
    uint64_t len;
    uint64_t hash;
};

/* (node, string value) -> is the node's text a prefix of the value? */
struct pslot {
    uint32_t node; /* node + 1; 0 = empty */
    uint32_t val;
    bool yes;
};

struct map {
    uint32_t off, n; /* pairs[off .. off + 2n): key index, node */
    uint64_t hash;
};

struct kv {
    struct ravel__lin_history *h;
    uint8_t *code;
    uint32_t *kidx; /* per op: dense index of its key */
    struct map *maps;
    uint32_t nmaps, maps_cap;
    uint32_t *pairs;
    size_t npairs, pairs_cap;
    uint32_t *mtable; /* map + 1 by hash */
    uint32_t mtable_cap;
    uint32_t *scratch;
    size_t scratch_cap;
    uint32_t init_node;
    uint64_t *phash, *ppow; /* per op: hash and B^len of its input */
    uint32_t **resetters;   /* per get: puts writing a prefix of its output,
                               NONE-terminated; NULL: none */
    struct node *nodes;
    uint32_t nnodes, nodes_cap;
    uint32_t *table; /* node + 1 by (hash, len) */
    uint32_t table_cap;
    struct pslot *pc;
    uint32_t pc_n, pc_cap;
    struct tslot {
        uint64_t state;
        uint32_t op; /* op + 1, 0 = empty */
        uint32_t next;
    } *tc; /* (map, op) -> next map */
    uint32_t tc_n, tc_cap;
    uint32_t init;
    char *buf; /* scratch for materialising */
    size_t buf_cap;
};

static const char *text(const struct kv *m, uint32_t v)
{
    return ravel__lin_vtext(&m->h->vals, v);
}

static uint64_t vlen(const struct kv *m, uint32_t v)
{
    return ravel__lin_vget(&m->h->vals, v)->len;
}

static void hash_of(const char *s, uint64_t n, uint64_t *hash, uint64_t *pw)
{
    uint64_t x = 0, p = 1;
    for (uint64_t i = 0; i < n; i++) {
        x = x * BASE + (unsigned char)s[i] + 1;
        p *= BASE;
    }
    *hash = x;
    *pw = p;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t x = a * 0xff51afd7ed558ccdULL ^ (b + 0x9e3779b97f4a7c15ULL);
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 29);
}

/* ---- is a node a prefix of a string value? ------------------------------ */

static int pc_find(struct kv *m, uint32_t node, uint32_t val)
{
    if (!m->pc_cap)
        return -1;
    uint32_t j = (uint32_t)mix(node, val) & (m->pc_cap - 1);
    for (; m->pc[j].node; j = (j + 1) & (m->pc_cap - 1))
        if (m->pc[j].node == node + 1 && m->pc[j].val == val)
            return m->pc[j].yes;
    return -1;
}

static void pc_put(struct kv *m, uint32_t node, uint32_t val, bool yes)
{
    if ((m->pc_n + 1) * 2 > m->pc_cap) {
        uint32_t cap = m->pc_cap ? m->pc_cap * 2 : 1024;
        struct pslot *np = calloc(cap, sizeof *np);
        if (!np)
            return; /* a cache: not growing only costs time */
        for (uint32_t i = 0; i < m->pc_cap; i++) {
            if (!m->pc[i].node)
                continue;
            uint32_t j =
                (uint32_t)mix(m->pc[i].node - 1, m->pc[i].val) & (cap - 1);
            while (np[j].node)
                j = (j + 1) & (cap - 1);
            np[j] = m->pc[i];
        }
        free(m->pc);
        m->pc = np;
        m->pc_cap = cap;
    }
    uint32_t j = (uint32_t)mix(node, val) & (m->pc_cap - 1);
    while (m->pc[j].node)
        j = (j + 1) & (m->pc_cap - 1);
    m->pc[j] = (struct pslot){node + 1, val, yes};
    m->pc_n++;
}

static bool is_prefix(struct kv *m, uint32_t node, uint32_t val)
{
    const char *o = text(m, val);
    uint64_t olen = vlen(m, val);
    if (m->nodes[node].len > olen)
        return false;
    int c = pc_find(m, node, val);
    if (c >= 0)
        return c;
    bool yes = true;
    for (uint32_t x = node; x != NONE; x = m->nodes[x].prev) {
        const struct node *nd = &m->nodes[x];
        if (x != node && (c = pc_find(m, x, val)) >= 0) {
            yes = c;
            break;
        }
        uint64_t pl = vlen(m, nd->val);
        if (memcmp(text(m, nd->val), o + (nd->len - pl), pl) != 0) {
            yes = false;
            break;
        }
    }
    pc_put(m, node, val, yes);
    return yes;
}

/* ---- nodes ------------------------------------------------------------- */

/* Writes the node's text into m->buf; returns its length or -1. */
static int64_t materialise(struct kv *m, uint32_t node)
{
    uint64_t len = m->nodes[node].len;
    if (len + 1 > m->buf_cap) {
        size_t cap = m->buf_cap ? m->buf_cap : 256;
        while (cap < len + 1)
            cap *= 2;
        char *nb = realloc(m->buf, cap);
        if (!nb)
            return -1;
        m->buf = nb;
        m->buf_cap = cap;
    }
    for (uint32_t x = node; x != NONE; x = m->nodes[x].prev) {
        const struct node *nd = &m->nodes[x];
        uint64_t pl = vlen(m, nd->val);
        memcpy(m->buf + (nd->len - pl), text(m, nd->val), pl);
    }
    m->buf[len] = 0;
    return (int64_t)len;
}

/* True if nodes a and b spell the same string (same hash and length). */
static bool same_text(struct kv *m, uint32_t a, uint32_t b)
{
    if (m->nodes[a].prev == m->nodes[b].prev &&
        m->nodes[a].val == m->nodes[b].val)
        return true;
    int64_t n = materialise(m, a);
    if (n < 0)
        return false; /* out of memory: treat as different (costs time) */
    /* Walk b backwards against a's bytes. */
    for (uint32_t x = b; x != NONE; x = m->nodes[x].prev) {
        const struct node *nd = &m->nodes[x];
        uint64_t pl = vlen(m, nd->val);
        if (memcmp(text(m, nd->val), m->buf + (nd->len - pl), pl) != 0)
            return false;
    }
    return true;
}

/* Interns (prev, val) with the given length and hash; NONE when out of
 * memory. */
static uint32_t node_get(struct kv *m, uint32_t prev, uint32_t val,
                         uint64_t len, uint64_t hash)
{
    if (m->nnodes == m->nodes_cap) {
        if (m->nodes_cap >= RAVEL__LIN_MAX_VALUES)
            return NONE;
        uint32_t cap = m->nodes_cap ? m->nodes_cap * 2 : 1024;
        struct node *nn = realloc(m->nodes, cap * sizeof *nn);
        if (!nn)
            return NONE;
        m->nodes = nn;
        m->nodes_cap = cap;
    }
    if ((m->nnodes + 1) * 2 > m->table_cap) {
        uint32_t cap = m->table_cap ? m->table_cap * 2 : 1024;
        uint32_t *nt = calloc(cap, sizeof *nt);
        if (!nt)
            return NONE;
        for (uint32_t i = 0; i < m->nnodes; i++) {
            uint32_t j = (uint32_t)mix(m->nodes[i].hash, m->nodes[i].len) &
                         (cap - 1);
            while (nt[j])
                j = (j + 1) & (cap - 1);
            nt[j] = i + 1;
        }
        free(m->table);
        m->table = nt;
        m->table_cap = cap;
    }
    /* Tentatively add, then look for an equal one. */
    uint32_t id = m->nnodes;
    m->nodes[id] = (struct node){prev, val, len, hash};
    uint32_t j = (uint32_t)mix(hash, len) & (m->table_cap - 1);
    for (; m->table[j]; j = (j + 1) & (m->table_cap - 1)) {
        uint32_t c = m->table[j] - 1;
        if (m->nodes[c].hash == hash && m->nodes[c].len == len &&
            same_text(m, c, id))
            return c;
    }
    m->table[j] = id + 1;
    m->nnodes++;
    return id;
}

static uint32_t leaf(struct kv *m, uint32_t val)
{
    uint64_t hsh, pw;
    hash_of(text(m, val), vlen(m, val), &hsh, &pw);
    return node_get(m, NONE, val, vlen(m, val), hsh);
}

static bool tc_get(struct kv *m, uint64_t state, uint32_t op, uint32_t *out)
{
    if (!m->tc_cap)
        return false;
    uint32_t j = (uint32_t)mix(state, op) & (m->tc_cap - 1);
    for (; m->tc[j].op; j = (j + 1) & (m->tc_cap - 1))
        if (m->tc[j].state == state && m->tc[j].op == op + 1) {
            *out = m->tc[j].next;
            return true;
        }
    return false;
}

static void tc_put(struct kv *m, uint64_t state, uint32_t op, uint32_t next)
{
    if ((m->tc_n + 1) * 2 > m->tc_cap) {
        uint32_t cap = m->tc_cap ? m->tc_cap * 2 : 1024;
        struct tslot *nt = calloc(cap, sizeof *nt);
        if (!nt)
            return;
        for (uint32_t i = 0; i < m->tc_cap; i++) {
            if (!m->tc[i].op)
                continue;
            uint32_t j =
                (uint32_t)mix(m->tc[i].state, m->tc[i].op - 1) & (cap - 1);
            while (nt[j].op)
                j = (j + 1) & (cap - 1);
            nt[j] = m->tc[i];
        }
        free(m->tc);
        m->tc = nt;
        m->tc_cap = cap;
    }
    uint32_t j = (uint32_t)mix(state, op) & (m->tc_cap - 1);
    while (m->tc[j].op)
        j = (j + 1) & (m->tc_cap - 1);
    m->tc[j] = (struct tslot){state, op + 1, next};
    m->tc_n++;
}

/* ---- maps from keys to nodes -------------------------------------------- */

static uint64_t pairs_hash(const uint32_t *p, uint32_t n)
{
    uint64_t x = 0x2545f4914f6cdd1dULL ^ n;
    for (uint32_t i = 0; i < 2 * n; i++)
        x = mix(x, p[i]);
    return x;
}

/* Interns the map with n (key, node) pairs p (sorted by key); NONE when
 * out of memory. */
static uint32_t map_get(struct kv *m, const uint32_t *p, uint32_t n)
{
    uint64_t hsh = pairs_hash(p, n);
    if (m->mtable_cap) {
        uint32_t j = (uint32_t)hsh & (m->mtable_cap - 1);
        for (; m->mtable[j]; j = (j + 1) & (m->mtable_cap - 1)) {
            const struct map *c = &m->maps[m->mtable[j] - 1];
            if (c->hash == hsh && c->n == n &&
                (n == 0 ||
                 !memcmp(m->pairs + c->off, p, 2 * (size_t)n * sizeof *p)))
                return m->mtable[j] - 1;
        }
    }
    if (m->nmaps >= RAVEL__LIN_MAX_VALUES)
        return NONE;
    if (m->nmaps == m->maps_cap) {
        uint32_t cap = m->maps_cap ? m->maps_cap * 2 : 1024;
        struct map *nm = realloc(m->maps, cap * sizeof *nm);
        if (!nm)
            return NONE;
        m->maps = nm;
        m->maps_cap = cap;
    }
    if (m->npairs + 2 * (size_t)n > m->pairs_cap) {
        size_t cap = m->pairs_cap ? m->pairs_cap : 4096;
        while (cap < m->npairs + 2 * (size_t)n)
            cap *= 2;
        uint32_t *np = realloc(m->pairs, cap * sizeof *np);
        if (!np)
            return NONE;
        m->pairs = np;
        m->pairs_cap = cap;
    }
    if ((m->nmaps + 1) * 2 > m->mtable_cap) {
        uint32_t cap = m->mtable_cap ? m->mtable_cap * 2 : 1024;
        uint32_t *nt = calloc(cap, sizeof *nt);
        if (!nt)
            return NONE;
        for (uint32_t i = 0; i < m->nmaps; i++) {
            uint32_t j = (uint32_t)m->maps[i].hash & (cap - 1);
            while (nt[j])
                j = (j + 1) & (cap - 1);
            nt[j] = i + 1;
        }
        free(m->mtable);
        m->mtable = nt;
        m->mtable_cap = cap;
    }
    uint32_t id = m->nmaps++;
    m->maps[id] = (struct map){(uint32_t)m->npairs, n, hsh};
    if (n)
        memcpy(m->pairs + m->npairs, p, 2 * (size_t)n * sizeof *p);
    m->npairs += 2 * (size_t)n;
    uint32_t j = (uint32_t)hsh & (m->mtable_cap - 1);
    while (m->mtable[j])
        j = (j + 1) & (m->mtable_cap - 1);
    m->mtable[j] = id + 1;
    return id;
}

/* The node key k holds in map s. */
static uint32_t map_lookup(const struct kv *m, uint32_t s, uint32_t k)
{
    const struct map *mp = &m->maps[s];
    const uint32_t *p = m->pairs + mp->off;
    uint32_t lo = 0, hi = mp->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p[2 * mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < mp->n && p[2 * lo] == k ? p[2 * lo + 1] : m->init_node;
}

/* Map s with key k set to node; NONE when out of memory. */
static uint32_t map_set(struct kv *m, uint32_t s, uint32_t k, uint32_t node)
{
    uint32_t n = m->maps[s].n;
    if (2 * ((size_t)n + 1) > m->scratch_cap) {
        size_t cap = 2 * ((size_t)n + 1) + 16;
        uint32_t *ns = realloc(m->scratch, cap * sizeof *ns);
        if (!ns)
            return NONE;
        m->scratch = ns;
        m->scratch_cap = cap;
    }
    const uint32_t *p = m->pairs + m->maps[s].off;
    uint32_t *q = m->scratch, nq = 0;
    bool placed = false;
    for (uint32_t i = 0; i < n; i++) {
        if (!placed && p[2 * i] >= k) {
            if (node != m->init_node) {
                q[2 * nq] = k;
                q[2 * nq++ + 1] = node;
            }
            placed = true;
            if (p[2 * i] == k)
                continue;
        }
        q[2 * nq] = p[2 * i];
        q[2 * nq++ + 1] = p[2 * i + 1];
    }
    if (!placed && node != m->init_node) {
        q[2 * nq] = k;
        q[2 * nq++ + 1] = node;
    }
    return map_get(m, q, nq);
}

/* ---- the model --------------------------------------------------------- */

static void kv_close(void *self)
{
    struct kv *m = self;
    if (!m)
        return;
    free(m->code);
    free(m->kidx);
    free(m->maps);
    free(m->pairs);
    free(m->mtable);
    free(m->scratch);
    free(m->phash);
    free(m->ppow);
    if (m->resetters)
        for (uint32_t i = 0; i < m->h->nops; i++)
            free(m->resetters[i]);
    free(m->resetters);
    free(m->nodes);
    free(m->table);
    free(m->pc);
    free(m->tc);
    free(m->buf);
    free(m);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int fail(struct kv *m, char *err, size_t errlen, uint32_t line,
                const char *msg)
{
    if (line)
        snprintf(err, errlen, "line %u: %s", line, msg);
    else
        snprintf(err, errlen, "%s", msg);
    kv_close(m);
    return -1;
}

static int kv_open(void **self, struct ravel__lin_history *h,
                   const struct ravel__lin_params *p, char *err, size_t errlen)
{
    static const char *const names[] = {"get", "put", "append", NULL};
    struct kv *m = calloc(1, sizeof *m);
    if (!m)
        return fail(m, err, errlen, 0, "out of memory");
    m->h = h;
    size_t n = (size_t)h->nops + 1;
    m->code = calloc(n, 1);
    m->phash = calloc(n, sizeof *m->phash);
    m->ppow = calloc(n, sizeof *m->ppow);
    m->resetters = calloc(n, sizeof *m->resetters);
    /* The pairs arena exists from the start: an empty map points into
     * it (arithmetic on a NULL pointer is undefined). */
    m->pairs_cap = 4096;
    m->pairs = malloc(m->pairs_cap * sizeof *m->pairs);
    if (!m->code || !m->phash || !m->ppow || !m->resetters || !m->pairs)
        return fail(m, err, errlen, 0, "out of memory");
    for (uint32_t i = 0; i < h->nops; i++) {
        const struct ravel__lin_op *o = &h->ops[i];
        for (int k = 0; names[k]; k++)
            if (ravel__lin_vis_name(&h->vals, o->f, names[k]))
                m->code[i] = (uint8_t)(k + 1);
        if (!m->code[i]) {
            struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
            ravel__sb_add(&sb, "model kv has no operation ");
            ravel__lin_vprint(&h->vals, o->f, &sb, 40);
            ravel__sb_add(&sb, " (it has :get, :put, :append)");
            char msg[200];
            snprintf(msg, sizeof msg, "%s", ravel__sb_str(&sb));
            ravel__sb_free(&sb);
            return fail(m, err, errlen, o->call_line, msg);
        }
        if (o->key == RAVEL__LIN_V_NONE)
            return fail(m, err, errlen, o->call_line,
                        "kv operation without a :key");
        if (m->code[i] != KV_GET &&
            ravel__lin_vget(&h->vals, o->in)->kind != RAVEL__LIN_STR)
            return fail(m, err, errlen, o->call_line,
                        "kv put and append take a string value");
        if (m->code[i] == KV_GET && o->out != RAVEL__LIN_V_NONE &&
            ravel__lin_vget(&h->vals, o->out)->kind != RAVEL__LIN_STR)
            return fail(m, err, errlen, o->ret_line ? o->ret_line
                                                    : o->call_line,
                        "a kv get returns a string");
        if (m->code[i] == KV_APPEND)
            hash_of(text(m, o->in), vlen(m, o->in), &m->phash[i],
                    &m->ppow[i]);
    }
    /* Dense key indices, in order of first appearance (keys are value
     * ids, so a sort of (key, op) pairs groups them). */
    m->kidx = calloc(n, sizeof *m->kidx);
    uint64_t *ko = malloc(n * sizeof *ko);
    if (!m->kidx || !ko) {
        free(ko);
        return fail(m, err, errlen, 0, "out of memory");
    }
    for (uint32_t i = 0; i < h->nops; i++)
        ko[i] = (uint64_t)h->ops[i].key << 32 | i;
    qsort(ko, h->nops, sizeof *ko, cmp_u64);
    uint32_t nk = 0;
    for (uint32_t i = 0; i < h->nops; i++) {
        if (i && (ko[i] >> 32) != (ko[i - 1] >> 32))
            nk++;
        m->kidx[(uint32_t)ko[i]] = nk;
    }
    free(ko);
    uint32_t init = ravel__lin_str(&h->vals, "", 0);
    if (init == RAVEL__LIN_V_NONE)
        return fail(m, err, errlen, 0, "out of memory");
    if (p && p->init) {
        char e[200];
        init = ravel__lin_parse_value(h, p->init, e, sizeof e);
        if (init == RAVEL__LIN_V_NONE) {
            char msg[240];
            snprintf(msg, sizeof msg, "--init: %s", e);
            return fail(m, err, errlen, 0, msg);
        }
        if (ravel__lin_vget(&h->vals, init)->kind != RAVEL__LIN_STR)
            return fail(m, err, errlen, 0,
                        "--init: the kv model's initial value must be a "
                        "string");
    }
    m->init_node = leaf(m, init);
    m->init = m->init_node == NONE ? NONE : map_get(m, NULL, 0);
    if (m->init == NONE)
        return fail(m, err, errlen, 0, "out of memory");
    /*
     * The puts that could start each get's output afresh (they write a
     * prefix of it). Checking all pairs is quadratic; past this many
     * pairs a get lists every put of the history, which only weakens the
     * pruning (it needs all of them done).
     */
    const uint64_t max_pairs = 20000000;
    uint64_t gets = 0, puts = 0;
    for (uint32_t i = 0; i < h->nops; i++) {
        gets += m->code[i] == KV_GET;
        puts += m->code[i] == KV_PUT;
    }
    uint32_t *tmp = malloc(((size_t)puts + 1) * sizeof *tmp);
    uint32_t *put = malloc(((size_t)puts + 1) * sizeof *put);
    if (!tmp || !put) {
        free(tmp);
        free(put);
        return fail(m, err, errlen, 0, "out of memory");
    }
    uint32_t np = 0;
    for (uint32_t j = 0; j < h->nops; j++)
        if (m->code[j] == KV_PUT)
            put[np++] = j;
    for (uint32_t i = 0; i < h->nops; i++) {
        const struct ravel__lin_op *g = &h->ops[i];
        if (m->code[i] != KV_GET || g->out == RAVEL__LIN_V_NONE)
            continue;
        uint32_t k = 0;
        for (uint32_t pi = 0; pi < np; pi++) {
            uint32_t j = put[pi];
            const struct ravel__lin_op *q = &h->ops[j];
            uint64_t ql = vlen(m, q->in);
            if (gets * puts > max_pairs ||
                (q->key == g->key && ql <= vlen(m, g->out) &&
                 !memcmp(text(m, q->in), text(m, g->out), ql)))
                tmp[k++] = j;
        }
        if (!k)
            continue;
        m->resetters[i] = malloc(((size_t)k + 1) * sizeof **m->resetters);
        if (!m->resetters[i]) {
            free(tmp);
            free(put);
            return fail(m, err, errlen, 0, "out of memory");
        }
        memcpy(m->resetters[i], tmp, k * sizeof *tmp);
        m->resetters[i][k] = NONE;
    }
    free(tmp);
    free(put);
    *self = m;
    return 0;
}

static uint64_t kv_init(void *self)
{
    return ((struct kv *)self)->init;
}

static int kv_step(void *self, uint64_t state, uint32_t op,
                   struct ravel__lin_next *next)
{
    struct kv *m = self;
    const struct ravel__lin_op *o = &m->h->ops[op];
    uint32_t s = (uint32_t)state, to;
    if (m->code[op] == KV_GET) {
        uint32_t nd = map_lookup(m, s, m->kidx[op]);
        if (o->out != RAVEL__LIN_V_NONE &&
            (m->nodes[nd].len != vlen(m, o->out) ||
             !is_prefix(m, nd, o->out)))
            return 0;
        return ravel__lin_next_add(next, s) ? -1 : 1;
    }
    if (!tc_get(m, state, op, &to)) {
        uint32_t nd = map_lookup(m, s, m->kidx[op]);
        if (m->code[op] == KV_PUT) {
            nd = leaf(m, o->in);
        } else {
            const struct node *x = &m->nodes[nd];
            nd = node_get(m, nd, o->in, x->len + vlen(m, o->in),
                          x->hash * m->ppow[op] + m->phash[op]);
        }
        to = nd == NONE ? NONE : map_set(m, s, m->kidx[op], nd);
        if (to == NONE)
            return -1;
        tc_put(m, state, op, to);
    }
    return ravel__lin_next_add(next, to) ? -1 : 1;
}

static bool kv_doomed(void *self, uint64_t state, uint32_t op,
                      bool (*done)(const void *ctx, uint32_t op),
                      const void *ctx)
{
    struct kv *m = self;
    const struct ravel__lin_op *o = &m->h->ops[op];
    if (m->code[op] != KV_GET || o->out == RAVEL__LIN_V_NONE)
        return false;
    if (is_prefix(m, map_lookup(m, (uint32_t)state, m->kidx[op]), o->out))
        return false;
    if (m->resetters[op])
        for (const uint32_t *p = m->resetters[op]; *p != NONE; p++)
            if (!done(ctx, *p) && m->h->ops[*p].call <= o->ret)
                return false;
    return true;
}

static bool kv_ro(void *self, uint32_t op)
{
    return ((struct kv *)self)->code[op] == KV_GET;
}

static uint32_t kv_key(void *self, uint32_t op)
{
    return ((struct kv *)self)->h->ops[op].key;
}

static void describe_node(struct kv *m, uint32_t node,
                          struct ravel__strbuf *sb)
{
    int64_t n = materialise(m, node);
    uint32_t v = n < 0 ? NONE : ravel__lin_str(&m->h->vals, m->buf, (size_t)n);
    ravel__lin_vprint(&m->h->vals, v, sb, 60);
}

/* A map with one key prints as that key's value (what a partition
 * holds); otherwise as {key value, ...} with unlisted keys initial. */
static void kv_describe(void *self, uint64_t state, struct ravel__strbuf *sb)
{
    struct kv *m = self;
    const struct map *mp = &m->maps[(uint32_t)state];
    if (mp->n == 0) {
        describe_node(m, m->init_node, sb);
        return;
    }
    if (mp->n == 1) {
        describe_node(m, m->pairs[mp->off + 1], sb);
        return;
    }
    ravel__sb_addc(sb, '{');
    for (uint32_t i = 0; i < mp->n; i++) {
        uint32_t k = m->pairs[mp->off + 2 * i];
        uint32_t node = m->pairs[mp->off + 2 * i + 1];
        if (i)
            ravel__sb_add(sb, ", ");
        /* The key's value id: any op with that index has it. */
        for (uint32_t op = 0; op < m->h->nops; op++)
            if (m->kidx[op] == k) {
                ravel__lin_vprint(&m->h->vals, m->h->ops[op].key, sb, 20);
                break;
            }
        ravel__sb_addc(sb, ' ');
        describe_node(m, node, sb);
    }
    ravel__sb_addc(sb, '}');
}

const struct ravel__lin_model ravel__lin_model_kv = {
    "kv",
    "string values by :key (get, put, append); each key checked apart",
    kv_open,
    kv_close,
    kv_init,
    kv_step,
    NULL,
    NULL,
    kv_key,
    kv_describe,
    kv_ro,
    kv_doomed,
};
