/*
 * supervisor.c - the parent process of a run, and everything that prints.
 *
 * The supervisor forks the executor (init.c), then waits: for messages on
 * the pipe (a bug, a new result, the end), for the executor to die (a
 * crash: the report is built from what the executor left in shared
 * memory), or for the watchdog (no visible operation for --watchdog
 * seconds: a hang). After a crash or hang it can start a new executor
 * that resumes at the next execution, so --keep-going survives crashes.
 *
 * Reports, tickets, the progress line, the summary and --json all come
 * from here, so output never interleaves and the executor's own stdout and
 * stderr stay the program's. When there is no supervisor process (a
 * replay under gdb) the executor calls the same handlers itself.
 */
#include "../rt.h"

#include "../../common/json.h"
#include "../../common/shard.h"
#include "../../explore/checkpoint.h"
#include "../../explore/tree.h"
#include "../../report/ci.h"
#include "../../report/report.h"
#include "../../report/view.h"
#include "../../report/symbolize.h"
#include "../intercept/real.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Distinct bugs remembered for --keep-going and the summary. */
#define MAX_BUGS 256

struct bug {
    uint64_t signature;
    uint8_t kind;
    bool race_directed; /* found with promoted racing locations visible */
    char message[RAVEL__MSG_MAX];
    char location[320];
    char func[128];
    /* A data race's other (earlier) access, "" when unknown or the same
     * line as location (the read and the write of one x++). */
    char other[320];
    char other_func[128];
    char ticket[PATH_MAX];
    uint64_t execution;
    uint64_t count;
    char threads[160]; /* the threads involved, "1.1, 1.2" */
    char *report;      /* full report without colour (--html, --junit,
                          --tap), malloc'ed */
    char *json;        /* the HTML report's data for it (--html) */
};

static struct {
    struct bug bugs[MAX_BUGS];
    unsigned nbugs;
    bool trace_written;
    bool dot_written;
    bool race_directed_shown; /* a race-directed failure got its full
                                 report (later ones are brief) */
    bool error;
    char errmsg[600];
    bool progress_shown;
    volatile sig_atomic_t interrupted;
    double stop_deadline; /* interrupted: lanes still running then are
                             killed */
    /* Lanes after the first start once it has run for LANE_DELAY
     * (seconds) and is not done: a search shorter than that costs the
     * others' start-up (a fork each, ~2.5 ms here), and on one lane it
     * is over sooner (filesystem(19): 32 ms on one lane, 40 ms on two,
     * when all started at once). 0 once they have started. */
    double lanes_at;
    /* Interleaving of the first execution whose result differed. */
    struct ravel__strbuf differing;
    bool stop;          /* stop every lane: a bug (without
                           --keep-going) or an error */
    uint32_t last_done; /* lane whose figures the summary shows */
    bool lane0_done;
    /* Race-directed scheduling: a data race added code locations to
     * common->promoted; the exploration starts over with them once every
     * lane has stopped. */
    bool restart;
    /* For the guarantee (earned_guarantee): data races reported in the
     * current exploration; a race on memory that is not module data (only
     * its code locations could be promoted); executions done when the
     * current exploration started. */
    unsigned phase_races;
    bool race_unnamed_memory;
    uint64_t phase_start;
    /* Promotions by a data race, and code locations promoted because a
     * thread spun reading plain memory there (promote_spin). */
    bool race_promoted;
    unsigned spin_promoted;
} sv;

/* Seconds an interrupted lane has to finish its execution and say what
 * it covered, and a lane that said it is done has to exit, before it is
 * killed: the run ends within a second of SIGINT or SIGTERM. */
#define STOP_GRACE 0.5

/* Seconds a lane that said it is done, or was told to stop after a bug,
 * has to exit before it is killed. */
#define DONE_GRACE 2.0

/* How long, in watchdogs since its last step, a thread that keeps
 * writing memory while other threads wait is taken for a computation
 * (computing(), below) before it is reported as a hang. */
#define COMPUTING_WATCHDOGS 30

/* Explorations one run may start over after promotions (each needs a new
 * race): a bound against programs whose every promotion shows another. */
#define MAX_PHASES 16

static bool use_color(void)
{
    const char *c = ravel__rt.opt.color;
    if (!strcmp(c, "always"))
        return true;
    if (!strcmp(c, "never"))
        return false;
    const char *nc = getenv("NO_COLOR");
    return isatty(2) && !(nc && *nc);
}

static bool use_progress(void)
{
    const char *p = ravel__rt.opt.progress;
    if (!strcmp(p, "always"))
        return true;
    if (!strcmp(p, "never"))
        return false;
    /* A program run directly owns its stderr (the first execution
     * prints there while the run goes on). */
    return ravel__rt.supervised && !ravel__rt.direct && isatty(2);
}

static void clear_progress(void)
{
    if (sv.progress_shown) {
        ravel__write_all(2, "\r\033[K", 4);
        sv.progress_shown = false;
    }
}

static void out_err(const char *text, size_t len)
{
    clear_progress();
    ravel__write_all(2, text, len);
}

/* ---- tickets ------------------------------------------------------------ */

static int mkdir_p(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* Writes the current execution's schedule as a ticket; returns its path
 * in `out` (empty on failure, with a warning printed). */
static void write_ticket(const struct ravel__exec *x, const char *kind,
                         char *out, size_t outlen)
{
    struct ravel__rt *rt = &ravel__rt;
    out[0] = 0;
    struct ravel__ticket t;
    memset(&t, 0, sizeof t);
    t.program = (char *)ravel__exe_path();
    t.program_hash = ravel__exe_hash();
    t.argc = rt->argc;
    t.argv = rt->argv;
    t.strategy = (char *)rt->opt.strategy;
    t.seed = rt->sh->seed;
    t.execution = x->number + 1;
    t.max_steps = rt->opt.max_steps;
    t.kind = (char *)kind;
    t.memory_model = (char *)rt->opt.memory_model;
    t.timeouts = (char *)rt->opt.timeouts;
    struct ravel__ticket sched;
    memset(&sched, 0, sizeof sched);
    for (uint32_t i = 0; i < x->nevents; i++)
        if (ravel__ticket_add_step(&sched, x->threads[x->events[i].thread].name))
            break;
    t.nnames = sched.nnames;
    t.names = sched.names;
    t.nsteps = sched.nsteps;
    t.nruns = sched.nruns;
    t.runs = sched.runs;
    struct ravel__ticket_vchoice *vc =
        malloc((x->nvchoices + 1) * sizeof *vc);
    if (!vc) {
        static const char oom[] = "ravel: warning: out of memory for a ticket\n";
        out_err(oom, sizeof oom - 1);
        ravel__ticket_free(&sched);
        return;
    }
    for (uint32_t i = 0; i < x->nvchoices; i++)
        vc[i] = (struct ravel__ticket_vchoice){
            x->vchoices[i].step, x->vchoices[i].n, x->vchoices[i].value};
    t.nvchoices = x->nvchoices;
    t.vchoices = vc;
    for (uint32_t i = 0; i < rt->common->npromoted_data &&
                         t.npromote_data < RAVEL__TICKET_MAX_PROMOTE; i++)
        t.promote_data[t.npromote_data++].where =
            rt->common->promoted_data[i];
    for (uint32_t i = 0; i < rt->common->npromoted &&
                         t.npromote < RAVEL__TICKET_MAX_PROMOTE; i++) {
        uint32_t m;
        uint64_t off;
        if (ravel__pc_to_module(rt->common->promoted[i], &m, &off)) {
            t.promote[t.npromote].module = m;
            t.promote[t.npromote].offset = off;
            t.npromote++;
        }
    }
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__ticket_format(&t, &sb);
    ravel__ticket_free(&sched);
    free(vc);

    /* A unit test's tickets carry its name: two tests of one program
     * may fail in the same execution of the same seed. */
    char stem[PATH_MAX / 2];
    const char *test = ravel__door_case();
    snprintf(stem, sizeof stem, "%s%s%s", ravel__program_name(),
             test ? "." : "", test ? test : "");
    for (char *c = stem; *c; c++)
        if (*c == '/')
            *c = '.';
    char path[PATH_MAX], tmp[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/%s-s%llu-e%llu-%s.ticket",
             rt->opt.ticket_dir, stem,
             (unsigned long long)rt->sh->seed,
             (unsigned long long)x->number + 1, kind);
    snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid());
    int fd = -1;
    if (mkdir_p(rt->opt.ticket_dir) == 0)
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0 || ravel__write_all(fd, sb.data, sb.len) != 0 ||
        close(fd) != 0 || rename(tmp, path) != 0) {
        char msg[PATH_MAX + 100];
        int n = snprintf(msg, sizeof msg,
                         "ravel: warning: cannot write ticket %s: %s\n", path,
                         strerror(errno));
        out_err(msg, (size_t)n);
        unlink(tmp);
    } else {
        snprintf(out, outlen, "%s", path);
    }
    ravel__sb_free(&sb);
}

/* ---- captured output ---------------------------------------------------- */

/* The capture file's bytes from `from` on (this execution's). */
static char *read_capture(int fd, uint64_t from, size_t *len)
{
    *len = 0;
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0 ||
        (uint64_t)st.st_size <= from)
        return NULL;
    size_t n = (size_t)st.st_size - from;
    char *buf = malloc(n + 1);
    if (!buf)
        return NULL;
    ssize_t r = pread(fd, buf, n, (off_t)from);
    if (r <= 0) {
        free(buf);
        return NULL;
    }
    buf[r] = 0;
    *len = (size_t)r;
    return buf;
}

/* Run directly: the rest of a dead executor's first execution's output,
 * from the capture `fd` past `shown` and `repeat`, to the program's `to`. */
static void forward_rest(int fd, uint64_t shown, uint64_t repeat, int to)
{
    size_t n;
    char *buf = read_capture(fd, shown > repeat ? shown : repeat, &n);
    if (buf)
        (void)ravel__write_all(to, buf, n);
    free(buf);
}

/* stdout then stderr of the execution, as one text. */
static char *execution_output(size_t *len)
{
    size_t lo, le;
    char *o = read_capture(ravel__rt.cap_out, ravel__rt.sh->out_start, &lo);
    char *e = read_capture(ravel__rt.cap_err, ravel__rt.sh->err_start, &le);
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    if (o)
        ravel__sb_addn(&sb, o, lo);
    if (o && lo && o[lo - 1] != '\n' && e)
        ravel__sb_addc(&sb, '\n');
    if (e)
        ravel__sb_addn(&sb, e, le);
    /* A property program's test case that crashed or hung never got to
     * print its counterexample: the door says it here (src/pbt). */
    uint8_t k = ravel__rt.sh->exec.failure.kind;
    if (ravel__door && ravel__door->dead_text &&
        (k == RAVEL__FAIL_CRASH || k == RAVEL__FAIL_HANG)) {
        if (sb.len && sb.data[sb.len - 1] != '\n')
            ravel__sb_addc(&sb, '\n');
        ravel__door->dead_text(&sb);
    }
    free(o);
    free(e);
    *len = sb.len;
    return sb.data;
}

static bool is_replay_run(void)
{
    return !strcmp(ravel__rt.opt.strategy, "replay");
}

/* ---- trace file ----------------------------------------------------------- */

