/*
 * explain.c - text, JSON and HTML explanations (see explain.h).
 *
 * The text timeline shows a window around the failure, not the whole
 * history: the last operations of the prefix, the ones that cannot be
 * placed, and whatever overlaps them, with time compressed to the order
 * of events (every call or return gets three columns), which is all that
 * linearizability looks at:
 *
 *     p0   |-12--|        |..b.............|
 *     p1       |-13-----|   |!!a!!|
 *
 * Numbers are positions in the prefix, letters are operations outside
 * it ('!' marks those that cannot come next), and the legend below maps
 * each to its operation and source lines. The HTML page draws every
 * operation of the failing partition the same way with a script over
 * embedded data, so the page needs nothing but a browser.
 */
#include "explain.h"

#include "../common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ravel__lin_op_label(const struct ravel__lin_history *h, uint32_t op,
                         struct ravel__strbuf *sb)
{
    const struct ravel__lin_op *o = &h->ops[op];
    const struct ravel__lin_vent *fe = ravel__lin_vget(&h->vals, o->f);
    if (fe->kind == RAVEL__LIN_KEYWORD || fe->kind == RAVEL__LIN_STR)
        ravel__sb_addn(sb, ravel__lin_vtext(&h->vals, o->f), fe->len);
    else
        ravel__lin_vprint(&h->vals, o->f, sb, 20);
    if (o->key != RAVEL__LIN_V_NONE) {
        ravel__sb_add(sb, " [");
        ravel__lin_vprint(&h->vals, o->key, sb, 20);
        ravel__sb_addc(sb, ']');
    }
    if (o->in != RAVEL__LIN_V_NIL) {
        ravel__sb_addc(sb, ' ');
        ravel__lin_vprint(&h->vals, o->in, sb, 30);
    }
    if (o->ret == RAVEL__LIN_NEVER)
        ravel__sb_add(sb, " -> ? (never returned)");
    else if (o->out == RAVEL__LIN_V_NONE)
        ravel__sb_add(sb, " -> ?");
    else if (o->out != o->in || o->in == RAVEL__LIN_V_NIL) {
        ravel__sb_add(sb, " -> ");
        ravel__lin_vprint(&h->vals, o->out, sb, 30);
    }
}

static void proc_label(const struct ravel__lin_history *h, uint32_t p,
                       struct ravel__strbuf *sb)
{
    uint32_t v = h->procs[p];
    const struct ravel__lin_vent *e = ravel__lin_vget(&h->vals, v);
    ravel__sb_addc(sb, 'p');
    if (e->kind == RAVEL__LIN_KEYWORD || e->kind == RAVEL__LIN_STR)
        ravel__sb_addn(sb, ravel__lin_vtext(&h->vals, v), e->len);
    else
        ravel__lin_vprint(&h->vals, v, sb, 16);
}

static void lines_of(const struct ravel__lin_op *o, struct ravel__strbuf *sb)
{
    if (o->ret_line && o->ret_line != o->call_line)
        ravel__sb_printf(sb, "lines %u-%u", o->call_line, o->ret_line);
    else
        ravel__sb_printf(sb, "line %u", o->call_line);
}

static void state_text(const struct ravel__lin_model *m, void *self,
                       uint64_t st, struct ravel__strbuf *sb)
{
    if (m->describe)
        m->describe(self, st, sb);
    else
        ravel__sb_printf(sb, "#%llu", (unsigned long long)st);
}

/* What the explanation knows about each operation of the partition. */
struct info {
    int32_t pos;   /* position in the prefix (1-based), 0: not in it */
    int32_t stuck; /* index into r->stuck + 1, 0: not stuck */
};

static struct info *infos(const struct ravel__lin_history *h,
                          const struct ravel__lin_result *r)
{
    struct info *in = calloc((size_t)h->nops + 1, sizeof *in);
    if (!in)
        return NULL;
    for (uint32_t i = 0; i < r->nprefix; i++)
        in[r->prefix[i]].pos = (int32_t)i + 1;
    for (uint32_t i = 0; i < r->nstuck; i++)
        in[r->stuck[i]].stuck = (int32_t)i + 1;
    return in;
}

