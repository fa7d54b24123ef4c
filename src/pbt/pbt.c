/*
 * pbt.c - property-based testing of a C API against a sequential model
 * (QuickCheck's eqc_statem and eqc_par_statem run under ravel's
 * scheduler, as PULSE does; docs/pbt.md).
 *
 * A property program's main calls ravel_test_model(model). ravel re-runs
 * main once per execution, as it does for every program, so one
 * execution runs one test case under one schedule:
 *
 *     execution = (test case, schedule)
 *     test case = the values its generators drew (the choice stream)
 *     schedule  = the strategy's choices (a seeded random schedule, one
 *                 execution of a DPOR search of the case, or a schedule
 *                 recorded on a failing execution, followed again)
 *
 * Three parts, all in this file:
 *
 * The runner (inside the execution, in ravel_test_model): generates the
 * program (prefix, K branches) from the stream, sets up the system
 * under test, runs the prefix in thread 1 and each branch in a thread of
 * its own (created with pthread_create, so ravel schedules it), joins
 * them, tears the system down and returns. Every draw of a generator is a
 * data choice of the execution (ravel__choose_data): the values come
 * from the driver (the hook below), and they are recorded in the
 * execution like any other data choice, so a failing execution's replay
 * ticket holds the test case as well as the schedule, and `ravel replay`
 * regenerates the same case with no help from the driver.
 *
 * The judge (after the execution, outside it, in ravel__pbt_judge):
 * checks the prefix's results one by one against the model, and the
 * branches' history (call and return order as ravel ran them) with the
 * linearizability checker (src/lin/check.c) through a model adapter
 * whose states are the user's model states, interned. A wrong result is
 * recorded as the execution's failure (kind postcondition or
 * linearizability) before the executor classifies it.
 *
 * The driver (between executions, in ravel__pbt_next): decides what the
 * next execution runs. Testing: test case N gets fresh values from a
 * PRNG seeded by (seed, N) and one random schedule (--mode random), or
 * a DPOR exploration of all its interleavings (--mode exhaustive).
 * Failures of these executions are quiet (not reported). After a
 * failure, shrinking: candidates made from the failing stream (delete a
 * command, move a branch command to the prefix, fewer branches, smaller
 * values) are run, first following the failing schedule recorded on the
 * last accepted case, then under fresh random schedules (random mode)
 * or a DPOR exploration of the candidate (exhaustive); a candidate is
 * accepted only when one of its executions failed, and its schedule is
 * recorded. Last, the minimal case is run once more following its
 * recorded schedule (the FINAL execution): that one is reported, with
 * the counterexample in its output and a replay ticket. It fails by
 * construction, not by luck: the same case and schedule failed before.
 *
 * The driver's state and the execution's record live in memory shared
 * with the supervisor (struct pbt_shared). A crash or hang of a test
 * case kills the executor; while testing or shrinking the supervisor
 * does not report it but starts a new executor, which resumes the
 * driver (ravel__pbt_resume): the dead execution counts as a failure
 * like any other. Nothing the driver keeps is allocated inside an
 * execution (the program's heap blocks are freed when it is restored).
 *
 * The stream of one test case:
 *
 *     K | 1 cmd args.. 1 cmd args.. 0 | branch 1 .. 0 | branch 2 .. 0
 *       '------------ prefix ---------'
 *
 * "more" markers are 1 before each command and 0 at the end of each
 * section, drawn even when a section is full; a command's draws (its
 * marker, its index, its arguments) form a span the shrinker deletes
 * or moves as a whole.
 */
#include "../rt/rt.h"

#include "pbt.h"

#include "../../include/ravel.h"
#include "../common/prng.h"
#include "../common/strbuf.h"
#include "../explore/strategy.h"
#include "../lin/check.h"
#include "../lin/explain.h"
#include "../lin/model.h"
#include "../model/spin.h"
#include "../report/elf.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Capacities of one test case. Draws stay below the execution's data
 * choices (RAVEL__MAX_VCHOICES, 4096), leaving room for the program's
 * own. */
#define MAX_DRAWS 3000
#define MAX_CMDS 512
#define MAX_SPANS 1024
#define MAX_STATE 4096 /* bytes of a model state */
#define MAX_ARGS 256   /* bytes of a command's arguments */
#define MAX_K 4
/* Commands of a sequential test (K = 0), of the prefix of a parallel
 * one, and of each branch by K, unless the model or the options say
 * (--ops, --prefix): the branches' interleavings, the multinomial
 * (n1+..+nK)!/(n1!..nK!), stay small by default: 2 of 5: 252; 3 of 3:
 * 1,680; 4 of 2: 2,520. One branch alone runs like a prefix. Larger
 * shapes (4 x 8) are judged by the memoising linearizability checker and
 * their preconditions checked with a memo of (positions, state). */
#define SEQ_MAX 30
#define PREFIX_MAX 5
#define OPS_MAX 64 /* most calls per branch (--ops) */
static const uint32_t branch_max[MAX_K + 1] = {0, 8, 5, 3, 2};
/* Bytes of copied results (strings, bytes, user values) per test case. */
#define ARENA 65536
/* Distinct labels, collected values and coverage requirements: per test
 * case, and tabulated over the run. */
#define MAX_LABELS 32
#define MAX_TALLY 128
#define LABEL_LEN 64
/* Schedules tried per shrinking candidate in random mode: the recorded
 * one, then fresh random ones. PULSE found most of proc_reg's races
 * within a few random schedules of a minimal case; 20 keeps shrinking
 * under a few thousand executions for the examples. */
#define SHRINK_SCHEDULES 20
/* Executions of DPOR per test case or candidate (exhaustive mode);
 * past it the case counts as not completely explored. */
#define CASE_EXECUTIONS 20000
/* Executions spent shrinking at most (then the smallest so far is
 * reported). */
#define SHRINK_BUDGET 20000
/* Steps of a schedule kept to follow it again. */
#define MAX_SCHED 65536

/* ---- the record of one execution -------------------------------------- */

struct span {
    uint32_t start, end; /* draws [start, end) */
    uint8_t sec;         /* 0 prefix, 1..K branch */
    uint8_t is_cmd;      /* a command (else a list element) */
};

struct cmdrec {
    uint16_t cmd;     /* index into the model's commands */
    uint8_t sec;      /* 0 prefix, 1..K branch */
    uint8_t skipped;  /* precondition false: not in the program */
    uint8_t returned;
    uint8_t kind;     /* enum ravel_kind of the result */
    uint8_t rnull;    /* a NULL string, bytes or user value */
    uint32_t var;     /* $N, 0 when skipped */
    int64_t result;   /* RAVEL_INT, RAVEL_PTR */
    uint32_t off, len; /* other kinds: the copy in the arena */
    const struct ravel_type *type;
    uint64_t call, ret; /* logical times */
};

/* A label, collected value or coverage requirement met in a test case. */
enum { LAB_LABEL, LAB_COLLECT, LAB_COVER };
struct lab {
    uint8_t kind;
    uint8_t hit;    /* cover: cond was true at least once */
    double percent; /* cover: required */
    long value;     /* collect */
    uint64_t count; /* in the run's tally: test cases */
    char text[LABEL_LEN];
};

struct rec {
    const struct ravel_model *m;
    /* Counts and flags, zeroed for each test case (generate)... */
    uint32_t ndraws, nspans, ncmds, K;
    uint32_t term[MAX_K + 1]; /* draw that ended each section, or
                                 UINT32_MAX (ended by the attempt limit
                                 or the weights) */
    uint32_t nsec[MAX_K + 1];
    uint32_t nvars;
    uint32_t nactive, nparallel, nskipped;
    uint32_t gen_vchoices; /* data choices made by generating */
    char tname[MAX_K + 1][RAVEL__NAME_MAX];
    uint64_t clock;
    uint32_t arena_used;
    uint32_t nlabels;
    bool labels_full;
    void *sut;
    bool full;      /* a capacity was reached: lists stopped */
    bool generated; /* the program was generated completely */
    bool ran;       /* it ran to its end */
    /* ... and the arrays they count, each element written before it is
     * read (not zeroed: a test case costs less). */
    uint32_t vals[MAX_DRAWS];
    uint32_t bounds[MAX_DRAWS]; /* each draw's n */
    uint8_t isdata[MAX_DRAWS];  /* drawn by a generator for arguments */
    struct span spans[MAX_SPANS];
    struct cmdrec cmds[MAX_CMDS];
    unsigned char args[MAX_CMDS][MAX_ARGS];
    uint32_t order[MAX_K + 1][MAX_CMDS]; /* active commands by section */
    uint32_t var_cmd[MAX_CMDS + 1];
    unsigned char arena[ARENA];
    struct lab labels[MAX_LABELS];
};

/* ---- the driver's state ------------------------------------------------ */

enum phase { TEST, SHRINK, FINAL, DONE };

struct sched {
    uint32_t nsteps, nnames, nvals;
    char names[64][RAVEL__NAME_MAX];
    uint8_t step[MAX_SCHED];
    uint32_t vals[RAVEL__MAX_VCHOICES];
};

/* A test case kept across executions: its stream and its structure. */
struct kept {
    uint32_t n;
    uint32_t vals[MAX_DRAWS];
    uint32_t bounds[MAX_DRAWS];
    uint8_t isdata[MAX_DRAWS];
    uint32_t nspans;
    struct span spans[MAX_SPANS];
    uint32_t K, nactive, nparallel;
    uint32_t term[MAX_K + 1];
    uint32_t nsec[MAX_K + 1];
};

struct driver {
    bool init;
    bool replaying; /* `ravel replay`: values come from the ticket */
    enum phase phase;
    bool exhaustive;
    uint64_t seed;
    uint32_t tests, branches;
    uint32_t ops, prefix; /* most calls per branch, in the prefix (0:
                             by K, as branch_max and PREFIX_MAX say) */
    uint32_t test;
    uint64_t case_execs;
    /* The next execution's plan. */
    bool fresh;
    uint32_t nplan;
    uint32_t plan[MAX_DRAWS];
    uint32_t next_draw;
    struct ravel__prng prng; /* fresh values of the current test */
    double size;
    /* Shrinking. */
    struct kept best;
    struct sched best_sched;
    uint8_t fail_kind;
    uint32_t failed_test;
    uint32_t pass, idx, sub;
    uint32_t cand_tries;
    uint64_t shrink_execs, shrink_steps, shrink_tries;
    bool final_failed;
    /* Statistics (QuickCheck's tabulate). */
    uint64_t cmd_count[64];
    uint64_t skipped, parallel_calls, total_calls;
    uint64_t by_k[MAX_K + 1];
    uint64_t sizes[6]; /* 0, 1-2, 3-5, 6-10, 11-20, more */
    uint64_t cases_complete;
    uint32_t ntally;
    struct lab tally[MAX_TALLY]; /* value: test cases counted */
    bool tally_full;
    bool cover_failed;
    uint32_t passed;
    double time;  /* --time: seconds of testing (shrinking goes on) */
    bool stopped; /* --time ended testing before --tests */
};

