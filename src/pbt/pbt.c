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
 * one, and of each branch by K: the branches' interleavings, the
 * multinomial (n1+..+nK)!/(n1!..nK!), stay small enough to check every
 * one when generating (preconditions) and judging: 2 of 5: 252; 3 of 3:
 * 1,680; 4 of 2: 2,520. One branch alone runs like a prefix. */
#define SEQ_MAX 30
#define PREFIX_MAX 5
static const uint32_t branch_max[MAX_K + 1] = {0, 8, 5, 3, 2};
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
    uint32_t var;     /* $N, 0 when skipped */
    int64_t result;
    uint64_t call, ret; /* logical times */
};

struct rec {
    const struct ravel_model *m;
    uint32_t ndraws;
    uint32_t vals[MAX_DRAWS];
    uint32_t nspans;
    struct span spans[MAX_SPANS];
    uint32_t ncmds;
    struct cmdrec cmds[MAX_CMDS];
    unsigned char args[MAX_CMDS][MAX_ARGS];
    uint32_t K;
    uint32_t term[MAX_K + 1]; /* draw that ended each section, or
                                 UINT32_MAX (ended by the attempt limit
                                 or the weights) */
    uint32_t order[MAX_K + 1][MAX_CMDS]; /* active commands by section */
    uint32_t nsec[MAX_K + 1];
    uint32_t var_cmd[MAX_CMDS + 1];
    uint32_t nvars;
    uint32_t nactive, nparallel, nskipped;
    uint32_t gen_vchoices; /* data choices made by generating */
    char tname[MAX_K + 1][RAVEL__NAME_MAX];
    uint64_t clock;
    void *sut;
    bool full;      /* a capacity was reached: lists stopped */
    bool generated; /* the program was generated completely */
    bool ran;       /* it ran to its end */
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
    R.vals[R.ndraws++] = v;
    return v;
}

static uint64_t rnd(void)
{
    return ravel__prng_next(&D.prng);
}

