/*
 * litmus.c - the classic memory-model litmus tests, written for ravel's
 * memory models (tests/relaxed/relaxed.py runs them).
 *
 *   litmus TEST ORDER
 *
 * TEST is one of sb, mp, lb, iriw, 2+2w, r, s; ORDER says how the
 * atomics are made:
 *   rlx     every store and load relaxed
 *   ra      stores release, loads acquire
 *   sc      every access seq_cst
 *   fence   relaxed accesses with a seq_cst fence between each thread's
 *           two accesses
 * Each execution declares its outcome with ravel_result: the values the
 * threads read (and, for tests about coherence, the final values main
 * reads after joining them), one decimal digit each, in the order the
 * test's comment gives. relaxed.py compares the set of outcomes an
 * exhaustive run sees with the set each model allows.
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_int x, y;
static int r1, r2, r3, r4;
static int order; /* 0 rlx, 1 ra, 2 sc, 3 fence */

/* Each call site below has a constant memory order, as the compiler's
 * hooks see in real code. */
static void st(atomic_int *p, int v)
{
    switch (order) {
    case 1: atomic_store_explicit(p, v, memory_order_release); break;
    case 2: atomic_store_explicit(p, v, memory_order_seq_cst); break;
    default: atomic_store_explicit(p, v, memory_order_relaxed); break;
    }
}

static int ld(atomic_int *p)
{
    switch (order) {
    case 1: return atomic_load_explicit(p, memory_order_acquire);
    case 2: return atomic_load_explicit(p, memory_order_seq_cst);
    default: return atomic_load_explicit(p, memory_order_relaxed);
    }
}

static void fence(void)
{
    if (order == 3)
        atomic_thread_fence(memory_order_seq_cst);
}

/* SB (store buffering): r1 r2.  x=1; r1=y  ||  y=1; r2=x */
static void *sb_a(void *arg) { (void)arg; st(&x, 1); fence(); r1 = ld(&y); return NULL; }
static void *sb_b(void *arg) { (void)arg; st(&y, 1); fence(); r2 = ld(&x); return NULL; }

/* MP (message passing): r1 r2.  x=1; y=1  ||  r1=y; r2=x */
static void *mp_a(void *arg) { (void)arg; st(&x, 1); fence(); st(&y, 1); return NULL; }
static void *mp_b(void *arg) { (void)arg; r1 = ld(&y); fence(); r2 = ld(&x); return NULL; }

/* LB (load buffering): r1 r2.  r1=x; y=1  ||  r2=y; x=1 */
static void *lb_a(void *arg) { (void)arg; r1 = ld(&x); fence(); st(&y, 1); return NULL; }
static void *lb_b(void *arg) { (void)arg; r2 = ld(&y); fence(); st(&x, 1); return NULL; }

/* IRIW: r1 r2 r3 r4.  x=1  ||  y=1  ||  r1=x; r2=y  ||  r3=y; r4=x */
static void *iriw_a(void *arg) { (void)arg; st(&x, 1); return NULL; }
static void *iriw_b(void *arg) { (void)arg; st(&y, 1); return NULL; }
static void *iriw_c(void *arg) { (void)arg; r1 = ld(&x); fence(); r2 = ld(&y); return NULL; }
static void *iriw_d(void *arg) { (void)arg; r3 = ld(&y); fence(); r4 = ld(&x); return NULL; }

/* 2+2W: final x, final y.  x=1; y=2  ||  y=1; x=2 */
static void *w22_a(void *arg) { (void)arg; st(&x, 1); fence(); st(&y, 2); return NULL; }
static void *w22_b(void *arg) { (void)arg; st(&y, 1); fence(); st(&x, 2); return NULL; }

/* R: r1, final y.  x=1; y=1  ||  y=2; r1=x */
static void *r_a(void *arg) { (void)arg; st(&x, 1); fence(); st(&y, 1); return NULL; }
static void *r_b(void *arg) { (void)arg; st(&y, 2); fence(); r1 = ld(&x); return NULL; }

/* S: r1, final x.  x=2; y=1  ||  r1=y; x=1 */
static void *s_a(void *arg) { (void)arg; st(&x, 2); fence(); st(&y, 1); return NULL; }
static void *s_b(void *arg) { (void)arg; r1 = ld(&y); fence(); st(&x, 1); return NULL; }

struct test {
    const char *name;
    void *(*fn[4])(void *);
    int n;
};

static const struct test tests[] = {
    {"sb", {sb_a, sb_b}, 2},
    {"mp", {mp_a, mp_b}, 2},
    {"lb", {lb_a, lb_b}, 2},
    {"iriw", {iriw_a, iriw_b, iriw_c, iriw_d}, 4},
    {"2+2w", {w22_a, w22_b}, 2},
    {"r", {r_a, r_b}, 2},
    {"s", {s_a, s_b}, 2},
};

int main(int argc, char **argv)
{
    static const char *const orders[] = {"rlx", "ra", "sc", "fence"};
    if (argc != 3) {
        fprintf(stderr, "usage: litmus TEST rlx|ra|sc|fence\n");
        return 2;
    }
    order = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(argv[2], orders[i]))
            order = i;
    const struct test *t = NULL;
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
        if (!strcmp(argv[1], tests[i].name))
            t = &tests[i];
    if (!t || order < 0) {
        fprintf(stderr, "litmus: unknown test or order\n");
        return 2;
    }
    pthread_t th[4];
    for (int i = 0; i < t->n; i++)
        pthread_create(&th[i], NULL, t->fn[i], NULL);
    for (int i = 0; i < t->n; i++)
        pthread_join(th[i], NULL);
    long out;
    if (!strcmp(t->name, "iriw"))
        out = r1 * 1000 + r2 * 100 + r3 * 10 + r4;
    else if (!strcmp(t->name, "2+2w"))
        out = atomic_load(&x) * 10 + atomic_load(&y);
    else if (!strcmp(t->name, "r"))
        out = r1 * 10 + atomic_load(&y);
    else if (!strcmp(t->name, "s"))
        out = r1 * 10 + atomic_load(&x);
    else
        out = r1 * 10 + r2;
    ravel_result(out);
    return 0;
}
