/*
 * bench.c - `ravel bench`: the systematic strategies on the classic DPOR
 * benchmarks, as a table.
 *
 * Each benchmark program (bench/dpor, built with the project) is explored
 * completely with `ravel run --strategy dpor`, once per configuration:
 *
 *     optimal DPOR, one executor       (wakeup trees: no execution wasted)
 *     source-set DPOR, one executor    (the baseline of the next line)
 *     source-set DPOR, N executors     (--jobs N, default one per core)
 *     optimal DPOR, N executors        (lanes stealing branches as units)
 *
 * and the table gives, for each, the executions, how many sleep sets
 * abandoned, the wall time of the exploration (ravel's own clock, median
 * of --runs), executions per second, and where each execution's time went
 * (--profile). The trace count is checked against the number published
 * for the benchmark, so a table with a wrong count says so. For scale,
 * the published times of GenMC and Nidhugg on this kind of machine are
 * shown where the issue that asked for this benchmark gave them.
 *
 * The rc11 columns explore the same program at the same size once more,
 * optimal DPOR on one executor under --memory-model rc11, and give the
 * execution graphs it counted and its executions per second. Every
 * benchmark uses only seq_cst atomics and locks, so RC11 allows exactly
 * its sequentially consistent executions and the graph count is checked
 * against the same published trace count. ravel's RC11 exploration makes
 * all seq_cst accesses dependent (docs/memory-models.md), so most of these
 * explorations are far longer than under sc: each gets a budget
 * (--rc11-budget, seconds, passed to `ravel run --time`), and one that
 * does not finish in it shows "> N s" and no rate -- the rate of a part
 * of an exploration is not the rate of the exploration.
 *
 * The runs are separate processes of this very executable (`ravel run`),
 * so what is measured is exactly what a user gets.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct bench {
    const char *name;
    const char *arg;      /* the size */
    unsigned long traces; /* published number of Mazurkiewicz traces */
    unsigned long quick_traces;
    const char *quick_arg;
    double genmc, nidhugg; /* published seconds (0: none given) */
};

static const struct bench benches[] = {
    {"readers", "13", 8192, 256, "8", 0, 0},
    {"lastzero", "15", 147456, 3328, "10", 7.0, 28.0},
    {"indexer", "15", 4096, 512, "14", 0, 0},
    {"filesystem", "19", 64, 32, "18", 0, 0},
    {"fib_bench", "", 218243, 218243, "", 1.4, 12.0},
};

struct result {
    bool ok;
    bool complete; /* the exploration finished (false: stopped by --time) */
    unsigned long executions, traces, blocked;
    double elapsed;
    double program, choices, analysis, restore; /* us per execution */
    char error[200];
};

void ravel__help_bench(void)
{
    fputs(
        "NAME\n"
        "    ravel bench - the systematic strategies on the classic DPOR "
        "benchmarks\n"
        "\n"
        "SYNOPSIS\n"
        "    ravel bench [--dir DIR] [--jobs N] [--runs N] [--quick] "
        "[--json]\n"
        "                [--rc11-budget SECONDS]\n"
        "\n"
        "DESCRIPTION\n"
        "    Explores readers(13), lastzero(15), indexer(15), filesystem(19)\n"
        "    and fib_bench completely, with optimal DPOR and with source-set\n"
        "    DPOR, each on one and on N executors (--jobs), and\n"
        "    prints a table: the traces (checked against the published\n"
        "    count), executions, executions abandoned by sleep sets, wall\n"
        "    time (median of the runs), executions per second, and where the\n"
        "    time of one execution goes: the program and its thread\n"
        "    switches, the strategy's choices, the analysis of the finished\n"
        "    execution, and restoring the program for the next. Published\n"
        "    times of GenMC and Nidhugg are shown for scale where known.\n"
        "\n"
        "    The rc11 columns explore each benchmark once more, at the same\n"
        "    size, with optimal DPOR on one executor under --memory-model\n"
        "    rc11: the execution graphs counted (checked against the same\n"
        "    published count: the benchmarks use only seq_cst atomics and\n"
        "    locks) and executions per second. An exploration that does not\n"
        "    finish within --rc11-budget seconds shows '> N s' and no rate.\n"
        "\n"
        "OPTIONS\n"
        "  --dir DIR\n"
        "        Where the benchmark programs are (default: bench/dpor of the\n"
        "        build tree this ravel belongs to).\n"
        "  --jobs N\n"
        "        Executors of the parallel configuration (default: one per\n"
        "        core).\n"
        "  --runs N\n"
        "        Runs per configuration; the median time is shown (default\n"
        "        1).\n"
        "  --quick\n"
        "        Smaller sizes, for a check that takes seconds.\n"
        "  --rc11-budget SECONDS\n"
        "        Time allowed to each rc11 exploration (default 20; 0: no\n"
        "        rc11 columns).\n"
        "  --json\n"
        "        One JSON object per line on stdout instead of the table\n"
        "        (the rc11 runs have \"memory_model\":\"rc11\").\n"
        "  -h, --help\n"
        "        Show this manual.\n"
        "\n"
        "EXIT STATUS\n"
        "    0  every trace (and finished rc11 graph) count was as "
        "published\n"
        "    1  a count differed, or a run failed\n"
        "    2  usage error (no benchmark programs found)\n",
        stdout);
}

