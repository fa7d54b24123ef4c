/*
 * genmc.c - programs of GenMC's published test suite (MPI-SWS/genmc,
 * v0.11.0, tests/correct/litmus/<name>), written again here in ravel's
 * words so that relaxed.py can compare ravel's count of RC11 execution
 * graphs with GenMC's.
 *
 *   genmc NAME
 *
 * Each test is a handful of threads doing atomic loads, stores,
 * read-modify-writes and fences on a few locations. The number GenMC
 * reports for a test ("complete executions" under its rc11 model, file
 * expected.rc11.mo.in) counts distinct consistent execution graphs:
 * reads-from plus modification order. relaxed.py holds those numbers as
 * facts, naming their source, and checks that an exhaustive run of this
 * program under --memory-model rc11 counts as many execution graphs.
 * Main joins every thread (GenMC's harnesses return from main instead;
 * the joins add no reads, so the graphs are the same).
 *
 * The values the loads read are not used: the tests are about which
 * executions exist, not about an assertion.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static atomic_int x, y, z;

#define RLX memory_order_relaxed
#define ACQ memory_order_acquire
#define REL memory_order_release
#define AR memory_order_acq_rel
#define SC memory_order_seq_cst
#define LD(v, o) atomic_load_explicit(&(v), o)
#define ST(v, n, o) atomic_store_explicit(&(v), n, o)
#define FENCE(o) atomic_thread_fence(o)
#define THREAD(name) static void *name(void *arg_unused)
#define END                                                                    \
    (void)arg_unused;                                                          \
    return NULL

/* CoRR: two release stores to x by one thread, two acquire loads by
 * another. */
THREAD(corr_w) { ST(x, 1, REL); ST(x, 2, REL); END; }
THREAD(corr_r) { LD(x, ACQ); LD(x, ACQ); END; }
/* CoRR0: one store, two readers of one load each. */
THREAD(w1_rel) { ST(x, 1, REL); END; }
THREAD(w2_rel) { ST(x, 2, REL); END; }
THREAD(r1_acq) { LD(x, ACQ); END; }
/* CoWR and CoRW: a thread's own store then load (or load then store),
 * against another thread's store. */
THREAD(cowr_a) { ST(x, 1, REL); LD(x, ACQ); END; }
THREAD(corw_a) { LD(x, ACQ); ST(x, 1, REL); END; }
/* 2CoWR: two independent store/load pairs on x and y. */
THREAD(ry_acq) { LD(y, ACQ); END; }
THREAD(wy_rel) { ST(y, 1, REL); END; }
/* IRIW with seq_cst stores, each reader's first load acquire and its
 * second seq_cst. */