static void write_trace_file(const struct ravel__exec *x)
{
    struct ravel__rt *rt = &ravel__rt;
    if (!rt->opt.trace || sv.trace_written || x->nevents == 0)
        return;
    sv.trace_written = true;
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__report_trace(&sb, x, 0);
    FILE *f = REAL(fopen)(rt->opt.trace, "w");
    if (!f || fwrite(sb.data, 1, sb.len, f) != sb.len || REAL(fclose)(f)) {
        char msg[PATH_MAX + 100];
        int n = snprintf(msg, sizeof msg,
                         "ravel: warning: cannot write trace %s: %s\n",
                         rt->opt.trace, strerror(errno));
        out_err(msg, (size_t)n);
    }
    ravel__sb_free(&sb);
}

/* Writes `len` bytes to `path`, or warns. */
static void write_file(const char *path, const char *what, const char *data,
                       size_t len)
{
    FILE *f = REAL(fopen)(path, "w");
    if (!f || fwrite(data, 1, len, f) != len || REAL(fclose)(f)) {
        char msg[PATH_MAX + 100];
        int n = snprintf(msg, sizeof msg,
                         "ravel: warning: cannot write %s %s: %s\n", what,
                         path, strerror(errno));
        out_err(msg, (size_t)n);
    }
}

static void write_dot_file(const struct ravel__exec *x)
{
    struct ravel__rt *rt = &ravel__rt;
    if (!rt->opt.dot || sv.dot_written)
        return;
    sv.dot_written = true;
    struct ravel__report_ctx c = {
        .x = x,
        .program = ravel__program_name(),
        .strategy = is_replay_run() ? rt->ticket.strategy : rt->opt.strategy,
        .seed = rt->sh->seed,
        .execution = is_replay_run() ? rt->ticket.execution : 0,
    };
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__view_dot(&sb, &c);
    write_file(rt->opt.dot, "graph", sb.data ? sb.data : "", sb.len);
    ravel__sb_free(&sb);
}

/* ---- bugs ------------------------------------------------------------------- */

static bool is_replay(void)
{
    return !strcmp(ravel__rt.opt.strategy, "replay");
}

/* Race-directed scheduling: adds the race's two code locations to the
 * promoted ones and asks for the exploration to start over. Only in a
 * supervised run that is not a replay, within the bounds. */
static bool promote(const struct ravel__exec *x)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__common *c = rt->common;
    if (!rt->opt.promote_races || !rt->supervised || is_replay() ||
        c->phase + 1 >= MAX_PHASES)
        return false;
    const struct ravel__race_access *a[2] = {&x->race.cur, &x->race.prev};
    bool added = false;
    for (int i = 0; i < 2; i++) {
        if (!a[i]->nframes)
            continue;
        uint64_t pc = a[i]->frames[0];
        uint32_t k = 0;
        while (k < c->npromoted && c->promoted[k] != pc)
            k++;
        if (k == c->npromoted && k < RAVEL__MAX_PROMOTED) {
            c->promoted[c->npromoted++] = pc;
            added = true;
        }
        /* The variable too, when it has a name that holds across
         * executions (module data): every access to it, from any code
         * location, becomes a scheduling point. */
        uint64_t where;
        if (!ravel__addr_global(a[i]->addr, &where)) {
            sv.race_unnamed_memory = true;
            continue;
        }
        /* One per 8-byte granule; the variable's own address is kept
         * (race.c masks it), so that the summary names the variable
         * rather than whatever symbol starts its granule. */
        k = 0;
        while (k < c->npromoted_data &&
               (c->promoted_data[k] & ~7ULL) != (where & ~7ULL))
            k++;
        if (k == c->npromoted_data && k < RAVEL__MAX_PROMOTED) {
            c->promoted_data[c->npromoted_data++] = where;
            added = true;
        }
    }
    if (added) {
        sv.restart = true;
        sv.race_promoted = true;
    }
    return added;
}

/* A thread spun reading plain memory (src/rt/race/plain_spin.c): the
 * code locations of its loop's reads become scheduling points and the
 * exploration starts over, as after a race, so that src/model/spin.c
 * sees the loop and the thread waits for a write. Only the code
 * locations: the write that ends the wait stays a plain access, which
 * the race detector checks (a spin on plain memory that ends is a data
 * race, and is reported as one). Returns false when it cannot: a
 * replay, no supervisor, race detection off (promoted reads are stepped
 * by its hook), the phase bound, or no room. */
static bool promote_spin(const struct ravel__exec *x)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__common *c = rt->common;
    if (!rt->supervised || is_replay() || !rt->opt.races ||
        c->phase + 1 >= MAX_PHASES)
        return false;
    bool added = false;
    for (uint32_t i = 0; i < x->nquiet && i < RAVEL__QUIET_MAX; i++) {
        uint64_t pc = x->quiet_pc[i];
        uint32_t k = 0;
        while (k < c->npromoted && c->promoted[k] != pc)
            k++;
        if (k == c->npromoted && k < RAVEL__MAX_PROMOTED) {
            c->promoted[c->npromoted++] = pc;
            sv.spin_promoted++;
            added = true;
        }
    }
    if (added)
        sv.restart = true;
    return added;
}

bool ravel__sv_on_bug(void)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__exec *x = rt->x;
    size_t outlen;
    char *output = execution_output(&outlen);
    write_trace_file(x);
    if (x->failure.kind != RAVEL__FAIL_NONE || is_replay())
        write_dot_file(x);

    if (x->failure.kind == RAVEL__FAIL_NONE && !is_replay()) {
        /* Not a finding: the lane said "bug" but recorded none. */
        sv.error = true;
        snprintf(sv.errmsg, sizeof sv.errmsg,
                 "lane %u reported a failure in execution %llu but recorded "
                 "none (a fault in ravel)",
                 rt->lane, (unsigned long long)x->number + 1);
        free(output);
        return false;
    }
    if (x->failure.kind == RAVEL__FAIL_NONE) {
        /* A replay that ended without failing: show what ran. */
        struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
        ravel__sb_printf(&sb, "ravel: replayed execution %llu of %s: it ends "
                         "without a failure",
                         (unsigned long long)rt->ticket.execution,
                         rt->ticket.kind);
        if (x->has_result)
            ravel__sb_printf(&sb, "; its result is %lld",
                             (long long)x->result);
        ravel__sb_add(&sb, "\n");
        ravel__report_trace(&sb, x, 0);
        if (output && outlen) {
            ravel__sb_add(&sb, "Program output:\n");
            ravel__sb_addn(&sb, output, outlen);
            if (output[outlen - 1] != '\n')
                ravel__sb_addc(&sb, '\n');
        }
        out_err(sb.data, sb.len);
        ravel__sb_free(&sb);
        free(output);
        return false;
    }

    if (x->failure.kind >= RAVEL__FAIL_COUNT) {
        /* Not a finding: the lane's record of it is broken. */
        sv.error = true;
        snprintf(sv.errmsg, sizeof sv.errmsg,
                 "lane %u reported a failure of unknown kind %u in "
                 "execution %llu (a fault in ravel)",
                 rt->lane, (unsigned)x->failure.kind,
                 (unsigned long long)x->number + 1);
        free(output);
        return false;
    }
    if (x->failure.kind == RAVEL__FAIL_DATA_RACE)
        sv.phase_races++;
    uint64_t sig = ravel__report_signature(x);
    for (unsigned i = 0; i < sv.nbugs; i++) {
        if (sv.bugs[i].signature == sig) {
            sv.bugs[i].count++;
            free(output);
            /* The same race at other instructions of the same lines (a
             * read and a write of one x++): promoted too, not reported
             * again. */
            if (x->failure.kind == RAVEL__FAIL_DATA_RACE &&
                rt->opt.promote_races && rt->supervised && !is_replay())
                return !promote(x);
            return rt->opt.keep_going;
        }
    }
    struct bug b;
    memset(&b, 0, sizeof b);
    b.signature = sig;
    b.kind = x->failure.kind;
    b.execution = x->number + 1;
    b.count = 1;
    b.race_directed = ravel__report_promoted(x) > 0;
    ravel__report_headline(x, b.message, sizeof b.message);
    ravel__report_location(x, b.location, sizeof b.location, b.func,
                           sizeof b.func);
    ravel__report_race_other(x, b.other, sizeof b.other, b.other_func,
                             sizeof b.other_func);
    if (!strcmp(b.other, b.location))
        b.other[0] = b.other_func[0] = 0;
    if (is_replay())
        snprintf(b.ticket, sizeof b.ticket, "%s", rt->opt.ticket);
    else
        write_ticket(x, ravel__fail_kind_name(b.kind), b.ticket,
                     sizeof b.ticket);

    struct ravel__report_ctx c = {
        .x = x,
        .program = ravel__program_name(),
        .strategy = is_replay() ? rt->ticket.strategy : rt->opt.strategy,
        .seed = rt->sh->seed,
        .ticket = b.ticket[0] ? b.ticket : NULL,
        .output = output,
        .output_len = outlen,
        .color = use_color(),
        .max_rows = 200,
        .execution = is_replay() ? rt->ticket.execution : 0,
        .history = b.kind == RAVEL__FAIL_LINEARIZABILITY
                       ? rt->sh->pbt_history
                       : NULL,
    };
    ravel__view_threads(x, b.threads, sizeof b.threads);
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__report_bug(&sb, &c);
    /* After the first finding, a short report unless --verbose; the
     * first failure other than a race that race-directed scheduling
     * found shows what a race breaks, so it keeps its full report. */
    bool shows_race = b.race_directed && b.kind != RAVEL__FAIL_DATA_RACE;
    bool brief = sv.nbugs > 0 && !rt->opt.verbose &&
                 !(shows_race && !sv.race_directed_shown);
    if (shows_race && !brief)
        sv.race_directed_shown = true;
    if (brief) {
        struct ravel__strbuf br = RAVEL__STRBUF_INIT;
        ravel__sb_add(&br, "==================\n");
        if (b.kind == RAVEL__FAIL_DATA_RACE)
            ravel__sb_add(&br, "WARNING: ravel: data race\n");
        ravel__sb_printf(&br, "ravel: BUG (%s): %s\n",
                         ravel__fail_kind_name(b.kind), b.message);
        ravel__sb_printf(&br, "  finding %u, threads %s, first in execution "
                              "%llu (the full report: --verbose, or the "
                              "replay below)\n",
                         sv.nbugs + 1, b.threads[0] ? b.threads : "-",
                         (unsigned long long)b.execution);
        if (b.location[0])
            ravel__sb_printf(&br, "    #0 %s %s\n",
                             b.func[0] ? b.func : "??", b.location);
        if (b.other[0])
            ravel__sb_printf(&br, "  races with\n    #0 %s %s\n",
                             b.other_func[0] ? b.other_func : "??",
                             b.other);
        if (b.ticket[0])
            ravel__sb_printf(&br, "Replay: ravel replay %s\n", b.ticket);
        ravel__sb_printf(&br, "SUMMARY: ravel: %s",
                         ravel__fail_kind_name(b.kind));
        if (b.location[0])
            ravel__sb_printf(&br, " %s", b.location);
        if (b.func[0])
            ravel__sb_printf(&br, " in %s", b.func);
        ravel__sb_add(&br, "\n==================\n");
        out_err(br.data, br.len);
        ravel__sb_free(&br);
    } else {
        out_err(sb.data, sb.len);
    }
    if (rt->opt.html || rt->opt.junit || rt->opt.tap) {
        if (c.color) {
            c.color = false;
            ravel__sb_reset(&sb);
            ravel__report_bug(&sb, &c);
        }
        b.report = sb.data; /* kept: the strbuf gives up its buffer */
        sb.data = NULL;
        sb.len = sb.cap = 0;
    }
    if (rt->opt.html) {
        struct ravel__strbuf js = RAVEL__STRBUF_INIT;
        c.color = false;
        ravel__view_finding_json(&js, &c, NULL);
        b.json = js.data;
    }
    ravel__sb_free(&sb);
    free(output);
    if (sv.nbugs < MAX_BUGS)
        sv.bugs[sv.nbugs++] = b;
    else {
        free(b.report);
        free(b.json);
    }
    if (b.kind == RAVEL__FAIL_DATA_RACE && promote(x))
        return false; /* this exploration stops; the next one starts */
    return rt->opt.keep_going;
}