static bool more(double p)
{
    return draw(2, (double)(rnd() >> 11) * 0x1p-53 < p) != 0;
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

/* ---- generating the program -------------------------------------------- */

static unsigned char prefix_state[MAX_STATE];
static unsigned char il_states[MAX_K * 8 + 2][MAX_STATE];

static const void *args_of(uint32_t c)
{
    return R.args[c];
}

static bool model_has_pre(const struct ravel_model *m)
{
    for (unsigned i = 0; i < m->ncommands; i++)
        if (m->commands[i].pre)
            return true;
    return false;
}

/* Does every interleaving of the branches (from the state after the
 * prefix) satisfy every precondition? A depth-first walk over positions
 * in the branches. */
static bool il_ok(uint32_t *pos, uint32_t depth)
{
    const struct ravel_model *m = R.m;
    for (uint32_t b = 1; b <= R.K; b++) {
        if (pos[b] >= R.nsec[b])
            continue;
        uint32_t c = R.order[b][pos[b]];
        const struct ravel_command *k = &m->commands[R.cmds[c].cmd];
        memcpy(il_states[depth + 1], il_states[depth], m->state_size);
        if (k->pre && !k->pre(il_states[depth + 1], args_of(c)))
            return false;
        if (k->next)
            k->next(il_states[depth + 1], args_of(c), R.cmds[c].var);
        pos[b]++;
        bool ok = il_ok(pos, depth + 1);
        pos[b]--;
        if (!ok)
            return false;
    }
    return true;
}

/* Generates one section (the prefix, or branch `sec`) of at most `max`
 * commands from `state`, which it advances. */
static void gen_section(uint8_t sec, uint32_t max, unsigned char *state,
                        double p, bool check_il)
{
    const struct ravel_model *m = R.m;
    unsigned weights[64];
    uint32_t attempts = 0;
    cur_sec = sec;
    while (attempts++ < 3 * max + 3 && !R.full) {
        unsigned total = 0;
        for (unsigned i = 0; i < m->ncommands; i++) {
            const struct ravel_command *k = &m->commands[i];
            weights[i] = k->weight ? k->weight(state) : 1;
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
        uint32_t ci = (uint32_t)ravel_gen_frequency(&the_gen, weights,
                                                    m->ncommands);
        const struct ravel_command *k = &m->commands[ci];
        uint32_t c = R.ncmds++;
        struct cmdrec *cr = &R.cmds[c];
        memset(cr, 0, sizeof *cr);
        cr->cmd = (uint16_t)ci;
        cr->sec = sec;
        memset(R.args[c], 0, MAX_ARGS);
        uint32_t s = span_begin(mark, sec, 1);
        if (k->gen)
            k->gen(&the_gen, state, R.args[c]);
        span_end(s);
        bool ok = !k->pre || k->pre(state, R.args[c]);
        if (ok) {
            cr->var = ++R.nvars;
            R.var_cmd[cr->var] = c;
            R.order[sec][R.nsec[sec]++] = c;
        }
        if (ok && check_il) {
            uint32_t pos[MAX_K + 1] = {0};
            memcpy(il_states[0], prefix_state, m->state_size);
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
        if (k->next)
            k->next(state, R.args[c], cr->var);
    }
    R.term[sec] = UINT32_MAX;
}

static unsigned char gen_state[MAX_STATE];

static void generate(void)
{
    const struct ravel_model *m = R.m;
    struct ravel__worker *w = ravel__controlled();
    memset(&R.ndraws, 0, sizeof R - offsetof(struct rec, ndraws));
    R.m = m;
    /* The number of branches is the stream's first draw, so that
     * shrinking can lower it and a ticket carries it. */
    R.K = draw(MAX_K + 1, D.branches);
    memset(gen_state, 0, m->state_size);
    if (m->init)
        m->init(gen_state);
    uint32_t pmax = R.K ? PREFIX_MAX : SEQ_MAX;
    gen_section(0, pmax, gen_state, D.size * pmax / (D.size * pmax + 2),
                false);
    memcpy(prefix_state, gen_state, m->state_size);
    bool check = model_has_pre(m);
    for (uint32_t b = 1; b <= R.K; b++) {
        memcpy(gen_state, prefix_state, m->state_size);
        uint32_t bmax = branch_max[R.K];
        double mean = 1 + D.size * (bmax - 1);
        gen_section((uint8_t)b, bmax, gen_state, mean / (mean + 1), check);
    }
    for (uint32_t s = 0; s <= R.K; s++)
        R.nactive += R.nsec[s];
    R.nparallel = R.nactive - R.nsec[0];
    R.gen_vchoices = ravel__rt.x->nvchoices;
    R.generated = true;
    (void)w;
}

/* ---- running it -------------------------------------------------------- */

static void call(uint32_t c)
{
    const struct ravel_command *k = &R.m->commands[R.cmds[c].cmd];
    /* Between two commands the runner records what it saw: the reads of
     * one command and the next are not one spin loop (src/model/spin.c). */
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__spin_forget(&ravel__rt.x->threads[w->slot]);
    R.cmds[c].call = ++R.clock;
    R.cmds[c].result = k->run(R.sut, args_of(c));
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
    if (!m || !m->commands || m->ncommands == 0 || m->ncommands > 64) {
        snprintf(err, len, "the model needs 1 to 64 commands");
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
    for (unsigned i = 0; i < m->ncommands; i++)
        if (!m->commands[i].name || !m->commands[i].run) {
            snprintf(err, len, "command %u has no name or no run function",
                     i);
            return -1;
        }
    return 0;
}

static void driver_init(void);

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
        driver_init();
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

static void describe(struct ravel__strbuf *sb, uint32_t c, bool result)
{
    const struct ravel_command *k = &R.m->commands[R.cmds[c].cmd];
    char buf[200] = "";
    if (k->print)
        k->print(buf, sizeof buf, args_of(c));
    ravel__sb_printf(sb, "$%u = %s(%s)", R.cmds[c].var, k->name, buf);
    if (result && R.cmds[c].returned)
        ravel__sb_printf(sb, " -> %lld", (long long)R.cmds[c].result);
    else if (result)
        ravel__sb_add(sb, " -> (did not return)");
}

/* The lin checker's model: states are indices of interned model states. */
struct adapter {
    size_t size;
    unsigned char *blobs;
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

static int64_t intern(struct adapter *a, const unsigned char *st)
{
    if (2 * (a->n + 1) > a->tcap) {
        uint32_t nc = a->tcap ? a->tcap * 2 : 1024;
        uint32_t *t = calloc(nc, sizeof *t);
        if (!t)
            return -1;
        for (uint32_t i = 0; i < a->n; i++) {
            uint64_t h = blob_hash(a->blobs + (size_t)i * a->size, a->size);
            uint32_t j = (uint32_t)h & (nc - 1);
            while (t[j])
                j = (j + 1) & (nc - 1);
            t[j] = i + 1;
        }
        free(a->table);
        a->table = t;
        a->tcap = nc;
    }
    uint64_t h = blob_hash(st, a->size);
    uint32_t j = (uint32_t)h & (a->tcap - 1);
    while (a->table[j]) {
        uint32_t i = a->table[j] - 1;
        if (!memcmp(a->blobs + (size_t)i * a->size, st, a->size))
            return i;
        j = (j + 1) & (a->tcap - 1);
    }
    if (a->n == a->cap) {
        uint32_t nc = a->cap ? a->cap * 2 : 256;
        unsigned char *b = realloc(a->blobs, (size_t)nc * (a->size + 1));
        if (!b)
            return -1;
        a->blobs = b;
        a->cap = nc;
    }
    memcpy(a->blobs + (size_t)a->n * a->size, st, a->size);
    a->table[j] = a->n + 1;
    return a->n++;
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
    const struct ravel_command *k = &R.m->commands[R.cmds[c].cmd];
    memcpy(a->before, a->blobs + state * a->size, a->size);
    memcpy(a->tmp, a->before, a->size);
    long expect = k->next ? k->next(a->tmp, args_of(c), R.cmds[c].var) : 0;
    if (o->out != RAVEL__LIN_V_NONE) {
        bool ok = k->post ? k->post(a->before, args_of(c),
                                    (long)R.cmds[c].result) != 0
                          : expect == (long)R.cmds[c].result;
        if (!ok)
            return 0;
    }
    int64_t s = intern(a, a->tmp);
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

/* Returns 1 linearizable, 0 not, -1 tool error. */
static bool reporting(void);

static int lin_check(const unsigned char *start)
{
    struct ravel__lin_history h;
    struct adapter a;
    memset(&a, 0, sizeof a);
    a.size = R.m->state_size ? R.m->state_size : 1;
    if (ravel__lin_history_init(&h) != 0)
        return -1;
    char err[256];
    int rc = -1;
    unsigned char zero[1] = {0};
    if (intern(&a, R.m->state_size ? start : zero) < 0)
        goto out;
    for (uint32_t b = 1; b <= R.K; b++) {
        char pname[16];
        snprintf(pname, sizeof pname, "%u", b);
        uint32_t proc = ravel__lin_str(&h.vals, pname, strlen(pname));
        for (uint32_t i = 0; i < R.nsec[b]; i++) {
            uint32_t c = R.order[b][i];
            const struct cmdrec *cr = &R.cmds[c];
            if (!cr->call)
                break; /* never called */
            const char *nm = R.m->commands[cr->cmd].name;
            uint32_t f = ravel__lin_str(&h.vals, nm, strlen(nm));
            uint32_t in = ravel__lin_int(&h.vals, c);
            uint32_t out = cr->returned ? ravel__lin_int(&h.vals, cr->result)
                                        : RAVEL__LIN_V_NONE;
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
     * report's timeline (only then: explaining costs a second search). */
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
    free(a.blobs);
    free(a.table);
    return rc;
}

static unsigned char seq_state[MAX_STATE], seq_before[MAX_STATE];

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

static void door_judge(void)
{
    struct ravel__exec *x = ravel__rt.x;
    if (!pbt_active || !R.m)
        return;
    ravel__rt.sh->pbt_history[0] = 0;
    if (x->failure.kind == RAVEL__FAIL_NONE && x->ended != RAVEL__END_BLOCKED &&
        R.ran) {
        const struct ravel_model *m = R.m;
        /* The place of a failure: the run function of the first
         * parallel call. */
        uint64_t pc = 0;
        for (uint32_t b = 1; b <= R.K && !pc; b++)
            if (R.nsec[b])
                pc = (uint64_t)(uintptr_t)
                         m->commands[R.cmds[R.order[b][0]].cmd].run;
        memset(seq_state, 0, m->state_size);
        if (m->init)
            m->init(seq_state);
        ravel__sb_free(&verdict);
        for (uint32_t i = 0; i < R.nsec[0]; i++) {
            uint32_t c = R.order[0][i];
            const struct ravel_command *k = &m->commands[R.cmds[c].cmd];
            memcpy(seq_before, seq_state, m->state_size);
            long e = k->next ? k->next(seq_state, args_of(c), R.cmds[c].var)
                             : 0;
            bool ok = k->post ? k->post(seq_before, args_of(c),
                                        (long)R.cmds[c].result) != 0
                              : e == (long)R.cmds[c].result;
            if (!ok) {
                describe(&verdict, c, true);
                if (!k->post)
                    ravel__sb_printf(&verdict, ", the model says %ld", e);
                else
                    ravel__sb_add(&verdict, ": the postcondition is false");
                ravel__fail(x, RAVEL__FAIL_POSTCONDITION, 0,
                            (uint64_t)(uintptr_t)k->run,
                            "postcondition: %s", verdict.data);
                break;
            }
        }
        if (x->failure.kind == RAVEL__FAIL_NONE && R.nparallel) {
            int rc = lin_check(seq_state);
            if (rc < 0)
                ravel__fail(x, RAVEL__FAIL_LINEARIZABILITY, 0, pc,
                            "the linearizability checker failed (out of "
                            "memory)");
            else if (rc == 0)
                ravel__fail(x, RAVEL__FAIL_LINEARIZABILITY, 0, pc,
                            "the results of the %u parallel calls are not "
                            "linearizable: no order of them that respects "
                            "their real-time order gives these results in "
                            "the model %s",
                            R.nparallel, m->name ? m->name : "");
        }
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

static void driver_init(void)
{
    struct ravel__rt *rt = &ravel__rt;
    D.init = true;
    pbt_active = ravel__door == &pbt_door;
    D.replaying = !strcmp(rt->opt.strategy, "replay");
    D.seed = rt->sh->seed;
    D.tests = (uint32_t)rt->opt.tests;
    D.branches = (uint32_t)rt->opt.branches;
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

/*
 * The next shrinking candidate of D.best, into D.plan. Passes, each
 * restarted from the beginning after an accepted candidate:
 *   0: fewer branches (K - 1: the last branch's draws are left unread);
 *   1: delete a command or list element (its draws);
 *   2: move a branch command to the end of the prefix;
 *   3: lower a draw: to 0, to half, by one.
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
    if (D.best.n)
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
    else
        ravel__sb_printf(&sb, "ravel: property %s: %u test%s passed (%s "
                              "mode, up to %u branches)%s\n",
                         m && m->name ? m->name : "", D.passed,
                         D.passed == 1 ? "" : "s",
                         D.exhaustive ? "exhaustive" : "random", D.branches,
                         D.stopped ? "; --time ended testing early" : "");
    if (m && D.total_calls) {
        ravel__sb_printf(&sb, "ravel: commands generated (%llu, %llu in "
                              "branches; %llu left out by preconditions):\n",
                         (unsigned long long)D.total_calls,
                         (unsigned long long)D.parallel_calls,
                         (unsigned long long)D.skipped);
        for (unsigned i = 0; i < m->ncommands; i++)
            ravel__sb_printf(&sb, "  %5.1f%% %s\n",
                             100.0 * (double)D.cmd_count[i] /
                                 (double)D.total_calls,
                             m->commands[i].name);
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
    sh->pbt_failed = D.best.n != 0;
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