THREAD(iriw_wx) { ST(x, 1, SC); END; }
THREAD(iriw_wy) { ST(y, 1, SC); END; }
THREAD(iriw_rxy) { LD(x, ACQ); LD(y, SC); END; }
THREAD(iriw_ryx) { LD(y, ACQ); LD(x, SC); END; }
/* W+RWC. */
THREAD(wrwc_a) { ST(x, 1, RLX); ST(z, 1, REL); END; }
THREAD(wrwc_b) { LD(z, ACQ); FENCE(SC); LD(y, RLX); END; }
THREAD(wrwc_c) { ST(y, 1, RLX); FENCE(SC); LD(x, RLX); END; }
/* WWmerge1. */
THREAD(wwm_a) { LD(x, ACQ); LD(y, SC); END; }
THREAD(wwm_b) { ST(x, 1, SC); ST(x, 2, SC); END; }
THREAD(wwm_c) { ST(y, 1, SC); LD(x, SC); END; }
/* inc2w: two relaxed increments and a release store of 4. */
THREAD(inc1_rlx) { atomic_fetch_add_explicit(&x, 1, RLX); END; }
THREAD(inc2_rlx) { atomic_fetch_add_explicit(&x, 2, RLX); END; }
THREAD(w4_rel) { ST(x, 4, REL); END; }
/* fr+w+w+w+reads: three relaxed stores and four relaxed loads. */
THREAD(w1_rlx) { ST(x, 1, RLX); END; }
THREAD(w2_rlx) { ST(x, 2, RLX); END; }
THREAD(w3_rlx) { ST(x, 3, RLX); END; }
THREAD(r4_rlx) { LD(x, RLX); LD(x, RLX); LD(x, RLX); LD(x, RLX); END; }
/* RWC+syncs. */
THREAD(rwc_b) { LD(x, RLX); FENCE(SC); LD(y, RLX); END; }
/* ISA2 (x, y, z for a, b, c). */
THREAD(isa_a) { ST(x, 1, RLX); ST(y, 1, REL); END; }
THREAD(isa_b) { LD(y, ACQ); ST(z, 1, REL); END; }
THREAD(isa_c) { LD(z, ACQ); LD(x, RLX); END; }
/* cumul-release. */
THREAD(cum_b) { int r = LD(y, RLX); ST(z, r, RLX); END; }
THREAD(cum_c) { LD(z, RLX); FENCE(AR); LD(x, RLX); END; }
/* MP with release stores and acquire loads. */
THREAD(mp_a) { ST(x, 1, REL); ST(y, 1, REL); END; }
THREAD(mp_b) { LD(y, ACQ); LD(x, ACQ); END; }
/* 2+2W with release stores, and relaxed with seq_cst fences. */
THREAD(w22_a) { ST(x, 1, REL); ST(y, 2, REL); END; }
THREAD(w22_b) { ST(y, 1, REL); ST(x, 2, REL); END; }
THREAD(w22f_a) { ST(x, 1, RLX); FENCE(SC); ST(y, 2, RLX); END; }
THREAD(w22f_b) { ST(y, 1, RLX); FENCE(SC); ST(x, 2, RLX); END; }
/* SB release/acquire, and relaxed with seq_cst fences. */
THREAD(sb_a) { ST(x, 1, REL); LD(y, ACQ); END; }
THREAD(sb_b) { ST(y, 1, REL); LD(x, ACQ); END; }
THREAD(sbf_a) { ST(x, 1, RLX); FENCE(SC); LD(y, RLX); END; }
THREAD(sbf_b) { ST(y, 1, RLX); FENCE(SC); LD(x, RLX); END; }
/* LB release/acquire. */
THREAD(lb_a) { LD(y, ACQ); ST(x, 1, REL); END; }
THREAD(lb_b) { LD(x, ACQ); ST(y, 1, REL); END; }
/* S relaxed. */
THREAD(s_a) { ST(x, 2, RLX); ST(y, 1, RLX); END; }
THREAD(s_b) { LD(y, RLX); ST(x, 1, RLX); END; }
/* inc+inc+RR+W+RR. */
THREAD(inc_rlx) { atomic_fetch_add_explicit(&x, 1, RLX); END; }
THREAD(rr_rlx) { LD(x, RLX); LD(x, RLX); END; }
THREAD(w42_rlx) { ST(x, 42, RLX); END; }
/* Z6+acq (x, y, z for a, b, c). */
THREAD(z6_a) { ST(x, 1, RLX); FENCE(SC); ST(y, 1, RLX); END; }
THREAD(z6_b) { LD(y, ACQ); ST(z, 1, RLX); END; }
THREAD(z6_c) { ST(z, 2, RLX); FENCE(SC); LD(x, RLX); END; }
/* detour. */
THREAD(det_b) { int a = LD(z, RLX); ST(x, a - 1, RLX); int b = LD(x, RLX); ST(y, b, RLX); END; }
THREAD(det_c) { int c = LD(y, RLX); ST(z, c, RLX); END; }

struct test {
    const char *name;
    void *(*fn[6])(void *);
};

static const struct test tests[] = {
    {"CoRR", {corr_w, corr_r}},
    {"CoRR0", {w1_rel, r1_acq, r1_acq}},
    {"CoRR1", {w1_rel, w2_rel, corr_r, r1_acq}},
    {"CoRR2", {w1_rel, w2_rel, corr_r, corr_r}},
    {"CoWR", {cowr_a, w2_rel}},
    {"CoRW", {corw_a, w2_rel}},
    {"2CoWR", {ry_acq, r1_acq, w1_rel, wy_rel}},
    {"IRIW-acq-sc", {iriw_wx, iriw_rxy, iriw_ryx, iriw_wy}},
    {"W+RWC", {wrwc_a, wrwc_b, wrwc_c}},
    {"WWmerge1", {wwm_a, wwm_b, wwm_c}},
    {"inc2w", {inc1_rlx, w4_rel, inc2_rlx}},
    {"fr+w+w+w+reads", {w1_rlx, w2_rlx, w3_rlx, r4_rlx}},
    {"RWC+syncs", {w1_rlx, rwc_b, sbf_b}},
    {"isa2", {isa_a, isa_b, isa_c}},
    {"cumul-release", {isa_a, cum_b, cum_c}},
    {"MP", {mp_a, mp_b}},
    {"2+2W", {w22_a, w22_b}},
    {"2+2W+scfs", {w22f_a, w22f_b}},
    {"SB", {sb_a, sb_b}},
    {"SB+scfs", {sbf_a, sbf_b}},
    {"LB", {lb_a, lb_b}},
    {"S", {s_a, s_b}},
    {"inc+inc+RR+W+RR", {inc_rlx, inc_rlx, rr_rlx, w42_rlx, rr_rlx}},
    {"Z6+acq", {z6_a, z6_b, z6_c}},
    {"detour", {w1_rlx, det_b, det_c}},
};

int main(int argc, char **argv)
{
    const struct test *t = NULL;
    for (size_t i = 0; argc == 2 && i < sizeof tests / sizeof *tests; i++)
        if (!strcmp(argv[1], tests[i].name))
            t = &tests[i];
    if (!t) {
        fprintf(stderr, "usage: genmc TEST (a GenMC litmus test's name)\n");
        return 2;
    }
    pthread_t th[6];
    int n = 0;
    while (n < 6 && t->fn[n]) {
        pthread_create(&th[n], NULL, t->fn[n], NULL);
        n++;
    }
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    return 0;
}
