/*
 * oracle_test.c - the checker against brute force on random histories.
 *
 * For every built-in model, thousands of small random histories (up to 8
 * operations on up to 3 processes, some never returning, some with
 * unknown outputs) are decided twice: by ravel__lin_check, and by an
 * oracle that tries every order of the operations that respects
 * real-time order, leaving out any subset of the never-returned ones,
 * and runs each order against a reference implementation of the object
 * written here from scratch (not the model's step function). The two
 * must agree on every history, so the oracle checks the search and its
 * prunings and the models' semantics at once. The checker runs three
 * ways: as it is, without partitioning by key, and without its prunings
 * (--no-prune).
 *
 * Histories are generated so both verdicts are common: outputs come from
 * running the reference object along a random linearization, and then
 * some are changed. The test also insists that each model saw enough of
 * both verdicts and of never-returned operations, so it cannot pass by
 * generating only easy cases. The seed is printed; RAVEL_ORACLE_SEED
 * repeats a run.
 */
#include "check.h"

#include "../common/prng.h"

#include "../../tests/check.h"

#include <stdlib.h>

/* Brute force is factorial: 8 operations keep the worst history at a few
 * milliseconds, and 5000 histories per model keep the test around a
 * second (ten under the sanitizers). The one real bug it has caught so
 * far (kv states shared across keys without partitioning) showed up
 * within the first twenty histories. */
#define MAXN 8
#define HISTORIES 5000

enum kind {
    K_READ, K_WRITE, K_CAS,          /* register, cas-register */
    K_GET, K_PUT, K_APPEND,          /* kv */
    K_ADD, K_READC,                  /* counter */
    K_SADD, K_SREM, K_SREAD,         /* set */
    K_PUSH, K_TAKE,                  /* queue, stack, unordered-queue */
    K_ACQ, K_REL,                    /* mutex */
    K_TXN,                           /* multi-register */
};

/* A test operation: what the reference object sees. */
struct top {
    enum kind k;
    int key;      /* kv: 0 or 1 */
    int a, b;     /* inputs: value / cas from,to / element / amount */
    bool known;   /* output known */
    int out;      /* int output; -1: nil/empty; bool 0/1; set bitmask */
    char s[64];   /* kv: string output (get) or input (put/append) */
    /* multi-register: nm micro-operations, each a write (mw) or read of
     * register mk with value mv (-1: nil, which a read always may be) */
    int nm, mw[3], mk[3], mv[3];
    uint64_t call, ret;
};

/* Reference state, big enough for every model. */
struct rs {
    int reg;           /* -1: nil */
    char str[2][64];   /* kv values by key */
    int64_t counter;
    unsigned set;      /* bitmask of elements 0..3 */
    int items[MAXN];   /* queue/stack/bag contents */
    int nitems;
    bool held;         /* mutex */
    int mreg[2];       /* multi-register, -1: unset */
};

enum mkind {
    M_REG, M_CAS, M_KV, M_COUNTER, M_SET, M_QUEUE, M_STACK, M_BAG, M_MUTEX,
    M_TXN
};
static const char *const mname[] = {
    "register", "cas-register",    "kv",    "counter",       "set",
    "queue",    "stack", "unordered-queue", "mutex", "multi-register"};

/*
 * The reference step: fills up to MAXN+1 successor states and returns
 * how many (0: the output is impossible here). Written from the usual
 * sequential specifications, independently of models.c.
 */
