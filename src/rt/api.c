/*
 * api.c - the public API in include/ravel.h: declared results, data
 * choices, assumptions and atomic sections. None of them is a scheduling
 * point; outside ravel's control they do nothing (ravel_choose: 0).
 */
#include "rt.h"

#include "../../include/ravel.h"

RAVEL__EXPORT void ravel_result(long value)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return;
    ravel__rt.x->has_result = 1;
    ravel__rt.x->result = value;
    ravel__rt.x->result_pc = RAVEL__CALLER_PC;
}

RAVEL__EXPORT unsigned ravel_choose(unsigned n)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return 0;
    return ravel__choose_data(w, n);
}

RAVEL__EXPORT void ravel_assume(int cond)
{
    struct ravel__worker *w = ravel__controlled();
    if (w && !cond)
        ravel__block_execution(w);
}

RAVEL__EXPORT void ravel_atomic_begin(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w && ravel__rt.x->threads[w->slot].atomic++ == 0)
        ravel__race_atomic_section(w->slot, true);
}

RAVEL__EXPORT void ravel_atomic_end(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w && ravel__rt.x->threads[w->slot].atomic &&
        --ravel__rt.x->threads[w->slot].atomic == 0)
        ravel__race_atomic_section(w->slot, false);
}

RAVEL__EXPORT void ravel_ignore_begin(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__rt.x->threads[w->slot].ignore++;
}

RAVEL__EXPORT void ravel_ignore_end(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w && ravel__rt.x->threads[w->slot].ignore)
        ravel__rt.x->threads[w->slot].ignore--;
}