/* Operations shown in the text timeline, at most this many. */
#define WINDOW_MAX 24
/* Prefix operations leading up to the failure shown in it. */
#define WINDOW_PREFIX 6

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void timeline(const struct ravel__lin_history *h,
                     const struct ravel__lin_result *r, struct info *inf,
                     struct ravel__strbuf *sb)
{
    uint32_t win[WINDOW_MAX];
    uint32_t nw = 0;
    bool *in_win = calloc((size_t)h->nops + 1, 1);
    if (!in_win)
        return;
#define ADD(op)                                                                \
    do {                                                                       \
        if (nw < WINDOW_MAX && !in_win[op]) {                                  \
            in_win[op] = true;                                                 \
            win[nw++] = (op);                                                  \
        }                                                                      \
    } while (0)
    for (uint32_t i = 0; i < r->nstuck; i++)
        ADD(r->stuck[i]);
    if (r->deadline_op != RAVEL__LIN_V_NONE)
        ADD(r->deadline_op);
    for (uint32_t i = r->nprefix; i-- > 0 && r->nprefix - i <= WINDOW_PREFIX;)
        ADD(r->prefix[i]);
    /* The time span they cover, and what else overlaps it. */
    uint64_t lo = RAVEL__LIN_NEVER, hi = 0;
    for (uint32_t i = 0; i < nw; i++) {
        const struct ravel__lin_op *o = &h->ops[win[i]];
        if (o->call < lo)
            lo = o->call;
        uint64_t end = o->ret == RAVEL__LIN_NEVER ? o->call : o->ret;
        if (end > hi)
            hi = end;
    }
    for (uint32_t i = 0; i < r->npart_ops; i++) {
        const struct ravel__lin_op *o = &h->ops[r->part_ops[i]];
        if (o->call <= hi && o->ret >= lo && o->ret != RAVEL__LIN_NEVER)
            ADD(r->part_ops[i]);
    }
    for (uint32_t i = 0; i < r->npart_ops; i++) {
        const struct ravel__lin_op *o = &h->ops[r->part_ops[i]];
        if (o->call <= hi && o->ret == RAVEL__LIN_NEVER)
            ADD(r->part_ops[i]);
    }
#undef ADD
    qsort(win, nw, sizeof *win, cmp_u32); /* call order */
    /* Distinct event times in the window, ranked. */
    uint64_t times[2 * WINDOW_MAX];
    uint32_t nt = 0;
    for (uint32_t i = 0; i < nw; i++) {
        const struct ravel__lin_op *o = &h->ops[win[i]];
        times[nt++] = o->call;
        if (o->ret != RAVEL__LIN_NEVER)
            times[nt++] = o->ret;
    }
    qsort(times, nt, sizeof *times, cmp_u64);
    uint32_t nd = 0;
    for (uint32_t i = 0; i < nt; i++)
        if (nd == 0 || times[i] != times[nd - 1])
            times[nd++] = times[i];
    size_t width = (size_t)nd * 3 + 4;
    char *row = malloc(width + 1);
    char tags[WINDOW_MAX][8];
    char letter = 'a';
    for (uint32_t i = 0; i < nw; i++) {
        if (inf[win[i]].pos)
            snprintf(tags[i], sizeof tags[i], "%d", inf[win[i]].pos);
        else
            snprintf(tags[i], sizeof tags[i], "%c", letter++);
    }
    ravel__sb_add(sb, "  timeline around the failure (numbers: positions in "
                      "the prefix; !: cannot come next;\n"
                      "  ...: never returned; time runs left to right in "
                      "event order):\n");
    for (uint32_t p = 0; p < h->nprocs && row; p++) {
        bool any = false;
        memset(row, ' ', width);
        row[width] = 0;
        for (uint32_t i = 0; i < nw; i++) {
            const struct ravel__lin_op *o = &h->ops[win[i]];
            if (o->process != p)
                continue;
            any = true;
            size_t a = 0, b;
            while (times[a] != o->call)
                a++;
            a *= 3;
            if (o->ret == RAVEL__LIN_NEVER) {
                b = width - 1;
            } else {
                b = 0;
                while (times[b] != o->ret)
                    b++;
                b *= 3;
            }
            char fill = inf[win[i]].stuck ? '!'
                        : o->ret == RAVEL__LIN_NEVER ? '.'
                        : inf[win[i]].pos            ? '-'
                                                     : '~';
            for (size_t c = a; c <= b && c < width; c++)
                row[c] = fill;
            row[a] = '|';
            if (o->ret != RAVEL__LIN_NEVER)
                row[b] = '|';
            size_t tl = strlen(tags[i]);
            if (b > a + tl)
                memcpy(row + a + 1 + (b - a - 1 - tl) / 2, tags[i], tl);
        }
        if (!any)
            continue;
        size_t end = width;
        while (end > 0 && row[end - 1] == ' ')
            end--;
        struct ravel__strbuf pl = RAVEL__STRBUF_INIT;
        proc_label(h, p, &pl);
        ravel__sb_printf(sb, "    %-6s %.*s\n", ravel__sb_str(&pl), (int)end,
                         row);
        ravel__sb_free(&pl);
    }
    free(row);
    for (uint32_t i = 0; i < nw; i++) {
        const struct ravel__lin_op *o = &h->ops[win[i]];
        struct ravel__strbuf pl = RAVEL__STRBUF_INIT;
        proc_label(h, o->process, &pl);
        ravel__sb_printf(sb, "    %4s%c %-6s ", tags[i],
                         inf[win[i]].stuck ? '!' : ' ', ravel__sb_str(&pl));
        ravel__sb_free(&pl);
        ravel__lin_op_label(h, win[i], sb);
        ravel__sb_add(sb, "  (");
        lines_of(o, sb);
        ravel__sb_add(sb, ")\n");
    }
    free(in_win);
}