/*
 * The record and the driver live in memory shared with the supervisor
 * (ravel__pbt_attach, before the executor is forked): when a test case
 * crashes the executor, the supervisor starts a new one, which resumes
 * the driver from them (ravel__pbt_resume) and goes on shrinking.
 */
struct pbt_shared {
    struct rec r;
    struct driver d;
};
static struct pbt_shared *shared_mem;
#define R (shared_mem->r)
#define D (shared_mem->d)

static size_t door_shared_size(void)
{
    return sizeof(struct pbt_shared);
}

static void door_attach(void *mem)
{
    shared_mem = mem;
}

/* Race-directed scheduling started the run over (supervisor.c): test
 * again from the first case with the same seed, now that the racing
 * accesses are scheduling points, so the tests can show what the race
 * breaks. */
static void door_start_over(void)
{
    if (shared_mem)
        memset(shared_mem, 0, sizeof *shared_mem);
}

/* The strategies the driver switches between (this executor's own). */
static struct ravel__strategy *s_random, *s_follow, *s_sys;

static bool pbt_active; /* the program tests a model */
static const struct ravel__door pbt_door;
static bool door_next(bool more);

/* ---- drawing from the stream ------------------------------------------- */

/* While the runner generates (not when replaying a ticket), the
 * door's choose callback answers data choices from the plan. */
static bool generating;
static uint32_t fresh_value;

static uint32_t hook(uint32_t n)
{
    uint32_t i = R.ndraws;
    if (i < D.nplan)
        return D.plan[i] % n;
    return D.fresh ? fresh_value % n : 0;
}

/* Set while a command's generator draws its arguments (and cleared for
 * a list's markers): those draws are data the shrinker may lower
 * together when equal (coupled values). */
static bool draw_data;

/* A value below n (>= 2), `fresh` proposed for a fresh draw. */
static uint32_t draw(uint32_t n, uint64_t fresh)
{
    if (n <= 1 || R.full)
        return 0;
    struct ravel__worker *w = ravel__controlled();
    if (!w || R.ndraws >= MAX_DRAWS) {
        R.full = true;
        return 0;
    }
    fresh_value = (uint32_t)(fresh % n);
    uint32_t v = ravel__choose_data(w, n);
    R.bounds[R.ndraws] = n;
    R.isdata[R.ndraws] = draw_data;
    R.vals[R.ndraws++] = v;
    return v;
}

static uint64_t rnd(void)
{
    return ravel__prng_next(&D.prng);
}

static bool more(double p)
{
    bool data = draw_data;
    draw_data = false;
    bool r = draw(2, (double)(rnd() >> 11) * 0x1p-53 < p) != 0;
    draw_data = data;
    return r;
}

/* Generators take a ravel_gen for the API's sake (and for later
 * per-generator state); everything they need is in R and D. */
struct ravel_gen {
    int unused;
};
static struct ravel_gen the_gen;

/* The value of [lo, hi] closest to 0, and offsets from it alternating
 * above and below, so that shrinking a draw toward 0 moves the value
 * toward 0. */
static int64_t decode(int64_t lo, int64_t hi, uint64_t v)
{
    int64_t t = lo > 0 ? lo : hi < 0 ? hi : 0;
    uint64_t up = (uint64_t)hi - (uint64_t)t;
    uint64_t down = (uint64_t)t - (uint64_t)lo;
    uint64_t m = up < down ? up : down;
    if (v <= 2 * m) {
        if (v & 1)
            return (int64_t)((uint64_t)t + (v + 1) / 2);
        return (int64_t)((uint64_t)t - v / 2);
    }
    uint64_t k = v - m;
    return up >= down ? (int64_t)((uint64_t)t + k)
                      : (int64_t)((uint64_t)t - k);
}

RAVEL__EXPORT int64_t ravel_gen_int(ravel_gen *g, int64_t lo, int64_t hi)
{
    (void)g;
    if (lo > hi) {
        int64_t tmp = lo;
        lo = hi;
        hi = tmp;
    }
    uint64_t bound = (uint64_t)hi - (uint64_t)lo + 1; /* 0: 2^64 */
    /* Half the fresh values near the simplest one, where the edge cases
     * (0, 1, -1, empty, full) are. */
    uint64_t small = bound && bound < 16 ? bound : 16;
    uint64_t f = rnd() & 1 ? rnd() % small : bound ? rnd() % bound : rnd();
    uint64_t v;
    if (bound && bound <= UINT32_MAX) {
        v = draw((uint32_t)bound, f);
    } else {
        v = (uint64_t)draw(UINT32_MAX, f >> 32) << 32;
        v |= draw(UINT32_MAX, f & 0xffffffffu);
        if (bound)
            v %= bound;
    }
    return decode(lo, hi, v);
}

RAVEL__EXPORT int ravel_gen_bool(ravel_gen *g)
{
    (void)g;
    return (int)draw(2, rnd() >> 63);
}

RAVEL__EXPORT size_t ravel_gen_element(ravel_gen *g, size_t n)
{
    (void)g;
    if (n <= 1)
        return 0;
    if (n > UINT32_MAX)
        n = UINT32_MAX;
    return draw((uint32_t)n, rnd() % n);
}

RAVEL__EXPORT size_t ravel_gen_frequency(ravel_gen *g,
                                         const unsigned *weights, size_t n)
{
    (void)g;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += weights[i];
    if (n <= 1 || total == 0)
        return 0;
    uint64_t r = rnd() % total, f = 0;
    while (f < n - 1 && r >= weights[f])
        r -= weights[f++];
    size_t v = draw((uint32_t)n, f);
    /* A shrunk value may name a zero weight: the nearest allowed element
     * below it, else above. */
    size_t k = v;
    while (k > 0 && weights[k] == 0)
        k--;
    while (k < n - 1 && weights[k] == 0)
        k++;
    return k;
}

static uint32_t span_begin(uint32_t start, uint8_t sec, uint8_t is_cmd)
{
    if (R.nspans >= MAX_SPANS) {
        R.full = true;
        return UINT32_MAX;
    }
    R.spans[R.nspans] = (struct span){start, start, sec, is_cmd};
    return R.nspans++;
}

static void span_end(uint32_t s)
{
    if (s != UINT32_MAX)
        R.spans[s].end = R.ndraws;
}

static uint8_t cur_sec;

RAVEL__EXPORT size_t ravel_gen_list(ravel_gen *g, void *out, size_t elem_size,
                                    size_t min, size_t max,
                                    void (*elem)(ravel_gen *g, void *element,
                                                 void *ctx),
                                    void *ctx)
{
    if (max < min)
        max = min;
    double mean = D.size * (double)(max - min) / 2;
    double p = mean / (mean + 1);
    size_t n = 0;
    for (;;) {
        uint32_t mark = R.ndraws;
        if (n >= min && (R.full || !more(n >= max ? 0 : p) || n >= max))
            break; /* a full list draws its end marker too */
        uint32_t s = span_begin(mark, cur_sec, 0);
        void *e = (char *)out + n * elem_size;
        memset(e, 0, elem_size);
        if (elem)
            elem(g, e, ctx);
        span_end(s);
        n++;
    }
    return n;
}

RAVEL__EXPORT ravel_var ravel_gen_var(ravel_gen *g, const ravel_var *vars,
                                      size_t n)
{
    if (n == 0)
        return 0;
    return vars[ravel_gen_element(g, n)];
}

RAVEL__EXPORT long ravel_var_value(ravel_var v)
{
    if (v == 0 || v > R.nvars)
        return 0;
    return (long)R.cmds[R.var_cmd[v]].result;
}

/* ---- commands: the function-pointer form and the table form ------------ */

/* Command ci of the model: its struct ravel_command, or (table form)
 * NULL and its struct ravel_op. Every call into the model goes through
 * the c_* functions below, which serve both forms. */
static const struct ravel_command *cmd_of(unsigned ci)
{
    return R.m->ops ? NULL : &R.m->commands[ci];
}

static const struct ravel_op *op_of(unsigned ci)
{
    return R.m->ops ? &R.m->ops[ci] : NULL;
}

static unsigned ncommands(const struct ravel_model *m)
{
    return m->ops ? m->nops : m->ncommands;
}

static const char *c_name(unsigned ci)
{
    return R.m->ops ? R.m->ops[ci].name : R.m->commands[ci].name;
}

static unsigned c_weight(unsigned ci, const void *st)
{
    const struct ravel_command *k = cmd_of(ci);
    if (!k)
        return ravel__pbt_op_weight(op_of(ci), st);
    return k->weight ? k->weight(st) : 1;
}

static void c_gen(unsigned ci, const void *st, void *args)
{
    const struct ravel_command *k = cmd_of(ci);
    draw_data = true;
    if (!k)
        ravel__pbt_op_gen(op_of(ci), &the_gen, st, args);
    else if (k->gen)
        k->gen(&the_gen, st, args);
    draw_data = false;
}

static bool has_pre(unsigned ci)
{
    const struct ravel_command *k = cmd_of(ci);
    if (!k) {
        const struct ravel_op *o = op_of(ci);
        if (o->pre)
            return true;
        for (int i = 0; i < RAVEL_MAX_OP_ARGS; i++)
            if (o->args[i].kind == RAVEL__ARG_VAR)
                return true;
        return false;
    }
    return k->pre != NULL;
}

static bool c_pre(unsigned ci, const void *st, const void *args)
{
    const struct ravel_command *k = cmd_of(ci);
    if (!k)
        return ravel__pbt_op_pre(op_of(ci), st, args) != 0;
    return !k->pre || k->pre(st, args);
}

/* The address of the command's run function (a report's frame). */
static uint64_t c_pc(unsigned ci)
{
    const struct ravel_command *k = cmd_of(ci);
    if (!k)
        return (uint64_t)(uintptr_t)op_of(ci)->run;
    return k->run_value ? (uint64_t)(uintptr_t)k->run_value
                        : (uint64_t)(uintptr_t)k->run;
}

static const void *args_of(uint32_t c)
{
    return R.args[c];
}

/* Copies a real result into the record (strings, bytes and user values
 * into the arena: the system under test may free them). */
static void store(uint32_t c, ravel_value v, const struct ravel_type *deft)
{
    struct cmdrec *cr = &R.cmds[c];
    cr->kind = (uint8_t)v.kind;
    cr->type = v.type ? v.type : deft;
    switch (v.kind) {
    case RAVEL_INT:
        cr->result = v.i;
        return;
    case RAVEL_PTR:
        cr->result = (int64_t)(uintptr_t)v.p;
        return;
    case RAVEL_STR:
    case RAVEL_BYTES:
    case RAVEL_USER:
        break;
    }
    if (!v.p) {
        cr->rnull = 1;
        return;
    }
    size_t len = v.kind == RAVEL_STR    ? strlen(v.p)
                 : v.kind == RAVEL_USER ? (cr->type ? cr->type->size : 0)
                                        : v.len;
    struct ravel__worker *w = ravel__controlled();
    if (len > RAVEL__PBT_MAX_RESULT && w)
        ravel__tool_error(w, "ravel_test_model: %s returned %zu bytes (at "
                             "most %d)",
                          c_name(cr->cmd), len, RAVEL__PBT_MAX_RESULT);
    if (R.arena_used + len + 1 > ARENA && w)
        ravel__tool_error(w, "ravel_test_model: the results of one test "
                             "case take more than %d bytes",
                          ARENA);
    if (len > RAVEL__PBT_MAX_RESULT || R.arena_used + len + 1 > ARENA)
        return;
    cr->off = R.arena_used;
    cr->len = (uint32_t)len;
    memcpy(R.arena + cr->off, v.p, len);
    R.arena[cr->off + len] = 0;
    R.arena_used += (uint32_t)len + 1;
}

