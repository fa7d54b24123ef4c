/*
 * graph_test.c - the arrows drawn for a trace are exactly the transitive
 * reduction of inter-thread happens-before: hand-made traces with known
 * answers (message passing through a mutex, release/acquire pairs, a
 * chain that collapses to one arrow), and random lock traces checked
 * against a brute-force reduction by reachability.
 */
#include "graph.h"

#include "../../tests/check.h"
#include "../common/prng.h"

#include <stdlib.h>

static struct ravel__exec *x;

static void fresh(uint32_t nthreads, uint32_t nobjects)
{
    static void *mem;
    size_t size = ravel__exec_size(4096, 64);
    free(mem);
    mem = calloc(1, size);
    x = ravel__exec_layout(mem, 4096, 64);
    x->nthreads = nthreads;
    for (uint32_t t = 0; t < nthreads; t++)
        x->threads[t].state = RAVEL__T_FINISHED;
    x->nobjects = nobjects;
}

static uint32_t ev(uint32_t t, uint16_t kind, uint32_t obj, uint32_t aux,
                   uint16_t flags)
{
    struct ravel__event *e = &x->events[x->nevents];
    *e = (struct ravel__event){.thread = t, .kind = kind, .flags = flags,
                               .obj = obj, .aux = aux};
    return x->nevents++;
}

#define M(k) RAVEL__OP_MUTEX_##k
#define NO RAVEL__NONE

/* Is from -> to among the n arrows? */
static bool has(const struct ravel__arrow *a, int64_t n, uint32_t from,
                uint32_t to)
{
    for (int64_t i = 0; i < n; i++)
        if (a[i].from == from && a[i].to == to)
            return true;
    return false;
}

CHECK_TEST(message_passing_through_a_mutex)
{
    fresh(3, 1);
    ev(0, RAVEL__OP_START, NO, NO, 0);
    uint32_t c1 = ev(0, RAVEL__OP_CREATE, NO, 1, 0);
    uint32_t c2 = ev(0, RAVEL__OP_CREATE, NO, 2, 0);
    uint32_t s1 = ev(1, RAVEL__OP_START, NO, NO, 0);
    ev(1, M(LOCK), 0, NO, 0);
    uint32_t u1 = ev(1, M(UNLOCK), 0, NO, 0);
    uint32_t s2 = ev(2, RAVEL__OP_START, NO, NO, 0);
    uint32_t l2 = ev(2, M(LOCK), 0, NO, 0);
    ev(2, M(UNLOCK), 0, NO, 0);
    uint32_t f1 = ev(1, RAVEL__OP_FINISH, NO, NO, 0);
    uint32_t f2 = ev(2, RAVEL__OP_FINISH, NO, NO, 0);
    uint32_t j1 = ev(0, RAVEL__OP_JOIN, 1, 1, 0);
    uint32_t j2 = ev(0, RAVEL__OP_JOIN, 2, 2, 0);
    struct ravel__arrow *a;
    int64_t n = ravel__graph_arrows(x, x->nevents, &a);
    CHECK_EQ(n, 5);
    CHECK(has(a, n, c1, s1));
    CHECK(has(a, n, c2, s2));
    CHECK(has(a, n, u1, l2));
    CHECK(has(a, n, f1, j1));
    CHECK(has(a, n, f2, j2));
    free(a);
    /* The second thread takes the lock first: the arrow turns round. */
    fresh(3, 1);
    ev(0, RAVEL__OP_START, NO, NO, 0);
    ev(0, RAVEL__OP_CREATE, NO, 1, 0);
    ev(0, RAVEL__OP_CREATE, NO, 2, 0);
    ev(2, RAVEL__OP_START, NO, NO, 0);
    ev(2, M(LOCK), 0, NO, 0);
    uint32_t u2 = ev(2, M(UNLOCK), 0, NO, 0);
    ev(1, RAVEL__OP_START, NO, NO, 0);
    uint32_t l1 = ev(1, M(LOCK), 0, NO, 0);
    n = ravel__graph_arrows(x, x->nevents, &a);
    CHECK_EQ(n, 3);
    CHECK(has(a, n, u2, l1));
    free(a);
}

