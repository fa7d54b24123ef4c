/*
 * view.c - the lane picture of an execution, as DOT and as HTML (see
 * view.h).
 *
 * One model, two writers. `build` turns the execution into items, in
 * the order of the trace:
 *
 *     lane 1          lane 1.1            lane 1.2
 *     s2 create 1.1 ------------> s4 start
 *     s3 create 1.2 ---------------------------------> s6 start
 *                     s5 lock alice+16    s7 lock bob+16
 *                     [blocked: lock bob] [blocked: lock alice]
 *
 * A step item is one event; a fold item stands for the repeated copies
 * of a block of a lane's steps (the first copy stays as step items); an
 * end item closes a lane that did not finish: the failure, a racing
 * access, or what a blocked thread waits for. Arrows join step items
 * (graph.c's reduction; an arrow's endpoints are never folded away).
 */
#include "view.h"

#include "ci.h"
#include "graph.h"
#include "symbolize.h"
#include "../common/hash.h"
#include "../common/json.h"
#include "../lin/explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for "ravel replay --gdb " and a ticket path. */
#define PATH_MAX_CMD 4200

enum item_kind { IT_STEP, IT_FOLD, IT_END };
enum mark { MK_NONE, MK_FAIL, MK_RACE, MK_BLOCKED, MK_AT };

struct item {
    uint8_t kind, mark;
    uint32_t lane;
    uint32_t event;        /* step: the event; fold: first hidden event */
    uint32_t last;         /* fold: last hidden event */
    uint32_t reps, period; /* fold: hidden copies, steps per copy */
    uint32_t waits;        /* end of a blocked lane: the thread it
                              waits for (NONE: none known) */
    char *text;            /* what it shows (malloc'ed) */
    char loc[160];         /* "func file:line" or "" */
    char src[224];         /* "file:line" key of its source excerpt */
};

struct step {
    char *text;
    struct ravel__frame f;
    bool has_f;
};

struct view {
    const struct ravel__exec *x;
    uint32_t from, n; /* the window of events shown */
    struct step *steps; /* [n - from] */
    struct item *items;
    size_t nitems, cap;
    struct ravel__arrow *arrows;
    int64_t narrows;
    uint32_t dropped; /* arrows from before the window */
    uint32_t *item_of; /* event - from -> item index (NONE: folded) */
};

static char *dupstr(const char *s)
{
    size_t l = strlen(s);
    char *d = malloc(l + 1);
    if (d)
        memcpy(d, s, l + 1);
    return d;
}

static struct item *add_item(struct view *v)
{
    if (v->nitems == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 64;
        struct item *ni = realloc(v->items, nc * sizeof *ni);
        if (!ni)
            return NULL;
        v->items = ni;
        v->cap = nc;
    }
    struct item *it = &v->items[v->nitems++];
    memset(it, 0, sizeof *it);
    return it;
}

static void on_step(void *ctx, uint32_t ev, const char *text,
                    const struct ravel__frame *where)
{
    struct view *v = ctx;
    struct step *s = &v->steps[ev - v->from];
    s->text = dupstr(text);
    if (where) {
        s->f = *where;
        s->has_f = true;
    }
}

static void set_loc(struct item *it, const struct ravel__frame *f)
{
    if (!f || !f->line) {
        if (f && f->func[0] && strcmp(f->func, "??"))
            snprintf(it->loc, sizeof it->loc, "%s", f->func);
        return;
    }
    snprintf(it->loc, sizeof it->loc, "%s %s:%u", f->func,
             ravel__basename(f->file), f->line);
    snprintf(it->src, sizeof it->src, "%s:%u", f->file, f->line);
}

/* The innermost frame of a stack in the program's code. */
static bool program_frame(const uint64_t *pcs, size_t n, bool exact0,
                          struct ravel__frame *out)
{
    for (size_t i = 0; i < n; i++) {
        ravel__symbolize1(pcs[i], i == 0 && exact0, out);
        if (!out->runtime && out->line)
            return true;
    }
    return false;
}

static void end_item(struct view *v, uint32_t lane, uint8_t mark,
                     const char *text, const struct ravel__frame *f)
{
    struct item *it = add_item(v);
    if (!it)
        return;
    it->kind = IT_END;
    it->mark = mark;
    it->waits = RAVEL__NONE;
    it->lane = lane;
    it->event = v->n;
    it->text = dupstr(text);
    if (f)
        set_loc(it, f);
}

static const char *access_word(const struct ravel__race_access *a)
{
    if (a->freed)
        return "free";
    if (a->atomic)
        return a->write ? "atomic write" : "atomic read";
    return a->write ? "write" : "read";
}

static void race_ends(struct view *v)
{
    const struct ravel__exec *x = v->x;
    const struct ravel__race *r = &x->race;
    char what[160] = "";
    if (!ravel__symbolize_data(r->cur.addr, what, sizeof what)) {
        if (r->origin == RAVEL__ORIGIN_HEAP)
            snprintf(what, sizeof what, "heap#%llu+%llu",
                     (unsigned long long)r->block_seq,
                     (unsigned long long)(r->cur.addr - r->block));
        else
            snprintf(what, sizeof what, "memory");
    }
    const struct ravel__race_access *a[2] = {&r->prev, &r->cur};
    for (int i = 0; i < 2; i++) {
        if (a[i]->thread >= x->nthreads)
            continue;
        char text[400];
        snprintf(text, sizeof text,
                 i ? "%s of %s (%llu bytes): races with thread %s's %s"
                   : "earlier %s of %s (%llu bytes), not ordered before "
                     "thread %s's %s",
                 access_word(a[i]), what, (unsigned long long)a[i]->size,
                 x->threads[a[1 - i]->thread].name, access_word(a[1 - i]));
        struct ravel__frame f;
        bool ok = program_frame(a[i]->frames, a[i]->nframes, false, &f);
        end_item(v, a[i]->thread, MK_RACE, text, ok ? &f : NULL);
        if (i != 0 || !v->nitems)
            continue;
        /* The earlier access came before its thread finished: put it
         * above the thread's finish step. */
        size_t e = v->nitems - 1, k = e;
        while (k-- > 0) {
            if (v->items[k].lane != a[i]->thread)
                continue;
            if (v->items[k].kind == IT_STEP &&
                x->events[v->items[k].event].kind == RAVEL__OP_FINISH) {
                struct item moved = v->items[e];
                memmove(&v->items[k + 1], &v->items[k],
                        (e - k) * sizeof *v->items);
                v->items[k] = moved;
                for (uint32_t j = 0; j < v->n - v->from; j++)
                    if (v->item_of[j] != RAVEL__NONE && v->item_of[j] >= k)
                        v->item_of[j]++;
            }
            break;
        }
    }
}