/* The real result of call c, as a value (its data in the arena). */
static ravel_value stored(uint32_t c)
{
    const struct cmdrec *cr = &R.cmds[c];
    ravel_value v = {.kind = (enum ravel_kind)cr->kind, .type = cr->type};
    switch (v.kind) {
    case RAVEL_INT:
        v.i = (long)cr->result;
        break;
    case RAVEL_PTR:
        v.p = (const void *)(uintptr_t)cr->result;
        break;
    default:
        if (!cr->rnull) {
            v.p = R.arena + cr->off;
            v.len = cr->len;
        }
        break;
    }
    return v;
}

RAVEL__EXPORT ravel_value ravel_var_result(ravel_var v)
{
    if (v == 0 || v > R.nvars)
        return ravel_int(0);
    return stored(R.var_cmd[v]);
}

/* Runs call c (in the test's threads) and keeps its result. */
static void c_run(uint32_t c)
{
    unsigned ci = R.cmds[c].cmd;
    const struct ravel_command *k = cmd_of(ci);
    if (!k) {
        const struct ravel_op *o = op_of(ci);
        store(c, o->run(R.sut, (const ravel_arg *)args_of(c)),
              o->result_type);
    } else if (k->run_value) {
        store(c, k->run_value(R.sut, args_of(c)), k->result_type);
    } else {
        long r = k->run(R.sut, args_of(c));
        R.cmds[c].kind = k->result == RAVEL_PTR ? RAVEL_PTR : RAVEL_INT;
        R.cmds[c].result = r;
    }
}

/* The model's step: updates st, returns the result it expects. */
static ravel_value c_next(uint32_t c, void *st)
{
    unsigned ci = R.cmds[c].cmd;
    const struct ravel_command *k = cmd_of(ci);
    ravel_var self = R.cmds[c].var;
    if (!k) {
        const struct ravel_op *o = op_of(ci);
        return o->next ? o->next(st, (const ravel_arg *)args_of(c), self)
                       : ravel_int(0);
    }
    if (k->next_value)
        return k->next_value(st, args_of(c), self);
    long e = k->next ? k->next(st, args_of(c), self) : 0;
    return k->result == RAVEL_PTR ? ravel_ptr((const void *)(uintptr_t)e)
                                  : ravel_int(e);
}

/* `expect` with a ravel_ref replaced by the result it names; false when
 * that call did not return (or there is none). */
static bool resolve(const ravel_value *expect, ravel_value *out)
{
    if (!expect->ref) {
        *out = *expect;
        return true;
    }
    if (expect->ref > R.nvars)
        return false;
    uint32_t c = R.var_cmd[expect->ref];
    if (!R.cmds[c].returned)
        return false;
    *out = stored(c);
    return true;
}

/* Is call c's real result right, the model being `before` before the
 * call and `expect` what its step returned? */
static bool c_ok(uint32_t c, const void *before, const ravel_value *expect)
{
    const struct cmdrec *cr = &R.cmds[c];
    const struct ravel_command *k = cmd_of(cr->cmd);
    if (!k && op_of(cr->cmd)->post)
        return op_of(cr->cmd)->post(before, (const ravel_arg *)args_of(c),
                                    stored(c)) != 0;
    if (k && k->post_value)
        return k->post_value(before, args_of(c), stored(c)) != 0;
    if (k && k->post)
        return k->post(before, args_of(c), (long)cr->result) != 0;
    if (cr->kind == RAVEL_INT && expect->kind == RAVEL_INT && !expect->ref)
        return expect->i == (long)cr->result;
    ravel_value e, r = stored(c);
    return resolve(expect, &e) && ravel__pbt_value_equal(&e, &r);
}

static bool c_has_post(uint32_t c)
{
    const struct ravel_command *k = cmd_of(R.cmds[c].cmd);
    if (!k)
        return op_of(R.cmds[c].cmd)->post != NULL;
    return k->post || k->post_value;
}

static void c_print(uint32_t c, char *buf, size_t size)
{
    unsigned ci = R.cmds[c].cmd;
    const struct ravel_command *k = cmd_of(ci);
    if (!k)
        ravel__pbt_op_print(op_of(ci), buf, size, args_of(c));
    else if (k->print)
        k->print(buf, size, args_of(c));
}

/* A pointer's name in reports: `new` for the first call (in variable
 * order) that returned it, `$k` for later ones, k being that first. */
static void ptr_name(const void *p, uint32_t self_var, char *buf, size_t n)
{
    for (uint32_t v = 1; v <= R.nvars; v++) {
        const struct cmdrec *o = &R.cmds[R.var_cmd[v]];
        if (o->returned && o->kind == RAVEL_PTR &&
            (const void *)(uintptr_t)o->result == p) {
            if (v == self_var)
                snprintf(buf, n, "new");
            else
                snprintf(buf, n, "$%u", v);
            return;
        }
    }
    snprintf(buf, n, "%p", p);
}

/* Appends value v (call self_var's result or a model's expectation). */
static void put_value(struct ravel__strbuf *sb, const ravel_value *v,
                      uint32_t self_var)
{
    char nm[32] = "";
    if (v->kind == RAVEL_PTR && v->p && !v->ref)
        ptr_name(v->p, self_var, nm, sizeof nm);
    ravel__pbt_value_print(sb, v, nm[0] ? nm : NULL);
}

/* ---- labels, collected values, coverage ---------------------------------- */

/* Notes one in this execution's record (once per kind, text and
 * value). Called from any of the model's callbacks, in or after the
 * execution; not a scheduling point. */
static void note_label(uint8_t kind, const char *text, long value, int hit,
                       double percent)
{
    if (!shared_mem || !pbt_active || !R.m || !text)
        return;
    for (uint32_t i = 0; i < R.nlabels; i++) {
        struct lab *l = &R.labels[i];
        if (l->kind == kind && l->value == value &&
            !strncmp(l->text, text, LABEL_LEN - 1)) {
            l->hit |= hit != 0;
            if (percent > l->percent)
                l->percent = percent;
            return;
        }
    }
    if (R.nlabels >= MAX_LABELS) {
        R.labels_full = true;
        return;
    }
    struct lab *l = &R.labels[R.nlabels++];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->value = value;
    l->hit = hit != 0;
    l->percent = percent;
    snprintf(l->text, sizeof l->text, "%s", text);
}

RAVEL__EXPORT void ravel_label(const char *label)
{
    note_label(LAB_LABEL, label, 0, 1, 0);
}

RAVEL__EXPORT void ravel_collect(const char *name, long value)
{
    note_label(LAB_COLLECT, name, value, 1, 0);
}

RAVEL__EXPORT void ravel_cover(int cond, double percent, const char *label)
{
    note_label(LAB_COVER, label, 0, cond != 0, percent);
}

/* Adds this test case's labels to the run's tally. */
static void tally_labels(void)
{
    for (uint32_t i = 0; i < R.nlabels; i++) {
        const struct lab *l = &R.labels[i];
        uint32_t j = 0;
        while (j < D.ntally &&
               !(D.tally[j].kind == l->kind && D.tally[j].value == l->value &&
                 !strcmp(D.tally[j].text, l->text)))
            j++;
        if (j == D.ntally) {
            if (D.ntally >= MAX_TALLY) {
                D.tally_full = true;
                continue;
            }
            D.tally[D.ntally++] = *l;
            D.tally[j].count = 0;
            D.tally[j].percent = 0;
        }
        if (l->kind != LAB_COVER || l->hit)
            D.tally[j].count++;
        if (l->percent > D.tally[j].percent)
            D.tally[j].percent = l->percent;
    }
    D.tally_full |= R.labels_full;
}