void ravel__sv_on_outcome(uint32_t index)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__outcome *o = &rt->sh->outcomes[index];
    if (!is_replay())
        write_ticket(rt->x, "outcome", o->ticket, sizeof o->ticket);
    if (rt->sh->noutcomes == 2) {
        write_trace_file(rt->x);
        write_dot_file(rt->x);
        ravel__sb_printf(&sv.differing,
                         "\nExecution %llu, the first with another result "
                         "(%lld):\n",
                         (unsigned long long)rt->x->number + 1,
                         (long long)o->value);
        ravel__report_trace(&sv.differing, rt->x, 200);
    }
}

/* ---- summary ------------------------------------------------------------------ */

static void nondeterminism_report(void)
{
    struct ravel__shared *sh = ravel__rt.sh;
    if (sh->noutcomes < 2)
        return;
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    const char *bold = use_color() ? "\033[1;31m" : "";
    const char *reset = use_color() ? "\033[0m" : "";
    ravel__sb_add(&sb, "==================\n");
    ravel__sb_printf(&sb,
                     "%sravel: BUG (nondeterminism): the program's result "
                     "depends on the schedule: %u distinct results%s\n",
                     bold, sh->noutcomes, reset);
    char where[400] = "";
    struct ravel__frame f;
    ravel__symbolize1(sh->outcomes[0].pc, false, &f);
    if (f.line)
        snprintf(where, sizeof where, "%s:%u", ravel__display_path(f.file),
                 f.line);
    if (where[0])
        ravel__sb_printf(&sb, "  declared by ravel_result() in %s at %s\n",
                         f.func, where);
    for (uint32_t i = 0; i < sh->noutcomes; i++) {
        const struct ravel__outcome *o = &sh->outcomes[i];
        ravel__sb_printf(&sb,
                         "  result %lld: %llu execution%s, first in execution "
                         "%llu\n",
                         (long long)o->value, (unsigned long long)o->count,
                         o->count == 1 ? "" : "s",
                         (unsigned long long)o->first_execution + 1);
        if (o->ticket[0])
            ravel__sb_printf(&sb, "    replay: ravel replay %s\n", o->ticket);
    }
    if (sh->outcomes_dropped)
        ravel__sb_printf(&sb, "  (and %llu executions with further results)\n",
                         (unsigned long long)sh->outcomes_dropped);
    ravel__sb_add(&sb, ravel__sb_str(&sv.differing));
    ravel__sb_printf(&sb, "SUMMARY: ravel: nondeterminism %s%s%s%s (%u results)\n"
                          "==================\n",
                     where, where[0] ? " in " : "", where[0] ? f.func : "",
                     "", sh->noutcomes);
    out_err(sb.data, sb.len);
    ravel__sb_free(&sb);
}

/* --profile: the four shares of the executors' time, in microseconds
 * per execution (ticks converted at the rate measured over the run). */
struct profile {
    double reset, run, choose, end, total;
};

static struct profile profile_of(uint64_t execs)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__shared *sh = rt->sh;
    double el = ravel__now() - rt->start_time;
    double per_tick = el > 0 ? el / (double)(ravel__ticks() - rt->start_ticks)
                             : 0;
    double k = execs ? per_tick * 1e6 / (double)execs : 0;
    struct profile p;
    p.reset = (double)sh->prof_reset * k;
    p.choose = (double)sh->prof_choose * k;
    p.run = (double)(sh->prof_run - sh->prof_choose) * k;
    p.end = (double)sh->prof_end * k;
    p.total = p.reset + p.run + p.choose + p.end;
    return p;
}

static void profile_line(struct ravel__strbuf *sb, uint64_t execs)
{
    struct profile p = profile_of(execs);
    double t = p.total > 0 ? p.total : 1;
    const struct ravel__shared *sh = ravel__rt.sh;
    ravel__sb_printf(sb,
                     "ravel: profile, per execution: %.2f us = program and "
                     "thread switches %.2f (%.0f%%), strategy choices %.2f "
                     "(%.0f%%), analysis after %.2f (%.0f%%), restoring the "
                     "program %.2f (%.0f%%); %llu of %llu executions started "
                     "from a snapshot (%llu taken)\n",
                     p.total, p.run, 100 * p.run / t, p.choose,
                     100 * p.choose / t, p.end, 100 * p.end / t, p.reset,
                     100 * p.reset / t, (unsigned long long)sh->snap_resumed,
                     (unsigned long long)execs,
                     (unsigned long long)sh->snap_taken);
}

/*
 * What the run earned: the strategy's guarantee about its (last)
 * exploration, with what it does not cover said beside it. Returns
 * whether the run covered every behaviour (the JSON `complete`):
 *
 * - executions cut short at --max-threads: only the capped program was
 *   explored;
 * - data races: a plain access that is not a scheduling point was never
 *   interleaved. After race-directed restarts, every access to each
 *   racing variable is one; the run is complete only if the last
 *   exploration found no further race (so every other plain access was
 *   race-free in every execution explored) and every race was on a
 *   variable (module data: racing heap or stack memory is interleaved
 *   only at the racing code locations);
 * - an interrupted run, a tool error.
 */
static bool earned_guarantee(char *out, size_t len)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__shared *sh = rt->sh;
    const struct ravel__common *c = rt->common;
    bool complete = (sh->exhausted || (sh->stats.complete && !sv.interrupted)) &&
                    !sv.error;
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    /* The fairness rule kept threads from some choices: the search ran
     * out of fair schedules, which is not "exhausted" (sched.c). */
    if (sh->fair_runs && !strncmp(sh->stats.guarantee, "exhausted: ", 11))
        ravel__sb_printf(&sb, "every fair schedule explored (%llu trace%s), "
                              "not every schedule",
                         (unsigned long long)sh->stats.traces,
                         sh->stats.traces == 1 ? "" : "s");
    else
        ravel__sb_add(&sb, sh->stats.guarantee);
    if (sh->cut_runs && (!rt->opt.max_threads ||
                         rt->opt.max_threads + 1 >= RAVEL__MAX_THREADS)) {
        complete = false;
        ravel__sb_printf(&sb,
                         "; but %llu execution%s cut short at ravel's "
                         "capacity of %d threads: threads created beyond it "
                         "never ran, so only the capped program was covered",
                         (unsigned long long)sh->cut_runs,
                         sh->cut_runs == 1 ? " was" : "s were",
                         RAVEL__MAX_THREADS);
    } else if (sh->cut_runs) {
        complete = false;
        ravel__sb_printf(&sb,
                         "; but %llu execution%s cut short at --max-threads "
                         "%llu: threads created beyond the cap never ran, "
                         "so only the capped program was covered",
                         (unsigned long long)sh->cut_runs,
                         sh->cut_runs == 1 ? " was" : "s were",
                         (unsigned long long)rt->opt.max_threads);
    }
    /* A hang (a thread looping without a visible operation) or a
     * livelock stopped at --max-steps: the other threads never ran past
     * that point, so those executions were cut short too. */
    uint64_t stopped = 0;
    for (unsigned i = 0; i < sv.nbugs; i++)
        if (sv.bugs[i].kind == RAVEL__FAIL_HANG ||
            sv.bugs[i].kind == RAVEL__FAIL_STEP_LIMIT)
            stopped += sv.bugs[i].count;
    if (stopped) {
        complete = false;
        ravel__sb_printf(&sb,
                         "; but %llu execution%s stopped by a hang or the "
                         "step limit: what the other threads would have "
                         "done after that point was not explored",
                         (unsigned long long)stopped,
                         stopped == 1 ? " was" : "s were");
    }
    if (c->late_held) {
        complete = false;
        ravel__sb_add(&sb, "; but with --timeouts late, sleeps and timed "
                           "waits ended only at their deadline or when no "
                           "other thread could run: timeouts that come "
                           "earlier were not explored");
    }
    if (sh->signals_handled) {
        complete = false;
        ravel__sb_add(&sb, "; but signal handlers ran for signals sent to "
                           "the program's threads, and where a signal "
                           "arrives is not scheduled (each ran where its "
                           "thread's next operation began): other arrivals "
                           "were not explored");
    }
    if (sh->fair_runs) {
        complete = false;
        ravel__sb_printf(&sb,
                         "; but in %llu execution%s a "
                         "thread that yielded, slept, timed out or failed a "
                         "try again at one place, with no other thread's "
                         "step since, was held back until the others ran, "
                         "and schedules in which it went on at once were "
                         "not explored",
                         (unsigned long long)sh->fair_runs,
                         sh->fair_runs == 1 ? "" : "s");
    }
    if (sh->nondet_limited) {
        complete = false;
        ravel__sb_printf(&sb,
                         "; but __VERIFIER_nondet_* values of types wider "
                         "than a byte were tried only in --nondet-range "
                         "(%llu)",
                         (unsigned long long)rt->opt.nondet_range);
    }
    unsigned races = 0;
    for (unsigned i = 0; i < sv.nbugs; i++)
        races += sv.bugs[i].kind == RAVEL__FAIL_DATA_RACE;
    if (races || sv.race_promoted) {
        if (sv.phase_races || sv.race_unnamed_memory ||
            !c->npromoted_data) {
            complete = false;
            ravel__sb_add(&sb, "; but data races were found and not every "
                               "access to the racing memory was "
                               "interleaved (");
            if (sv.phase_races)
                ravel__sb_printf(&sb, "%u race%s in the %s exploration "
                                      "ended executions early",
                                 sv.phase_races,
                                 sv.phase_races == 1 ? "" : "s",
                                 c->phase ? "last" : "");
            else if (sv.race_unnamed_memory)
                ravel__sb_add(&sb, "heap or stack memory is interleaved only "
                                   "at the racing code locations");
            else
                ravel__sb_add(&sb, "race-directed scheduling is off");
            ravel__sb_add(&sb, "): what the races can do beyond the "
                               "reported executions was not all explored");
        } else {
            ravel__sb_printf(&sb, "; every access to the racing variable%s ",
                             c->npromoted_data == 1 ? "" : "s");
            for (uint32_t i = 0; i < c->npromoted_data; i++) {
                uint64_t a;
                char name[160] = "?";
                if (ravel__addr_from_global(c->promoted_data[i], &a) &&
                    !ravel__symbolize_data(a, name, sizeof name))
                    snprintf(name, sizeof name, "0x%llx",
                             (unsigned long long)a);
                ravel__sb_printf(&sb, "%s%s", i ? ", " : "", name);
            }
            ravel__sb_add(&sb, " was a scheduling point; the other plain "
                               "accesses were race-free in every execution "
                               "explored and were not interleaved");
        }
    }
    /* Only the clauses (no strategy said what it covered): not "; but". */
    const char *text = sb.data ? sb.data : "";
    if (!strncmp(text, "; ", 2))
        text += 2;
    snprintf(out, len, "%s", text);
    ravel__sb_free(&sb);
    return complete;
}