static void failure_ends(struct view *v)
{
    const struct ravel__exec *x = v->x;
    const struct ravel__failure *fl = &x->failure;
    if (fl->kind == RAVEL__FAIL_DATA_RACE) {
        race_ends(v);
        return;
    }
    bool judged = fl->kind == RAVEL__FAIL_POSTCONDITION ||
                  fl->kind == RAVEL__FAIL_LINEARIZABILITY;
    for (uint32_t t = 0; t < x->nthreads; t++) {
        const struct ravel__thread *th = &x->threads[t];
        bool failing = !judged && t == fl->thread &&
                       fl->kind != RAVEL__FAIL_DEADLOCK;
        if (!ravel__thread_pending(x, t) && !failing)
            continue;
        char text[RAVEL__MSG_MAX + 80];
        struct ravel__frame f;
        bool ok = false;
        if (failing) {
            char head[RAVEL__MSG_MAX + 16];
            ravel__report_headline(x, head, sizeof head);
            snprintf(text, sizeof text, "%s: %s",
                     ravel__fail_kind_name(fl->kind), head);
            if (fl->kind == RAVEL__FAIL_ASSERTION && fl->line) {
                memset(&f, 0, sizeof f);
                snprintf(f.func, sizeof f.func, "%.95s", fl->func);
                snprintf(f.file, sizeof f.file, "%.191s", fl->file);
                f.line = fl->line;
                ok = true;
            } else if (fl->nframes) {
                ok = program_frame(fl->frames, fl->nframes, fl->frames_exact,
                                   &f);
            } else if (fl->pc) {
                ok = program_frame(&fl->pc, 1, false, &f);
            }
            end_item(v, t, MK_FAIL, text, ok ? &f : NULL);
            continue;
        }
        char what[520];
        int r = ravel__report_pending(x, t, what, sizeof what);
        snprintf(text, sizeof text, "%s",
                 strncmp(what, "is ", 3) ? what : what + 3);
        if (th->pending.pc)
            ok = program_frame(&th->pending.pc, 1, false, &f);
        if (!ok) {
            /* In the C library (pthread_join): the caller's frame. */
            uint64_t d = th->depth;
            uint64_t pcs[RAVEL__STACK_FRAMES];
            size_t k = 0;
            for (uint64_t j = 0; j < d && j < RAVEL__STACK_FRAMES; j++)
                pcs[k++] = th->frames[(d - 1 - j) % RAVEL__STACK_FRAMES];
            ok = program_frame(pcs, k, false, &f);
        }
        end_item(v, t, r == 2 ? MK_BLOCKED : MK_AT, text, ok ? &f : NULL);
        uint32_t by = r == 2 ? ravel__blocker(x, t) : RAVEL__NONE;
        if (by != RAVEL__NONE && by != t && by < x->nthreads && v->nitems &&
            v->items[v->nitems - 1].lane == t)
            v->items[v->nitems - 1].waits = by;
    }
}

static uint64_t item_key(const struct step *s, const struct ravel__event *e)
{
    uint64_t h = ravel__fnv1a(s->text ? s->text : "", s->text ?
                              strlen(s->text) : 0, RAVEL__FNV_INIT);
    return ravel__fnv1a(&e->pc, sizeof e->pc, h);
}

static void view_free(struct view *v)
{
    if (v->steps)
        for (uint32_t i = 0; i < v->n - v->from; i++)
            free(v->steps[i].text);
    for (size_t i = 0; i < v->nitems; i++)
        free(v->items[i].text);
    free(v->steps);
    free(v->items);
    free(v->arrows);
    free(v->item_of);
}

/* Appends an arrow beside the reduction's (*a holds *m of *cap),
 * growing the array; false when memory runs out. */
static bool add_arrow(struct ravel__arrow **a, int64_t *m, int64_t *cap,
                      uint32_t from, uint32_t to, uint8_t kind)
{
    if (*m == *cap) {
        size_t nc = (size_t)*cap * 2 + 8;
        struct ravel__arrow *g = realloc(*a, nc * sizeof *g);
        if (!g)
            return false;
        *a = g;
        *cap = (int64_t)nc;
    }
    (*a)[(*m)++] = (struct ravel__arrow){from, to, kind};
    return true;
}

static bool build(struct view *v, const struct ravel__exec *x)
{
    memset(v, 0, sizeof *v);
    v->x = x;
    v->n = x->nevents;
    v->from = v->n > RAVEL__VIEW_STEPS ? v->n - RAVEL__VIEW_STEPS : 0;
    uint32_t w = v->n - v->from;
    v->steps = calloc(w ? w : 1, sizeof *v->steps);
    v->item_of = malloc((w ? w : 1) * sizeof *v->item_of);
    if (!v->steps || !v->item_of)
        return false;
    ravel__report_flow_index(x); /* the steps' texts and the data arrows */
    ravel__report_steps(x, v->from, v->n, on_step, v);
    struct ravel__arrow *a;
    int64_t na = ravel__graph_arrows(x, v->n, &a);
    if (na < 0) {
        a = NULL;
        na = 0;
    }
    /* Arrows into the window from before it cannot be drawn. */
    int64_t m = 0;
    for (int64_t k = 0; k < na; k++) {
        if (a[k].from >= v->from)
            a[m++] = a[k];
        else if (a[k].to >= v->from)
            v->dropped++;
    }
    /* Data flow through descriptors, drawn beside the reduction: each
     * read in the window from each write in it (of another thread) whose
     * units it took. */
    int64_t cap = na; /* a holds na entries */
    for (uint32_t i = v->from; i < v->n; i++) {
        uint32_t src[8];
        uint32_t k = x->events[i].kind == RAVEL__OP_FD_READ
                         ? ravel__report_flow(x, i, src, RAVEL__COUNT(src))
                         : 0;
        for (uint32_t j = 0; j < k; j++) {
            if (src[j] < v->from ||
                x->events[src[j]].thread == x->events[i].thread)
                continue;
            if (!add_arrow(&a, &m, &cap, src[j], i, RAVEL__ARROW_DATA))
                break;
        }
    }
    ravel__report_flow_release();
    /* --memory-model rc11: a load that read an older store than the
     * newest one, from that store (src/rt/rc11.c flags it). */
    for (uint32_t i = v->from;
         x->memory_model == RAVEL__MM_RC11 && i < v->n; i++) {
        const struct ravel__event *ev = &x->events[i];
        if (ev->kind != RAVEL__OP_ATOMIC_LOAD ||
            !(ev->flags & RAVEL__EV_STALE) || ev->aux >= i ||
            ev->aux < v->from || x->events[ev->aux].thread == ev->thread)
            continue;
        if (!add_arrow(&a, &m, &cap, ev->aux, i, RAVEL__ARROW_READ))
            break;
    }
    v->arrows = a;
    v->narrows = m;

    /* Fold each lane's repeated blocks; arrow endpoints and a lane's
     * last step stay visible. */
    bool *pin = calloc(w ? w : 1, sizeof *pin);
    uint32_t *hidden = malloc((w ? w : 1) * sizeof *hidden); /* fold id */
    uint64_t *key = malloc((w ? w : 1) * sizeof *key);
    bool *lpin = malloc((w ? w : 1) * sizeof *lpin);
    uint32_t *pos = malloc((w ? w : 1) * sizeof *pos);
    struct { uint32_t first, last, reps, period; } *fd = NULL;
    size_t nfd = 0, capfd = 0;
    if (!pin || !hidden || !key || !lpin || !pos) {
        free(pin);
        free(hidden);
        free(key);
        free(lpin);
        free(pos);
        return false;
    }
    for (int64_t k = 0; k < m; k++) {
        pin[a[k].from - v->from] = true;
        pin[a[k].to - v->from] = true;
    }
    for (uint32_t i = 0; i < w; i++)
        hidden[i] = RAVEL__NONE;
    for (uint32_t t = 0; t < x->nthreads; t++) {
        size_t len = 0;
        for (uint32_t i = 0; i < w; i++) {
            if (x->events[v->from + i].thread != t)
                continue;
            key[len] = item_key(&v->steps[i], &x->events[v->from + i]);
            lpin[len] = pin[i];
            pos[len++] = i;
        }
        if (len)
            lpin[len - 1] = true;
        struct ravel__fold *folds;
        size_t nf = ravel__report_fold(key, lpin, len, &folds);
        for (size_t k = 0; k < nf; k++) {
            if (nfd == capfd) {
                size_t nc = capfd ? capfd * 2 : 16;
                void *nv = realloc(fd, nc * sizeof *fd);
                if (!nv)
                    break;
                fd = nv;
                capfd = nc;
            }
            uint32_t s0 = folds[k].start + folds[k].period;
            uint32_t s1 = folds[k].start + folds[k].period * folds[k].reps;
            fd[nfd].first = pos[s0] + v->from;
            fd[nfd].last = pos[s1 - 1] + v->from;
            fd[nfd].reps = folds[k].reps - 1;
            fd[nfd].period = folds[k].period;
            for (uint32_t j = s0; j < s1; j++)
                hidden[pos[j]] = (uint32_t)nfd;
            nfd++;
        }
        free(folds);
    }
    for (uint32_t i = 0; i < w; i++) {
        uint32_t ev = v->from + i;
        v->item_of[i] = RAVEL__NONE;
        if (hidden[i] != RAVEL__NONE) {
            if (fd[hidden[i]].first != ev)
                continue;
            struct item *it = add_item(v);
            if (!it)
                break;
            it->kind = IT_FOLD;
            it->lane = x->events[ev].thread;
            it->event = ev;
            it->last = fd[hidden[i]].last;
            it->reps = fd[hidden[i]].reps;
            it->period = fd[hidden[i]].period;
            /* The block's text: its steps joined by "; ". */
            struct ravel__strbuf tb = RAVEL__STRBUF_INIT;
            uint32_t got = 0;
            for (uint32_t j = i; j < w && got < it->period; j++) {
                if (x->events[v->from + j].thread != it->lane)
                    continue;
                if (got++)
                    ravel__sb_add(&tb, "; ");
                ravel__sb_add(&tb, v->steps[j].text ? v->steps[j].text : "");
            }
            it->text = dupstr(ravel__sb_str(&tb));
            ravel__sb_free(&tb);
            set_loc(it, v->steps[i].has_f ? &v->steps[i].f : NULL);
            continue;
        }
        struct item *it = add_item(v);
        if (!it)
            break;
        it->kind = IT_STEP;
        it->lane = x->events[ev].thread;
        it->event = ev;
        it->text = dupstr(v->steps[i].text ? v->steps[i].text : "");
        uint16_t k = x->events[ev].kind;
        if (k == RAVEL__OP_PLAIN_READ || k == RAVEL__OP_PLAIN_WRITE)
            it->mark = MK_RACE;
        set_loc(it, v->steps[i].has_f ? &v->steps[i].f : NULL);
        v->item_of[i] = (uint32_t)(v->nitems - 1);
    }
    free(pin);
    free(hidden);
    free(key);
    free(lpin);
    free(pos);
    free(fd);
    if (x->failure.kind != RAVEL__FAIL_NONE)
        failure_ends(v);
    return true;
}