static int tally_cmp(const void *a, const void *b)
{
    const struct lab *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    int c = strcmp(x->text, y->text);
    if (c)
        return c;
    if (x->kind == LAB_COLLECT && x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return x->count > y->count ? -1 : x->count < y->count;
}

/* Appends the tally (labels by frequency, each collected quantity's
 * values, the coverage requirements) for nt test cases; returns whether
 * every coverage requirement was met. */
static bool put_tally(struct ravel__strbuf *sb, uint64_t nt)
{
    bool met = true;
    if (!D.ntally || !nt)
        return true;
    qsort(D.tally, D.ntally, sizeof *D.tally, tally_cmp);
    bool head = false;
    for (uint32_t i = 0; i < D.ntally; i++) {
        const struct lab *l = &D.tally[i];
        if (l->kind != LAB_LABEL)
            continue;
        if (!head)
            ravel__sb_printf(sb, "ravel: labels (share of %llu test "
                                 "cases):\n",
                             (unsigned long long)nt);
        head = true;
        ravel__sb_printf(sb, "  %5.1f%% %s\n",
                         100.0 * (double)l->count / (double)nt, l->text);
    }
    for (uint32_t i = 0; i < D.ntally; i++) {
        const struct lab *l = &D.tally[i];
        if (l->kind != LAB_COLLECT)
            continue;
        if (i == 0 || D.tally[i - 1].kind != LAB_COLLECT ||
            strcmp(D.tally[i - 1].text, l->text))
            ravel__sb_printf(sb, "ravel: collected %s (share of %llu test "
                                 "cases):",
                             l->text, (unsigned long long)nt);
        ravel__sb_printf(sb, " %ld: %.1f%%", l->value,
                         100.0 * (double)l->count / (double)nt);
        if (i + 1 == D.ntally || D.tally[i + 1].kind != LAB_COLLECT ||
            strcmp(D.tally[i + 1].text, l->text))
            ravel__sb_addc(sb, '\n');
    }
    for (uint32_t i = 0; i < D.ntally; i++) {
        const struct lab *l = &D.tally[i];
        if (l->kind != LAB_COVER)
            continue;
        double pct = 100.0 * (double)l->count / (double)nt;
        bool ok = pct >= l->percent;
        met &= ok;
        ravel__sb_printf(sb, "ravel: cover '%s': %.1f%% of %llu test cases, "
                             "%g%% required: %s\n",
                         l->text, pct, (unsigned long long)nt, l->percent,
                         ok ? "met" : "NOT MET");
    }
    if (D.tally_full)
        ravel__sb_printf(sb, "ravel: more than %d distinct labels in a test "
                             "case or %d in the run: the others were not "
                             "counted\n",
                         MAX_LABELS, MAX_TALLY);
    return met;
}

/* ---- model states: plain bytes, or the user's objects -------------------- */

/* A state is a pointer: into a buffer of the caller's (plain states,
 * copied as bytes) or to an object of the model's (state_copy set). The
 * st_* calls below handle both; `cur` is what the slot held (freed). */
static bool user_states(void)
{
    return R.m->state_copy != NULL;
}

static void st_free(void *cur, const unsigned char *buf)
{
    if (user_states() && cur && cur != (const void *)buf &&
        R.m->state_free)
        R.m->state_free(cur);
}

static void *st_copy(void *cur, unsigned char *buf, const void *src)
{
    if (!user_states()) {
        memcpy(buf, src, R.m->state_size);
        return buf;
    }
    st_free(cur, buf);
    return R.m->state_copy(src);
}

static void *st_init(void *cur, unsigned char *buf)
{
    if (!user_states()) {
        memset(buf, 0, R.m->state_size);
        if (R.m->init)
            R.m->init(buf);
        return buf;
    }
    st_free(cur, buf);
    return R.m->state_new ? R.m->state_new() : NULL;
}

/* ---- generating the program -------------------------------------------- */

#define IL_DEPTH (MAX_K * OPS_MAX + 2)
static unsigned char prefix_buf[MAX_STATE], gen_buf[MAX_STATE];
static void *prefix_st, *gen_st;
static unsigned char il_buf[IL_DEPTH][MAX_STATE];
static void *il_st[IL_DEPTH];

static bool model_has_pre(const struct ravel_model *m)
{
    for (unsigned i = 0; i < ncommands(m); i++)
        if (has_pre(i))
            return true;
    return false;
}

/*
 * The precondition check of large shapes (4 x 8 has 10^17 orders) is a
 * walk over positions with a memo of the (positions, state) pairs found
 * good: two 64-bit hashes of a plain state's bytes (a false match needs
 * both to collide, about 2^-128), stamped per check so that nothing is
 * cleared. User states (state_copy) are not memoised.
 */
#define IL_MEMO (1u << 16)
struct il_memo {
    uint32_t stamp, pos;
    uint64_t h1, h2;
};
static struct il_memo il_memo[IL_MEMO];
static uint32_t il_stamp, il_used;
static bool il_memoise;

static void il_hash(uint32_t pos, const void *st, uint64_t *h1, uint64_t *h2)
{
    const unsigned char *p = st;
    uint64_t a = 1469598103934665603ULL ^ pos, b = 0x9e3779b97f4a7c15ULL + pos;
    for (size_t i = 0; i < R.m->state_size; i++) {
        a = (a ^ p[i]) * 1099511628211ULL;
        b = (b + p[i]) * 0xff51afd7ed558ccdULL;
        b ^= b >> 29;
    }
    *h1 = a;
    *h2 = b;
}

/* Finds (or, with add, inserts) the pair; returns whether it was there. */
static bool il_seen(uint32_t pos, const void *st, bool add)
{
    uint64_t h1, h2;
    il_hash(pos, st, &h1, &h2);
    uint32_t j = (uint32_t)h1 & (IL_MEMO - 1);
    while (il_memo[j].stamp == il_stamp) {
        if (il_memo[j].pos == pos && il_memo[j].h1 == h1 &&
            il_memo[j].h2 == h2)
            return true;
        j = (j + 1) & (IL_MEMO - 1);
    }
    if (add && il_used < IL_MEMO / 4 * 3) {
        il_memo[j] = (struct il_memo){il_stamp, pos, h1, h2};
        il_used++;
    }
    return false;
}

/* Does every interleaving of the branches (from the state after the
 * prefix) satisfy every precondition? A depth-first walk over positions
 * in the branches. */
static bool il_ok(uint32_t *pos, uint32_t depth)
{
    uint32_t key = 0;
    if (il_memoise) {
        for (uint32_t b = 1; b <= R.K; b++)
            key = key << 7 | pos[b];
        if (il_seen(key, il_st[depth], false))
            return true;
    }
    for (uint32_t b = 1; b <= R.K; b++) {
        if (pos[b] >= R.nsec[b])
            continue;
        uint32_t c = R.order[b][pos[b]];
        il_st[depth + 1] =
            st_copy(il_st[depth + 1], il_buf[depth + 1], il_st[depth]);
        if (!c_pre(R.cmds[c].cmd, il_st[depth + 1], args_of(c)))
            return false;
        (void)c_next(c, il_st[depth + 1]);
        pos[b]++;
        bool ok = il_ok(pos, depth + 1);
        pos[b]--;
        if (!ok)
            return false;
    }
    if (il_memoise)
        il_seen(key, il_st[depth], true);
    return true;
}

static void il_release(void)
{
    for (uint32_t d = 0; d < IL_DEPTH; d++) {
        st_free(il_st[d], il_buf[d]);
        il_st[d] = NULL;
    }
}

/* Generates one section (the prefix, or branch `sec`) of at most `max`
 * commands from `st`, which it advances. */
static void gen_section(uint8_t sec, uint32_t max, void *st, double p,
                        bool check_il)
{
    const struct ravel_model *m = R.m;
    unsigned weights[64];
    unsigned ncmd = ncommands(m);
    uint32_t attempts = 0;
    cur_sec = sec;
    while (attempts++ < 3 * max + 3 && !R.full) {
        unsigned total = 0;
        for (unsigned i = 0; i < ncmd; i++) {
            weights[i] = c_weight(i, st);
            total += weights[i];
        }
        if (total == 0)
            break;
        /* A full section still draws its "more?" (fresh: no), and
         * ends whatever it says: every section ends with a marker, so
         * deleting a command of a full section does not pull the next
         * section's first command into it. */
        uint32_t mark = R.ndraws;
        bool at_max = R.nsec[sec] >= max;
        if (!more(at_max ? 0 : p) || at_max) {
            R.term[sec] = mark;
            return;
        }
        if (R.ncmds >= MAX_CMDS) {
            R.full = true;
            break;
        }
        uint32_t ci = (uint32_t)ravel_gen_frequency(&the_gen, weights, ncmd);
        uint32_t c = R.ncmds++;
        struct cmdrec *cr = &R.cmds[c];
        memset(cr, 0, sizeof *cr);
        cr->cmd = (uint16_t)ci;
        cr->sec = sec;
        memset(R.args[c], 0, MAX_ARGS);
        uint32_t s = span_begin(mark, sec, 1);
        c_gen(ci, st, R.args[c]);
        span_end(s);
        bool ok = c_pre(ci, st, R.args[c]);
        if (ok) {
            cr->var = ++R.nvars;
            R.var_cmd[cr->var] = c;
            R.order[sec][R.nsec[sec]++] = c;
        }
        if (ok && check_il) {
            uint32_t pos[MAX_K + 1] = {0};
            il_st[0] = st_copy(il_st[0], il_buf[0], prefix_st);
            il_stamp++;
            il_used = 0;
            ok = il_ok(pos, 0);
            if (!ok) {
                R.nsec[sec]--;
                R.nvars--;
            }
        }
        if (!ok) {
            cr->skipped = 1;
            cr->var = 0;
            R.nskipped++;
            continue;
        }
        (void)c_next(c, st);
    }
    R.term[sec] = UINT32_MAX;
}

/* The most calls of the prefix and of each branch of a case with K
 * branches. */
static uint32_t prefix_max(uint32_t K)
{
    return D.prefix ? D.prefix : K ? PREFIX_MAX : SEQ_MAX;
}

static uint32_t ops_max(uint32_t K)
{
    return D.ops ? D.ops : branch_max[K];
}

static void generate(void)
{
    const struct ravel_model *m = R.m;
    memset(&R.ndraws, 0, offsetof(struct rec, vals) -
                             offsetof(struct rec, ndraws));
    R.m = m;
    /* The number of branches is the stream's first draw, so that
     * shrinking can lower it and a ticket carries it. */
    R.K = draw(MAX_K + 1, D.branches);
    gen_st = st_init(NULL, gen_buf);
    uint32_t pmax = prefix_max(R.K);
    gen_section(0, pmax, gen_st, D.size * pmax / (D.size * pmax + 2),
                false);
    prefix_st = st_copy(NULL, prefix_buf, gen_st);
    bool check = model_has_pre(m);
    il_memoise = !user_states() && D.ops != 0;
    for (uint32_t b = 1; b <= R.K; b++) {
        gen_st = st_copy(gen_st, gen_buf, prefix_st);
        uint32_t bmax = ops_max(R.K);
        double mean = 1 + D.size * (bmax - 1);
        gen_section((uint8_t)b, bmax, gen_st, mean / (mean + 1), check);
    }
    st_free(gen_st, gen_buf);
    st_free(prefix_st, prefix_buf);
    gen_st = prefix_st = NULL;
    il_release();
    for (uint32_t s = 0; s <= R.K; s++)
        R.nactive += R.nsec[s];
    R.nparallel = R.nactive - R.nsec[0];
    R.gen_vchoices = ravel__rt.x->nvchoices;
    R.generated = true;
}

/* ---- running it -------------------------------------------------------- */

static void call(uint32_t c)
{
    /* Between two commands the runner records what it saw: the reads of
     * one command and the next are not one spin loop (src/model/spin.c). */
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__spin_forget(&ravel__rt.x->threads[w->slot]);
    R.cmds[c].call = ++R.clock;
    c_run(c);
    R.cmds[c].ret = ++R.clock;
    R.cmds[c].returned = 1;
}

static void *branch_main(void *arg)
{
    uint32_t b = (uint32_t)(uintptr_t)arg;
    struct ravel__worker *w = ravel__controlled();
    if (w)
        snprintf(R.tname[b], sizeof R.tname[b], "%s",
                 ravel__rt.x->threads[w->slot].name);
    for (uint32_t i = 0; i < R.nsec[b]; i++)
        call(R.order[b][i]);
    return NULL;
}

static int check_model(const struct ravel_model *m, char *err, size_t len)
{
    if (!m || (!m->ops && (!m->commands || m->ncommands == 0 ||
                           m->ncommands > 64))) {
        snprintf(err, len, "the model needs 1 to 64 commands");
        return -1;
    }
    if (m->state_copy && (!m->state_new || !m->state_free)) {
        snprintf(err, len, "state_copy needs state_new and state_free");
        return -1;
    }
    if (!m->state_equal != !m->state_hash) {
        snprintf(err, len, "state_equal and state_hash go together");
        return -1;
    }
    if (m->threads > MAX_K || m->ops_per_thread > OPS_MAX ||
        m->prefix_len > OPS_MAX) {
        snprintf(err, len, "threads (at most %d), ops_per_thread and "
                           "prefix_len (at most %d) out of range",
                 MAX_K, OPS_MAX);
        return -1;
    }
    if (m->state_size > MAX_STATE) {
        snprintf(err, len, "model state of %zu bytes (at most %d)",
                 m->state_size, MAX_STATE);
        return -1;
    }
    if (m->args_size > MAX_ARGS) {
        snprintf(err, len, "command arguments of %zu bytes (at most %d)",
                 m->args_size, MAX_ARGS);
        return -1;
    }
    if (m->ops)
        return ravel__pbt_ops_check(m, err, len);
    for (unsigned i = 0; i < m->ncommands; i++) {
        const struct ravel_command *k = &m->commands[i];
        if (!k->name || (!k->run && !k->run_value)) {
            snprintf(err, len, "command %u has no name or no run function",
                     i);
            return -1;
        }
        if (k->result > RAVEL_USER ||
            (k->result > RAVEL_PTR && k->run && !k->run_value)) {
            snprintf(err, len, "command %s: results of this kind need "
                               "run_value",
                     k->name);
            return -1;
        }
        if (k->result == RAVEL_USER &&
            (!k->result_type || k->result_type->size == 0 ||
             k->result_type->size > RAVEL__PBT_MAX_RESULT)) {
            snprintf(err, len, "command %s: RAVEL_USER needs a result_type "
                               "of 1 to %d bytes",
                     k->name, RAVEL__PBT_MAX_RESULT);
            return -1;
        }
    }
    return 0;
}

static void driver_init(const struct ravel_model *m);

RAVEL__EXPORT int ravel_test_model(const struct ravel_model *m)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w) {
        fprintf(stderr, "ravel: ravel_test_model: not running under ravel "
                        "(build the program with ravel-cc)\n");
        return 2;
    }
    char err[160];
    if (check_model(m, err, sizeof err) != 0)
        ravel__tool_error(w, "ravel_test_model: %s", err);
    if (!D.init)
        driver_init(m);
    if (!pbt_active)
        ravel__tool_error(w, "ravel_test_model: this program does not call "
                             "ravel_test_model from its own code");
    R.m = m;
    D.next_draw = 0;
    ravel__prng_seed(&D.prng, D.seed ^ 0x7062742d67656eULL, D.test);
    generating = !D.replaying;
    generate();
    generating = false;
    R.sut = m->setup ? m->setup() : NULL;
    for (uint32_t i = 0; i < R.nsec[0]; i++)
        call(R.order[0][i]);
    pthread_t th[MAX_K + 1];
    /* One thread per branch (none for an empty one). */
    for (uint32_t b = 1; b <= R.K; b++)
        if (R.nsec[b] && pthread_create(&th[b], NULL, branch_main,
                                        (void *)(uintptr_t)b) != 0)
            ravel__tool_error(w, "ravel_test_model: cannot create a thread");
    for (uint32_t b = 1; b <= R.K; b++)
        if (R.nsec[b])
            pthread_join(th[b], NULL);
    if (m->teardown)
        m->teardown(R.sut);
    R.ran = true;
    return 0;
}