static int ref_step(enum mkind mk, const struct rs *s, const struct top *o,
                    struct rs *next)
{
    struct rs t = *s;
    switch (o->k) {
    case K_READ:
        if (o->known && o->out != s->reg)
            return 0;
        break;
    case K_WRITE:
        t.reg = o->a;
        break;
    case K_CAS:
        if (s->reg == o->a) {
            if (o->known && !o->out)
                return 0;
            t.reg = o->b;
        } else if (o->known && o->out) {
            return 0;
        }
        break;
    case K_GET:
        if (o->known && strcmp(o->s, s->str[o->key]))
            return 0;
        break;
    case K_PUT:
        snprintf(t.str[o->key], sizeof t.str[o->key], "%s", o->s);
        break;
    case K_APPEND:
        if (strlen(s->str[o->key]) + strlen(o->s) >= sizeof t.str[0])
            return 0; /* never happens with MAXN short appends */
        strcat(t.str[o->key], o->s);
        break;
    case K_ADD:
        t.counter += o->a;
        break;
    case K_READC:
        if (o->known && o->out != s->counter)
            return 0;
        break;
    case K_SADD:
    case K_SREM: {
        bool present = s->set >> o->a & 1;
        bool changes = o->k == K_SADD ? !present : present;
        if (o->known && o->out != (int)changes)
            return 0;
        if (o->k == K_SADD)
            t.set |= 1u << o->a;
        else
            t.set &= ~(1u << o->a);
        break;
    }
    case K_SREAD:
        if (o->known && (unsigned)o->out != s->set)
            return 0;
        break;
    case K_PUSH:
        t.items[t.nitems++] = o->a;
        break;
    case K_ACQ:
    case K_REL:
        /* acquire needs the lock free, release needs it held */
        if (s->held != (o->k == K_REL))
            return 0;
        t.held = o->k == K_ACQ;
        break;
    case K_TXN:
        /* micro-operations in order; reads see earlier writes */
        for (int i = 0; i < o->nm; i++) {
            if (o->mw[i])
                t.mreg[o->mk[i]] = o->mv[i];
            else if (o->known && o->mv[i] != -1 &&
                     o->mv[i] != t.mreg[o->mk[i]])
                return 0;
        }
        break;
    case K_TAKE:
        if (s->nitems == 0) {
            if (o->known && o->out != -1)
                return 0;
            break;
        }
        if (o->known && o->out == -1)
            return 0;
        if (mk == M_BAG) {
            int n = 0;
            for (int i = 0; i < s->nitems; i++) {
                bool dup = false;
                for (int j = 0; j < i; j++)
                    dup |= s->items[j] == s->items[i];
                if (dup || (o->known && s->items[i] != o->out))
                    continue;
                next[n] = *s;
                next[n].items[i] = next[n].items[--next[n].nitems];
                n++;
            }
            return n;
        }
        {
            int at = mk == M_QUEUE ? 0 : s->nitems - 1;
            if (o->known && s->items[at] != o->out)
                return 0;
            for (int i = at; i + 1 < s->nitems; i++)
                t.items[i] = t.items[i + 1];
            t.nitems--;
        }
        break;
    }
    next[0] = t;
    return 1;
}

/* Brute force: some order of the remaining operations works. */
static bool oracle(enum mkind mk, const struct top *ops, int n,
                   const struct rs *s, unsigned done)
{
    bool all = true;
    for (int i = 0; i < n; i++)
        if (!(done >> i & 1) && ops[i].ret != RAVEL__LIN_NEVER)
            all = false;
    if (all)
        return true;
    for (int i = 0; i < n; i++) {
        if (done >> i & 1)
            continue;
        bool minimal = true;
        for (int j = 0; j < n; j++)
            if (!(done >> j & 1) && j != i && ops[j].ret < ops[i].call)
                minimal = false;
        if (!minimal)
            continue;
        struct rs next[MAXN + 1];
        int k = ref_step(mk, s, &ops[i], next);
        for (int x = 0; x < k; x++)
            if (oracle(mk, ops, n, &next[x], done | 1u << i))
                return true;
    }
    return false;
}

