/*
 * strategy.c - building a strategy from the run's options.
 */
#include "strategy.h"

#include <stdio.h>
#include <string.h>

struct ravel__strategy *ravel__strategy_new(
    const struct ravel__strategy_config *c, char *err, size_t errlen)
{
    const char *n = c->name;
    bool systematic = !strcmp(n, "dfs") || !strcmp(n, "dpor");
    if ((c->preemption_bound >= 0 || c->delay_bound >= 0) && !systematic) {
        snprintf(err, errlen, "--preemption-bound and --delay-bound need "
                              "--strategy dfs or dpor");
        return NULL;
    }
    if (c->preemption_bound >= 0 && c->delay_bound >= 0) {
        snprintf(err, errlen, "use either --preemption-bound or --delay-bound");
        return NULL;
    }
    struct ravel__strategy *s = NULL;
    if (!strcmp(n, "random"))
        s = ravel__random_new(c);
    else if (!strcmp(n, "replay"))
        s = ravel__replay_new(c);
    else if (!strcmp(n, "pct"))
        s = ravel__pct_new(c);
    else if (!strcmp(n, "dfs"))
        s = ravel__fallback_new(c, false);
    else if (!strcmp(n, "dpor"))
        s = ravel__fallback_new(c, true);
    else if (!strcmp(n, "auto"))
        s = ravel__auto_new(c);
    else {
        snprintf(err, errlen, "unknown strategy '%s'", n);
        return NULL;
    }
    if (!s)
        snprintf(err, errlen, "cannot set up strategy '%s' (out of memory)",
                 n);
    return s;
}