/* ---- threads of a finding ------------------------------------------- */

void ravel__view_threads(const struct ravel__exec *x, char *buf, size_t n)
{
    const struct ravel__failure *f = &x->failure;
    buf[0] = 0;
    size_t len = 0;
#define ADD(name)                                                              \
    do {                                                                       \
        int k_ = snprintf(buf + len, n - len, "%s%s", len ? ", " : "",        \
                          (name));                                             \
        if (k_ > 0 && (size_t)k_ < n - len)                                    \
            len += (size_t)k_;                                                 \
    } while (0)
    if (f->kind == RAVEL__FAIL_DATA_RACE) {
        if (x->race.prev.thread < x->nthreads)
            ADD(x->threads[x->race.prev.thread].name);
        if (x->race.cur.thread < x->nthreads &&
            x->race.cur.thread != x->race.prev.thread)
            ADD(x->threads[x->race.cur.thread].name);
    } else if (f->kind == RAVEL__FAIL_DEADLOCK ||
               f->kind == RAVEL__FAIL_STEP_LIMIT) {
        for (uint32_t t = 0; t < x->nthreads; t++)
            if (ravel__thread_pending(x, t))
                ADD(x->threads[t].name);
    } else if (f->kind == RAVEL__FAIL_POSTCONDITION ||
               f->kind == RAVEL__FAIL_LINEARIZABILITY) {
        for (uint32_t t = 0; t < x->nthreads; t++)
            ADD(x->threads[t].name);
    } else if (f->thread < x->nthreads) {
        ADD(x->threads[f->thread].name);
    }
#undef ADD
}

/* ---- DOT ---------------------------------------------------------------- */

/* A DOT double-quoted string's contents: quotes and backslashes escaped,
 * newlines as \n, other control characters and bytes that are not UTF-8
 * as the visible text \xNN. */
static void dot_text(struct ravel__strbuf *sb, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), i = 0;
    while (i < n) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            ravel__sb_addc(sb, '\\');
            ravel__sb_addc(sb, (char)c);
            i++;
        } else if (c == '\n') {
            ravel__sb_add(sb, "\\n");
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            ravel__sb_printf(sb, "\\\\x%02x", c);
            i++;
        } else {
            size_t l = ravel__utf8_len(p + i, n - i);
            if (l == 0) {
                ravel__sb_printf(sb, "\\\\x%02x", c);
                i++;
            } else {
                ravel__sb_addn(sb, s + i, l);
                i += l;
            }
        }
    }
}

static const char *mark_color(uint8_t m)
{
    switch (m) {
    case MK_FAIL: return "#ffd9de";
    case MK_RACE: return "#ffe7c2";
    case MK_BLOCKED: return "#fff3b0";
    default: return "#ffffff";
    }
}