/* A random operation of model mk with inputs only. */
static void random_op(enum mkind mk, struct ravel__prng *r, struct top *o)
{
    memset(o, 0, sizeof *o);
    unsigned c = (unsigned)ravel__prng_below(r, 3);
    static const char *const pieces[] = {"a", "b", "ab"};
    switch (mk) {
    case M_REG:
    case M_CAS:
        o->k = mk == M_CAS ? (enum kind)c : c == 2 ? K_WRITE : (enum kind)c;
        o->a = (int)ravel__prng_below(r, 3);
        o->b = (int)ravel__prng_below(r, 3);
        break;
    case M_KV:
        o->k = (enum kind)(K_GET + c);
        o->key = (int)ravel__prng_below(r, 2);
        snprintf(o->s, sizeof o->s, "%s", pieces[ravel__prng_below(r, 3)]);
        break;
    case M_COUNTER:
        o->k = c == 0 ? K_READC : K_ADD;
        o->a = (int)ravel__prng_below(r, 3) - 1;
        break;
    case M_SET:
        o->k = (enum kind)(K_SADD + c);
        o->a = (int)ravel__prng_below(r, 3);
        break;
    case M_MUTEX:
        o->k = ravel__prng_below(r, 2) ? K_ACQ : K_REL;
        break;
    case M_TXN:
        o->k = K_TXN;
        o->nm = 1 + (int)ravel__prng_below(r, 3);
        for (int i = 0; i < o->nm; i++) {
            o->mw[i] = (int)ravel__prng_below(r, 2);
            o->mk[i] = (int)ravel__prng_below(r, 2);
            o->mv[i] = o->mw[i] ? (int)ravel__prng_below(r, 3) : -1;
        }
        break;
    default:
        o->k = c == 0 ? K_PUSH : c == 1 ? K_TAKE
                                        : (ravel__prng_below(r, 2) ? K_PUSH
                                                                   : K_TAKE);
        o->a = (int)ravel__prng_below(r, 3);
        break;
    }
}

/* The output the reference object gives for o in state s (and the state
 * after it, for a deterministic pick among successors). */
static void fill_output(enum mkind mk, struct rs *s, struct top *o,
                        struct ravel__prng *r)
{
    o->known = true;
    switch (o->k) {
    case K_READ: o->out = s->reg; break;
    case K_CAS: o->out = s->reg == o->a; break;
    case K_GET: snprintf(o->s, sizeof o->s, "%s", s->str[o->key]); break;
    case K_READC: o->out = (int)s->counter; break;
    case K_SADD: o->out = !(s->set >> o->a & 1); break;
    case K_SREM: o->out = (int)(s->set >> o->a & 1); break;
    case K_SREAD: o->out = (int)s->set; break;
    case K_TAKE:
        if (s->nitems == 0)
            o->out = -1;
        else if (mk == M_QUEUE)
            o->out = s->items[0];
        else if (mk == M_STACK)
            o->out = s->items[s->nitems - 1];
        else
            o->out = s->items[ravel__prng_below(r, (uint64_t)s->nitems)];
        break;
    case K_TXN: {
        /* each read returns what the registers hold at that point */
        int regs[2] = {s->mreg[0], s->mreg[1]};
        for (int i = 0; i < o->nm; i++) {
            if (o->mw[i])
                regs[o->mk[i]] = o->mv[i];
            else
                o->mv[i] = regs[o->mk[i]];
        }
        break;
    }
    default: o->known = false; break; /* writes: output not used */
    }
    struct rs next[MAXN + 1];
    int k = ref_step(mk, s, o, next);
    if (k > 0)
        *s = next[0];
}