/* "search": what decides the set of traces a run explores (the program,
 * its arguments and the options that change the search), so that `ravel
 * merge` can refuse summaries of different searches; and "shard": which
 * part of a split search this run explored (null: all of it). */
void ravel__search_json(struct ravel__strbuf *sb)
{
    struct ravel__rt *rt = &ravel__rt;
    const struct ravel__options *o = &rt->opt;
    bool f = true;
    ravel__sb_addc(sb, '{');
    ravel__json_key(sb, &f, "program");
    ravel__json_str(sb, ravel__exe_path());
    ravel__json_key(sb, &f, "arguments");
    ravel__sb_addc(sb, '[');
    for (int i = 1; i < rt->argc && rt->argv; i++) {
        if (i > 1)
            ravel__sb_addc(sb, ',');
        ravel__json_str(sb, rt->argv[i]);
    }
    ravel__sb_addc(sb, ']');
    ravel__json_key(sb, &f, "strategy");
    ravel__json_str(sb, o->strategy);
    ravel__json_key(sb, &f, "preemption_bound");
    if (o->set[RAVEL__OPT_preemption_bound])
        ravel__sb_printf(sb, "%llu", (unsigned long long)o->preemption_bound);
    else
        ravel__sb_add(sb, "null");
    ravel__json_key(sb, &f, "delay_bound");
    if (o->set[RAVEL__OPT_delay_bound])
        ravel__sb_printf(sb, "%llu", (unsigned long long)o->delay_bound);
    else
        ravel__sb_add(sb, "null");
    ravel__json_key(sb, &f, "max_steps");
    ravel__sb_printf(sb, "%llu", (unsigned long long)o->max_steps);
    ravel__json_key(sb, &f, "memory_model");
    ravel__json_str(sb, o->memory_model);
    ravel__json_key(sb, &f, "shard_units");
    ravel__sb_printf(sb, "%llu", (unsigned long long)o->shard_units);
    ravel__json_key(sb, &f, "max_threads");
    ravel__sb_printf(sb, "%llu", (unsigned long long)o->max_threads);
    ravel__json_key(sb, &f, "nondet_range");
    ravel__sb_printf(sb, "%llu", (unsigned long long)o->nondet_range);
    ravel__json_key(sb, &f, "races");
    ravel__sb_add(sb, o->races ? "true" : "false");
    ravel__json_key(sb, &f, "promote_races");
    ravel__sb_add(sb, o->promote_races ? "true" : "false");
    ravel__json_key(sb, &f, "suppressions");
    if (o->suppressions)
        ravel__json_str(sb, o->suppressions);
    else
        ravel__sb_add(sb, "null");
    /* The scheme of the trace fingerprints, so that a checkpoint or the
     * shards of a merge are never of two (depend.h). */
    ravel__json_key(sb, &f, "fingerprints");
    ravel__sb_printf(sb, "%d", RAVEL__FP_SCHEME);
    ravel__sb_addc(sb, '}');
}

static void json_search(struct ravel__strbuf *sb, bool *first)
{
    const struct ravel__options *o = &ravel__rt.opt;
    ravel__json_key(sb, first, "search");
    ravel__search_json(sb);
    ravel__json_key(sb, first, "shard");
    uint32_t si, sn;
    char err[256];
    if (o->shard &&
        ravel__shard_resolve(o->shard, &si, &sn, NULL, err, sizeof err) == 0)
        ravel__sb_printf(sb, "{\"index\":%u,\"count\":%u}", si + 1, sn);
    else
        ravel__sb_add(sb, "null");
}

void ravel__sv_checkpoint(void)
{
    struct ravel__rt *rt = &ravel__rt;
    rt->last_checkpoint = ravel__now();
    if (!rt->opt.checkpoint || !ravel__tree_valid(rt->strategy_mem))
        return;
    uint32_t si = 0, sn = 1;
    char err[256];
    if (rt->opt.shard &&
        ravel__shard_resolve(rt->opt.shard, &si, &sn, NULL, err,
                             sizeof err) != 0)
        return;
    struct ravel__tree *t = rt->strategy_mem;
    if (ravel__checkpoint_write(rt->opt.checkpoint, t, rt->search_hash,
                                rt->program_hash, si + 1, sn,
                                ravel__tree_count(
                                    t, offsetof(struct ravel__lane,
                                                executions))) != 0) {
        char msg[PATH_MAX + 100];
        int n = snprintf(msg, sizeof msg,
                         "ravel: warning: cannot write the checkpoint %s: "
                         "%s\n",
                         rt->opt.checkpoint, strerror(errno));
        out_err(msg, (size_t)n);
    }
}

/* Writes the --json summary object to fd: stdout (stderr when run
 * directly: stdout is the program's), or a test driver's pipe
 * (src/unit/driver.c reads it). */
static void json_summary(int fd, double elapsed, uint64_t execs,
                         unsigned nbugs)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__shared *sh = rt->sh;
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    bool first = true;
    ravel__sb_addc(&sb, '{');
    ravel__json_key(&sb, &first, "ravel");
    ravel__json_str(&sb, RAVEL__VERSION);
    ravel__json_key(&sb, &first, "result");
    ravel__json_str(&sb, sv.error ? "error" : nbugs ? "bug" : "clean");
    ravel__json_key(&sb, &first, "program");
    ravel__json_str(&sb, ravel__exe_path());
    if (ravel__door_case()) {
        ravel__json_key(&sb, &first, "test");
        ravel__json_str(&sb, ravel__door_case());
    }
    ravel__json_key(&sb, &first, "strategy");
    ravel__json_str(&sb, rt->opt.strategy);
    json_search(&sb, &first);
    ravel__json_key(&sb, &first, "method");
    ravel__json_str(&sb, sh->stats.method);
    ravel__json_key(&sb, &first, "jobs");
    ravel__sb_printf(&sb, "%u", rt->nlanes);
    ravel__json_key(&sb, &first, "seed");
    ravel__sb_printf(&sb, "%llu", (unsigned long long)sh->seed);
    ravel__json_key(&sb, &first, "executions");
    ravel__sb_printf(&sb, "%llu", (unsigned long long)execs);
    ravel__json_key(&sb, &first, "elapsed_s");
    ravel__sb_printf(&sb, "%.3f", elapsed);
    char guarantee[1024];
    bool complete = earned_guarantee(guarantee, sizeof guarantee);
    ravel__json_key(&sb, &first, "complete");
    ravel__sb_add(&sb, complete ? "true" : "false");
    ravel__json_key(&sb, &first, "bound");
    if (sh->stats.bound >= 0)
        ravel__sb_printf(&sb, "%d", sh->stats.bound);
    else
        ravel__sb_add(&sb, "null");
    ravel__json_key(&sb, &first, "traces");
    ravel__sb_printf(&sb, "%llu", (unsigned long long)sh->stats.traces);
    ravel__json_key(&sb, &first, "traces_exact");
    ravel__sb_add(&sb, sh->stats.traces_inexact ? "false" : "true");
    ravel__json_key(&sb, &first, "trace_digest");
    if (sh->stats.digest)
        ravel__sb_printf(&sb, "\"%016llx\"",
                         (unsigned long long)sh->stats.digest);
    else
        ravel__sb_add(&sb, "null");
    if (rt->opt.fingerprints_file) {
        /* Where the set behind trace_digest is (ravel merge reads it). */
        ravel__json_key(&sb, &first, "fingerprints_file");
        ravel__json_str(&sb, rt->opt.fingerprints_file);
    }
    ravel__json_key(&sb, &first, "blocked");
    ravel__sb_printf(&sb, "%llu", (unsigned long long)sh->blocked_runs);
    ravel__json_key(&sb, &first, "cut_short");
    ravel__sb_printf(&sb, "%llu", (unsigned long long)sh->cut_runs);
    ravel__json_key(&sb, &first, "guarantee");
    ravel__json_str(&sb, guarantee);
    ravel__json_key(&sb, &first, "steps");
    ravel__sb_printf(&sb, "%llu", (unsigned long long)sh->steps);
    ravel__json_key(&sb, &first, "plain_accesses");
    ravel__sb_printf(&sb, "{\"reads\":%llu,\"writes\":%llu}",
                     (unsigned long long)sh->plain_reads,
                     (unsigned long long)sh->plain_writes);
    ravel__json_key(&sb, &first, "snapshots");
    ravel__sb_printf(&sb, "{\"taken\":%llu,\"resumed\":%llu,\"off\":",
                     (unsigned long long)sh->snap_taken,
                     (unsigned long long)sh->snap_resumed);
    if (sh->snap_off[0])
        ravel__json_str(&sb, sh->snap_off);
    else
        ravel__sb_add(&sb, "null");
    ravel__sb_add(&sb, "}");
    ravel__json_key(&sb, &first, "promoted_locations");
    ravel__sb_printf(&sb, "%u", rt->common->npromoted);
    ravel__json_key(&sb, &first, "promoted_variables");
    ravel__sb_printf(&sb, "%u", rt->common->npromoted_data);
    ravel__json_key(&sb, &first, "last_exploration_executions");
    ravel__sb_printf(&sb, "%llu",
                     (unsigned long long)(execs - sv.phase_start));
    ravel__json_key(&sb, &first, "restarts");
    ravel__sb_printf(&sb, "%u", rt->common->phase);
    if (rt->opt.profile) {
        struct profile p = profile_of(execs);
        ravel__json_key(&sb, &first, "profile_us_per_execution");
        ravel__sb_printf(&sb,
                         "{\"total\":%.3f,\"program\":%.3f,\"choices\":%.3f,"
                         "\"analysis\":%.3f,\"restore\":%.3f}",
                         p.total, p.run, p.choose, p.end, p.reset);
    }
    ravel__json_key(&sb, &first, "interrupted");
    ravel__sb_add(&sb, sv.interrupted ? "true" : "false");
    if (sv.error) {
        ravel__json_key(&sb, &first, "error");
        ravel__json_str(&sb, sv.errmsg);
    }
    ravel__json_key(&sb, &first, "bugs");
    ravel__sb_addc(&sb, '[');
    for (unsigned i = 0; i < sv.nbugs; i++) {
        const struct bug *b = &sv.bugs[i];
        bool f2 = true;
        if (i)
            ravel__sb_addc(&sb, ',');
        ravel__sb_addc(&sb, '{');
        ravel__json_key(&sb, &f2, "kind");
        ravel__json_str(&sb, ravel__fail_kind_name(b->kind));
        ravel__json_key(&sb, &f2, "message");
        ravel__json_str(&sb, b->message);
        ravel__json_key(&sb, &f2, "location");
        ravel__json_str(&sb, b->location);
        ravel__json_key(&sb, &f2, "function");
        ravel__json_str(&sb, b->func);
        ravel__json_key(&sb, &f2, "other_location");
        ravel__json_str(&sb, b->other);
        ravel__json_key(&sb, &f2, "other_function");
        ravel__json_str(&sb, b->other_func);
        ravel__json_key(&sb, &f2, "execution");
        ravel__sb_printf(&sb, "%llu", (unsigned long long)b->execution);
        ravel__json_key(&sb, &f2, "occurrences");
        ravel__sb_printf(&sb, "%llu", (unsigned long long)b->count);
        ravel__json_key(&sb, &f2, "race_directed");
        ravel__sb_add(&sb, b->race_directed ? "true" : "false");
        ravel__json_key(&sb, &f2, "threads");
        ravel__json_str(&sb, b->threads);
        ravel__json_key(&sb, &f2, "ticket");
        ravel__json_str(&sb, b->ticket);
        ravel__sb_addc(&sb, '}');
    }
    if (sh->noutcomes >= 2) {
        bool f2 = true;
        if (sv.nbugs)
            ravel__sb_addc(&sb, ',');
        ravel__sb_addc(&sb, '{');
        ravel__json_key(&sb, &f2, "kind");
        ravel__json_str(&sb, "nondeterminism");
        ravel__json_key(&sb, &f2, "message");
        char msg[128];
        snprintf(msg, sizeof msg,
                 "the program's result depends on the schedule: %u distinct "
                 "results",
                 sh->noutcomes);
        ravel__json_str(&sb, msg);
        struct ravel__frame f;
        ravel__symbolize1(sh->outcomes[0].pc, false, &f);
        char where[400] = "";
        if (f.line)
            snprintf(where, sizeof where, "%s:%u",
                     ravel__display_path(f.file), f.line);
        ravel__json_key(&sb, &f2, "location");
        ravel__json_str(&sb, where);
        ravel__json_key(&sb, &f2, "function");
        ravel__json_str(&sb, f.line ? f.func : "");
        ravel__json_key(&sb, &f2, "execution");
        ravel__sb_printf(&sb, "%llu",
                         (unsigned long long)sh->outcomes[1].first_execution +
                             1);
        ravel__json_key(&sb, &f2, "ticket");
        ravel__json_str(&sb, sh->outcomes[1].ticket);
        ravel__sb_addc(&sb, '}');
    }
    ravel__sb_addc(&sb, ']');
    if (sh->pbt) {
        /* Property programs (docs/pbt.md). */
        bool f2 = true;
        ravel__json_key(&sb, &first, "property");
        ravel__sb_addc(&sb, '{');
        ravel__json_key(&sb, &f2, "tests");
        ravel__sb_printf(&sb, "%u", sh->pbt_tests);
        ravel__json_key(&sb, &f2, "passed");
        ravel__sb_printf(&sb, "%u", sh->pbt_passed);
        ravel__json_key(&sb, &f2, "failed");
        ravel__sb_add(&sb, sh->pbt_failed ? "true" : "false");
        ravel__json_key(&sb, &f2, "mode");
        ravel__json_str(&sb, rt->opt.mode);
        ravel__json_key(&sb, &f2, "shrink_steps");
        ravel__sb_printf(&sb, "%llu",
                         (unsigned long long)sh->pbt_shrink_steps);
        ravel__json_key(&sb, &f2, "coverage_met");
        ravel__sb_add(&sb, sh->pbt_failed == 2 ? "false" : "true");
        ravel__json_key(&sb, &f2, "counterexample");
        if (sh->pbt_failed == 1)
            ravel__sb_printf(&sb, "{\"commands\":%u,\"parallel\":%u,"
                                  "\"branches\":%u}",
                             sh->pbt_counterexample_commands,
                             sh->pbt_counterexample_parallel,
                             sh->pbt_counterexample_branches);
        else
            ravel__sb_add(&sb, "null");
        ravel__sb_addc(&sb, '}');
    }
    ravel__json_key(&sb, &first, "outcomes");
    ravel__sb_addc(&sb, '[');
    for (uint32_t i = 0; i < sh->noutcomes; i++) {
        const struct ravel__outcome *o = &sh->outcomes[i];
        bool f2 = true;
        if (i)
            ravel__sb_addc(&sb, ',');
        ravel__sb_addc(&sb, '{');
        ravel__json_key(&sb, &f2, "value");
        ravel__sb_printf(&sb, "%lld", (long long)o->value);
        ravel__json_key(&sb, &f2, "executions");
        ravel__sb_printf(&sb, "%llu", (unsigned long long)o->count);
        ravel__json_key(&sb, &f2, "first_execution");
        ravel__sb_printf(&sb, "%llu",
                         (unsigned long long)o->first_execution + 1);
        ravel__json_key(&sb, &f2, "ticket");
        ravel__json_str(&sb, o->ticket);
        ravel__sb_addc(&sb, '}');
    }
    ravel__sb_add(&sb, "]}\n");
    ravel__write_all(fd, sb.data, sb.len);
    ravel__sb_free(&sb);
}