void ravel__view_dot(struct ravel__strbuf *sb,
                     const struct ravel__report_ctx *c)
{
    const struct ravel__exec *x = c->x;
    struct view v;
    if (!build(&v, x)) {
        view_free(&v);
        return;
    }
    char head[RAVEL__MSG_MAX + 64];
    ravel__sb_add(sb, "digraph ravel {\n  graph [rankdir=TB, newrank=true, "
                      "labelloc=t, fontname=\"monospace\", label=\"");
    if (x->failure.kind != RAVEL__FAIL_NONE) {
        ravel__report_headline(x, head, sizeof head);
        ravel__sb_printf(sb, "%s: ", ravel__fail_kind_name(x->failure.kind));
        dot_text(sb, head);
        ravel__sb_add(sb, "\\n");
    }
    ravel__sb_printf(sb, "%s, execution %llu of the %s strategy (seed "
                         "%llu)",
                     c->program ? c->program : "program",
                     (unsigned long long)(c->execution ? c->execution
                                                       : x->number + 1),
                     c->strategy ? c->strategy : "?",
                     (unsigned long long)c->seed);
    if (v.from)
        ravel__sb_printf(sb, "\\nthe first %u steps are not shown", v.from);
    ravel__sb_add(sb, "\"];\n  node [shape=box, style=\"rounded,filled\", "
                      "fillcolor=\"#ffffff\", fontname=\"monospace\", "
                      "fontsize=10];\n  edge [fontname=\"monospace\", "
                      "fontsize=9];\n");
    for (uint32_t t = 0; t < x->nthreads; t++) {
        bool any = false;
        for (size_t i = 0; i < v.nitems && !any; i++)
            any = v.items[i].lane == t;
        if (!any)
            continue;
        ravel__sb_printf(sb, "  subgraph cluster_%u {\n    label=\"thread ",
                         t);
        dot_text(sb, x->threads[t].name);
        ravel__sb_add(sb, "\";\n    color=\"#bbbbbb\";\n");
        size_t prev = (size_t)-1;
        for (size_t i = 0; i < v.nitems; i++) {
            const struct item *it = &v.items[i];
            if (it->lane != t)
                continue;
            ravel__sb_printf(sb, "    n%zu [label=\"", i);
            if (it->kind == IT_STEP)
                ravel__sb_printf(sb, "%u: ", it->event + 1);
            else if (it->kind == IT_FOLD)
                ravel__sb_printf(sb, "steps %u-%u: %u more time%s: ",
                                 it->event + 1, it->last + 1, it->reps,
                                 it->reps == 1 ? "" : "s");
            dot_text(sb, it->text ? it->text : "");
            if (it->loc[0]) {
                ravel__sb_add(sb, "\\n");
                dot_text(sb, it->loc);
            }
            ravel__sb_printf(sb, "\", fillcolor=\"%s\"%s];\n",
                             mark_color(it->mark),
                             it->kind == IT_FOLD ? ", style=\"dashed,rounded,"
                                                   "filled\""
                                                 : "");
            if (prev != (size_t)-1)
                ravel__sb_printf(sb, "    n%zu -> n%zu [style=dotted, "
                                     "arrowhead=none, color=\"#999999\", "
                                     "weight=10];\n",
                                 prev, i);
            prev = i;
        }
        ravel__sb_add(sb, "  }\n");
    }
    for (int64_t k = 0; k < v.narrows; k++) {
        uint32_t fi = v.item_of[v.arrows[k].from - v.from];
        uint32_t ti = v.item_of[v.arrows[k].to - v.from];
        if (fi == RAVEL__NONE || ti == RAVEL__NONE)
            continue;
        if (v.arrows[k].kind == RAVEL__ARROW_DATA ||
            v.arrows[k].kind == RAVEL__ARROW_READ)
            ravel__sb_printf(sb, "  n%u -> n%u [color=\"#2a8a3a\", "
                                 "style=dashed, constraint=false, "
                                 "xlabel=\"%s\"];\n",
                             fi, ti,
                             ravel__arrow_kind_name(v.arrows[k].kind));
        else
            ravel__sb_printf(sb, "  n%u -> n%u [color=\"#1f5fbf\", "
                                 "penwidth=1.5, xlabel=\"%s\"];\n",
                             fi, ti,
                             ravel__arrow_kind_name(v.arrows[k].kind));
    }
    /* A blocked thread waits for the thread holding what it needs: to
     * that thread's last item. */
    for (size_t i = 0; i < v.nitems; i++) {
        if (v.items[i].kind != IT_END || v.items[i].waits == RAVEL__NONE)
            continue;
        size_t last = (size_t)-1;
        for (size_t j = 0; j < v.nitems; j++)
            if (v.items[j].lane == v.items[i].waits)
                last = j;
        if (last != (size_t)-1)
            ravel__sb_printf(sb, "  n%zu -> n%zu [style=dashed, "
                                 "color=\"#a08500\", constraint=false, "
                                 "xlabel=\"waits for\"];\n",
                             i, last);
    }
    ravel__sb_add(sb, "}\n");
    view_free(&v);
}

/* ---- the finding as JSON for the HTML page ---------------------------- */

static const char *mark_name(uint8_t m)
{
    static const char *const n[] = {"", "fail", "race", "blocked", "at"};
    return m < RAVEL__COUNT(n) ? n[m] : "";
}

/* Source excerpts: the file is read once per finding; lines around each
 * item's line. */
#define SRC_AROUND 2
#define SRC_MAX_FILE (4u << 20)

struct srcfile {
    char path[192];
    char *text; /* NULL: unreadable */
    size_t len;
};

static const struct srcfile *src_get(struct srcfile *fs, size_t *nfs,
                                     size_t max, const char *path)
{
    for (size_t i = 0; i < *nfs; i++)
        if (!strcmp(fs[i].path, path))
            return &fs[i];
    if (*nfs == max)
        return NULL;
    struct srcfile *f = &fs[(*nfs)++];
    snprintf(f->path, sizeof f->path, "%.191s", path);
    f->text = NULL;
    f->len = 0;
    FILE *in = fopen(path, "rb");
    if (!in)
        return f;
    char *buf = malloc(SRC_MAX_FILE + 1);
    if (buf) {
        f->len = fread(buf, 1, SRC_MAX_FILE, in);
        buf[f->len] = 0;
        f->text = buf;
    }
    fclose(in);
    return f;
}

static void src_lines(struct ravel__strbuf *js, const struct srcfile *f,
                      unsigned line)
{
    unsigned lo = line > SRC_AROUND ? line - SRC_AROUND : 1;
    unsigned hi = line + SRC_AROUND;
    ravel__sb_printf(js, "{\"first\":%u,\"line\":%u,\"lines\":[", lo, line);
    const char *p = f->text, *end = f->text + f->len;
    unsigned ln = 1;
    bool first = true;
    while (p < end && ln <= hi) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (ln >= lo) {
            char tmp[240];
            size_t k = l < sizeof tmp - 1 ? l : sizeof tmp - 1;
            memcpy(tmp, p, k);
            tmp[k] = 0;
            if (!first)
                ravel__sb_addc(js, ',');
            first = false;
            ravel__json_str(js, tmp);
        }
        ln++;
        p += l + (nl ? 1 : 0);
    }
    ravel__sb_add(js, "]}");
}