void ravel__lin_explain_text(const struct ravel__lin_history *h,
                             const struct ravel__lin_model *m, void *self,
                             const struct ravel__lin_result *r,
                             struct ravel__strbuf *sb)
{
    if (r->verdict != RAVEL__LIN_FAIL || !r->part_ops)
        return;
    struct info *inf = infos(h, r);
    if (!inf)
        return;
    if (r->part_key != RAVEL__LIN_V_NONE) {
        ravel__sb_add(sb, "  in the operations on key ");
        ravel__lin_vprint(&h->vals, r->part_key, sb, 40);
        ravel__sb_printf(sb, " (%u operations; the other keys are fine or "
                             "were not needed)\n",
                         r->npart_ops);
    }
    uint64_t st = r->nprefix ? r->prefix_states[r->nprefix - 1]
                             : r->initial_state;
    ravel__sb_printf(sb, "  longest linearizable prefix: %u of %u operations",
                     r->nprefix, r->npart_ops);
    ravel__sb_add(sb, ", leaving the state ");
    state_text(m, self, st, sb);
    ravel__sb_addc(sb, '\n');
    if (r->deadline_op != RAVEL__LIN_V_NONE) {
        const struct ravel__lin_op *o = &h->ops[r->deadline_op];
        struct ravel__strbuf pl = RAVEL__STRBUF_INIT;
        proc_label(h, o->process, &pl);
        ravel__sb_printf(sb, "  after it, %s ", ravel__sb_str(&pl));
        ravel__sb_free(&pl);
        ravel__lin_op_label(h, r->deadline_op, sb);
        ravel__sb_add(sb, " (");
        lines_of(o, sb);
        ravel__sb_add(sb, ") must take effect before it returns, and none "
                          "of the operations that may go next can:\n");
    }
    for (uint32_t i = 0; i < r->nstuck; i++) {
        uint32_t op = r->stuck[i];
        struct ravel__strbuf pl = RAVEL__STRBUF_INIT;
        proc_label(h, h->ops[op].process, &pl);
        ravel__sb_printf(sb, "    %-6s ", ravel__sb_str(&pl));
        ravel__sb_free(&pl);
        ravel__lin_op_label(h, op, sb);
        ravel__sb_add(sb, "  (");
        lines_of(&h->ops[op], sb);
        if (r->stuck_kind[i] == RAVEL__LIN_REJECTED) {
            ravel__sb_add(sb, "): impossible in state ");
            state_text(m, self, st, sb);
        } else {
            ravel__sb_add(sb, "): possible, but no order of the remaining "
                              "operations works after it");
        }
        ravel__sb_addc(sb, '\n');
    }
    timeline(h, r, inf, sb);
    free(inf);
}