/* Builds the ravel history of ops. */
static void build(enum mkind mk, const struct top *ops, int n,
                  struct ravel__lin_history *h)
{
    struct ravel__lin_values *vs = &h->vals;
    static const char *const fnames[] = {
        "read", "write", "cas", "get", "put", "append", "add", "read",
        "add", "remove", "read", NULL, NULL, "acquire", "release", "txn"};
    char err[256];
    for (int i = 0; i < n; i++) {
        const struct top *o = &ops[i];
        const char *fn = fnames[o->k];
        if (o->k == K_PUSH)
            fn = mk == M_STACK ? "push" : "enqueue";
        if (o->k == K_TAKE)
            fn = mk == M_STACK ? "pop" : "dequeue";
        uint32_t f = ravel__lin_intern(vs, RAVEL__LIN_KEYWORD, 0, fn,
                                       strlen(fn), NULL, 0);
        uint32_t key = RAVEL__LIN_V_NONE, in = RAVEL__LIN_V_NIL,
                 out = RAVEL__LIN_V_NONE;
        switch (o->k) {
        case K_WRITE:
        case K_ADD:
        case K_SADD:
        case K_SREM:
        case K_PUSH:
            in = ravel__lin_int(vs, o->a);
            break;
        case K_CAS: {
            uint32_t pair[2] = {ravel__lin_int(vs, o->a),
                                ravel__lin_int(vs, o->b)};
            in = ravel__lin_intern(vs, RAVEL__LIN_VEC, 0, NULL, 0, pair, 2);
            break;
        }
        case K_PUT:
        case K_APPEND:
            in = ravel__lin_str(vs, o->s, strlen(o->s));
            break;
        default:
            break;
        }
        if (mk == M_KV)
            key = ravel__lin_int(vs, o->key);
        if (o->k == K_TXN) {
            /* in: reads of nil; out (when known): the values read */
            static const char *const regname[] = {"x", "y"};
            uint32_t mi[3], mo[3];
            for (int x = 0; x < o->nm; x++) {
                const char *fk = o->mw[x] ? (x % 2 ? "w" : "write")
                                          : (x % 2 ? "r" : "read");
                uint32_t t3[3] = {
                    ravel__lin_intern(vs, RAVEL__LIN_KEYWORD, 0, fk,
                                      strlen(fk), NULL, 0),
                    ravel__lin_intern(vs, RAVEL__LIN_KEYWORD, 0,
                                      regname[o->mk[x]], 1, NULL, 0),
                    o->mw[x] ? ravel__lin_int(vs, o->mv[x])
                             : RAVEL__LIN_V_NIL};
                mi[x] = ravel__lin_intern(vs, RAVEL__LIN_VEC, 0, NULL, 0, t3,
                                          3);
                if (!o->mw[x] && o->mv[x] >= 0)
                    t3[2] = ravel__lin_int(vs, o->mv[x]);
                mo[x] = ravel__lin_intern(vs, RAVEL__LIN_VEC, 0, NULL, 0, t3,
                                          3);
            }
            in = ravel__lin_intern(vs, RAVEL__LIN_VEC, 0, NULL, 0, mi,
                                   (uint32_t)o->nm);
            if (o->known && o->ret != RAVEL__LIN_NEVER)
                out = ravel__lin_intern(vs, RAVEL__LIN_VEC, 0, NULL, 0, mo,
                                        (uint32_t)o->nm);
        }
        if (o->known && o->ret != RAVEL__LIN_NEVER) {
            switch (o->k) {
            case K_READ:
                out = o->out < 0 ? RAVEL__LIN_V_NIL
                                 : ravel__lin_int(vs, o->out);
                break;
            case K_CAS:
            case K_SADD:
            case K_SREM:
                out = o->out ? RAVEL__LIN_V_TRUE : RAVEL__LIN_V_FALSE;
                break;
            case K_GET:
                out = ravel__lin_str(vs, o->s, strlen(o->s));
                break;
            case K_READC:
                out = ravel__lin_int(vs, o->out);
                break;
            case K_SREAD: {
                uint32_t el[4], ne = 0;
                for (int e = 0; e < 4; e++)
                    if (o->out >> e & 1)
                        el[ne++] = ravel__lin_int(vs, e);
                out = ravel__lin_intern(vs, RAVEL__LIN_SET, 0, NULL, 0, el,
                                        ne);
                break;
            }
            case K_TAKE:
                out = o->out < 0 ? ravel__lin_intern(vs, RAVEL__LIN_KEYWORD,
                                                     0, "empty", 5, NULL, 0)
                                 : ravel__lin_int(vs, o->out);
                break;
            default:
                break;
            }
        }
        uint32_t proc = ravel__lin_int(vs, i % 3);
        int rc = ravel__lin_add_op(h, proc, f, key, in, out, o->call, o->ret,
                                   (uint32_t)i + 1, err, sizeof err);
        CHECK_EQ(rc, 0);
    }
    CHECK_EQ(ravel__lin_finish(h, err, sizeof err), 0);
}