/* The findings table at the end of a run: one line per distinct
 * finding, with how many executions ended in it. */
static void findings_table(struct ravel__strbuf *sb)
{
    struct ravel__shared *sh = ravel__rt.sh;
    bool nd = sh->noutcomes >= 2;
    unsigned n = sv.nbugs + nd;
    if (n == 0)
        return;
    ravel__sb_printf(sb, "ravel: %u distinct finding%s (hits: executions "
                         "that ended in it; each line's ticket replays "
                         "it):\n",
                     n, n == 1 ? "" : "s");
    /* A data race's row names both lines, "a.c:12 with a.c:30". */
    char (*locs)[2 * sizeof sv.bugs[0].location + 8] =
        calloc(sv.nbugs ? sv.nbugs : 1, sizeof *locs);
    if (!locs)
        return;
    size_t kw = 4, lw = 8, tw = 7;
    for (unsigned i = 0; i < sv.nbugs; i++) {
        const struct bug *b = &sv.bugs[i];
        size_t l = strlen(ravel__fail_kind_name(b->kind));
        kw = l > kw ? l : kw;
        snprintf(locs[i], sizeof locs[i], "%s%s%s",
                 b->location[0] ? b->location : "?",
                 b->other[0] ? " with " : "", b->other);
        l = strlen(locs[i]);
        lw = l > lw ? l : lw;
        l = strlen(b->threads);
        tw = l > tw ? l : tw;
    }
    if (nd && kw < 14)
        kw = 14;
    if (lw > 64)
        lw = 64;
    if (tw > 24)
        tw = 24;
    ravel__sb_printf(sb, "  %3s  %-*s  %-*s  %-*s  %6s  %s\n", "#", (int)kw,
                     "kind", (int)lw, "location", (int)tw, "threads", "hits",
                     "ticket");
    for (unsigned i = 0; i < sv.nbugs; i++) {
        const struct bug *b = &sv.bugs[i];
        const char *loc = locs[i];
        size_t ll = strlen(loc);
        ravel__sb_printf(sb, "  %3u  %-*s  %-*s  %-*.*s  %6llu  %s\n", i + 1,
                         (int)kw, ravel__fail_kind_name(b->kind), (int)lw,
                         ll > lw ? loc + ll - lw : loc, (int)tw, (int)tw,
                         b->threads[0] ? b->threads : "-",
                         (unsigned long long)b->count,
                         b->ticket[0] ? b->ticket : "-");
    }
    if (nd) {
        uint64_t total = 0;
        for (uint32_t i = 0; i < sh->noutcomes; i++)
            total += sh->outcomes[i].count;
        ravel__sb_printf(sb, "  %3u  %-*s  %-*s  %-*s  %6llu  %s\n",
                         sv.nbugs + 1, (int)kw, "nondeterminism", (int)lw,
                         "(ravel_result)", (int)tw, "-",
                         (unsigned long long)total,
                         sh->outcomes[1].ticket[0] ? sh->outcomes[1].ticket
                                                   : "-");
    }
    free(locs);
}

/* --html: the run as one self-contained page. */
static void write_html(const char *summary, double elapsed, uint64_t execs)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__shared *sh = rt->sh;
    struct ravel__strbuf prog = RAVEL__STRBUF_INIT, mode = RAVEL__STRBUF_INIT;
    ravel__sb_add(&prog, ravel__exe_path());
    for (int i = 1; i < rt->argc; i++) {
        ravel__sb_addc(&prog, ' ');
        ravel__sb_add(&prog, rt->argv[i]);
    }
    if (is_replay())
        ravel__sb_printf(&mode, "replay of %s (execution %llu of the %s "
                                "strategy)",
                         rt->opt.ticket,
                         (unsigned long long)rt->ticket.execution,
                         rt->ticket.strategy);
    else if (sh->pbt)
        ravel__sb_printf(&mode, "property tests in %s mode", rt->opt.mode);
    else
        ravel__sb_printf(&mode, "%s strategy", rt->opt.strategy);
    if (!is_replay() && sh->stats.method[0])
        ravel__sb_printf(&mode, " (%s)", sh->stats.method);
    struct ravel__view_run run = {
        .program = ravel__sb_str(&prog),
        .mode = ravel__sb_str(&mode),
        .seed = is_replay() ? rt->ticket.seed : sh->seed,
        .executions = execs,
        .elapsed_s = elapsed,
        .guarantee = is_replay() ? "" : sh->stats.guarantee,
        .summary = summary,
        .extra = NULL, /* a property's text is in the summary */
        .replay = is_replay(),
    };
    struct ravel__view_finding *f =
        calloc(sv.nbugs ? sv.nbugs : 1, sizeof *f);
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    if (f) {
        for (unsigned i = 0; i < sv.nbugs; i++) {
            const struct bug *b = &sv.bugs[i];
            f[i] = (struct ravel__view_finding){
                .kind = ravel__fail_kind_name(b->kind),
                .headline = b->message,
                .location = b->location,
                .function = b->func,
                .threads = b->threads,
                .hits = b->count,
                .execution = is_replay() ? rt->ticket.execution
                                         : b->execution,
                .ticket = b->ticket,
                .json = b->json,
                .report = b->report,
            };
        }
        ravel__view_html(&sb, &run, f, sv.nbugs);
        write_file(rt->opt.html, "HTML report", sb.data ? sb.data : "",
                   sb.len);
    }
    free(f);
    ravel__sb_free(&sb);
    ravel__sb_free(&prog);
    ravel__sb_free(&mode);
}

