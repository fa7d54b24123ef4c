/*
 * traces.c - distinct traces (see traces.h).
 */
#include "traces.h"

#include <stdlib.h>

bool ravel__traces_add_fingerprint(struct ravel__traces *t, uint64_t fp)
{
    if (fp == 0)
        fp = 1;
    if ((t->n + 1) * 2 > t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 1024;
        uint64_t *ns = calloc(ncap, sizeof *ns);
        RAVEL__CHECK(ns != NULL);
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->set[i])
                continue;
            size_t j = t->set[i] & (ncap - 1);
            while (ns[j])
                j = (j + 1) & (ncap - 1);
            ns[j] = t->set[i];
        }
        free(t->set);
        t->set = ns;
        t->cap = ncap;
    }
    size_t j = fp & (t->cap - 1);
    for (; t->set[j]; j = (j + 1) & (t->cap - 1))
        if (t->set[j] == fp)
            return false;
    t->set[j] = fp;
    t->n++;
    return true;
}

bool ravel__traces_add(struct ravel__traces *t, const struct ravel__exec *x)
{
    uint64_t fp;
    if (t->one_run) {
        if (t->n == 0 && t->unknown == 0) {
            t->n = 1;
            return true;
        }
        t->unknown++;
        return false;
    }
    /* --memory-model rc11: distinct execution graphs (src/rt/rc11.c). */
    if (x->memory_model == RAVEL__MM_RC11 && x->graph_fp)
        return ravel__traces_add_fingerprint(t, x->graph_fp);
    int rc = ravel__hbfp_fingerprint(&t->fp, x, &fp);
    if (rc > 0) {
        t->hb.sums = true;
        rc = ravel__hb_compute(&t->hb, x, 0, NULL, NULL);
        if (rc == 0)
            fp = ravel__hb_fingerprint(&t->hb, x);
    }
    if (rc != 0) {
        t->unknown++;
        return false;
    }
    return ravel__traces_add_fingerprint(t, fp);
}

void ravel__traces_free(struct ravel__traces *t)
{
    ravel__hbfp_free(&t->fp);
    ravel__hb_free(&t->hb);
    free(t->set);
    t->set = NULL;
    t->cap = t->n = 0;
}
