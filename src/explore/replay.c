/*
 * replay.c - the replay strategy: follow a ticket's schedule exactly.
 *
 * At step i it chooses the thread the ticket names for step i; at the j-th
 * data choice, the recorded value. If the program does not offer that
 * choice (the named thread is not enabled, the program takes more steps
 * than recorded, a data choice has another range) the replay has diverged:
 * the program is not the one recorded, or it depends on something ravel
 * does not control (time, addresses, input). The strategy then stops with
 * an error naming the step, rather than report something that did not
 * happen.
 */
#include "strategy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct replay_strategy {
    struct ravel__strategy base;
    const struct ravel__ticket *t;
    uint32_t next_value;
    uint32_t run, run_off, run_step; /* cursor: step run_step is
                                        runs[run] offset run_off */
};

/* Name of the thread the ticket runs at `step` (sequential access is
 * O(1); any other access rewinds). */
static const char *step_name(struct replay_strategy *r, uint32_t step)
{
    const struct ravel__ticket *t = r->t;
    if (step < r->run_step) {
        r->run = r->run_off = r->run_step = 0;
    }
    while (r->run_step < step) {
        uint32_t left = t->runs[r->run].count - r->run_off;
        uint32_t adv = step - r->run_step;
        if (adv < left) {
            r->run_off += adv;
            r->run_step += adv;
        } else {
            r->run_step += left;
            r->run++;
            r->run_off = 0;
        }
    }
    return t->names[t->runs[r->run].name];
}

static void replay_begin(struct ravel__strategy *s, uint64_t number)
{
    struct replay_strategy *r = (struct replay_strategy *)s;
    r->next_value = 0;
    r->run = r->run_off = r->run_step = 0;
}

static uint32_t replay_choose_thread(struct ravel__strategy *s,
                                     const struct ravel__exec *x,
                                     const uint32_t *enabled, uint32_t n,
                                     uint32_t current)
{
    struct replay_strategy *r = (struct replay_strategy *)s;
    uint32_t step = x->nevents;
    if (step >= r->t->nsteps) {
        snprintf(s->error, sizeof s->error,
                 "replay diverged at step %u: the ticket records %u steps "
                 "but the program goes on",
                 step + 1, r->t->nsteps);
        return RAVEL__NONE;
    }
    const char *want = step_name(r, step);
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(x->threads[enabled[i]].name, want))
            return i;
    snprintf(s->error, sizeof s->error,
             "replay diverged at step %u: the ticket runs thread %s, which "
             "is not enabled there",
             step + 1, want);
    return RAVEL__NONE;
}

static uint32_t replay_choose_value(struct ravel__strategy *s,
                                    const struct ravel__exec *x, uint32_t n)
{
    struct replay_strategy *r = (struct replay_strategy *)s;
    if (r->next_value >= r->t->nvchoices) {
        snprintf(s->error, sizeof s->error,
                 "replay diverged at step %u: a data choice the ticket does "
                 "not record",
                 x->nevents + 1);
        return RAVEL__NONE;
    }
    const struct ravel__ticket_vchoice *c = &r->t->vchoices[r->next_value++];
    if (c->step != x->nevents || c->n != n || c->value >= n) {
        snprintf(s->error, sizeof s->error,
                 "replay diverged at step %u: the recorded data choice "
                 "(step %u, %u options) does not match (%u options)",
                 x->nevents + 1, c->step + 1, c->n, n);
        return RAVEL__NONE;
    }
    return c->value;
}

static bool replay_end(struct ravel__strategy *s, const struct ravel__exec *x,
                       bool blocked)
{
    s->exhausted = true;
    s->stats->complete = 1;
    if (blocked)
        s->stats->blocked++;
    else
        s->stats->traces = 1;
    return false;
}

static void replay_finish(struct ravel__strategy *s)
{
    snprintf(s->stats->guarantee, sizeof s->stats->guarantee,
             "replayed the ticket's schedule");
}

static void replay_destroy(struct ravel__strategy *s)
{
    free(s);
}

static const struct ravel__strategy_ops replay_ops = {
    "replay",   replay_begin,  replay_choose_thread, replay_choose_value,
    replay_end, replay_finish, replay_destroy,       NULL,
    NULL,
    NULL, NULL, NULL,
};

struct ravel__strategy *ravel__replay_new(const struct ravel__strategy_config *c)
{
    struct replay_strategy *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->base.ops = &replay_ops;
    r->base.stats = c->stats;
    r->base.wake_spins = true;
    r->t = c->ticket;
    c->stats->bound = -1;
    return &r->base;
}