void ravel__view_finding_json(struct ravel__strbuf *sb,
                              const struct ravel__report_ctx *c,
                              const char *report)
{
    const struct ravel__exec *x = c->x;
    struct view v;
    if (!build(&v, x)) {
        view_free(&v);
        ravel__sb_add(sb, "{}");
        return;
    }
    bool first = true;
    char buf[RAVEL__MSG_MAX + 64], file[300], func[128];
    ravel__sb_addc(sb, '{');
    ravel__json_key(sb, &first, "kind");
    ravel__json_str(sb, ravel__fail_kind_name(x->failure.kind));
    ravel__json_key(sb, &first, "headline");
    ravel__report_headline(x, buf, sizeof buf);
    ravel__json_str(sb, x->failure.kind ? buf : "no failure");
    ravel__report_location(x, file, sizeof file, func, sizeof func);
    ravel__json_key(sb, &first, "location");
    ravel__json_str(sb, file);
    ravel__json_key(sb, &first, "execution");
    ravel__sb_printf(sb, "%llu", (unsigned long long)(c->execution
                                                          ? c->execution
                                                          : x->number + 1));
    ravel__json_key(sb, &first, "ticket");
    ravel__json_str(sb, c->ticket ? c->ticket : "");
    ravel__json_key(sb, &first, "steps");
    ravel__sb_printf(sb, "%u", x->nevents);
    ravel__json_key(sb, &first, "hidden");
    ravel__sb_printf(sb, "%u", v.from);
    ravel__json_key(sb, &first, "dropped_arrows");
    ravel__sb_printf(sb, "%u", v.dropped);
    ravel__json_key(sb, &first, "lanes");
    ravel__sb_addc(sb, '[');
    for (uint32_t t = 0; t < x->nthreads; t++) {
        if (t)
            ravel__sb_addc(sb, ',');
        ravel__json_str(sb, x->threads[t].name);
    }
    ravel__sb_add(sb, "]");
    ravel__json_key(sb, &first, "items");
    ravel__sb_addc(sb, '[');
    for (size_t i = 0; i < v.nitems; i++) {
        const struct item *it = &v.items[i];
        bool f2 = true;
        if (i)
            ravel__sb_addc(sb, ',');
        ravel__sb_addc(sb, '{');
        ravel__json_key(sb, &f2, "k");
        ravel__json_str(sb, it->kind == IT_STEP   ? "step"
                            : it->kind == IT_FOLD ? "fold"
                                                  : "end");
        ravel__json_key(sb, &f2, "lane");
        ravel__sb_printf(sb, "%u", it->lane);
        if (it->kind != IT_END) {
            ravel__json_key(sb, &f2, "step");
            ravel__sb_printf(sb, "%u", it->event + 1);
        }
        if (it->kind == IT_FOLD) {
            ravel__json_key(sb, &f2, "last");
            ravel__sb_printf(sb, "%u", it->last + 1);
            ravel__json_key(sb, &f2, "reps");
            ravel__sb_printf(sb, "%u", it->reps);
            ravel__json_key(sb, &f2, "period");
            ravel__sb_printf(sb, "%u", it->period);
        }
        ravel__json_key(sb, &f2, "text");
        ravel__json_str(sb, it->text ? it->text : "");
        ravel__json_key(sb, &f2, "loc");
        ravel__json_str(sb, it->loc);
        if (it->src[0]) {
            ravel__json_key(sb, &f2, "src");
            ravel__json_str(sb, it->src);
        }
        if (it->mark) {
            ravel__json_key(sb, &f2, "mark");
            ravel__json_str(sb, mark_name(it->mark));
        }
        if (it->kind == IT_END && it->waits != RAVEL__NONE) {
            ravel__json_key(sb, &f2, "waits");
            ravel__sb_printf(sb, "%u", it->waits);
        }
        ravel__sb_addc(sb, '}');
    }
    ravel__sb_add(sb, "]");
    ravel__json_key(sb, &first, "arrows");
    ravel__sb_addc(sb, '[');
    bool fa = true;
    for (int64_t k = 0; k < v.narrows; k++) {
        uint32_t fi = v.item_of[v.arrows[k].from - v.from];
        uint32_t ti = v.item_of[v.arrows[k].to - v.from];
        if (fi == RAVEL__NONE || ti == RAVEL__NONE)
            continue;
        if (!fa)
            ravel__sb_addc(sb, ',');
        fa = false;
        ravel__sb_printf(sb, "{\"from\":%u,\"to\":%u,\"kind\":\"%s\"}",
                         v.arrows[k].from + 1, v.arrows[k].to + 1,
                         ravel__arrow_kind_name(v.arrows[k].kind));
    }
    ravel__sb_add(sb, "]");
    /* The raw events of the window, for tools and tests that check the
     * arrows: [thread, operation, object, aux, flags, value] (object and
     * aux are indices, -1 for none; thread operations name threads). */
    ravel__json_key(sb, &first, "events");
    ravel__sb_addc(sb, '[');
    for (uint32_t i = v.from; i < v.n; i++) {
        const struct ravel__event *e = &x->events[i];
        ravel__sb_printf(sb, "%s[%u,\"%s\",%lld,%lld,%u,%lld]",
                         i > v.from ? "," : "", e->thread,
                         ravel__op_name(e->kind),
                         e->obj == RAVEL__NONE ? -1LL : (long long)e->obj,
                         e->aux == RAVEL__NONE ? -1LL : (long long)e->aux,
                         e->flags, (long long)e->value);
    }
    ravel__sb_addc(sb, ']');
    /* Source excerpts, keyed like the items' "src". */
    ravel__json_key(sb, &first, "sources");
    ravel__sb_addc(sb, '{');
    struct srcfile files[16];
    size_t nfiles = 0;
    char (*done)[224] = calloc(v.nitems ? v.nitems : 1, sizeof *done);
    size_t ndone = 0;
    for (size_t i = 0; done && i < v.nitems; i++) {
        const struct item *it = &v.items[i];
        if (!it->src[0])
            continue;
        size_t k = 0;
        while (k < ndone && strcmp(done[k], it->src))
            k++;
        if (k < ndone)
            continue;
        memcpy(done[ndone++], it->src, sizeof done[0]);
        char path[224];
        snprintf(path, sizeof path, "%s", it->src);
        char *colon = strrchr(path, ':');
        if (!colon)
            continue;
        *colon = 0;
        unsigned line = (unsigned)strtoul(colon + 1, NULL, 10);
        const struct srcfile *f = src_get(files, &nfiles, 16, path);
        if (!f || !f->text)
            continue;
        if (ndone > 1 && sb->data[sb->len - 1] != '{')
            ravel__sb_addc(sb, ',');
        ravel__json_str(sb, it->src);
        ravel__sb_addc(sb, ':');
        src_lines(sb, f, line);
    }
    free(done);
    for (size_t i = 0; i < nfiles; i++)
        free(files[i].text);
    ravel__sb_addc(sb, '}');
    if (c->history && c->history[0] == '{') {
        ravel__json_key(sb, &first, "history");
        ravel__sb_add(sb, c->history); /* JSON already */
    }
    ravel__json_key(sb, &first, "report");
    ravel__json_str(sb, report ? report : "");
    ravel__sb_addc(sb, '}');
    view_free(&v);
}

/* ---- the HTML report ------------------------------------------------- */

static void h(struct ravel__strbuf *sb, const char *s)
{
    if (s)
        ravel__ci_xml_text(sb, s, strlen(s));
}

/* JSON inside <script type="application/json">: no '<' at all, so
 * nothing in it can end the element. */
static void script_json(struct ravel__strbuf *sb, const char *json)
{
    for (const char *p = json; *p; p++) {
        if (*p == '<')
            ravel__sb_add(sb, "\\u003c");
        else
            ravel__sb_addc(sb, *p);
    }
}