/* ---- judging ------------------------------------------------------------ */

/* "$3 = name(args)", and " -> result" when `result`. */
static void describe(struct ravel__strbuf *sb, uint32_t c, bool result)
{
    char buf[200] = "";
    c_print(c, buf, sizeof buf);
    ravel__sb_printf(sb, "$%u = %s(%s)", R.cmds[c].var, c_name(R.cmds[c].cmd),
                     buf);
    if (result && R.cmds[c].returned) {
        ravel_value v = stored(c);
        ravel__sb_add(sb, " -> ");
        put_value(sb, &v, R.cmds[c].var);
    } else if (result) {
        ravel__sb_add(sb, " -> (did not return)");
    }
}

/*
 * The lin checker's model: states are indices of interned model states.
 * Plain states are interned by their bytes; user states (state_copy) by
 * the model's hash and equality, or not merged at all without them.
 */
struct adapter {
    size_t size;
    bool user;
    unsigned char *blobs;
    void **objs; /* user states */
    uint32_t n, cap;
    uint32_t *table; /* index + 1 */
    uint32_t tcap;
    const struct ravel__lin_history *h;
    unsigned char tmp[MAX_STATE], before[MAX_STATE];
};

static uint64_t blob_hash(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static uint64_t ad_hash(const struct adapter *a, uint32_t i)
{
    if (a->user)
        return R.m->state_hash(a->objs[i]);
    return blob_hash(a->blobs + (size_t)i * a->size, a->size);
}

/* The index of state st, added if new (a user state is then kept, else
 * freed by the caller: *kept says which). -1: out of memory. */
static int64_t intern(struct adapter *a, const void *st, bool *kept)
{
    bool merge = !a->user || R.m->state_hash;
    *kept = false;
    if (merge && 2 * (a->n + 1) > a->tcap) {
        uint32_t nc = a->tcap ? a->tcap * 2 : 1024;
        uint32_t *t = calloc(nc, sizeof *t);
        if (!t)
            return -1;
        for (uint32_t i = 0; i < a->n; i++) {
            uint32_t j = (uint32_t)ad_hash(a, i) & (nc - 1);
            while (t[j])
                j = (j + 1) & (nc - 1);
            t[j] = i + 1;
        }
        free(a->table);
        a->table = t;
        a->tcap = nc;
    }
    uint32_t j = 0;
    if (merge) {
        uint64_t h = a->user ? R.m->state_hash(st) : blob_hash(st, a->size);
        j = (uint32_t)h & (a->tcap - 1);
        while (a->table[j]) {
            uint32_t i = a->table[j] - 1;
            if (a->user ? R.m->state_equal(a->objs[i], st) != 0
                        : !memcmp(a->blobs + (size_t)i * a->size, st,
                                  a->size))
                return i;
            j = (j + 1) & (a->tcap - 1);
        }
    }
    if (a->n == a->cap) {
        uint32_t nc = a->cap ? a->cap * 2 : 256;
        if (a->user) {
            void **o = realloc(a->objs, (size_t)nc * sizeof *o);
            if (!o)
                return -1;
            a->objs = o;
        } else {
            unsigned char *b = realloc(a->blobs, (size_t)nc * (a->size + 1));
            if (!b)
                return -1;
            a->blobs = b;
        }
        a->cap = nc;
    }
    if (a->user) {
        a->objs[a->n] = (void *)st;
        *kept = true;
    } else {
        memcpy(a->blobs + (size_t)a->n * a->size, st, a->size);
    }
    if (merge)
        a->table[j] = a->n + 1;
    return a->n++;
}

static void *ad_state(struct adapter *a, uint64_t i)
{
    return a->user ? a->objs[i] : a->blobs + i * a->size;
}

static uint64_t ad_init(void *self)
{
    (void)self;
    return 0; /* the state after the prefix, interned first */
}

static int ad_step(void *self, uint64_t state, uint32_t op,
                   struct ravel__lin_next *next)
{
    struct adapter *a = self;
    const struct ravel__lin_op *o = &a->h->ops[op];
    uint32_t c = (uint32_t)ravel__lin_vget(&a->h->vals, o->in)->i;
    const void *before = ad_state(a, state);
    void *tmp;
    if (a->user) {
        tmp = R.m->state_copy(before);
    } else {
        memcpy(a->before, before, a->size);
        before = a->before;
        memcpy(a->tmp, a->before, a->size);
        tmp = a->tmp;
    }
    ravel_value expect = c_next(c, tmp);
    bool ok = o->out == RAVEL__LIN_V_NONE || c_ok(c, before, &expect);
    if (ok && R.m->invariant)
        ok = R.m->invariant(tmp) != 0;
    bool kept = false;
    int64_t s = ok ? intern(a, tmp, &kept) : 0;
    if (a->user && !kept)
        R.m->state_free(tmp);
    if (!ok)
        return 0;
    if (s < 0 || ravel__lin_next_add(next, (uint64_t)s) != 0)
        return -1;
    return 1;
}

static const struct ravel__lin_model adapter_model = {
    .name = "pbt",
    .summary = "the property's model",
    .init = ad_init,
    .step = ad_step,
};

static struct ravel__strbuf verdict; /* the judgement's explanation */
static uint32_t fault_cmd;           /* the call at fault, or UINT32_MAX */

static bool reporting(void);

/* The call to blame in a non-linearizable history: the operation that
 * must come next after the longest linearizable prefix, when the model
 * rejects it there; else the first operation the model rejects there;
 * else that operation anyway. Appends why to `verdict`. */
static void blame(struct adapter *a, const struct ravel__lin_history *h,
                  const struct ravel__lin_result *r)
{
    uint32_t op = RAVEL__LIN_V_NONE;
    for (uint32_t i = 0; i < r->nstuck; i++)
        if (r->stuck_kind[i] == RAVEL__LIN_REJECTED &&
            (op == RAVEL__LIN_V_NONE || r->stuck[i] == r->deadline_op))
            op = r->stuck[i];
    if (op == RAVEL__LIN_V_NONE)
        op = r->deadline_op;
    if (op == RAVEL__LIN_V_NONE || op >= h->nops)
        return;
    uint32_t c = (uint32_t)ravel__lin_vget(&h->vals, h->ops[op].in)->i;
    fault_cmd = c;
    uint64_t st = r->nprefix ? r->prefix_states[r->nprefix - 1]
                             : r->initial_state;
    void *tmp;
    if (a->user) {
        tmp = R.m->state_copy(ad_state(a, st));
    } else {
        memcpy(a->tmp, ad_state(a, st), a->size);
        tmp = a->tmp;
    }
    ravel_value e = c_next(c, tmp);
    ravel__sb_add(&verdict, "; the call no order can place: ");
    describe(&verdict, c, true);
    if (!c_has_post(c)) {
        /* What the model says there: after the longest order of calls
         * that works ("first" when none does). */
        ravel__sb_add(&verdict, " (");
        for (uint32_t i = 0; i < r->nprefix; i++) {
            uint32_t pc = (uint32_t)ravel__lin_vget(&h->vals,
                                                    h->ops[r->prefix[i]].in)
                              ->i;
            ravel__sb_printf(&verdict, "%s$%u", i ? ", " : "placed after ",
                             R.cmds[pc].var);
        }
        if (!r->nprefix)
            ravel__sb_add(&verdict, "placed first");
        if (R.m->state_print) {
            char sbuf[256] = "";
            R.m->state_print(sbuf, sizeof sbuf, ad_state(a, st));
            ravel__sb_printf(&verdict, ", in model state %s", sbuf);
        }
        if (c_ok(c, ad_state(a, st), &e) && R.m->invariant &&
            !R.m->invariant(tmp)) {
            ravel__sb_add(&verdict, ", the invariant is false after it)");
        } else {
            ravel__sb_add(&verdict, ", the model says ");
            put_value(&verdict, &e, R.cmds[c].var);
            ravel__sb_addc(&verdict, ')');
        }
    }
    if (a->user)
        R.m->state_free(tmp);
}

/* Returns 1 linearizable, 0 not, -1 tool error. */
static int lin_check(const void *start)
{
    struct ravel__lin_history h;
    struct adapter a;
    memset(&a, 0, sizeof a);
    a.user = user_states();
    a.size = R.m->state_size ? R.m->state_size : 1;
    if (ravel__lin_history_init(&h) != 0)
        return -1;
    char err[256];
    int rc = -1;
    unsigned char zero[1] = {0};
    bool kept;
    const void *first = a.user ? R.m->state_copy(start)
                               : R.m->state_size ? start : zero;
    if (intern(&a, first, &kept) < 0) {
        if (a.user)
            R.m->state_free((void *)first);
        goto out;
    }
    for (uint32_t b = 1; b <= R.K; b++) {
        char pname[16];
        snprintf(pname, sizeof pname, "%u", b);
        uint32_t proc = ravel__lin_str(&h.vals, pname, strlen(pname));
        for (uint32_t i = 0; i < R.nsec[b]; i++) {
            uint32_t c = R.order[b][i];
            const struct cmdrec *cr = &R.cmds[c];
            if (!cr->call)
                break; /* never called */
            const char *nm = c_name(cr->cmd);
            uint32_t f = ravel__lin_str(&h.vals, nm, strlen(nm));
            uint32_t in = ravel__lin_int(&h.vals, c);
            uint32_t out = RAVEL__LIN_V_NONE;
            if (cr->returned && cr->kind == RAVEL_INT) {
                out = ravel__lin_int(&h.vals, cr->result);
            } else if (cr->returned) {
                /* Other kinds as printed (the HTML timeline shows it). */
                struct ravel__strbuf vs = RAVEL__STRBUF_INIT;
                ravel_value v = stored(c);
                put_value(&vs, &v, cr->var);
                out = ravel__lin_str(&h.vals, vs.data ? vs.data : "",
                                     vs.len);
                ravel__sb_free(&vs);
            }
            if (ravel__lin_add_op(&h, proc, f, RAVEL__LIN_V_NONE, in, out,
                                  cr->call,
                                  cr->returned ? cr->ret : RAVEL__LIN_NEVER,
                                  0, err, sizeof err) != 0)
                goto out;
        }
    }
    if (ravel__lin_finish(&h, err, sizeof err) != 0)
        goto out;
    a.h = &h;
    /* The reported execution's history is explained for the HTML
     * report's timeline and to blame a call (only then: explaining costs
     * a second search). */
    bool explain = reporting();
    struct ravel__lin_options o = {.no_partition = true,
                                   .no_explain = !explain,
                                   .max_memory = 256u << 20};
    struct ravel__lin_result r;
    if (ravel__lin_check(&h, &adapter_model, &a, &o, &r, err, sizeof err) !=
        0)
        goto out;
    rc = r.verdict == RAVEL__LIN_FAIL ? 0 : 1;
    if (explain && rc == 0) {
        blame(&a, &h, &r);
        struct ravel__strbuf js = RAVEL__STRBUF_INIT;
        ravel__lin_explain_data(&h, &r, &js);
        char *dst = ravel__rt.sh->pbt_history;
        if (js.data && js.len < sizeof ravel__rt.sh->pbt_history)
            memcpy(dst, js.data, js.len + 1);
        ravel__sb_free(&js);
    }
    ravel__lin_result_free(&r);
out:
    ravel__lin_history_free(&h);
    if (a.user)
        for (uint32_t i = 0; i < a.n; i++)
            R.m->state_free(a.objs[i]);
    free(a.objs);
    free(a.blobs);
    free(a.table);
    return rc;
}

static unsigned char seq_buf[MAX_STATE], before_buf[MAX_STATE];

/* The counterexample as text: prefix and branches, each call with its
 * result. */
static void counterexample(struct ravel__strbuf *sb)
{
    ravel__sb_printf(sb, "ravel: property %s: counterexample of %u "
                         "command%s (%u in %u branch%s)\n",
                     R.m->name ? R.m->name : "(model)", R.nactive,
                     R.nactive == 1 ? "" : "s", R.nparallel, R.K,
                     R.K == 1 ? "" : "es");
    ravel__sb_add(sb, "  prefix (thread 1):\n");
    if (R.nsec[0] == 0)
        ravel__sb_add(sb, "    (empty)\n");
    for (uint32_t i = 0; i < R.nsec[0]; i++) {
        ravel__sb_add(sb, "    ");
        describe(sb, R.order[0][i], true);
        ravel__sb_addc(sb, '\n');
    }
    for (uint32_t b = 1; b <= R.K; b++) {
        if (R.nsec[b])
            ravel__sb_printf(sb, "  branch %u (thread %s):\n", b,
                             R.tname[b][0] ? R.tname[b] : "?");
        else
            ravel__sb_printf(sb, "  branch %u: (empty)\n", b);
        for (uint32_t i = 0; i < R.nsec[b]; i++) {
            ravel__sb_add(sb, "    ");
            describe(sb, R.order[b][i], true);
            ravel__sb_addc(sb, '\n');
        }
    }
}

static void summary(void);

static void door_dead_text(struct ravel__strbuf *sb)
{
    if (!pbt_active || !shared_mem || !D.init || !R.generated ||
        !R.m)
        return;
    counterexample(sb);
    ravel__sb_printf(sb, "  fails (%s) under this execution's schedule\n",
                     ravel__fail_kind_name(ravel__rt.sh->exec.failure.kind));
}

static void door_dead_final(void)
{
    if (!pbt_active || !shared_mem || !D.init || D.replaying ||
        D.phase != FINAL)
        return;
    D.final_failed = true;
    D.phase = DONE;
    summary();
}

static bool reporting(void)
{
    return D.replaying || D.phase == FINAL;
}

/* Checks the prefix's results one by one (and the invariant after each
 * call); fails x at the first wrong one. Leaves the model's state after
 * the prefix in *st. */
static void judge_prefix(struct ravel__exec *x, void **st)
{
    const struct ravel_model *m = R.m;
    void *before = NULL;
    for (uint32_t i = 0; i < R.nsec[0]; i++) {
        uint32_t c = R.order[0][i];
        before = st_copy(before, before_buf, *st);
        ravel_value e = c_next(c, *st);
        bool ok = c_ok(c, before, &e);
        bool inv = !ok || !m->invariant || m->invariant(*st);
        if (ok && inv)
            continue;
        describe(&verdict, c, true);
        if (!ok && !c_has_post(c)) {
            ravel__sb_add(&verdict, ", the model says ");
            put_value(&verdict, &e, R.cmds[c].var);
        } else if (!ok) {
            ravel__sb_add(&verdict, ": the postcondition is false");
        }
        fault_cmd = c;
        if (ok)
            ravel__fail(x, RAVEL__FAIL_POSTCONDITION, 0, c_pc(R.cmds[c].cmd),
                        "invariant: false after %s", verdict.data);
        else
            ravel__fail(x, RAVEL__FAIL_POSTCONDITION, 0, c_pc(R.cmds[c].cmd),
                        "postcondition: %s", verdict.data);
        break;
    }
    st_free(before, before_buf);
}

static void door_judge(void)
{
    struct ravel__exec *x = ravel__rt.x;
    if (!pbt_active || !R.m)
        return;
    ravel__rt.sh->pbt_history[0] = 0;
    fault_cmd = UINT32_MAX;
    if (x->failure.kind == RAVEL__FAIL_NONE && x->ended != RAVEL__END_BLOCKED &&
        R.ran) {
        const struct ravel_model *m = R.m;
        void *st = st_init(NULL, seq_buf);
        ravel__sb_free(&verdict);
        judge_prefix(x, &st);
        if (x->failure.kind == RAVEL__FAIL_NONE && R.nparallel) {
            int rc = lin_check(st);
            /* The place of a failure: the run function of the call at
             * fault (reported executions), else of the first parallel
             * call. */
            uint64_t pc = 0;
            if (fault_cmd != UINT32_MAX)
                pc = c_pc(R.cmds[fault_cmd].cmd);
            for (uint32_t b = 1; b <= R.K && !pc; b++)
                if (R.nsec[b])
                    pc = c_pc(R.cmds[R.order[b][0]].cmd);
            if (rc < 0)
                ravel__fail(x, RAVEL__FAIL_LINEARIZABILITY, 0, pc,
                            "the linearizability checker failed (out of "
                            "memory)");
            else if (rc == 0)
                ravel__fail(x, RAVEL__FAIL_LINEARIZABILITY, 0, pc,
                            "the results of the %u parallel calls are not "
                            "linearizable: no order of them that respects "
                            "their real-time order gives these results in "
                            "the model %s%s",
                            R.nparallel, m->name ? m->name : "",
                            verdict.data ? verdict.data : "");
        }
        st_free(st, seq_buf);
        if (x->failure.kind != RAVEL__FAIL_NONE) {
            /* Where: the run function itself (an exact pc, not a
             * return address), not thread 1's stack after the run. */
            x->failure.nframes = 1;
            x->failure.frames[0] = x->failure.pc;
            x->failure.frames_exact = 1;
        }
    }
    if (reporting() && R.generated) {
        struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
        counterexample(&sb);
        if (x->failure.kind != RAVEL__FAIL_NONE)
            ravel__sb_printf(&sb, "  fails (%s) under this execution's "
                                 "schedule\n",
                             ravel__fail_kind_name(x->failure.kind));
        fputs(sb.data, stdout);
        fflush(stdout);
        ravel__sb_free(&sb);
    }
}

/* ---- the follow strategy: a recorded schedule, then random ------------- */

struct follow {
    struct ravel__strategy base;
    const struct sched *s;
    uint64_t seed;
    struct ravel__prng prng;
    uint32_t vnext;
};

static void fo_begin(struct ravel__strategy *s, uint64_t number)
{
    struct follow *f = (struct follow *)s;
    ravel__prng_seed(&f->prng, f->seed ^ 0x666f6c6c6f77ULL, number);
    f->vnext = 0;
}

static uint32_t fo_thread(struct ravel__strategy *s,
                          const struct ravel__exec *x,
                          const uint32_t *enabled, uint32_t n,
                          uint32_t current)
{
    struct follow *f = (struct follow *)s;
    (void)current;
    uint32_t step = x->nevents;
    if (step < f->s->nsteps) {
        const char *want = f->s->names[f->s->step[step]];
        for (uint32_t j = 0; j < n; j++)
            if (!strcmp(x->threads[enabled[j]].name, want))
                return j;
    }
    return (uint32_t)ravel__prng_below(&f->prng, n);
}

static uint32_t fo_value(struct ravel__strategy *s,
                         const struct ravel__exec *x, uint32_t n)
{
    struct follow *f = (struct follow *)s;
    (void)x;
    if (f->vnext < f->s->nvals) {
        uint32_t v = f->s->vals[f->vnext++];
        if (v < n)
            return v;
    }
    return (uint32_t)ravel__prng_below(&f->prng, n);
}

static bool fo_end(struct ravel__strategy *s, const struct ravel__exec *x,
                   bool blocked)
{
    (void)s, (void)x, (void)blocked;
    return true;
}

static void fo_finish(struct ravel__strategy *s)
{
    (void)s;
}

static void fo_destroy(struct ravel__strategy *s)
{
    (void)s; /* static (follow_obj) */
}

static const struct ravel__strategy_ops follow_ops = {
    "follow", fo_begin, fo_thread, fo_value, fo_end, fo_finish, fo_destroy,
    NULL,     NULL,
    NULL, NULL, NULL,
};

/* Records execution x's schedule (thread names by step, and the data
 * choices the strategy made after generating). */
static void record_sched(struct sched *s, const struct ravel__exec *x)
{
    s->nnames = 0;
    s->nsteps = x->nevents < MAX_SCHED ? x->nevents : MAX_SCHED;
    for (uint32_t e = 0; e < s->nsteps; e++) {
        const char *nm = x->threads[x->events[e].thread].name;
        uint32_t j = 0;
        while (j < s->nnames && strcmp(s->names[j], nm))
            j++;
        if (j == s->nnames && s->nnames < 64)
            snprintf(s->names[s->nnames++], RAVEL__NAME_MAX, "%s", nm);
        s->step[e] = (uint8_t)(j < 64 ? j : 0);
    }
    s->nvals = 0;
    for (uint32_t i = R.gen_vchoices;
         i < x->nvchoices && s->nvals < RAVEL__MAX_VCHOICES; i++)
        s->vals[s->nvals++] = x->vchoices[i].value;
}

/* ---- the driver --------------------------------------------------------- */

static struct ravel__strategy_config base_config(const char *name)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__strategy_config c = {
        .name = name,
        .seed = rt->sh->seed,
        .preemption_bound = -1,
        .delay_bound = -1,
        .pct_depth = 3,
        .shared = rt->strategy_mem,
        .shared_size = rt->strategy_mem_size,
        .max_steps = rt->opt.max_steps,
        .lanes = 1,
        .dpor_mode = "source" /* the default DPOR mode: docs/exploration.md */,
        .stats = &rt->sh->stats,
    };
    return c;
}