/* --junit and --tap: the program (or property) is one test case. */
static void write_ci(double elapsed, unsigned nbugs)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__shared *sh = rt->sh;
    struct ravel__strbuf text = RAVEL__STRBUF_INIT, msg = RAVEL__STRBUF_INIT;
    for (unsigned i = 0; i < sv.nbugs; i++)
        if (sv.bugs[i].report)
            ravel__sb_add(&text, sv.bugs[i].report);
    if (sh->pbt && !is_replay())
        ravel__sb_add(&text, sh->pbt_text);
    struct ravel__ci_case c = {
        .name = ravel__program_name(),
        .classname = is_replay() ? "ravel.replay"
                     : sh->pbt   ? "ravel.property"
                                 : "ravel.run",
        .time_s = elapsed,
        .status = sv.error  ? RAVEL__CI_ERROR
                  : nbugs   ? RAVEL__CI_FAIL
                            : RAVEL__CI_PASS,
    };
    if (sv.error) {
        c.message = sv.errmsg;
    } else if (nbugs) {
        if (sv.nbugs) {
            ravel__sb_printf(&msg, "%u finding%s; first: %s", nbugs,
                             nbugs == 1 ? "" : "s", sv.bugs[0].message);
            if (sv.bugs[0].location[0])
                ravel__sb_printf(&msg, " at %s", sv.bugs[0].location);
            c.type = ravel__fail_kind_name(sv.bugs[0].kind);
        } else if (sh->noutcomes >= 2) {
            ravel__sb_add(&msg, "the program's result depends on the "
                                "schedule");
            c.type = "nondeterminism";
        } else {
            ravel__sb_add(&msg, "the property failed");
            c.type = "property";
        }
        c.message = ravel__sb_str(&msg);
    }
    c.text = ravel__sb_str(&text);
    struct ravel__strbuf out = RAVEL__STRBUF_INIT;
    if (rt->opt.junit) {
        ravel__ci_junit(&out, "ravel", &c, 1, elapsed);
        write_file(rt->opt.junit, "JUnit report", out.data ? out.data : "",
                   out.len);
        ravel__sb_reset(&out);
    }
    if (rt->opt.tap) {
        ravel__ci_tap_plan(&out, 1);
        ravel__ci_tap_case(&out, 1, &c);
        if (!strcmp(rt->opt.tap, "-"))
            ravel__write_all(1, out.data, out.len);
        else
            write_file(rt->opt.tap, "TAP report", out.data, out.len);
    }
    ravel__sb_free(&out);
    ravel__sb_free(&text);
    ravel__sb_free(&msg);
}

int ravel__sv_finish(void)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__shared *sh = rt->sh;
    double elapsed = ravel__now() - rt->start_time;
    uint64_t execs = atomic_load(&sh->executions_done);
    nondeterminism_report();
    unsigned nbugs = sv.nbugs + (sh->noutcomes >= 2);
    /* A property that failed, whose minimal case then passed when run
     * again (pbt.c says so in its summary): still a failed property. */
    if (sh->pbt && sh->pbt_failed && nbugs == 0)
        nbugs = 1;
    /* --trace in a run without bugs: record the last execution, with a
     * ticket, so that any schedule can be replayed and compared. */
    char last_ticket[PATH_MAX] = "";
    if (nbugs == 0 && !sv.error && !sv.interrupted && rt->opt.trace &&
        !sv.trace_written && !is_replay() && sh->have_last_complete) {
        write_trace_file(rt->last_complete);
        write_ticket(rt->last_complete, "clean", last_ticket,
                     sizeof last_ticket);
    }

    ravel__sv_checkpoint();
    if (rt->opt.fingerprints_file && ravel__tree_valid(rt->strategy_mem)) {
        int fd = open(rt->opt.fingerprints_file,
                      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0 || ravel__tree_fp_write(rt->strategy_mem, fd) != 0 ||
            close(fd) != 0) {
            char msg[PATH_MAX + 100];
            int n = snprintf(msg, sizeof msg,
                             "ravel: warning: cannot write %s: %s\n",
                             rt->opt.fingerprints_file, strerror(errno));
            out_err(msg, (size_t)n);
        }
    }
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    if (sv.error)
        ravel__sb_printf(&sb, "ravel: error: %s\n", sv.errmsg);
    /* Run directly, a clean run says nothing, as the program would not. */
    bool quiet = rt->direct && nbugs == 0 && !sv.error && !sv.interrupted;
    if (sh->pbt && !is_replay() && !quiet)
        ravel__sb_add(&sb, sh->pbt_text);
    /* An error before any execution ran (no such unit test, say) is the
     * whole story: one line. */
    if (!is_replay() && !quiet && !(sv.error && execs == 0)) {
        ravel__sb_printf(&sb, "ravel: %llu execution%s in %.2f s",
                         (unsigned long long)execs, execs == 1 ? "" : "s",
                         elapsed);
        if (elapsed > 0 && execs > 1)
            ravel__sb_printf(&sb, " (%.0f/s)", (double)execs / elapsed);
        if (sh->pbt) /* the mode picks the strategy per test case */
            ravel__sb_printf(&sb, ", property tests in %s mode",
                             rt->opt.mode);
        else
            ravel__sb_printf(&sb, ", %s strategy", rt->opt.strategy);
        if (sh->stats.method[0])
            ravel__sb_printf(&sb, " (%s)", sh->stats.method);
        ravel__sb_printf(&sb, ", seed %llu", (unsigned long long)sh->seed);
        if (sh->blocked_runs)
            ravel__sb_printf(&sb, ", %llu blocked (executions abandoned "
                                  "before their end, not bugs: redundant "
                                  "for DPOR, a false ravel_assume(), or "
                                  "over --max-threads)",
                             (unsigned long long)sh->blocked_runs);
        if (sv.interrupted)
            ravel__sb_add(&sb, "; interrupted");
        ravel__sb_addc(&sb, '\n');
        char guarantee[1024];
        earned_guarantee(guarantee, sizeof guarantee);
        if (sv.interrupted && !sh->exhausted && !sh->stats.guarantee[0])
            ravel__sb_add(&sb, "ravel: interrupted before any lane said what "
                               "it covered: no coverage guarantee\n");
        else if (guarantee[0] && rt->common->phase)
            ravel__sb_printf(&sb,
                             "ravel: the last of %u explorations (%llu of "
                             "the %llu executions): %s\n",
                             rt->common->phase + 1,
                             (unsigned long long)(execs - sv.phase_start),
                             (unsigned long long)execs, guarantee);
        else if (guarantee[0])
            ravel__sb_printf(&sb, "ravel: %s\n", guarantee);
        unsigned racing = rt->common->npromoted - sv.spin_promoted;
        if (racing || rt->common->npromoted_data)
            ravel__sb_printf(&sb,
                             "ravel: race-directed scheduling: %u racing "
                             "code location%s and %u variable%s made "
                             "scheduling points",
                             racing, racing == 1 ? "" : "s",
                             rt->common->npromoted_data,
                             rt->common->npromoted_data == 1 ? "" : "s");
        if (sv.spin_promoted)
            ravel__sb_printf(&sb,
                             "%s %u plain read%s a thread spun on made "
                             "scheduling points",
                             racing || rt->common->npromoted_data
                                 ? ";"
                                 : "ravel: spin on plain memory:",
                             sv.spin_promoted,
                             sv.spin_promoted == 1 ? "" : "s");
        if (racing || rt->common->npromoted_data || sv.spin_promoted)
            ravel__sb_printf(&sb,
                             "; the exploration started over %u time%s\n",
                             rt->common->phase,
                             rt->common->phase == 1 ? "" : "s");
        if (rt->opt.profile)
            profile_line(&sb, execs);
        if (nbugs == 0 && !sv.error)
            ravel__sb_add(&sb, "ravel: no bugs found\n");
        if (last_ticket[0])
            ravel__sb_printf(&sb,
                             "ravel: execution %llu written to %s; replay: "
                             "ravel replay %s\n",
                             (unsigned long long)rt->last_complete->number + 1,
                             rt->opt.trace, last_ticket);
        else if (nbugs && sh->pbt_failed == 2 && sv.nbugs == 0)
            ravel__sb_add(&sb, "ravel: the property failed: a coverage "
                               "requirement was not met\n");
        else if (nbugs)
            ravel__sb_printf(&sb, "ravel: %u bug%s found\n", nbugs,
                             nbugs == 1 ? "" : "s");
        findings_table(&sb);
    }
    out_err(sb.data, sb.len);
    if (rt->opt.html)
        write_html(sb.data ? sb.data : "", elapsed, execs);
    if (rt->opt.junit || rt->opt.tap)
        write_ci(elapsed, nbugs);
    ravel__sb_free(&sb);
    if (rt->opt.json)
        json_summary(rt->direct ? 2 : 1, elapsed, execs, nbugs);
    if (rt->result_fd >= 0)
        json_summary(rt->result_fd, elapsed, execs, nbugs);
    if (sv.error)
        return RAVEL__EXIT_USAGE;
    if (sv.interrupted)
        return 130;
    if (rt->direct) /* the program's own status, or the bug's */
        return nbugs ? (int)rt->opt.exitcode
                     : (int)(rt->common->first_status & 0xff);
    return nbugs ? RAVEL__EXIT_BUG : RAVEL__EXIT_CLEAN;
}

/* ---- the supervisor process ------------------------------------------------ */

static void on_interrupt(int sig)
{
    (void)sig;
    sv.interrupted = 1;
}

static void progress_line(void)
{
    if (!use_progress())
        return;
    double el = ravel__now() - ravel__rt.start_time;
    uint64_t n = 0;
    for (uint32_t l = 0; l < ravel__rt.nlanes; l++)
        n += atomic_load(&ravel__rt.lanes[l].sh->executions_done);
    char line[160];
    int len = snprintf(line, sizeof line,
                       "\r\033[Kravel: %llu executions, %.0f/s, %.0f s, %u "
                       "bug%s",
                       (unsigned long long)n, el > 0 ? (double)n / el : 0.0,
                       el, sv.nbugs, sv.nbugs == 1 ? "" : "s");
    ravel__write_all(2, line, (size_t)len);
    sv.progress_shown = true;
}

/* After the current lane's executor died in an execution: report, then
 * maybe resume that lane. */
static bool after_death(void)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__shared *sh = rt->sh;
    atomic_fetch_add(&sh->executions_done, 1);
    /* Run directly, the lane printing as the program did: this was the
     * program's first execution. What it printed and its executor did not
     * forward yet (executor.c, "printed once") goes out now, but for what
     * repeats an abandoned try's. */
    if (rt->direct && atomic_load(&rt->common->passing_lane) == rt->lane + 1) {
        forward_rest(rt->cap_out, sh->shown_out, sh->dup_out, 1);
        forward_rest(rt->cap_err, sh->shown_err, sh->dup_err, 2);
        atomic_store(&rt->common->passing_lane, RAVEL__NONE);
    }
    /* A property program's test case crashed while testing or
     * shrinking: the driver (src/pbt) judges it in a new executor; only
     * the minimal case's crash is reported. */
    if (ravel__door_quiet())
        return true;
    if (ravel__door && ravel__door->dead_final)
        ravel__door->dead_final();
    bool go_on = ravel__sv_on_bug();
    if (!go_on || is_replay())
        return false;
    uint64_t next = atomic_load(&rt->common->next_number);
    if (rt->opt.executions && next >= rt->opt.executions) {
        sh->stopped_by_limit = 1;
        return false;
    }
    if (rt->opt.time > 0 && ravel__now() >= rt->start_time + rt->opt.time)
        return false;
    return true;
}