static void json_op(const struct ravel__lin_history *h, uint32_t op,
                    struct ravel__strbuf *sb)
{
    const struct ravel__lin_op *o = &h->ops[op];
    bool first = true;
    ravel__sb_addc(sb, '{');
    ravel__json_key(sb, &first, "process");
    ravel__lin_vjson(&h->vals, h->procs[o->process], sb);
    ravel__json_key(sb, &first, "f");
    ravel__lin_vjson(&h->vals, o->f, sb);
    if (o->key != RAVEL__LIN_V_NONE) {
        ravel__json_key(sb, &first, "key");
        ravel__lin_vjson(&h->vals, o->key, sb);
    }
    ravel__json_key(sb, &first, "value");
    ravel__lin_vjson(&h->vals, o->in, sb);
    if (o->out != RAVEL__LIN_V_NONE) {
        ravel__json_key(sb, &first, "output");
        ravel__lin_vjson(&h->vals, o->out, sb);
    }
    ravel__json_key(sb, &first, "call");
    ravel__sb_printf(sb, "%llu", (unsigned long long)o->call);
    if (o->ret != RAVEL__LIN_NEVER) {
        ravel__json_key(sb, &first, "return");
        ravel__sb_printf(sb, "%llu", (unsigned long long)o->ret);
    }
    ravel__json_key(sb, &first, "line");
    ravel__sb_printf(sb, "%u", o->call_line);
    ravel__sb_addc(sb, '}');
}

void ravel__lin_explain_json(const struct ravel__lin_history *h,
                             const struct ravel__lin_model *m, void *self,
                             const struct ravel__lin_result *r,
                             struct ravel__strbuf *sb)
{
    bool first = true;
    ravel__sb_addc(sb, '{');
    if (r->part_key != RAVEL__LIN_V_NONE) {
        ravel__json_key(sb, &first, "key");
        ravel__lin_vjson(&h->vals, r->part_key, sb);
    }
    ravel__json_key(sb, &first, "partition_operations");
    ravel__sb_printf(sb, "%u", r->npart_ops);
    ravel__json_key(sb, &first, "prefix");
    ravel__sb_addc(sb, '[');
    for (uint32_t i = 0; i < r->nprefix; i++) {
        if (i)
            ravel__sb_addc(sb, ',');
        json_op(h, r->prefix[i], sb);
    }
    ravel__sb_addc(sb, ']');
    struct ravel__strbuf st = RAVEL__STRBUF_INIT;
    state_text(m, self,
               r->nprefix ? r->prefix_states[r->nprefix - 1]
                          : r->initial_state,
               &st);
    ravel__json_key(sb, &first, "state");
    ravel__json_str(sb, ravel__sb_str(&st));
    ravel__sb_free(&st);
    if (r->deadline_op != RAVEL__LIN_V_NONE) {
        ravel__json_key(sb, &first, "must_go_next");
        json_op(h, r->deadline_op, sb);
    }
    ravel__json_key(sb, &first, "cannot_go_next");
    ravel__sb_addc(sb, '[');
    for (uint32_t i = 0; i < r->nstuck; i++) {
        if (i)
            ravel__sb_addc(sb, ',');
        ravel__sb_add(sb, "{\"op\":");
        json_op(h, r->stuck[i], sb);
        ravel__sb_add(sb, ",\"why\":");
        ravel__json_str(sb, r->stuck_kind[i] == RAVEL__LIN_REJECTED
                                ? "the model rejects it"
                                : "dead end after it");
        ravel__sb_addc(sb, '}');
    }
    ravel__sb_add(sb, "]}");
}