CHECK_TEST(a_chain_collapses_to_one_arrow)
{
    /* Thread 1 releases three locks, thread 2 takes them in the other
     * order: three synchronisation edges, but the last release before
     * the first acquisition explains them all. */
    fresh(2, 3);
    uint32_t u0 = ev(0, M(UNLOCK), 0, NO, 0);
    uint32_t u1 = ev(0, M(UNLOCK), 1, NO, 0);
    uint32_t u2 = ev(0, M(UNLOCK), 2, NO, 0);
    uint32_t l2 = ev(1, M(LOCK), 2, NO, 0);
    uint32_t l1 = ev(1, M(LOCK), 1, NO, 0);
    uint32_t l0 = ev(1, M(LOCK), 0, NO, 0);
    struct ravel__arrow *a;
    int64_t ne = ravel__graph_edges(x, x->nevents, &a);
    CHECK_EQ(ne, 3);
    CHECK(has(a, ne, u0, l0) && has(a, ne, u1, l1) && has(a, ne, u2, l2));
    free(a);
    int64_t n = ravel__graph_arrows(x, x->nevents, &a);
    CHECK_EQ(n, 1);
    CHECK(has(a, n, u2, l2));
    free(a);
    /* Through a third thread: 1 -> 2 -> 3 makes 1 -> 3 redundant. */
    fresh(3, 3);
    uint32_t a0 = ev(0, M(UNLOCK), 0, NO, 0);
    uint32_t a1 = ev(0, M(UNLOCK), 1, NO, 0);
    uint32_t b0 = ev(1, M(LOCK), 1, NO, 0);
    uint32_t b1 = ev(1, M(UNLOCK), 2, NO, 0);
    uint32_t c0 = ev(2, M(LOCK), 2, NO, 0);
    uint32_t c1 = ev(2, M(LOCK), 0, NO, 0);
    n = ravel__graph_arrows(x, x->nevents, &a);
    CHECK_EQ(n, 2);
    CHECK(has(a, n, a1, b0) && has(a, n, b1, c0));
    CHECK(!has(a, n, a0, c1));
    free(a);
}

#define A(k) RAVEL__OP_ATOMIC_##k
#define ACQ RAVEL__EV_ACQUIRE
#define REL RAVEL__EV_RELEASE

CHECK_TEST(release_acquire_pairs_synchronise_relaxed_do_not)
{
    fresh(2, 2);
    ev(0, A(STORE), 0, NO, 0);          /* data, relaxed */
    uint32_t w = ev(0, A(STORE), 1, NO, REL); /* flag, release */
    uint32_t r = ev(1, A(LOAD), 1, NO, ACQ);  /* flag, acquire */
    ev(1, A(LOAD), 0, NO, 0);           /* data, relaxed */
    struct ravel__arrow *a;
    int64_t n = ravel__graph_arrows(x, x->nevents, &a);
    CHECK_EQ(n, 1);
    CHECK(has(a, n, w, r));
    if (n == 1)
        CHECK_EQ(a[0].kind, RAVEL__ARROW_ATOMIC);
    free(a);
    /* Relaxed store, acquire load; release store, relaxed load: none. */
    fresh(2, 2);
    ev(0, A(STORE), 0, NO, 0);
    ev(1, A(LOAD), 0, NO, ACQ);
    ev(0, A(STORE), 1, NO, REL);
    ev(1, A(LOAD), 1, NO, 0);
    n = ravel__graph_arrows(x, x->nevents, &a);
    CHECK_EQ(n, 0);
    free(a);
    /* A relaxed RMW of a third thread continues the release sequence:
     * the acquire load reading from it synchronises with the release
     * store. A later relaxed store ends it. */
    fresh(3, 1);
    uint32_t head = ev(0, A(STORE), 0, NO, REL);
    ev(1, A(RMW), 0, RAVEL__RMW_ADD, 0);
    uint32_t rd = ev(2, A(LOAD), 0, NO, ACQ);
    ev(1, A(STORE), 0, NO, 0);
    ev(2, A(LOAD), 0, NO, ACQ);
    n = ravel__graph_arrows(x, x->nevents, &a);
    CHECK_EQ(n, 1);
    CHECK(has(a, n, head, rd));
    free(a);
}

