/*
 * api.c - the public API in include/ravel.h: declared results, data
 * choices, assumptions and atomic sections. Entering the outermost
 * atomic section is a scheduling point (section.c); a false assumption
 * inside one rolls the section back and waits. Outside ravel's control
 * they do nothing (ravel_choose: 0).
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
    if (!w || cond)
        return;
    /* In an atomic section: wait for another thread (section.c). */
    if (ravel__rt.x->threads[w->slot].atomic)
        ravel__section_assume_failed(w);
    ravel__block_execution(w);
}

RAVEL__EXPORT void ravel_atomic_begin(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return;
    if (ravel__rt.x->threads[w->slot].atomic == 0)
        ravel__section_enter(w, RAVEL__CALLER_PC);
    ravel__rt.x->threads[w->slot].atomic++;
}

RAVEL__EXPORT void ravel_atomic_end(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w && ravel__rt.x->threads[w->slot].atomic &&
        --ravel__rt.x->threads[w->slot].atomic == 0)
        ravel__section_leave(w);
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