static const char page_style[] =
    "<style>\n"
    "body{font:14px/1.45 system-ui,sans-serif;margin:1.2em 1.5em;"
    "color:#1d1d1d}\n"
    "h1{font-size:1.35em;margin:0 0 .4em}h2{font-size:1.1em;margin:.2em 0}\n"
    "code,pre,.mono{font-family:ui-monospace,monospace;font-size:12.5px}\n"
    "dl#run{display:grid;grid-template-columns:max-content auto;"
    "gap:.1em 1em;margin:.3em 0 .8em}dl#run dt{color:#666}dl#run dd{margin:0}\n"
    ".bad{color:#b00020}.good{color:#176b2c}\n"
    "table#findings{border-collapse:collapse;margin:.5em 0}\n"
    "#findings th,#findings td{border-bottom:1px solid #ddd;padding:.25em "
    ".6em;text-align:left;vertical-align:top}\n"
    "#findings tr.group td{background:#f4f4f8;font-weight:600}\n"
    "#findings td.num{text-align:right;white-space:nowrap}\n"
    "#findings td.kind,#findings td.cmd{white-space:nowrap}\n"
    "button.copy{font-size:11px;padding:1px 6px;margin:0 .2em;"
    "cursor:pointer}\n"
    "details.finding{border:1px solid #ccd;border-radius:6px;margin:.8em 0;"
    "padding:.3em .8em}\n"
    "details.finding>summary{cursor:pointer;font-weight:600}\n"
    "pre.report{background:#f7f7f7;padding:.6em;overflow-x:auto;"
    "max-height:30em}\n"
    ".explain{color:#555;font-size:12.5px;max-width:60em}\n"
    ".lanebox{position:relative;overflow-x:auto;margin:.6em 0}\n"
    "table.lanes{border-collapse:separate;border-spacing:36px 3px}\n"
    "table.lanes th{font-family:ui-monospace,monospace;text-align:left;"
    "border-bottom:2px solid #999}\n"
    "table.lanes td{vertical-align:top;min-width:14em;padding:0}\n"
    ".item{border:1px solid #b9c6dc;border-radius:4px;padding:1px 5px;"
    "background:#fff;font-family:ui-monospace,monospace;font-size:12px;"
    "cursor:pointer;max-width:32em;overflow-wrap:anywhere}\n"
    ".item .n{color:#888;margin-right:.5em}\n"
    ".item .loc{display:block;color:#777;font-size:11px}\n"
    ".item.fail{background:#ffd9de;border-color:#b00020}\n"
    ".item.race{background:#ffe7c2;border-color:#c76b00}\n"
    ".item.blocked{background:#fff3b0;border-color:#a08500}\n"
    ".item.fold{border-style:dashed;background:#f3f6fb}\n"
    ".item pre.src{margin:.3em 0 .1em;background:#fafafa;padding:.2em;"
    "white-space:pre;overflow-x:auto}\n"
    ".item pre.src b{background:#fff2a8;font-weight:normal}\n"
    ".reps{margin:.2em 0 0;max-height:12em;overflow-y:auto;color:#555}\n"
    "svg.arrows{position:absolute;left:0;top:0;pointer-events:none}\n"
    "svg.arrows path{fill:none;stroke:#1f5fbf;stroke-width:1.6}\n"
    "svg.arrows text{font:10px ui-monospace,monospace;fill:#1f5fbf}\n"
    "svg.arrows path.wait{stroke:#a08500;stroke-dasharray:5 3}\n"
    "svg.arrows path.flow{stroke:#2a8a3a;stroke-dasharray:3 2}\n"
    "</style>\n";

/* The script: draws each finding's lanes from its JSON, arrows over
 * them, folds that expand, source excerpts on click, copy buttons. All
 * program text goes in with textContent. */
static const char page_script[] =
    "<script>\n"
    "(function(){\n"
    "function E(tag,cls,text,parent){var e=document.createElement(tag);"
    "if(cls)e.className=cls;if(text!==undefined&&text!==null)"
    "e.textContent=String(text);if(parent)parent.appendChild(e);"
    "return e;}\n"
    "var NS='http://www.w3.org/2000/svg';\n"
    "function S(tag,attrs,parent){var e=document.createElementNS(NS,tag);"
    "for(var k in attrs)e.setAttribute(k,attrs[k]);"
    "if(parent)parent.appendChild(e);return e;}\n"
    "function copy(text,btn){function done(){var o=btn.textContent;"
    "btn.textContent='copied';setTimeout(function(){btn.textContent=o;},"
    "1200);}\n"
    "if(navigator.clipboard&&navigator.clipboard.writeText){"
    "navigator.clipboard.writeText(text).then(done,function(){fallback();"
    "});}else fallback();\n"
    "function fallback(){var t=E('textarea',null,text,document.body);"
    "t.select();try{document.execCommand('copy');done();}catch(e){}"
    "t.remove();}}\n"
    "document.querySelectorAll('button.copy').forEach(function(b){"
    "b.addEventListener('click',function(){copy(b.getAttribute("
    "'data-copy'),b);});});\n"
    "\n";
static const char page_script2[] =
    "function draw(box){var d=box._data;var svg=box.querySelector("
    "'svg.arrows');if(svg)svg.remove();if(!box.offsetParent)return;\n"
    "var tb=box.querySelector('table.lanes');var W=tb.offsetWidth,"
    "H=tb.offsetHeight;svg=S('svg',{'class':'arrows',width:W,height:H},"
    "box);\n"
    "var defs=S('defs',{},svg);var m=S('marker',{id:'ah'+box.id,"
    "viewBox:'0 0 10 10',refX:9,refY:5,markerWidth:7,markerHeight:7,"
    "orient:'auto-start-reverse'},defs);S('path',{d:'M0,0L10,5L0,10z',"
    "fill:'#1f5fbf',stroke:'none'},m);\n"
    "var br=box.getBoundingClientRect();\n"
    "d.arrows.forEach(function(a){var f=box.querySelector("
    "'.item[data-step=\"'+a.from+'\"]'),t=box.querySelector("
    "'.item[data-step=\"'+a.to+'\"]');if(!f||!t)return;\n"
    "var fr=f.getBoundingClientRect(),tr=t.getBoundingClientRect();"
    "var right=tr.left>fr.left;\n"
    "var x1=(right?fr.right:fr.left)-br.left+box.scrollLeft,"
    "y1=fr.top+fr.height/2-br.top,x2=(right?tr.left:tr.right)-br.left+"
    "box.scrollLeft,y2=tr.top+Math.min(tr.height/2,9)-br.top;\n"
    "var mx=(x1+x2)/2;var fl=a.kind==='data'||a.kind==='read';"
    "var p=S('path',{'class':fl?"
    "'flow':'arrow','data-from':a.from,"
    "'data-to':a.to,'data-kind':a.kind,d:'M'+x1+','+y1+' C'+mx+','+y1+' '+"
    "mx+','+y2+' '+x2+','+y2,'marker-end':'url(#ah'+box.id+')'},svg);\n"
    "S('title',{},p).textContent=a.kind==='read'?'read: the load at step '+"
    "a.to+' read the store of step '+a.from+', not the newest one (see the "
    "report\\'s Weak memory section)':fl?'data: step '+a.to+' read what "
    "step '+a.from+' wrote':a.kind+': step '+a.from+' happens before step '+"
    "a.to;"
    "\n"
    "var lb=S('text',{x:mx+2,y:(y1+y2)/2-2},svg);lb.textContent=a.kind;});"
    "\n"
    "box.querySelectorAll('.item[data-waits]').forEach(function(f){"
    "var ts=box.querySelectorAll('.item[data-lane=\"'+"
    "f.getAttribute('data-waits')+'\"]');if(!ts.length)return;"
    "var t=ts[ts.length-1];var fr=f.getBoundingClientRect(),"
    "tr=t.getBoundingClientRect();var right=tr.left>fr.left;"
    "var x1=(right?fr.right:fr.left)-br.left+box.scrollLeft,y1=fr.top+"
    "fr.height/2-br.top,x2=(right?tr.left:tr.right)-br.left+"
    "box.scrollLeft,y2=tr.top+tr.height/2-br.top;"
    "var p=S('path',{'class':'wait',d:'M'+x1+','+y1+' L'+x2+','+y2,"
    "'marker-end':'url(#ah'+box.id+')'},svg);S('title',{},p).textContent="
    "'waits for thread '+f.getAttribute('data-waits');});}\n"
    "\n";