static uint64_t seed_from_env(void)
{
    const char *e = getenv("RAVEL_ORACLE_SEED");
    uint64_t s;
    if (e && ravel__parse_u64(e, &s) == 0)
        return s;
    return (uint64_t)(ravel__now() * 1e6);
}

/* Runs one model's histories; returns counts through the pointers. */
static void run_model(enum mkind mk, uint64_t seed)
{
    struct ravel__prng r;
    ravel__prng_seed(&r, seed, (uint64_t)mk);
    const struct ravel__lin_model *m = ravel__lin_model_find(mname[mk]);
    CHECK(m != NULL);
    if (!m)
        return;
    int yes = 0, no = 0, with_never = 0, disagree = 0;
    for (int it = 0; it < HISTORIES; it++) {
        int n = 1 + (int)ravel__prng_below(&r, MAXN);
        struct top ops[MAXN];
        /* Intervals: random times in [0, 3n), some never return. */
        uint64_t point[MAXN];
        for (int i = 0; i < n; i++) {
            random_op(mk, &r, &ops[i]);
            uint64_t a = ravel__prng_below(&r, 3 * (uint64_t)n);
            uint64_t b = a + 1 + ravel__prng_below(&r, 1 + (uint64_t)n);
            ops[i].call = a;
            ops[i].ret = ravel__prng_below(&r, 6) == 0 ? RAVEL__LIN_NEVER : b;
            /* A linearization point inside the interval (the never-
             * returned ones may take effect late, or be left out). */
            uint64_t end = ops[i].ret == RAVEL__LIN_NEVER ? a + 2 * n : b;
            point[i] = a * 2 + 1 + 2 * ravel__prng_below(&r, end - a);
        }
        /* Outputs from the reference object along the points' order. */
        int order[MAXN];
        for (int i = 0; i < n; i++)
            order[i] = i;
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && point[order[j - 1]] > point[order[j]];
                 j--) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        struct rs st;
        memset(&st, 0, sizeof st);
        st.reg = -1;
        st.mreg[0] = st.mreg[1] = -1;
        for (int i = 0; i < n; i++) {
            struct top *o = &ops[order[i]];
            if (o->ret == RAVEL__LIN_NEVER && ravel__prng_below(&r, 2))
                continue; /* never took effect */
            fill_output(mk, &st, o, &r);
        }
        bool never = false;
        for (int i = 0; i < n; i++) {
            if (ops[i].ret == RAVEL__LIN_NEVER) {
                ops[i].known = false;
                never = true;
            } else if (ravel__prng_below(&r, 10) == 0) {
                ops[i].known = false; /* output lost */
            }
        }
        /* Corrupt one known output half of the time. */
        int tries = ravel__prng_below(&r, 2) ? 4 : 0;
        for (int t = 0; t < tries; t++) {
            struct top *o = &ops[ravel__prng_below(&r, (uint64_t)n)];
            if (o->k == K_TXN && o->known) {
                /* a read that saw another value */
                for (int x = 0; x < o->nm; x++)
                    if (!o->mw[x]) {
                        o->mv[x] = (o->mv[x] + 2) % 4 - 1;
                        tries = 0;
                        break;
                    }
            } else if (o->k == K_ACQ || o->k == K_REL) {
                tries = 0; /* no outputs: the order alone decides */
            } else if (o->known) {
                tries = 0;
                if (o->k == K_GET)
                    snprintf(o->s, sizeof o->s, "%s",
                             ravel__prng_below(&r, 2) ? "b" : "ba");
                else if (o->k == K_CAS || o->k == K_SADD || o->k == K_SREM)
                    o->out = !o->out;
                else if (o->k == K_SREAD)
                    o->out ^= 1 << ravel__prng_below(&r, 3);
                else
                    o->out = (int)ravel__prng_below(&r, 4) - 1;
            }
        }
        struct rs s0;
        memset(&s0, 0, sizeof s0);
        s0.reg = -1;
        s0.mreg[0] = s0.mreg[1] = -1;
        bool want = oracle(mk, ops, n, &s0, 0);
        struct ravel__lin_history h;
        CHECK_EQ(ravel__lin_history_init(&h), 0);
        build(mk, ops, n, &h);
        void *self = NULL;
        char err[256];
        CHECK_EQ(m->open(&self, &h, NULL, err, sizeof err), 0);
        for (int variant = 0; variant < 3 && self; variant++) {
            struct ravel__lin_options opt = {0};
            opt.no_partition = variant == 1;
            opt.no_prune = variant == 2;
            struct ravel__lin_result res;
            CHECK_EQ(ravel__lin_check(&h, m, self, &opt, &res, err,
                                      sizeof err),
                     0);
            bool got = res.verdict == RAVEL__LIN_OK;
            CHECK(res.verdict != RAVEL__LIN_UNKNOWN);
            if (got != want && disagree++ < 3) {
                printf("# %s seed %llu history %d: oracle %d checker %d\n",
                       mname[mk], (unsigned long long)seed, it, want, got);
                for (int i = 0; i < n; i++)
                    printf("#   op %d kind %d key %d a %d b %d known %d out "
                           "%d s '%s' [%llu, %lld]\n",
                           i, ops[i].k, ops[i].key, ops[i].a, ops[i].b,
                           ops[i].known, ops[i].out, ops[i].s,
                           (unsigned long long)ops[i].call,
                           ops[i].ret == RAVEL__LIN_NEVER
                               ? -1LL
                               : (long long)ops[i].ret);
            }
            /* A failing verdict explains itself with a real prefix. */
            if (res.verdict == RAVEL__LIN_FAIL) {
                CHECK(res.nprefix < res.npart_ops);
                CHECK(res.deadline_op != RAVEL__LIN_V_NONE);
            }
            ravel__lin_result_free(&res);
        }
        if (self)
            m->close(self);
        ravel__lin_history_free(&h);
        yes += want;
        no += !want;
        with_never += never;
    }
    CHECK_EQ(disagree, 0);
    /* Both verdicts and never-returned operations must be common. */
    CHECK(yes >= HISTORIES / 10);
    CHECK(no >= HISTORIES / 10);
    CHECK(with_never >= HISTORIES / 10);
    printf("# %-16s %d linearizable, %d not, %d with never-returned ops\n",
           mname[mk], yes, no, with_never);
}

