/*
 * report_test.c - folding repeated steps: which blocks fold, which
 * positions stay visible, and the text line a folded block becomes.
 */
#include "report.h"

#include "../../tests/check.h"

#include <stdlib.h>

CHECK_TEST(a_period_two_loop_folds)
{
    /* a b | x y x y x y x y | c */
    uint64_t k[] = {1, 2, 7, 8, 7, 8, 7, 8, 7, 8, 3};
    struct ravel__fold *f;
    size_t n = ravel__report_fold(k, NULL, 11, &f);
    CHECK_EQ(n, 1);
    if (n == 1) {
        CHECK_EQ(f[0].start, 2);
        CHECK_EQ(f[0].period, 2);
        CHECK_EQ(f[0].reps, 4);
    }
    free(f);
}

CHECK_TEST(two_copies_do_not_fold)
{
    uint64_t k[] = {1, 2, 1, 2, 3, 3, 4};
    struct ravel__fold *f;
    CHECK_EQ(ravel__report_fold(k, NULL, 7, &f), 0);
    free(f);
}

CHECK_TEST(pinned_steps_stay_visible)
{
    /* Five copies of one step; the fourth is pinned (an arrow ends
     * there): the fold stops before it, and what follows can fold on its
     * own only if it repeats three times. */
    uint64_t k[] = {5, 5, 5, 5, 5, 5, 5, 5};
    bool pin[8] = {false, false, false, true, false, false, false, false};
    struct ravel__fold *f;
    size_t n = ravel__report_fold(k, pin, 8, &f);
    CHECK_EQ(n, 2);
    if (n == 2) {
        CHECK_EQ(f[0].start, 0);
        CHECK_EQ(f[0].reps, 3);
        CHECK_EQ(f[1].start, 3); /* the pinned step leads its block */
        CHECK_EQ(f[1].reps, 5);
    }
    free(f);
    /* The longest cover wins: period 3 over period 1 here. */
    uint64_t k2[] = {1, 1, 2, 1, 1, 2, 1, 1, 2, 1, 1, 2};
    n = ravel__report_fold(k2, NULL, 12, &f);
    CHECK_EQ(n, 1);
    if (n == 1) {
        CHECK_EQ(f[0].period, 3);
        CHECK_EQ(f[0].reps, 4);
    }
    free(f);
}

int main(void)
{
    return CHECK_RUN(a_period_two_loop_folds, two_copies_do_not_fold,
                     pinned_steps_stay_visible);
}