static struct ravel__strategy *make(const char *name)
{
    struct ravel__strategy_config c = base_config(name);
    char err[256];
    struct ravel__strategy *s = ravel__strategy_new(&c, err, sizeof err);
    if (!s)
        ravel__fatal("%s", err);
    return s;
}

static void use(struct ravel__strategy *s)
{
    ravel__rt.strategy = s;
}

static void new_sys(void)
{
    if (s_sys) {
        if (ravel__rt.strategy == s_sys)
            ravel__rt.strategy = s_random;
        s_sys->ops->destroy(s_sys);
    }
    s_sys = make("dpor");
    if (s_sys->ops->start)
        s_sys->ops->start(s_sys);
    use(s_sys);
}

static void follow_sched(const struct sched *s)
{
    struct follow *f = (struct follow *)s_follow;
    f->s = s;
    use(s_follow);
}

static void plan_test(void)
{
    D.fresh = true;
    D.nplan = 0;
    D.size = D.tests > 1 ? 0.1 + 0.9 * D.test / (D.tests - 1) : 1;
    D.case_execs = 0;
    /* The first execution of a case draws its values (under a random
     * schedule); in exhaustive mode a DPOR search of the fixed case
     * follows (ravel__pbt_next). */
    use(s_random);
}

/* This executor's strategies: the base random one (built from the
 * options before the first execution), and the follow strategy (static:
 * nothing the driver keeps may be allocated inside an execution, whose
 * heap blocks are freed when the program is restored). */