static uint64_t seed;

CHECK_TEST(register_agrees) { run_model(M_REG, seed); }
CHECK_TEST(cas_register_agrees) { run_model(M_CAS, seed); }
CHECK_TEST(kv_agrees) { run_model(M_KV, seed); }
CHECK_TEST(counter_agrees) { run_model(M_COUNTER, seed); }
CHECK_TEST(set_agrees) { run_model(M_SET, seed); }
CHECK_TEST(queue_agrees) { run_model(M_QUEUE, seed); }
CHECK_TEST(stack_agrees) { run_model(M_STACK, seed); }
CHECK_TEST(unordered_queue_agrees) { run_model(M_BAG, seed); }
CHECK_TEST(mutex_agrees) { run_model(M_MUTEX, seed); }
CHECK_TEST(multi_register_agrees) { run_model(M_TXN, seed); }

int main(void)
{
    seed = seed_from_env();
    printf("# seed %llu (RAVEL_ORACLE_SEED=%llu repeats this run)\n",
           (unsigned long long)seed, (unsigned long long)seed);
    return CHECK_RUN(register_agrees, cas_register_agrees, kv_agrees,
                     counter_agrees, set_agrees, queue_agrees, stack_agrees,
                     unordered_queue_agrees, mutex_agrees,
                     multi_register_agrees);
}
