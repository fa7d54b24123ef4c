/*
 * api.c - the public API in include/ravel.h.
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