/* ---- HTML ----------------------------------------------------------------- */

/* JSON text for a <script type="application/json"> block: also escape
 * '<' so no string can close the script element. */
static void html_safe_json(struct ravel__strbuf *sb, const char *json)
{
    for (const char *p = json; *p; p++) {
        if (*p == '<')
            ravel__sb_add(sb, "\\u003c");
        else
            ravel__sb_addc(sb, *p);
    }
}

static void html_text(struct ravel__strbuf *sb, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': ravel__sb_add(sb, "&lt;"); break;
        case '>': ravel__sb_add(sb, "&gt;"); break;
        case '&': ravel__sb_add(sb, "&amp;"); break;
        case '"': ravel__sb_add(sb, "&quot;"); break;
        default: ravel__sb_addc(sb, *s);
        }
    }
}

static const char html_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>";

static const char html_style[] =
    "</title>\n<style>\n"
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\n"
    "h1{font-size:1.3em;margin:0 0 .3em}\n"
    ".verdict-fail{color:#b00020}.verdict-ok{color:#176b2c}\n"
    "#summary{margin:.5em 0 1em;white-space:pre-wrap;font-family:monospace}\n"
    "#chart{overflow-x:auto;border:1px solid #ddd}\n"
    "#legend span{display:inline-block;margin-right:1.5em}\n"
    "#legend i{display:inline-block;width:1.2em;height:.8em;"
    "vertical-align:middle;margin-right:.3em;border:1px solid}\n";

static const char html_style_end[] = "</style>\n</head>\n<body>\n";

/* The drawing, as a function any page can call:
 * ravelLinTimeline(data, container). */
const char ravel__lin_timeline_js[] =
    "function ravelLinTimeline(d,chart){\n"
    "var NS='http://www.w3.org/2000/svg';\n"
    "function el(n,a,p){var e=document.createElementNS(NS,n);"
    "for(var k in a)e.setAttribute(k,a[k]);if(p)p.appendChild(e);"
    "return e;}\n"
    "var ts=[];d.ops.forEach(function(o){ts.push(o.call);"
    "if(o.ret!==null)ts.push(o.ret);});\n"
    "ts.sort(function(a,b){return a-b;});\n"
    "var uniq=[];ts.forEach(function(t){if(!uniq.length||"
    "uniq[uniq.length-1]!==t)uniq.push(t);});\n"
    "var rank={};uniq.forEach(function(t,i){rank[t]=i;});\n"
    "var STEP=26,LEFT=70,LANE=30,TOP=24,CH=6.7;\n"
    "var W=LEFT+(uniq.length+2)*STEP;\n"
    "var H=TOP+d.procs.length*LANE+10;\n"
    "var svg=el('svg',{width:W,height:H,'class':'timeline'});\n"
    "function x(t){return LEFT+rank[t]*STEP;}\n"
    "d.procs.forEach(function(p,i){var g=el('g',{'class':'lane',"
    "'data-process':p},svg);var y=TOP+i*LANE;"
    "el('line',{x1:LEFT-4,x2:W,y1:y+LANE-4,y2:y+LANE-4,stroke:'#eee'},g);"
    "var t=el('text',{x:4,y:y+16,'class':'lane-label'},g);"
    "t.textContent=p;});\n"
    "var pts=[];\n"
    "d.ops.forEach(function(o){var y=TOP+o.proc*LANE+3;var x0=x(o.call);"
    "var x1=o.ret===null?W-4:x(o.ret);"
    "var cls='op'+(o.stuck?' fail':'')+(o.pos?' lin':'')+"
    "(o.ret===null?' never':'');"
    "var g=el('g',{'class':cls,'data-op':o.id},svg);"
    "el('rect',{x:x0,y:y,width:Math.max(x1-x0,4),height:LANE-10,rx:3},g);"
    "var tt=el('title',{},g);tt.textContent=o.label+' ('+o.lines+')'+"
    "(o.pos?' - position '+o.pos+' in the prefix':'')+"
    "(o.why?' - '+o.why:'');"
    "var lb=el('text',{x:x0+3,y:y+14},g);"
    "var full=(o.pos?'#'+o.pos+' ':'')+o.label;"
    "var fit=Math.max(1,Math.floor((x1-x0-6)/CH));"
    "lb.textContent=full.length>fit?full.slice(0,Math.max(1,fit-1))+"
    "'\u2026':full;"
    "if(o.pos)pts[o.pos-1]={lo:x0,hi:x1,y:y+(LANE-10)/2};});\n"
    "var last=-1e9,path=[];\n"
    "pts.forEach(function(p,i){if(!p)return;var px=Math.max(p.lo+2,last+1);"
    "if(px>p.hi-2)px=Math.max(p.lo+1,p.hi-2);last=px;path.push(px+','+p.y);"
    "el('circle',{cx:px,cy:p.y,r:3,'class':'lp','data-pos':i+1},svg);});\n"
    "if(path.length>1)el('polyline',{points:path.join(' '),"
    "'class':'lp-path'},svg);\n"
    "chart.appendChild(svg);}\n";