static const char page_script3[] =
    "function build(box){var d=JSON.parse(box.querySelector("
    "'script.finding-data').textContent);box._data=d;\n"
    "if(d.history){var hb=box.querySelector('.history');"
    "E('p','explain','The parallel calls as a timeline, one lane per "
    "branch: green operations form the longest linearizable prefix (dots: "
    "its order), red ones cannot come next.',hb);"
    "ravelLinTimeline(d.history,hb);}\n"
    "var used={};d.items.forEach(function(it){used[it.lane]=1;});\n"
    "var lanes=[];d.lanes.forEach(function(n,i){if(used[i])lanes.push(i);"
    "});var col={};lanes.forEach(function(l,i){col[l]=i;});\n"
    "var tb=E('table','lanes',null,box.querySelector('.diagram'));"
    "var hr=E('tr',null,null,E('thead',null,null,tb));\n"
    "lanes.forEach(function(l){var th=E('th','lane','thread '+d.lanes[l],"
    "hr);th.setAttribute('data-lane',d.lanes[l]);});\n"
    "var body=E('tbody',null,null,tb);\n"
    "d.items.forEach(function(it){var tr=E('tr',null,null,body);"
    "lanes.forEach(function(l){var td=E('td',null,null,tr);"
    "if(l!==it.lane)return;\n"
    "var c='item '+it.k+(it.mark?' '+it.mark:'');var div=E('div',c,null,td);"
    "div.setAttribute('data-lane',d.lanes[l]);\n"
    "if(it.k==='step'){div.setAttribute('data-step',it.step);"
    "E('span','n',it.step,div);E('span','t',it.text,div);}\n"
    "else if(it.k==='fold'){div.setAttribute('data-reps',it.reps);"
    "E('span','n','steps '+it.step+'\\u2013'+it.last,div);"
    "E('span','t','repeats \\u2018'+it.text+'\\u2019 '+it.reps+' more time'+"
    "(it.reps===1?'':'s')+' \\u25b8',div);}\n"
    "else{E('span','t',it.text,div);if(it.waits!==undefined)"
    "div.setAttribute('data-waits',d.lanes[it.waits]);}\n"
    "if(it.loc)E('span','loc',it.loc,div);\n"
    "div.addEventListener('click',function(ev){ev.stopPropagation();"
    "if(it.k==='fold'){var r=div.querySelector('.reps');if(r){r.remove();}"
    "else{r=E('ol','reps',null,div);var n=Math.min(it.reps,200);"
    "for(var i=0;i<n;i++)E('li',null,it.text,r);if(n<it.reps)E('li',null,"
    "'\\u2026 '+(it.reps-n)+' more',r);}draw(box);return;}\n"
    "var s=div.querySelector('pre.src');if(s){s.remove();draw(box);return;}"
    "var x=it.src&&d.sources[it.src];if(!x){return;}"
    "s=E('pre','src',null,div);x.lines.forEach(function(t,i){"
    "var n=x.first+i;var ln=(n===x.line?E('b',null,null,s):s);"
    "ln.appendChild(document.createTextNode(String(n).padStart(5)+'  '+t+"
    "'\\n'));});draw(box);});});});\n"
    "draw(box);}\n"
    "document.querySelectorAll('details.finding').forEach(function(det){"
    "var box=det.querySelector('.lanebox');if(!box)return;build(box);"
    "det.addEventListener('toggle',function(){draw(box);});});\n"
    "window.addEventListener('resize',function(){document.querySelectorAll("
    "'.lanebox').forEach(draw);});\n"
    "document.body.setAttribute('data-rendered','ok');\n"
    "})();\n"
    "</script>\n";

static void copy_button(struct ravel__strbuf *sb, const char *label,
                        const char *cmd)
{
    ravel__sb_add(sb, "<button class=\"copy\" data-copy=\"");
    h(sb, cmd);
    ravel__sb_add(sb, "\" title=\"");
    h(sb, cmd);
    ravel__sb_printf(sb, "\">%s</button>", label);
}

/* Data races are grouped by the code they share: the file:line of the
 * finding's location. */

struct rowref {
    size_t i;
    const struct ravel__view_finding *f;
};

/* The code a data race is grouped by: its function and file (the
 * location without its line). */
static void group_of(const struct ravel__view_finding *f, char *buf,
                     size_t n)
{
    const char *loc = f->location ? f->location : "";
    const char *colon = strrchr(loc, ':');
    int len = colon ? (int)(colon - loc) : (int)strlen(loc);
    snprintf(buf, n, "%s (%.*s)", f->function && f->function[0]
                                      ? f->function
                                      : "?",
             len, loc);
}

static bool is_race(const struct ravel__view_finding *f)
{
    return !strcmp(f->kind, "data-race");
}

static int cmp_rowref(const void *a, const void *b)
{
    const struct rowref *x = a, *y = b;
    bool rx = is_race(x->f), ry = is_race(y->f);
    if (rx != ry)
        return rx ? 1 : -1; /* races after the other findings */
    if (rx) {
        char gx[400], gy[400];
        group_of(x->f, gx, sizeof gx);
        group_of(y->f, gy, sizeof gy);
        int c = strcmp(gx, gy);
        if (c)
            return c;
    }
    return x->i < y->i ? -1 : x->i > y->i;
}