/* Handles a message from the current lane's executor. */
static void handle_message(const struct ravel__msg *m)
{
    char reply = RAVEL__REPLY_GO;
    switch (m->type) {
    case RAVEL__MSG_BUG:
        if (!ravel__sv_on_bug()) {
            /* This lane finishes on its own (its figures are wanted);
             * the others are stopped. */
            reply = RAVEL__REPLY_STOP;
            sv.stop = true;
            ravel__rt.lanes[ravel__rt.lane].done = true;
        }
        break;
    case RAVEL__MSG_SPIN:
        if (promote_spin(ravel__rt.x)) {
            /* This exploration stops; the next one starts. */
            reply = RAVEL__REPLY_STOP;
            sv.stop = true;
            ravel__rt.lanes[ravel__rt.lane].done = true;
        }
        break;
    case RAVEL__MSG_OUTCOME:
        if (m->arg < RAVEL__MAX_OUTCOMES)
            ravel__sv_on_outcome(m->arg);
        break;
    case RAVEL__MSG_DONE:
        ravel__rt.lanes[ravel__rt.lane].done = true;
        /* After the reply it only exits (executor.c, done): its figures
         * are final now, and the run waits for its exit only after the
         * summary. */
        ravel__rt.lanes[ravel__rt.lane].exiting = true;
        /* Run directly, no execution of the lane whose exit status
         * counts exited, and it will not start over: no other lane may
         * wait for that status for ever. */
        if (ravel__rt.direct && !sv.restart &&
            atomic_load(&ravel__rt.common->status_lane) ==
                ravel__rt.lane + 1)
            ravel__first_status(0);
        /* Its figures are final: lane 0's are preferred (after auto's
         * DPOR, it alone runs PCT). */
        if (ravel__rt.lane == 0 || !sv.lane0_done)
            sv.last_done = ravel__rt.lane;
        if (ravel__rt.lane == 0)
            sv.lane0_done = true;
        break;
    case RAVEL__MSG_ERROR:
        sv.error = true;
        sv.stop = true;
        ravel__rt.lanes[ravel__rt.lane].done = true;
        snprintf(sv.errmsg, sizeof sv.errmsg, "%s", ravel__rt.sh->error);
        reply = RAVEL__REPLY_STOP;
        break;
    }
    ravel__write_all(ravel__rt.sv_out, &reply, 1);
}

static void reap(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
}

/* The hang probe: where is the thread that does not come back?
 * `computing`: it wrote memory all along (computing(), below). */
static void hang(pid_t child, bool computing)
{
    struct ravel__shared *sh = ravel__rt.sh;
    struct ravel__exec *x = &sh->exec;
    atomic_store(&sh->probe_done, 0);
    int tid = atomic_load(&sh->running_tid);
    if (tid > 0)
        syscall(SYS_tgkill, child, tid, RAVEL__PROBE_SIGNAL);
    for (int i = 0; i < 100 && !atomic_load(&sh->probe_done); i++)
        usleep(10000);
    kill(child, SIGKILL);
    reap(child);
    struct ravel__failure *f = &x->failure;
    f->kind = RAVEL__FAIL_HANG;
    f->thread = x->running;
    f->step = x->nevents;
    f->obj = RAVEL__NONE;
    f->value = 0;
    const char *name =
        x->running < x->nthreads ? x->threads[x->running].name : "?";
    if (computing)
        snprintf(f->message, sizeof f->message,
                 "thread %s ran %g s without a visible operation while "
                 "other threads waited, writing memory all along: a loop "
                 "waiting for another thread that also writes (ravel's "
                 "scheduler cannot interleave it), or a computation longer "
                 "than that under ravel (a larger --watchdog allows %d "
                 "times its value)",
                 name, COMPUTING_WATCHDOGS * ravel__rt.opt.watchdog,
                 COMPUTING_WATCHDOGS);
    else
        snprintf(f->message, sizeof f->message,
                 "thread %s made no progress for %g s: it is blocked in a "
                 "call ravel does not control, or spinning without a "
                 "visible operation",
                 name, ravel__rt.opt.watchdog);
}

/*
 * The watchdog's exceptions: a thread that computes is not stuck.
 *
 * Alone: the thread holding the baton is the only live thread of the
 * execution and has made plain memory accesses since the last look. A
 * thread that waits for another thread can only be waiting for a live
 * one; alone, a thread that reads and writes memory is computing (a
 * single-threaded test of a hash map's 10^6 random operations, which
 * ravel's hooks slow to more than the watchdog's ten seconds, was
 * reported as a hang), and it would take as long natively relative to
 * its instrumented speed. No bound.
 *
 * With other threads live: the running thread has written memory other
 * than its own stack since the last look (its side writes). pigz -11,
 * whose worker threads each compress a block with zopfli for seconds
 * natively and several times that under ravel, while the others wait on
 * its condition variables, was reported as a hang. A spin on plain
 * memory only reads, and src/rt/race/plain_spin.c catches it sooner; a
 * -O0 spin's counter is on its own stack; a thread blocked in a call
 * ravel does not control makes no accesses. What is left - a loop that
 * waits for another thread and writes shared memory as it goes - cannot
 * be told from a computation, and ravel's scheduler cannot interleave
 * it, so this exception lasts COMPUTING_WATCHDOGS times the watchdog
 * since the thread's last step, and the report then says what it saw.
 *
 * Read from the executor's shared memory while it runs: a stale value
 * only delays a report by one look.
 */
static bool computing(struct ravel__lane_io *ln, double now, double watchdog)
{
    const struct ravel__exec *x = ln->x;
    uint32_t me = x->running, n = x->nthreads;
    if (me >= n || n > RAVEL__MAX_THREADS)
        return false;
    bool alone = true;
    for (uint32_t t = 0; t < n && alone; t++)
        if (t != me && x->threads[t].state == RAVEL__T_LIVE)
            alone = false;
    const struct ravel__thread *th = &x->threads[me];
    uint64_t acc = th->reads + th->writes, side = th->side_writes;
    bool moved = acc != ln->last_accesses;
    bool wrote = side != ln->last_side_writes && me == ln->last_running;
    ln->last_accesses = acc;
    ln->last_side_writes = side;
    ln->last_running = me;
    if (alone)
        return moved;
    ln->computing = wrote;
    return wrote && now - ln->last_step < COMPUTING_WATCHDOGS * watchdog;
}

/*
 * The watchdog counts time the executor could use. On a loaded machine a
 * computing thread may get no processor for longer than --watchdog, and
 * its silence is no hang. So a thread that is runnable (running, or
 * waiting for a processor) is a hang only once it has had half the
 * watchdog's time of processor since its silence was first sampled (at
 * half the watchdog): a spin that makes no visible operation still is,
 * later on a busy machine. A thread asleep in a call is a hang at the
 * watchdog, as before. Best effort: without /proc, every silence is one.
 */
/* The running thread's CPU seconds, and whether it is runnable; -1 when
 * /proc does not say. */
static double thread_cpu(struct ravel__lane_io *ln, bool *runnable)
{
    char path[64], buf[512];
    pid_t tid = atomic_load(&ln->sh->running_tid);
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)ln->child,
             (int)tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    /* After "(comm)": state, then 10 fields to utime and stime (ticks). */
    const char *p = strrchr(buf, ')');
    char state;
    unsigned long long ut, st;
    if (!p || sscanf(p + 1, " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                            "%llu %llu", &state, &ut, &st) != 3)
        return -1;
    *runnable = state == 'R';
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Silent past the watchdog, but runnable and not yet given the time to
 * show it is stuck. */
static bool starved(struct ravel__lane_io *ln, double watchdog)
{
    bool runnable = false;
    double cpu = ln->silent_cpu < 0 ? -1 : thread_cpu(ln, &runnable);
    return cpu >= 0 && runnable && cpu - ln->silent_cpu < watchdog / 2;
}

/* The current lane's executor ended (status st) without saying it was
 * done: a crash in an execution (reported; the lane may resume), or a
 * death outside one (a tool error). */
static void lane_died(int st)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__lane_io *ln = &rt->lanes[rt->lane];
    struct ravel__shared *sh = rt->sh;
    if (sv.interrupted) {
        /* Stopping: whatever ended it (the interrupt itself, perhaps,
         * through a handler of the program's) is no finding. */
        ln->done = true;
        return;
    }
    if (WIFSIGNALED(st) && atomic_load(&sh->in_execution)) {
        struct ravel__exec *x = &sh->exec;
        if (x->failure.kind == RAVEL__FAIL_NONE) {
            x->failure.kind = RAVEL__FAIL_CRASH;
            x->failure.value = WTERMSIG(st);
            x->failure.thread = x->running;
            x->failure.step = x->nevents;
            x->failure.obj = RAVEL__NONE;
        }
        if (after_death()) {
            ravel__spawn_executor(true);
            ln->last_change = ln->last_step = ravel__now();
            ln->silent_at = 0;
        } else {
            ln->done = true;
            sv.stop = true;
        }
        return;
    }
    ln->done = true;
    sv.error = true;
    sv.stop = true;
    /* The reason is often in what the program (or a sanitizer in ravel's
     * own build) printed last. */
    size_t olen;
    char *out = read_capture(rt->cap_err, 0, &olen);
    char last[200] = "";
    if (out) {
        while (olen && (out[olen - 1] == '\n' || out[olen - 1] == ' '))
            out[--olen] = 0;
        char *nl = strrchr(out, '\n');
        snprintf(last, sizeof last, "; its last output: %s", nl ? nl + 1 : out);
        free(out);
    }
    if (WIFSIGNALED(st))
        snprintf(sv.errmsg, sizeof sv.errmsg,
                 "the program died of signal %d outside an execution (in "
                 "its constructors, or in ravel)%s",
                 WTERMSIG(st), last);
    else
        snprintf(sv.errmsg, sizeof sv.errmsg,
                 "the program ended (status %d) outside an execution, before "
                 "ravel finished its run%s",
                 WEXITSTATUS(st), last);
}

/* Kills one lane's executor and counts the lane as done. */
static void kill_lane(struct ravel__lane_io *ln)
{
    kill(ln->child, SIGKILL);
    reap(ln->child);
    ln->child = 0;
    ln->done = true;
}

/* Stops every lane's executor but those finishing on their own. */
static void stop_lanes(bool all)
{
    struct ravel__rt *rt = &ravel__rt;
    for (uint32_t l = 0; l < rt->nlanes; l++) {
        struct ravel__lane_io *ln = &rt->lanes[l];
        if (ln->child && (all || !ln->done))
            kill_lane(ln);
    }
}

/* 5 ms: at 20 ms the second lane missed a third of a 60 ms search
 * (indexer(15); docs/exploration.md has the figures). */
#define LANE_DELAY 0.005

/*
 * The search is over - a lane said it is done having found it exhausted
 * - and a lane started after LANE_DELAY has not run an execution yet (it
 * is still being forked and set up): it holds no work, since the shared
 * tree is exhausted only when no lane does, and has nothing to report,
 * so it is stopped instead of waited for: a search that ends just after
 * the other lanes were started does not wait for them to start, look at
 * the finished tree and exit.
 */
static void drop_unstarted_lanes(void)
{
    struct ravel__rt *rt = &ravel__rt;
    bool over = false;
    for (uint32_t l = 0; l < rt->nlanes; l++)
        if (rt->lanes[l].done && rt->lanes[l].sh->exhausted)
            over = true;
    if (!over)
        return;
    for (uint32_t l = 0; l < rt->nlanes; l++) {
        struct ravel__lane_io *ln = &rt->lanes[l];
        if (ln->child && !ln->done &&
            atomic_load(&ln->sh->executions_done) == 0 &&
            !atomic_load(&ln->sh->in_execution))
            kill_lane(ln);
    }
}

static void start_lane(uint32_t l)
{
    struct ravel__rt *rt = &ravel__rt;
    ravel__use_lane(l);
    ravel__spawn_executor(false);
    rt->lanes[l].last_progress = atomic_load(&rt->sh->progress);
    rt->lanes[l].last_change = rt->lanes[l].last_step = ravel__now();
    rt->lanes[l].silent_at = 0;
}

/* Folds the lanes' figures into lane 0's, which the summary reads. */
static void merge_lanes(void)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__shared *to = rt->lanes[0].sh;
    if (sv.last_done != 0)
        to->stats = rt->lanes[sv.last_done].sh->stats;
    for (uint32_t l = 1; l < rt->nlanes; l++) {
        struct ravel__shared *from = rt->lanes[l].sh;
        to->executions_done += from->executions_done;
        to->steps += from->steps;
        to->prof_reset += from->prof_reset;
        to->prof_run += from->prof_run;
        to->prof_choose += from->prof_choose;
        to->prof_end += from->prof_end;
        to->plain_reads += from->plain_reads;
        to->snap_taken += from->snap_taken;
        to->snap_resumed += from->snap_resumed;
        to->plain_writes += from->plain_writes;
        to->blocked_runs += from->blocked_runs;
        to->cut_runs += from->cut_runs;
        to->fair_runs += from->fair_runs;
        to->nondet_limited |= from->nondet_limited;
        to->signals_handled |= from->signals_handled;
        to->exhausted |= from->exhausted;
        to->stopped_by_limit |= from->stopped_by_limit;
        to->outcomes_dropped += from->outcomes_dropped;
        for (uint32_t i = 0; i < from->noutcomes; i++) {
            const struct ravel__outcome *o = &from->outcomes[i];
            uint32_t k = 0;
            while (k < to->noutcomes && to->outcomes[k].value != o->value)
                k++;
            if (k == to->noutcomes) {
                if (k == RAVEL__MAX_OUTCOMES) {
                    to->outcomes_dropped += o->count;
                    continue;
                }
                to->outcomes[to->noutcomes++] = *o;
                continue;
            }
            struct ravel__outcome *t = &to->outcomes[k];
            t->count += o->count;
            if (o->first_execution < t->first_execution) {
                t->first_execution = o->first_execution;
                t->pc = o->pc;
                if (o->ticket[0])
                    memcpy(t->ticket, o->ticket, sizeof t->ticket);
            }
        }
    }
}