/* The number after "key": in a JSON text (0 when absent). */
static double json_num(const char *js, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(js, pat);
    return p ? strtod(p + strlen(pat), NULL) : 0;
}

/* Runs `ravel run` on one benchmark and reads its JSON summary. */
static struct result run_one(const char *self, const char *prog,
                             const char *arg, const char *mode,
                             const char *jobs, const char *model,
                             const char *budget)
{
    struct result r;
    memset(&r, 0, sizeof r);
    char tickets[] = "/tmp/ravel-bench-XXXXXX";
    if (!mkdtemp(tickets)) {
        snprintf(r.error, sizeof r.error, "cannot create a directory: %s",
                 strerror(errno));
        return r;
    }
    int out[2];
    if (pipe(out) != 0) {
        snprintf(r.error, sizeof r.error, "pipe: %s", strerror(errno));
        rmdir(tickets);
        return r;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        close(out[0]);
        close(out[1]);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        unsetenv("RAVEL_OPTIONS");
        const char *args[24];
        int n = 0;
        args[n++] = self;
        args[n++] = "run";
        args[n++] = "--json";
        args[n++] = "--profile";
        args[n++] = "--progress=never";
        args[n++] = "--strategy=dpor";
        args[n++] = "--executions=0";
        args[n++] = "--ticket-dir";
        args[n++] = tickets;
        args[n++] = "--dpor-mode";
        args[n++] = mode;
        args[n++] = "--jobs";
        args[n++] = jobs;
        args[n++] = "--memory-model";
        args[n++] = model;
        if (budget) {
            args[n++] = "--time";
            args[n++] = budget;
        }
        args[n++] = "--";
        args[n++] = prog;
        if (arg[0])
            args[n++] = arg;
        args[n] = NULL;
        char *argv[24];
        memcpy(argv, args, sizeof argv); /* execv's type; not modified */
        execv(self, argv);
        _exit(127);
    }
    close(out[1]);
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    char buf[4096];
    ssize_t k;
    while ((k = read(out[0], buf, sizeof buf)) > 0 ||
           (k < 0 && errno == EINTR))
        if (k > 0)
            ravel__sb_addn(&sb, buf, (size_t)k);
    close(out[0]);
    int st = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    const char *js = ravel__sb_str(&sb);
    bool complete = strstr(js, "\"complete\":true") != NULL;
    /* With a budget, an exploration stopped by it is a result too. */
    if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
        (!complete && !(budget && strstr(js, "\"complete\":false")))) {
        snprintf(r.error, sizeof r.error, "the run failed (status %d)",
                 WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    } else {
        r.ok = true;
        r.complete = complete;
        r.executions = (unsigned long)json_num(js, "executions");
        r.traces = (unsigned long)json_num(js, "traces");
        r.blocked = (unsigned long)json_num(js, "blocked");
        r.elapsed = json_num(js, "elapsed_s");
        const char *prof = strstr(js, "\"profile_us_per_execution\":");
        if (prof) {
            r.program = json_num(prof, "program");
            r.choices = json_num(prof, "choices");
            r.analysis = json_num(prof, "analysis");
            r.restore = json_num(prof, "restore");
        }
    }
    ravel__sb_free(&sb);
    /* A clean exploration writes no tickets; remove the directory. */
    rmdir(tickets);
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median over `runs` runs (the other figures are the same every run). */
static struct result run_median(const char *self, const char *prog,
                                const char *arg, const char *mode,
                                const char *jobs, unsigned runs,
                                const char *model, const char *budget)
{
    double t[32];
    struct result r;
    memset(&r, 0, sizeof r);
    for (unsigned i = 0; i < runs; i++) {
        r = run_one(self, prog, arg, mode, jobs, model, budget);
        if (!r.ok || !r.complete)
            return r; /* a run over budget is not repeated */
        t[i] = r.elapsed;
    }
    qsort(t, runs, sizeof *t, cmp_double);
    r.elapsed = t[runs / 2];
    return r;
}

/* The two rc11 cells of a row: blank on the rows without an rc11 run,
 * the graphs and the rate of a finished exploration, "> N s" (no rate)
 * for one the budget stopped. */
static void rc11_cells(const struct result *rc, const char *budget,
                       char *graphs, char *rate, size_t len)
{
    graphs[0] = rate[0] = 0;
    if (!rc)
        return;
    if (!rc->ok) {
        snprintf(graphs, len, "failed");
        snprintf(rate, len, "-");
    } else if (!rc->complete) {
        snprintf(graphs, len, "-");
        snprintf(rate, len, "> %s s", budget);
    } else {
        snprintf(graphs, len, "%lu", rc->traces);
        snprintf(rate, len, "%.0f",
                 rc->elapsed > 0 ? (double)rc->executions / rc->elapsed : 0);
    }
}

static void print_row(const char *bench, const char *config,
                      const struct result *r, const struct bench *b,
                      bool first, bool quick, const struct result *rc,
                      const char *budget)
{
    char graphs[32], rrate[32];
    rc11_cells(rc, budget, graphs, rrate, sizeof graphs);
    if (!r->ok) {
        printf("%-15s %-20s %-72s %11s %10s\n", first ? bench : "", config,
               r->error, graphs, rrate);
        return;
    }
    double rate = r->elapsed > 0 ? (double)r->executions / r->elapsed : 0;
    char ref[64] = "";
    if (first && !quick && b->genmc > 0)
        snprintf(ref, sizeof ref, "GenMC %.1f s, Nidhugg %.0f s", b->genmc,
                 b->nidhugg);
    printf("%-15s %-20s %10lu %9lu %9lu %8.2f %9.0f %5.1f %5.1f %5.1f %5.1f"
           " %11s %10s  %s\n",
           first ? bench : "", config, r->traces, r->executions, r->blocked,
           r->elapsed, rate, r->program, r->choices, r->analysis, r->restore,
           graphs, rrate, ref);
}

static void print_json(const char *bench, const char *mode, const char *jobs,
                       const char *model, const struct result *r,
                       unsigned long want)
{
    printf("{\"benchmark\":\"%s\",\"dpor_mode\":\"%s\",\"jobs\":%s,"
           "\"memory_model\":\"%s\",\"ok\":%s,\"complete\":%s,"
           "\"traces\":%lu,\"expected_traces\":%lu,"
           "\"executions\":%lu,\"blocked\":%lu,\"elapsed_s\":%.3f,"
           "\"profile_us_per_execution\":{\"program\":%.3f,\"choices\":%.3f,"
           "\"analysis\":%.3f,\"restore\":%.3f}}\n",
           bench, mode, jobs, model, r->ok ? "true" : "false",
           r->complete ? "true" : "false", r->traces, want, r->executions,
           r->blocked, r->elapsed, r->program, r->choices, r->analysis,
           r->restore);
}

int ravel__cmd_bench(int argc, char **argv)
{
    const char *cmd = "bench";
    char dir[PATH_MAX] = "";
    unsigned runs = 1, jobs = 0;
    unsigned long rc11_budget = 20; /* seconds; 0: no rc11 columns */
    bool quick = false, json = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            ravel__help_bench();
            return 0;
        } else if (!strcmp(a, "--quick")) {
            quick = true;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--rc11-budget") && i + 1 < argc) {
            const char *v = argv[++i];
            char *end;
            errno = 0;
            rc11_budget = strtoul(v, &end, 10);
            if (!*v || *end || errno || rc11_budget > 86400)
                ravel__usage_error(cmd, "--rc11-budget must be a whole "
                                        "number of seconds, 0 to 86400");
        } else if ((!strcmp(a, "--dir") || !strcmp(a, "--jobs") ||
                    !strcmp(a, "--runs")) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(a, "--dir")) {
                snprintf(dir, sizeof dir, "%s", v);
                continue;
            }
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (*end || n == 0 || n > (!strcmp(a, "--runs") ? 31u : 64u))
                ravel__usage_error(cmd, "%s must be between 1 and %u", a,
                                   !strcmp(a, "--runs") ? 31u : 64u);
            if (!strcmp(a, "--runs"))
                runs = (unsigned)n;
            else
                jobs = (unsigned)n;
        } else {
            ravel__usage_error(cmd, "unknown argument '%s' (see 'ravel help "
                                    "bench')",
                               a);
        }
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        ravel__usage_error(cmd, "cannot find the ravel executable");
    self[n] = 0;
    if (!dir[0]) {
        /* build/bin/ravel -> build/bench/dpor */
        snprintf(dir, sizeof dir, "%s", self);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        size_t len = strlen(dir);
        snprintf(dir + len, sizeof dir - len, "/bench/dpor");
    }
    if (!jobs) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = c > 1 ? (unsigned)c : 2;
    }
    char jobs_s[16];
    snprintf(jobs_s, sizeof jobs_s, "%u", jobs);
    char par[32], opar[32];
    snprintf(par, sizeof par, "source, %u jobs", jobs);
    snprintf(opar, sizeof opar, "optimal, %u jobs", jobs);
    char budget[24];
    snprintf(budget, sizeof budget, "%lu", rc11_budget);

    if (!json) {
        printf("ravel bench: complete DPOR explorations (median of %u run%s; "
               "time is ravel's own clock)\n\n",
               runs, runs == 1 ? "" : "s");
        printf("%-15s %-20s %10s %9s %9s %8s %9s %5s %5s %5s %5s %11s %10s"
               "  %s\n",
               "benchmark", "configuration", "traces", "execs", "blocked",
               "time s", "execs/s", "prog", "choic", "analy", "rest",
               rc11_budget ? "rc11 graphs" : "", rc11_budget ? "rc11 ex/s" : "",
               "published (for scale)");
        printf("%-15s %-20s %10s %9s %9s %8s %9s %23s\n", "", "", "", "", "",
               "", "", "us per execution");
    }
    int status = 0;
    for (size_t i = 0; i < sizeof benches / sizeof *benches; i++) {
        const struct bench *b = &benches[i];
        const char *arg = quick ? b->quick_arg : b->arg;
        unsigned long want = quick ? b->quick_traces : b->traces;
        char prog[PATH_MAX + 32], label[64];
        snprintf(prog, sizeof prog, "%s/%s", dir, b->name);
        if (access(prog, X_OK) != 0)
            ravel__usage_error(cmd, "%s: no benchmark program there (build "
                                    "the project, or give --dir)",
                               prog);
        if (arg[0])
            snprintf(label, sizeof label, "%s(%s)", b->name, arg);
        else
            snprintf(label, sizeof label, "%s", b->name);
        struct result res[4] = {
            run_median(self, prog, arg, "optimal", "1", runs, "sc", NULL),
            run_median(self, prog, arg, "source", "1", runs, "sc", NULL),
            run_median(self, prog, arg, "source", jobs_s, runs, "sc", NULL),
            run_median(self, prog, arg, "optimal", jobs_s, runs, "sc", NULL),
        };
        /* The same size again under rc11, optimal DPOR, one executor,
         * within the budget (one run: an exploration over budget is not
         * worth repeating, and the rc11 figures are for scale). */
        struct result rc;
        memset(&rc, 0, sizeof rc);
        if (rc11_budget)
            rc = run_median(self, prog, arg, "optimal", "1", runs, "rc11",
                            budget);
        static const char *const modes[] = {"optimal", "source", "source",
                                            "optimal"};
        const char *njobs[] = {"1", "1", jobs_s, jobs_s};
        const char *configs[] = {"optimal, 1 job", "source, 1 job", par,
                                 opar};
        for (int k = 0; k < 4; k++) {
            const struct result *r = &res[k];
            if (json)
                print_json(label, modes[k], njobs[k], "sc", r, want);
            else
                print_row(label, configs[k], r, b, k == 0, quick,
                          k == 0 && rc11_budget ? &rc : NULL, budget);
            if (!r->ok || r->traces != want) {
                status = 1;
                if (!json && r->ok)
                    printf("%-15s   ^ %lu traces, but %lu are published\n",
                           "", r->traces, want);
            }
        }
        if (rc11_budget) {
            if (json)
                print_json(label, "optimal", "1", "rc11", &rc, want);
            if (!rc.ok || (rc.complete && rc.traces != want)) {
                status = 1;
                if (!json && rc.ok)
                    printf("%-15s   ^ %lu execution graphs under rc11, but "
                           "%lu are published\n",
                           "", rc.traces, want);
            }
        }
        fflush(stdout);
    }
    if (!json && rc11_budget)
        printf("\nrc11: the same size explored once more under "
               "--memory-model rc11 (optimal,\n1 job); graphs: distinct "
               "execution graphs, checked against the published\ncount (the "
               "programs are seq_cst only); '> %s s': not finished within\n"
               "--rc11-budget, so no rate.\n",
               budget);
    if (!json)
        printf("\nprog: the program and its thread switches; choic: the "
               "strategy's choices;\nanaly: analysing the finished execution "
               "(races, wakeup trees); rest: restoring\nthe program between "
               "executions. blocked: abandoned by sleep sets.\n");
    return status;
}