static struct follow follow_obj;

static void make_strategies(void)
{
    struct ravel__rt *rt = &ravel__rt;
    s_random = rt->strategy;
    memset(&follow_obj, 0, sizeof follow_obj);
    follow_obj.base.ops = &follow_ops;
    follow_obj.base.stats = &rt->sh->stats;
    follow_obj.seed = D.seed;
    s_follow = &follow_obj.base;
    s_sys = NULL;
}

/* The driver's first call (in the first execution): the options and
 * the model's shape (its fields count unless the option was given). */
static void driver_init(const struct ravel_model *m)
{
    struct ravel__rt *rt = &ravel__rt;
    D.init = true;
    pbt_active = ravel__door == &pbt_door;
    D.replaying = !strcmp(rt->opt.strategy, "replay");
    D.seed = rt->sh->seed;
    D.tests = (uint32_t)rt->opt.tests;
    D.branches = (uint32_t)rt->opt.branches;
    D.ops = (uint32_t)rt->opt.ops;
    D.prefix = (uint32_t)rt->opt.prefix;
    if (m->threads && !rt->opt.set[RAVEL__OPT_branches])
        D.branches = m->threads;
    if (m->ops_per_thread && !rt->opt.set[RAVEL__OPT_ops])
        D.ops = m->ops_per_thread;
    if (m->prefix_len && !rt->opt.set[RAVEL__OPT_prefix])
        D.prefix = m->prefix_len;
    D.exhaustive = !strcmp(rt->opt.mode, "exhaustive");
    D.time = rt->door_time;
    D.phase = TEST;
    if (D.replaying) {
        D.phase = FINAL;
        return;
    }
    make_strategies();
    plan_test();
}

/*
 * A new executor after the previous one died in an execution (a crash
 * of the test case, already recorded in the shared execution): rebuild
 * this executor's strategies and let the driver judge the dead
 * execution like any other. Returns whether to go on.
 */
static bool door_resume(void)
{
    if (!pbt_active || !D.init || D.replaying)
        return true;
    make_strategies();
    return door_next(true);
}

/* Is the recorded case smaller than the kept one? Fewer commands, then
 * fewer parallel ones, then fewer draws, then smaller draws. */
static int compare_rec(const struct kept *k)
{
    if (R.nactive != k->nactive)
        return R.nactive < k->nactive ? -1 : 1;
    if (R.nparallel != k->nparallel)
        return R.nparallel < k->nparallel ? -1 : 1;
    if (R.ndraws != k->n)
        return R.ndraws < k->n ? -1 : 1;
    for (uint32_t i = 0; i < R.ndraws; i++)
        if (R.vals[i] != k->vals[i])
            return R.vals[i] < k->vals[i] ? -1 : 1;
    return 0;
}

static void keep_best(void)
{
    struct kept *k = &D.best;
    k->n = R.ndraws;
    memcpy(k->vals, R.vals, R.ndraws * sizeof *R.vals);
    memcpy(k->bounds, R.bounds, R.ndraws * sizeof *R.bounds);
    memcpy(k->isdata, R.isdata, R.ndraws * sizeof *R.isdata);
    k->nspans = R.nspans;
    memcpy(k->spans, R.spans, R.nspans * sizeof *R.spans);
    k->K = R.K;
    memcpy(k->term, R.term, sizeof k->term);
    memcpy(k->nsec, R.nsec, sizeof k->nsec);
    k->nactive = R.nactive;
    k->nparallel = R.nparallel;
    record_sched(&D.best_sched, ravel__rt.x);
}

static void cut(uint32_t s, uint32_t e)
{
    const struct kept *k = &D.best;
    D.nplan = 0;
    for (uint32_t i = 0; i < k->n; i++)
        if (i < s || i >= e)
            D.plan[D.nplan++] = k->vals[i];
}

/* Is draw i the first of two or more argument draws of the same value
 * and range (a coupled value), and not 0? */
static bool coupled_first(const struct kept *k, uint32_t i)
{
    if (!k->isdata[i] || k->vals[i] == 0)
        return false;
    for (uint32_t j = 0; j < i; j++)
        if (k->isdata[j] && k->vals[j] == k->vals[i] &&
            k->bounds[j] == k->bounds[i])
            return false;
    for (uint32_t j = i + 1; j < k->n; j++)
        if (k->isdata[j] && k->vals[j] == k->vals[i] &&
            k->bounds[j] == k->bounds[i])
            return true;
    return false;
}

/*
 * The next shrinking candidate of D.best, into D.plan. Passes, each
 * restarted from the beginning after an accepted candidate:
 *   0: fewer branches (K - 1: the last branch's draws are left unread);
 *   1: delete a command or list element (its draws);
 *   2: move a branch command to the end of the prefix;
 *   3: lower every draw of one argument value together (coupled values:
 *      a key used by two commands drops in both at once): to 0, to half,
 *      by one;
 *   4: lower a draw: to 0, to half, by one.
 * Returns false when every candidate was tried: the case is minimal.
 */
static bool next_candidate(void)
{
    const struct kept *k = &D.best;
    for (;;) {
        switch (D.pass) {
        case 0:
            /* An empty branch (its end marker alone) dropped, last
             * first; then the last branch, commands and all. */
            if (D.idx < k->K) {
                uint32_t b = k->K - D.idx++;
                if (k->nsec[b] || k->term[b] == UINT32_MAX)
                    break;
                cut(k->term[b], k->term[b] + 1);
                D.plan[0] = k->K - 1;
                return true;
            }
            D.pass = 1;
            D.idx = 0;
            if (k->K > 1) {
                memcpy(D.plan, k->vals, k->n * sizeof *k->vals);
                D.nplan = k->n;
                D.plan[0] = k->K - 1;
                return true;
            }
            break;
        case 1:
            if (D.idx >= k->nspans) {
                D.pass = 2;
                D.idx = 0;
                break;
            }
            {
                const struct span *sp = &k->spans[k->nspans - 1 - D.idx++];
                cut(sp->start, sp->end);
                return true;
            }
        case 2:
            if (D.idx >= k->nspans || k->term[0] == UINT32_MAX) {
                D.pass = 3;
                D.idx = 0;
                D.sub = 0;
                break;
            }
            {
                const struct span *sp = &k->spans[D.idx++];
                if (!sp->is_cmd || sp->sec == 0)
                    break;
                uint32_t p = k->term[0];
                D.nplan = 0;
                for (uint32_t i = 0; i < p; i++)
                    D.plan[D.nplan++] = k->vals[i];
                for (uint32_t i = sp->start; i < sp->end; i++)
                    D.plan[D.nplan++] = k->vals[i];
                for (uint32_t i = p; i < k->n; i++)
                    if (i < sp->start || i >= sp->end)
                        D.plan[D.nplan++] = k->vals[i];
                return true;
            }
        case 3:
            if (D.idx >= k->n) {
                D.pass = 4;
                D.idx = 0;
                D.sub = 0;
                break;
            }
            if (D.sub == 0 && !coupled_first(k, D.idx)) {
                D.idx++;
                break;
            }
            {
                uint32_t i0 = D.idx, v = k->vals[i0];
                uint32_t nv = D.sub == 0 ? 0 : D.sub == 1 ? v / 2 : v - 1;
                uint32_t sub = D.sub;
                if (++D.sub == 3) {
                    D.sub = 0;
                    D.idx++;
                }
                if (nv == v || (sub == 2 && nv == 0) ||
                    (sub == 1 && nv == 0))
                    break;
                memcpy(D.plan, k->vals, k->n * sizeof *k->vals);
                D.nplan = k->n;
                for (uint32_t i = i0; i < k->n; i++)
                    if (k->isdata[i] && k->vals[i] == v &&
                        k->bounds[i] == k->bounds[i0])
                        D.plan[i] = nv;
                return true;
            }
        case 4:
            if (D.idx >= k->n)
                return false;
            {
                uint32_t v = k->vals[D.idx];
                uint32_t nv = v;
                if (D.sub == 0)
                    nv = 0;
                else if (D.sub == 1)
                    nv = v / 2;
                else
                    nv = v - 1;
                if (++D.sub == 3) {
                    D.sub = 0;
                    D.idx++;
                }
                if (v == 0 || nv == v || (D.sub == 2 && nv == 0))
                    break;
                memcpy(D.plan, k->vals, k->n * sizeof *k->vals);
                D.nplan = k->n;
                D.plan[D.sub == 0 ? D.idx - 1 : D.idx] = nv;
                return true;
            }
        }
    }
}