/* The timeline's style, for pages that embed it. */
const char ravel__lin_timeline_css[] =
    "svg.timeline text{font:11px monospace}\n"
    ".lane-label{font-weight:bold}\n"
    ".op rect{fill:#dfe8f5;stroke:#6b8fc7}\n"
    ".op.lin rect{fill:#cfe9d6;stroke:#3d8b55}\n"
    ".op.fail rect{fill:#ffd9de;stroke:#b00020;stroke-width:2}\n"
    ".op.never rect{fill:#f2f2f2;stroke:#999;stroke-dasharray:4 3}\n"
    ".lp{fill:#3d8b55}.lp-path{fill:none;stroke:#3d8b55;stroke-width:1;"
    "stroke-dasharray:2 2}\n"
    ".op:hover rect{stroke:#000}\n";

static const char html_script[] =
    "(function(){\n"
    "var d=JSON.parse(document.getElementById('data').textContent);\n"
    "ravelLinTimeline(d,document.getElementById('chart'));\n"
    "document.querySelector('#chart svg').id='timeline';\n"
    "document.body.setAttribute('data-rendered','ok');\n"
    "})();\n"
    "</script>\n</body>\n</html>\n";

void ravel__lin_explain_data(const struct ravel__lin_history *h,
                             const struct ravel__lin_result *r,
                             struct ravel__strbuf *js)
{
    bool fail = r->verdict == RAVEL__LIN_FAIL && r->part_ops;
    struct info *inf = fail ? infos(h, r) : NULL;
    uint32_t n = fail ? r->npart_ops : h->nops;
    /* Lanes: the processes that appear, in order of first appearance. */
    int32_t *lane = malloc(((size_t)h->nprocs + 1) * sizeof *lane);
    uint32_t *ops = malloc(((size_t)n + 1) * sizeof *ops);
    if (!lane || !ops || (fail && !inf)) {
        free(lane);
        free(ops);
        free(inf);
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        ops[i] = fail ? r->part_ops[i] : i;
    qsort(ops, n, sizeof *ops, cmp_u32);
    for (uint32_t p = 0; p < h->nprocs; p++)
        lane[p] = -1;
    struct ravel__strbuf tmp = RAVEL__STRBUF_INIT;
    ravel__sb_add(js, "{\"procs\":[");
    uint32_t nl = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = h->ops[ops[i]].process;
        if (lane[p] >= 0)
            continue;
        lane[p] = (int32_t)nl;
        if (nl++)
            ravel__sb_addc(js, ',');
        ravel__sb_reset(&tmp);
        proc_label(h, p, &tmp);
        ravel__json_str(js, ravel__sb_str(&tmp));
    }
    ravel__sb_add(js, "],\"ops\":[");
    for (uint32_t i = 0; i < n; i++) {
        const struct ravel__lin_op *o = &h->ops[ops[i]];
        if (i)
            ravel__sb_addc(js, ',');
        ravel__sb_printf(js, "{\"id\":%u,\"proc\":%d,\"call\":%llu,\"ret\":",
                         ops[i], lane[o->process],
                         (unsigned long long)o->call);
        if (o->ret == RAVEL__LIN_NEVER)
            ravel__sb_add(js, "null");
        else
            ravel__sb_printf(js, "%llu", (unsigned long long)o->ret);
        ravel__sb_add(js, ",\"label\":");
        ravel__sb_reset(&tmp);
        ravel__lin_op_label(h, ops[i], &tmp);
        ravel__json_str(js, ravel__sb_str(&tmp));
        ravel__sb_add(js, ",\"lines\":");
        ravel__sb_reset(&tmp);
        lines_of(o, &tmp);
        ravel__json_str(js, ravel__sb_str(&tmp));
        int32_t pos = inf ? inf[ops[i]].pos : 0;
        int32_t st = inf ? inf[ops[i]].stuck : 0;
        ravel__sb_printf(js, ",\"pos\":%d,\"stuck\":%s", pos,
                         st ? "true" : "false");
        if (st) {
            ravel__sb_add(js, ",\"why\":");
            ravel__json_str(js, r->stuck_kind[st - 1] == RAVEL__LIN_REJECTED
                                     ? "cannot come next: the model rejects "
                                       "it"
                                     : "cannot come next: nothing works "
                                       "after it");
        }
        ravel__sb_addc(js, '}');
    }
    ravel__sb_add(js, "]}");
    ravel__sb_free(&tmp);
    free(lane);
    free(ops);
    free(inf);
}