/*
 * Race-directed scheduling, between explorations: every lane has stopped
 * after a data race promoted code locations. The next exploration starts
 * from nothing (the strategies' shared search tree cleared), with the
 * promoted locations as visible operations, within the same budget of
 * executions and time. Returns false when the budget is spent.
 */
static bool start_over(void)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__common *c = rt->common;
    sv.restart = false;
    uint64_t next = atomic_load(&c->next_number);
    if (rt->opt.executions && next >= rt->opt.executions)
        return false;
    if (rt->opt.time > 0 && ravel__now() >= rt->start_time + rt->opt.time)
        return false;
    c->phase++;
    sv.phase_races = 0;
    sv.phase_start = 0;
    for (uint32_t l = 0; l < rt->nlanes; l++)
        sv.phase_start += atomic_load(&rt->lanes[l].sh->executions_done);
    sv.stop = false;
    sv.last_done = 0;
    sv.lane0_done = false;
    /* Zero the shared search tree as when it was first mapped: giving
     * the pages back (shared anonymous memory is shmem) costs nothing
     * for the large untouched part, unlike writing zeros over it. */
    if (madvise(rt->strategy_mem, rt->strategy_mem_size, MADV_REMOVE) != 0)
        memset(rt->strategy_mem, 0, rt->strategy_mem_size);
    if (ravel__door && ravel__door->start_over)
        ravel__door->start_over();
    for (uint32_t l = 0; l < rt->nlanes; l++) {
        struct ravel__lane_io *ln = &rt->lanes[l];
        /* An executor that only exits now may not have read its last
         * reply yet: the next one shares its pipes, so it is waited for
         * first (it would take the new one's reply). */
        if (ln->child && ln->exiting)
            reap(ln->child);
        ln->done = false;
        ln->exiting = false;
        ln->done_at = 0;
        ln->child = 0;
        ln->sh->exhausted = 0;
        ln->sh->stats.guarantee[0] = 0; /* the next exploration's, once */
        ln->sh->stats.complete = 0;     /* it says */
        ln->sh->stopped_by_limit = 0;
        ln->sh->have_last_complete = 0;
    }
    return true;
}

RAVEL__NORETURN void ravel__supervisor_main(void)
{
    struct ravel__rt *rt = &ravel__rt;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

phase:
    sv.lanes_at = rt->nlanes > 1 ? ravel__now() + LANE_DELAY : 0;
    for (uint32_t l = 0; l < (sv.lanes_at ? 1 : rt->nlanes); l++)
        start_lane(l);
    double last_line = 0;
    for (;;) {
        if (sv.lanes_at && ravel__now() >= sv.lanes_at) {
            /* The first lane is not done: the others join it. */
            sv.lanes_at = 0;
            if (!rt->lanes[0].done && !sv.stop && !sv.interrupted)
                for (uint32_t l = 1; l < rt->nlanes; l++)
                    start_lane(l);
        }
        struct pollfd p[RAVEL__MAX_LANES];
        uint32_t which[RAVEL__MAX_LANES], np = 0;
        for (uint32_t l = 0; l < rt->nlanes; l++) {
            if (!rt->lanes[l].child || rt->lanes[l].exiting)
                continue;
            p[np] = (struct pollfd){rt->lanes[l].sv_in, POLLIN, 0};
            which[np++] = l;
        }
        if (np == 0)
            break; /* every lane has finished or only exits now (or the
                      first one finished before the others started: they
                      are not needed) */
        int wait_ms = 50;
        if (sv.lanes_at) {
            double left = (sv.lanes_at - ravel__now()) * 1000;
            wait_ms = left < 0 ? 0 : left < 50 ? (int)left + 1 : 50;
        }
        int n = poll(p, np, wait_ms);
        for (uint32_t i = 0; n > 0 && i < np; i++) {
            if (!(p[i].revents & POLLIN))
                continue;
            ravel__use_lane(which[i]);
            struct ravel__msg m;
            if (read(rt->sv_in, &m, sizeof m) == (ssize_t)sizeof m)
                handle_message(&m);
        }
        double now = ravel__now();
        /* An executor may have been signalled alone. */
        if (!sv.interrupted && atomic_load(&rt->common->stop_requested))
            sv.interrupted = 1;
        if (sv.interrupted && sv.stop_deadline == 0) {
            /* Every lane stops after its current execution and says what
             * it covered; those that cannot in time are killed. */
            atomic_store(&rt->common->stop_requested, 1);
            sv.stop_deadline = now + STOP_GRACE;
        }
        if (sv.interrupted && now >= sv.stop_deadline) {
            stop_lanes(true);
            break;
        }
        if (sv.stop)
            stop_lanes(false);
        else
            drop_unstarted_lanes();
        int st;
        pid_t w;
        for (int tries = 0;; tries++) {
            w = waitpid(-1, &st, WNOHANG);
            if (w > 0) {
                for (uint32_t l = 0; l < rt->nlanes; l++) {
                    if (rt->lanes[l].child != w)
                        continue;
                    rt->lanes[l].child = 0;
                    if (!rt->lanes[l].done && !sv.stop) {
                        ravel__use_lane(l);
                        lane_died(st);
                    }
                }
                continue;
            }
            /* An executor marked done that has neither said so nor
             * exited (stopping after a bug, a tool error): it exits at
             * once, so wait a little for it rather than for the next
             * poll timeout. One that said it is done only exits: not
             * waited for. */
            bool waiting = false;
            for (uint32_t l = 0; l < rt->nlanes; l++)
                if (rt->lanes[l].child && rt->lanes[l].done &&
                    !rt->lanes[l].exiting)
                    waiting = true;
            if (!waiting || tries >= 50 || sv.interrupted)
                break;
            usleep(1000);
        }
        if (sv.stop)
            stop_lanes(false);
        /* A lane that said it is done (or was told to stop) but does not
         * exit: it is killed, never waited for forever. */
        now = ravel__now();
        for (uint32_t l = 0; l < rt->nlanes; l++) {
            struct ravel__lane_io *ln = &rt->lanes[l];
            if (!ln->child || !ln->done || ln->exiting)
                continue;
            if (ln->done_at == 0)
                ln->done_at = now;
            else if (now - ln->done_at > DONE_GRACE) {
                kill(ln->child, SIGKILL);
                reap(ln->child);
                ln->child = 0;
            }
        }
        for (uint32_t l = 0; l < rt->nlanes && !sv.stop; l++) {
            struct ravel__lane_io *ln = &rt->lanes[l];
            if (!ln->child || ln->done)
                continue;
            uint64_t prog = atomic_load(&ln->sh->progress);
            bool stepped = prog != ln->last_progress ||
                           !atomic_load(&ln->sh->in_execution);
            if (stepped) {
                ln->last_step = now;
                ln->computing = false;
            }
            if (stepped || computing(ln, now, rt->opt.watchdog)) {
                ln->last_progress = prog;
                ln->last_change = now;
                ln->silent_at = 0;
            } else if (rt->opt.watchdog > 0 && !ln->silent_at &&
                       now - ln->last_change > rt->opt.watchdog / 2) {
                bool runnable;
                ln->silent_at = now;
                ln->silent_cpu = thread_cpu(ln, &runnable);
            } else if (rt->opt.watchdog > 0 &&
                       now - ln->last_change > rt->opt.watchdog &&
                       starved(ln, rt->opt.watchdog)) {
                /* Not given the time yet: look again. */
            } else if (rt->opt.watchdog > 0 &&
                       now - ln->last_change > rt->opt.watchdog) {
                ravel__use_lane(l);
                pid_t child = ln->child;
                ln->child = 0;
                hang(child, ln->computing);
                if (after_death()) {
                    ravel__spawn_executor(true);
                    ln->last_change = ln->last_step = ravel__now();
                    ln->silent_at = 0;
                } else {
                    ln->done = true;
                    sv.stop = true;
                }
            }
        }
        if (now - last_line >= 0.25) {
            progress_line();
            last_line = now;
        }
        if (rt->opt.checkpoint && rt->opt.checkpoint_interval > 0 &&
            now - rt->last_checkpoint >= rt->opt.checkpoint_interval)
            ravel__sv_checkpoint();
    }
    if (sv.restart && !sv.interrupted && !sv.error && start_over())
        goto phase;
    merge_lanes();
    ravel__use_lane(0);
    clear_progress();
    int code = ravel__sv_finish();
    /* The executors that only exit now: reaped after the summary, while
     * they are torn down, so that their time counts as this process's
     * children's (time(1), getrusage) and none outlives the run. */
    for (uint32_t l = 0; l < rt->nlanes; l++)
        if (rt->lanes[l].child && rt->lanes[l].exiting)
            reap(rt->lanes[l].child);
    REAL(_exit)(code);
    __builtin_unreachable();
}