void ravel__view_html(struct ravel__strbuf *sb,
                      const struct ravel__view_run *run,
                      const struct ravel__view_finding *f, size_t n)
{
    ravel__sb_add(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                      "<meta charset=\"utf-8\">\n"
                      "<meta http-equiv=\"Content-Security-Policy\" "
                      "content=\"default-src 'none'; style-src "
                      "'unsafe-inline'; script-src 'unsafe-inline'\">\n"
                      "<title>ravel: ");
    h(sb, run->program);
    ravel__sb_add(sb, "</title>\n");
    ravel__sb_add(sb, page_style);
    ravel__sb_add(sb, "<style>\n");
    ravel__sb_add(sb, ravel__lin_timeline_css);
    ravel__sb_add(sb, "</style>\n");
    ravel__sb_add(sb, "</head>\n<body>\n<h1>ravel ");
    ravel__sb_add(sb, run->replay ? "replay" : "run");
    ravel__sb_add(sb, ": ");
    if (n)
        ravel__sb_printf(sb, "<span class=\"bad\" id=\"verdict\">%zu "
                             "finding%s</span>",
                         n, n == 1 ? "" : "s");
    else
        ravel__sb_add(sb, "<span class=\"good\" id=\"verdict\">no bugs "
                          "found</span>");
    ravel__sb_add(sb, "</h1>\n<dl id=\"run\">\n<dt>program</dt><dd><code>");
    h(sb, run->program);
    ravel__sb_add(sb, "</code></dd>\n<dt>how</dt><dd>");
    h(sb, run->mode);
    if (!run->merged)
        ravel__sb_printf(sb, ", seed %llu", (unsigned long long)run->seed);
    ravel__sb_add(sb, "</dd>\n");
    if (run->merged)
        ravel__sb_printf(sb, "<dt>executions</dt><dd>%llu, all shards "
                             "together</dd>\n",
                         (unsigned long long)run->executions);
    else if (!run->replay)
        ravel__sb_printf(sb, "<dt>executions</dt><dd>%llu in %.2f s</dd>\n",
                         (unsigned long long)run->executions,
                         run->elapsed_s);
    if (run->guarantee && run->guarantee[0]) {
        ravel__sb_add(sb, "<dt>guarantee</dt><dd>");
        h(sb, run->guarantee);
        ravel__sb_add(sb, "</dd>\n");
    }
    ravel__sb_add(sb, "</dl>\n");
    if (n) {
        ravel__sb_add(sb,
                      "<table id=\"findings\">\n<thead><tr><th>#</th><th>"
                      "kind</th><th>location</th><th>threads</th><th "
                      "title=\"executions that ended in this finding\">"
                      "executions</th><th>first in</th><th>replay</th>"
                      "</tr></thead>\n<tbody>\n");
        struct rowref *rows = malloc(n * sizeof *rows);
        for (size_t i = 0; rows && i < n; i++)
            rows[i] = (struct rowref){i, &f[i]};
        if (rows)
            qsort(rows, n, sizeof *rows, cmp_rowref);
        for (size_t k = 0; rows && k < n; k++) {
            const struct ravel__view_finding *g = rows[k].f;
            size_t i = rows[k].i;
            char grp[400];
            if (is_race(g))
                group_of(g, grp, sizeof grp);
            char prevg[400] = "";
            if (k > 0 && is_race(rows[k - 1].f))
                group_of(rows[k - 1].f, prevg, sizeof prevg);
            if (is_race(g) && strcmp(prevg, grp)) {
                size_t cnt = 0;
                for (size_t j = k; j < n && is_race(rows[j].f); j++) {
                    char gj[400];
                    group_of(rows[j].f, gj, sizeof gj);
                    cnt += !strcmp(gj, grp);
                }
                ravel__sb_add(sb, "<tr class=\"group\"><td colspan=\"7\">"
                                  "data races in ");
                h(sb, grp);
                ravel__sb_printf(sb, ": %zu</td></tr>\n", cnt);
            }
            ravel__sb_printf(sb, "<tr class=\"finding-row\" "
                                 "data-finding=\"%zu\"><td><a href=\"#f%zu\">"
                                 "%zu</a></td><td class=\"kind\">",
                             i + 1, i + 1, i + 1);
            h(sb, g->kind);
            ravel__sb_add(sb, "</td><td class=\"location mono\">");
            h(sb, g->location);
            if (g->function && g->function[0]) {
                ravel__sb_add(sb, " in ");
                h(sb, g->function);
            }
            ravel__sb_add(sb, "<div class=\"explain\">");
            h(sb, g->headline);
            ravel__sb_add(sb, "</div></td><td class=\"threads mono\">");
            h(sb, g->threads);
            ravel__sb_printf(sb, "</td><td class=\"num hits\">%llu</td>"
                                 "<td class=\"num\">",
                             (unsigned long long)g->hits);
            if (g->first_in)
                h(sb, g->first_in);
            else
                ravel__sb_printf(sb, "execution %llu",
                                 (unsigned long long)g->execution);
            ravel__sb_add(sb, "</td><td class=\"cmd\">");
            if (g->ticket && g->ticket[0]) {
                char cmd[PATH_MAX_CMD];
                snprintf(cmd, sizeof cmd, "ravel replay %s", g->ticket);
                copy_button(sb, "replay", cmd);
                snprintf(cmd, sizeof cmd, "ravel replay --gdb %s", g->ticket);
                copy_button(sb, "--gdb", cmd);
            }
            ravel__sb_add(sb, "</td></tr>\n");
        }
        free(rows);
        if (run->merged)
            ravel__sb_add(sb,
                          "</tbody></table>\n<p class=\"explain\">One row "
                          "per distinct finding of all shards (same kind and "
                          "code locations). <i>executions</i>: how many "
                          "executions ended in it, in all shards; <i>first "
                          "in</i>: the shard and execution of the replay "
                          "ticket. The shards' summaries hold no reports or "
                          "diagrams: replay a ticket with --html for "
                          "them.</p>\n");
        else
            ravel__sb_add(
                sb, "</tbody></table>\n<p class=\"explain\">One row per "
                    "distinct finding (same kind and code locations). "
                    "<i>executions</i>: how many executions ended in it; "
                    "<i>first in</i>: the execution its report and "
                    "diagram show. Each diagram has one lane per thread, "
                    "time downward; an arrow is a happens-before edge "
                    "between threads that no other path explains (the "
                    "transitive reduction); dashed items fold repeated "
                    "steps (click to expand); click a step for its "
                    "source.</p>\n");
    }
    if (run->summary && run->summary[0]) {
        ravel__sb_add(sb, "<pre id=\"summary\">");
        h(sb, run->summary);
        ravel__sb_add(sb, "</pre>\n");
    }
    if (run->extra && run->extra[0]) {
        ravel__sb_add(sb, "<pre id=\"extra\">");
        h(sb, run->extra);
        ravel__sb_add(sb, "</pre>\n");
    }
    for (size_t i = 0; i < n; i++) {
        const struct ravel__view_finding *g = &f[i];
        ravel__sb_printf(sb, "<details class=\"finding\" id=\"f%zu\"%s>"
                             "<summary>%zu. ",
                         i + 1, i == 0 ? " open" : "", i + 1);
        h(sb, g->kind);
        ravel__sb_add(sb, ": ");
        h(sb, g->headline);
        ravel__sb_add(sb, "</summary>\n");
        if (g->ticket && g->ticket[0]) {
            char cmd[PATH_MAX_CMD];
            ravel__sb_add(sb, "<p class=\"cmds\">");
            snprintf(cmd, sizeof cmd, "ravel replay %s", g->ticket);
            ravel__sb_add(sb, "<code>");
            h(sb, cmd);
            ravel__sb_add(sb, "</code>");
            copy_button(sb, "copy", cmd);
            snprintf(cmd, sizeof cmd, "ravel replay --gdb %s", g->ticket);
            ravel__sb_add(sb, " <code>");
            h(sb, cmd);
            ravel__sb_add(sb, "</code>");
            copy_button(sb, "copy", cmd);
            ravel__sb_add(sb, "</p>\n");
        }
        if (g->report && g->report[0]) {
            ravel__sb_add(sb, "<details class=\"text\"><summary>report "
                              "text</summary><pre class=\"report\">");
            h(sb, g->report);
            ravel__sb_add(sb, "</pre></details>\n");
        }
        if (g->json) {
            ravel__sb_printf(sb, "<div class=\"lanebox\" id=\"lanes%zu\">"
                                 "<div class=\"history\"></div>"
                                 "<div class=\"diagram\"></div>"
                                 "<script type=\"application/json\" "
                                 "class=\"finding-data\">",
                             i + 1);
            script_json(sb, g->json);
            ravel__sb_add(sb, "</script></div>\n");
        }
        ravel__sb_add(sb, "</details>\n");
    }
    ravel__sb_add(sb, "<script>\n");
    ravel__sb_add(sb, ravel__lin_timeline_js);
    ravel__sb_add(sb, "</script>\n");
    ravel__sb_add(sb, page_script);
    ravel__sb_add(sb, page_script2);
    ravel__sb_add(sb, page_script3);
    ravel__sb_add(sb, "</body>\n</html>\n");
}