void ravel__lin_explain_html(const struct ravel__lin_history *h,
                             const struct ravel__lin_model *m, void *self,
                             const struct ravel__lin_result *r,
                             const char *title, struct ravel__strbuf *sb)
{
    bool fail = r->verdict == RAVEL__LIN_FAIL && r->part_ops;
    uint32_t n = fail ? r->npart_ops : h->nops;
    struct ravel__strbuf js = RAVEL__STRBUF_INIT, tmp = RAVEL__STRBUF_INIT;
    ravel__lin_explain_data(h, r, &js);

    ravel__sb_add(sb, html_head);
    html_text(sb, title);
    ravel__sb_add(sb, html_style);
    ravel__sb_add(sb, ravel__lin_timeline_css);
    ravel__sb_add(sb, html_style_end);
    ravel__sb_add(sb, "<h1>");
    html_text(sb, title);
    ravel__sb_add(sb, ": <span class=\"");
    ravel__sb_add(sb, r->verdict == RAVEL__LIN_FAIL ? "verdict-fail\">not "
                                                      "linearizable"
                      : r->verdict == RAVEL__LIN_OK ? "verdict-ok\">"
                                                      "linearizable"
                                                    : "\">unknown");
    ravel__sb_add(sb, "</span></h1>\n<div id=\"summary\">");
    ravel__sb_reset(&tmp);
    ravel__sb_printf(&tmp, "model %s, %u operations shown\n", m->name, n);
    if (fail) {
        ravel__lin_explain_text(h, m, self, r, &tmp);
    }
    html_text(sb, ravel__sb_str(&tmp));
    ravel__sb_add(sb, "</div>\n<div id=\"legend\">"
                      "<span><i style=\"background:#cfe9d6;border-color:"
                      "#3d8b55\"></i>in the longest linearizable prefix "
                      "(dots: linearization points, in order)</span>"
                      "<span><i style=\"background:#ffd9de;border-color:"
                      "#b00020\"></i>cannot come next</span>"
                      "<span><i style=\"background:#dfe8f5;border-color:"
                      "#6b8fc7\"></i>other</span>"
                      "<span><i style=\"background:#f2f2f2;border-color:"
                      "#999\"></i>never returned</span></div>\n"
                      "<div id=\"chart\"></div>\n"
                      "<script type=\"application/json\" id=\"data\">");
    html_safe_json(sb, ravel__sb_str(&js));
    ravel__sb_add(sb, "</script>\n<script>\n");
    ravel__sb_add(sb, ravel__lin_timeline_js);
    ravel__sb_add(sb, html_script);
    ravel__sb_free(&js);
    ravel__sb_free(&tmp);
}