static void start_candidate(void)
{
    D.fresh = false;
    D.cand_tries = 0;
    D.case_execs = 0;
    D.shrink_tries++;
    follow_sched(&D.best_sched);
}

static void go_final(void)
{
    D.phase = FINAL;
    D.fresh = false;
    D.nplan = D.best.n;
    memcpy(D.plan, D.best.vals, D.best.n * sizeof *D.plan);
    follow_sched(&D.best_sched);
}

static void summary(void);

static void tabulate(void)
{
    tally_labels();
    D.total_calls += R.nactive;
    D.parallel_calls += R.nparallel;
    D.skipped += R.nskipped;
    for (uint32_t s = 0; s <= R.K; s++)
        for (uint32_t i = 0; i < R.nsec[s]; i++)
            D.cmd_count[R.cmds[R.order[s][i]].cmd]++;
    uint32_t nb = 0;
    for (uint32_t b = 1; b <= R.K; b++)
        nb += R.nsec[b] > 0;
    D.by_k[nb]++;
    uint32_t n = R.nactive;
    D.sizes[n == 0 ? 0 : n <= 2 ? 1 : n <= 5 ? 2 : n <= 10 ? 3 : n <= 20 ? 4
                                                                     : 5]++;
}

static bool door_quiet(void)
{
    return pbt_active && D.init && !reporting();
}

static bool door_next(bool more)
{
    struct ravel__exec *x = ravel__rt.x;
    if (!pbt_active || !D.init)
        return more;
    if (D.replaying) {
        D.phase = DONE;
        return false;
    }
    bool failed = x->failure.kind != RAVEL__FAIL_NONE &&
                  x->ended != RAVEL__END_BLOCKED && R.generated;
    D.case_execs++;
    switch (D.phase) {
    case TEST:
        if (D.case_execs == 1) {
            tabulate();
            if (D.exhaustive) {
                /* The case is fixed for the rest of its exploration. */
                D.fresh = false;
                D.nplan = R.ndraws;
                memcpy(D.plan, R.vals, R.ndraws * sizeof *R.vals);
            }
        }
        if (failed) {
            D.failed_test = D.test;
            D.fail_kind = x->failure.kind;
            keep_best();
            D.phase = SHRINK;
            D.pass = D.idx = D.sub = 0;
            if (next_candidate())
                start_candidate();
            else
                go_final();
            return true;
        }
        if (D.exhaustive && D.case_execs == 1) {
            new_sys();
            return true;
        }
        if (D.exhaustive && more && !s_sys->exhausted &&
            D.case_execs < CASE_EXECUTIONS)
            return true;
        if (D.exhaustive && s_sys->exhausted)
            D.cases_complete++;
        D.passed++;
        if (D.time > 0 && ravel__now() >= ravel__rt.start_time + D.time) {
            D.stopped = true; /* --time: no new test case */
            ravel__rt.sh->stopped_by_limit = 1;
        }
        if (++D.test >= D.tests || D.stopped) {
            D.phase = DONE;
            summary();
            return false;
        }
        plan_test();
        return true;
    case SHRINK:
        D.shrink_execs++;
        D.cand_tries++;
        if (failed && compare_rec(&D.best) < 0) {
            keep_best();
            D.shrink_steps++;
            D.pass = D.idx = D.sub = 0;
        } else if (!failed && D.shrink_execs < SHRINK_BUDGET) {
            /* Another schedule of the same candidate. */
            if (!D.exhaustive && D.cand_tries < SHRINK_SCHEDULES) {
                use(s_random);
                return true;
            }
            if (D.exhaustive && D.cand_tries == 1) {
                new_sys();
                return true;
            }
            if (D.exhaustive && more && !s_sys->exhausted &&
                D.case_execs < CASE_EXECUTIONS)
                return true;
        }
        if (D.shrink_execs < SHRINK_BUDGET && next_candidate())
            start_candidate();
        else
            go_final();
        return true;
    case FINAL:
        D.final_failed = failed;
        D.phase = DONE;
        summary();
        return false;
    case DONE:
        break;
    }
    return false;
}

/* The statistics and the outcome, for the supervisor's summary. */
static void summary(void)
{
    struct ravel__shared *sh = ravel__rt.sh;
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    const struct ravel_model *m = R.m;
    uint32_t ran = D.phase == DONE && D.best.n ? D.failed_test + 1 : D.test;
    /* The labels and coverage, first: a requirement not met fails a run
     * whose tests passed. */
    struct ravel__strbuf tally = RAVEL__STRBUF_INIT;
    uint64_t ntab = 0;
    for (int i = 0; i <= MAX_K; i++)
        ntab += D.by_k[i];
    D.cover_failed = !put_tally(&tally, ntab) && !D.best.n;
    if (D.cover_failed)
        ravel__sb_printf(&sb, "ravel: property %s: coverage requirement not "
                              "met after %u test%s (all passed): the tests "
                              "do not reach what the property requires "
                              "(see 'NOT MET' below); repeat with --seed "
                              "%llu --tests %u\n",
                         m && m->name ? m->name : "", D.passed,
                         D.passed == 1 ? "" : "s", (unsigned long long)D.seed,
                         D.tests);
    else if (D.best.n)
        ravel__sb_printf(&sb,
                         "ravel: property %s: failed after %u test%s "
                         "(%u passed); shrunk in %llu step%s (%llu "
                         "candidates, %llu executions); repeat with "
                         "--seed %llu --tests %u%s\n",
                         m && m->name ? m->name : "", ran, ran == 1 ? "" : "s",
                         D.passed, (unsigned long long)D.shrink_steps,
                         D.shrink_steps == 1 ? "" : "s",
                         (unsigned long long)D.shrink_tries,
                         (unsigned long long)D.shrink_execs,
                         (unsigned long long)D.seed, D.tests,
                         D.final_failed ? ""
                                        : "; the minimal case did not fail "
                                          "again when replayed");
    else if (D.branches == 0)
        ravel__sb_printf(&sb, "ravel: property %s: %u test%s passed (%s "
                              "mode, sequential tests of up to %u calls)%s\n",
                         m && m->name ? m->name : "", D.passed,
                         D.passed == 1 ? "" : "s",
                         D.exhaustive ? "exhaustive" : "random",
                         prefix_max(0),
                         D.stopped ? "; --time ended testing early" : "");
    else
        ravel__sb_printf(&sb, "ravel: property %s: %u test%s passed (%s "
                              "mode, up to %u branches of up to %u calls "
                              "after a prefix of up to %u)%s\n",
                         m && m->name ? m->name : "", D.passed,
                         D.passed == 1 ? "" : "s",
                         D.exhaustive ? "exhaustive" : "random", D.branches,
                         ops_max(D.branches), prefix_max(D.branches),
                         D.stopped ? "; --time ended testing early" : "");
    if (m && D.total_calls) {
        ravel__sb_printf(&sb, "ravel: commands generated (%llu, %llu in "
                              "branches; %llu left out by preconditions):\n",
                         (unsigned long long)D.total_calls,
                         (unsigned long long)D.parallel_calls,
                         (unsigned long long)D.skipped);
        for (unsigned i = 0; i < ncommands(m); i++)
            ravel__sb_printf(&sb, "  %5.1f%% %s\n",
                             100.0 * (double)D.cmd_count[i] /
                                 (double)D.total_calls,
                             c_name(i));
        uint64_t nt = 0;
        for (int i = 0; i <= MAX_K; i++)
            nt += D.by_k[i];
        ravel__sb_add(&sb, "ravel: tests by non-empty branches:");
        for (int i = 0; i <= MAX_K; i++)
            if (D.by_k[i])
                ravel__sb_printf(&sb, " %d: %.1f%%", i,
                                 100.0 * (double)D.by_k[i] / (double)nt);
        ravel__sb_add(&sb, "\nravel: tests by commands:");
        static const char *const sz[6] = {"0", "1-2", "3-5", "6-10", "11-20",
                                          ">20"};
        for (int i = 0; i < 6; i++)
            if (D.sizes[i])
                ravel__sb_printf(&sb, " %s: %.1f%%", sz[i],
                                 100.0 * (double)D.sizes[i] / (double)nt);
        ravel__sb_addc(&sb, '\n');
    }
    if (tally.data)
        ravel__sb_add(&sb, tally.data);
    ravel__sb_free(&tally);
    snprintf(sh->pbt_text, sizeof sh->pbt_text, "%s", sb.data ? sb.data : "");
    /* What the run promises (the last strategy's text would speak of
     * one test case only). */
    if (D.exhaustive)
        snprintf(sh->stats.guarantee, sizeof sh->stats.guarantee,
                 "exhaustive: every interleaving explored (DPOR) for %llu "
                 "of %u test cases",
                 (unsigned long long)D.cases_complete, ran);
    else
        snprintf(sh->stats.guarantee, sizeof sh->stats.guarantee,
                 "random: one seeded schedule per test case, no coverage "
                 "guarantee");
    sh->stats.complete = 0;
    if (s_follow)
        use(s_follow); /* its finish leaves the guarantee alone */
    ravel__sb_free(&sb);
    sh->pbt = 1;
    sh->pbt_tests = ran;
    sh->pbt_passed = D.passed;
    sh->pbt_failed = D.best.n ? 1 : D.cover_failed ? 2 : 0;
    sh->pbt_shrink_steps = D.shrink_steps;
    sh->pbt_counterexample_commands = D.best.nactive;
    sh->pbt_counterexample_parallel = D.best.nparallel;
    sh->pbt_counterexample_branches = D.best.K;
}

/* ---- the door ------------------------------------------------------------ */

static bool door_choose(uint32_t n, uint32_t *v)
{
    if (!generating)
        return false;
    *v = hook(n);
    return true;
}

/* A property program is one that imports ravel_test_model. */
static bool door_claim(const struct ravel__elf *exe)
{
    return ravel__elf_imports(exe, "ravel_test_model");
}

/* The random strategy is the driver's base (it picks the strategy of
 * every execution: --strategy is not used). --tests bounds the run;
 * --executions and --time must not cut a failure's shrinking short (the
 * failure would go unreported): the driver stops starting new test cases
 * after --time instead. */
static void door_setup(struct ravel__rt *rt)
{
    char err[160];
    if (strcmp(rt->opt.strategy, "replay") != 0)
        ravel__options_set(&rt->opt, "strategy", "random", err, sizeof err);
    rt->opt.executions = 0;
    rt->door_time = rt->opt.time;
    rt->opt.time = 0;
    pbt_active = true;
}

static const struct ravel__door pbt_door = {
    .name = "property",
    .claim = door_claim,
    .setup = door_setup,
    .shared_size = door_shared_size,
    .attach = door_attach,
    .choose = door_choose,
    .judge = door_judge,
    .quiet = door_quiet,
    .next = door_next,
    .resume = door_resume,
    .dead_text = door_dead_text,
    .dead_final = door_dead_final,
    .start_over = door_start_over,
};

__attribute__((constructor)) static void door_register(void)
{
    ravel__door_register(&pbt_door);
}
