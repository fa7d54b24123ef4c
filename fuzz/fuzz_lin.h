/*
 * fuzz_lin.h - what the history-reader fuzzers share: read the input in
 * one format (or auto-detected) and, when it is a history, run every
 * model that accepts it through a small search budget and every
 * explanation, then the same again read as a Jepsen independent
 * history when its values are [key value] tuples, so
 * the fuzzer reaches the checker and the renderers with odd histories
 * too. The budget keeps each input fast (libFuzzer's timeout is for
 * hangs, not for exponential searches).
 */
#ifndef RAVEL_FUZZ_LIN_H
#define RAVEL_FUZZ_LIN_H

#include "../src/lin/check.h"
#include "../src/lin/explain.h"
#include "../src/lin/read.h"

#include <stdlib.h>

/* Search steps per model and input. */
#define FUZZ_LIN_STEPS 2000

/* Runs every model that accepts h through a small budget and every
 * explanation; `keys`: partition by the operations' keys, all decided. */
static inline void fuzz_lin_models(struct ravel__lin_history *h, bool keys)
{
    char err[512];
    for (int i = 0; ravel__lin_models[i]; i++) {
        const struct ravel__lin_model *m = ravel__lin_models[i];
        void *self;
        if (m->open(&self, h, NULL, err, sizeof err) != 0)
            continue;
        struct ravel__lin_options o = {0};
        o.max_steps = FUZZ_LIN_STEPS;
        o.max_memory = 1 << 20;
        o.by_key = o.all_keys = keys;
        struct ravel__lin_result r;
        if (ravel__lin_check(h, m, self, &o, &r, err, sizeof err) == 0) {
            struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
            ravel__lin_explain_text(h, m, self, &r, &sb);
            if (r.verdict == RAVEL__LIN_FAIL)
                ravel__lin_explain_json(h, m, self, &r, &sb);
            ravel__lin_explain_html(h, m, self, &r, "fuzz", &sb);
            ravel__sb_free(&sb);
            ravel__lin_result_free(&r);
        }
        m->close(self);
    }
}

static inline int fuzz_lin_one(const uint8_t *data, size_t size,
                               enum ravel__lin_format fmt)
{
    struct ravel__lin_history h;
    char err[512];
    if (ravel__lin_history_init(&h) != 0)
        return 0;
    if (ravel__lin_read((const char *)data, size, fmt, &h, err,
                        sizeof err) == 0) {
        fuzz_lin_models(&h, false);
        /* Again as a Jepsen independent history ([k v] tuples), when it
         * is one: every key decided, one verdict each. */
        if (ravel__lin_independent(&h, fmt != RAVEL__LIN_FMT_JSON, err,
                                   sizeof err) == 0)
            fuzz_lin_models(&h, true);
    }
    ravel__lin_history_free(&h);
    return 0;
}

#endif