CHECK_TEST(condition_variables_semaphores_barriers)
{
    /* 1.1 waits on c (releasing m); 1 locks m, signals 1.1, unlocks; 1.1
     * wakes and takes m back. */
    fresh(2, 2); /* object 0: cond, 1: mutex */
    ev(1, M(LOCK), 1, NO, 0);
    uint32_t w = ev(1, RAVEL__OP_COND_WAIT, 0, 1, 0);
    uint32_t l = ev(0, M(LOCK), 1, NO, 0);
    uint32_t s = ev(0, RAVEL__OP_COND_SIGNAL, 0, 1, 0);
    uint32_t u = ev(0, M(UNLOCK), 1, NO, 0);
    uint32_t k = ev(1, RAVEL__OP_COND_WAKE, 0, 1, 0);
    struct ravel__arrow *a;
    int64_t n = ravel__graph_arrows(x, x->nevents, &a);
    /* The signal is before the unlock in thread 1: only the unlock's
     * arrow remains, and the wait's release of m reaches the lock. */
    CHECK_EQ(n, 2);
    CHECK(has(a, n, w, l));
    CHECK(has(a, n, u, k));
    CHECK(!has(a, n, s, k));
    free(a);
    /* sem_post -> sem_wait; a failed trywait has none. */
    fresh(2, 1);
    uint32_t p = ev(0, RAVEL__OP_SEM_POST, 0, NO, 0);
    ev(1, RAVEL__OP_SEM_TRYWAIT, 0, NO, 0);
    ev(1, RAVEL__OP_SEM_TRYWAIT, 0, NO, RAVEL__EV_FAILED);
    n = ravel__graph_arrows(x, x->nevents, &a);
    CHECK_EQ(n, 1);
    CHECK(has(a, n, p, 1));
    free(a);
    /* Barrier of three: every thread leaves after every arrival; the
     * reduction keeps one arrow per (arrival, other leaver) that is not
     * implied - here all six. */
    fresh(3, 1);
    uint32_t b0 = ev(0, RAVEL__OP_BARRIER_WAIT, 0, NO, 0);
    uint32_t b1 = ev(1, RAVEL__OP_BARRIER_WAIT, 0, NO, 0);
    uint32_t b2 = ev(2, RAVEL__OP_BARRIER_WAIT, 0, NO, RAVEL__EV_SERIAL);
    uint32_t v0 = ev(0, RAVEL__OP_BARRIER_LEAVE, 0, NO, 0);
    uint32_t v1 = ev(1, RAVEL__OP_BARRIER_LEAVE, 0, NO, 0);
    uint32_t v2 = ev(2, RAVEL__OP_BARRIER_LEAVE, 0, NO, 0);
    n = ravel__graph_arrows(x, x->nevents, &a);
    CHECK_EQ(n, 6);
    CHECK(has(a, n, b1, v0) && has(a, n, b2, v0) && has(a, n, b0, v1) &&
          has(a, n, b2, v1) && has(a, n, b0, v2) && has(a, n, b1, v2));
    free(a);
}

/* ---- random traces against a brute-force reduction ------------------- */

#define RT_THREADS 4
#define RT_LOCKS 3
#define RT_EVENTS 60

CHECK_TEST(random_lock_traces_match_brute_force)
{
    struct ravel__prng g;
    ravel__prng_seed(&g, 12345, 0);
    unsigned bad = 0;
    for (int round = 0; round < 300; round++) {
        fresh(RT_THREADS, RT_LOCKS);
        uint32_t owner[RT_LOCKS];
        for (int m = 0; m < RT_LOCKS; m++)
            owner[m] = NO;
        while (x->nevents < RT_EVENTS) {
            uint32_t t = (uint32_t)(ravel__prng_next(&g) % RT_THREADS);
            uint32_t m = (uint32_t)(ravel__prng_next(&g) % RT_LOCKS);
            if (owner[m] == NO) {
                ev(t, M(LOCK), m, NO, 0);
                owner[m] = t;
            } else if (owner[m] == t) {
                ev(t, M(UNLOCK), m, NO, 0);
                owner[m] = NO;
            } else {
                ev(t, A(LOAD), m, NO, 0); /* no synchronisation */
            }
        }
        uint32_t n = x->nevents;
        struct ravel__arrow *e, *a;
        int64_t ne = ravel__graph_edges(x, n, &e);
        int64_t na = ravel__graph_arrows(x, n, &a);
        /* reach[i][j]: a path i -> j (i < j) in program order plus
         * edges, as 64-bit masks over j. */
        static uint64_t succ[RT_EVENTS], reach[RT_EVENTS];
        for (uint32_t i = 0; i < n; i++) {
            succ[i] = 0;
            for (uint32_t j = i + 1; j < n; j++)
                if (x->events[j].thread == x->events[i].thread) {
                    succ[i] |= 1ULL << j;
                    break;
                }
        }
        for (int64_t k = 0; k < ne; k++)
            succ[e[k].from] |= 1ULL << e[k].to;
        for (uint32_t i = n; i-- > 0;) {
            reach[i] = succ[i];
            for (uint32_t j = i + 1; j < n; j++)
                if (succ[i] >> j & 1)
                    reach[i] |= reach[j];
        }
        /* Every inter-thread pair in happens-before that no other path
         * explains is an arrow, and nothing else is. */
        int64_t expect = 0;
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t j = i + 1; j < n; j++) {
                if (x->events[i].thread == x->events[j].thread ||
                    !(reach[i] >> j & 1))
                    continue;
                bool other = false;
                for (uint32_t s = i + 1; s < n && !other; s++)
                    if ((succ[i] >> s & 1) && s != j && (reach[s] >> j & 1))
                        other = true;
                bool direct = succ[i] >> j & 1;
                if (direct && !other) {
                    expect++;
                    bad += !has(a, na, i, j);
                }
            }
        }
        bad += na != expect;
        free(e);
        free(a);
    }
    CHECK_EQ(bad, 0);
}

int main(void)
{
    return CHECK_RUN(message_passing_through_a_mutex,
                     a_chain_collapses_to_one_arrow,
                     release_acquire_pairs_synchronise_relaxed_do_not,
                     condition_variables_semaphores_barriers,
                     random_lock_traces_match_brute_force);
}
