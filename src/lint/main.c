/*
 * main.c - the ravel-lint command (run as `ravel lint`): options, inputs,
 * the analyses, the output, the exit status.
 *
 * The command line follows clang's tools (clang-tidy, clang-check):
 * `-p BUILD_DIR` names the compilation database, files name what to
 * report on, and flags after `--` are compiler flags for files given
 * without a database. Findings go to stdout in the compiler's diagnostic
 * format; errors and the summary go to stderr.
 */
#include "cdb.h"
#include "flow.h"
#include "lockset.h"
#include "front.h"
#include "ir.h"
#include "pairs.h"
#include "points.h"
#include "report.h"
#include "source.h"

#include "../common/strbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef RAVEL_LINT_CLANG
#define RAVEL_LINT_CLANG "clang"
#endif

/* Largest pairs file read: a few thousand directives fit in far less. */
#define PAIRS_FILE_LIMIT (16u << 20)

/* The manual, in parts (ISO C bounds one string literal to 4095 bytes). */
static const char *const help[] = {
    "NAME\n"
    "    ravel lint - find check-then-act races and inconsistently locked\n"
    "    shared data in C programs, before they run\n"
    "\n"
    "SYNOPSIS\n"
    "    ravel lint [OPTIONS] -p BUILD_DIR [FILES...]\n"
    "    ravel lint [OPTIONS] FILES... [-- COMPILER FLAGS...]\n"
    "\n"
    "DESCRIPTION\n"
    "    Compiles each translation unit with clang into LLVM bitcode, reads\n"
    "    its control-flow graphs and call graph across all files, and\n"
    "    reports two kinds of concurrency bugs:\n"
    "\n"
    "    ravel-check-then-act\n"
    "        A call checks a resource and a later call acts on the same\n"
    "        resource, on some path (through calls into other functions and\n"
    "        files, and around loops), while another thread or process can\n"
    "        change it in between. Built in: file-system time of check to\n"
    "        time of use (access, faccessat, stat, lstat, fstatat, statx,\n"
    "        realpath, readlink, then open, openat, fopen, creat, unlink,\n"
    "        unlinkat, rename, renameat, chmod, chown, lchown, truncate,\n"
    "        mkdir, rmdir, link, symlink, execve and a few more on the same\n"
    "        path). Your own pairs, such as a table lookup then an insert,\n"
    "        come from --pairs files or from comments in the sources:\n"
    "\n"
    "            // ravel-lint: pair table_lookup(1,2) -> table_insert(1,2)\n"
    "\n"
    "        The numbers are the positions (from 1) of the arguments that\n"
    "        name the resource. \"Same resource\" means the same variable,\n"
    "        value, constant or field of the same object, followed through\n"
    "        assignments and calls; where the analysis cannot tell, the\n"
    "        message says \"perhaps\". Not reported: a lock held from the\n"
    "        check to the act (for your pairs: a mutex does not stop other\n"
    "        processes from changing files), an act on a local object whose\n"
    "        address never escapes, an open with O_CREAT|O_EXCL or an fopen\n"
    "        with \"x\" (they re-check atomically).\n"
    "\n"
    "    ravel-lockset\n"
    "        Data shared between threads that can run at the same time -\n"
    "        globals, and objects reachable from a thread's argument - is\n"
    "        accessed without a lock held at both accesses, and at least\n"
    "        one access writes. Threads are those started with\n"
    "        pthread_create or thrd_create from a root of the call graph\n"
    "        (main, or any function nobody calls); accesses made before a\n"
    "        thread is created or after it is joined do not race with it.\n"
    "        Atomic operations never race.\n"
    "\n"
    "    With -p, every translation unit of the database is analysed (calls\n"
    "    cross files), and FILES, when given, restrict the findings printed\n"
    "    to those files. Without -p, FILES are compiled with the COMPILER\n"
    "    FLAGS after --, or with none.\n"
    "\n",
    "OPTIONS\n"
    "  -p PATH\n"
    "        The build directory holding compile_commands.json (CMake:\n"
    "        -DCMAKE_EXPORT_COMPILE_COMMANDS=ON; other builds: bear), or the\n"
    "        database file itself.\n"
    "  --pairs FILE\n"
    "        Read pair and lock declarations from FILE, one per line:\n"
    "            pair CHECK(N,...)[, CHECK(...)] -> ACT(N,...)[, ACT(...)]\n"
    "            lock FUNCTION(N)      unlock FUNCTION(N)\n"
    "        '#' starts a comment. May be given more than once.\n"
    "  --no-builtin-pairs\n"
    "        Do not look for the built-in file-system pairs.\n"
    "  --checks LIST\n"
    "        Comma-separated analyses to run: check-then-act, lockset\n"
    "        (default: both).\n"
    "  --sarif FILE\n"
    "        Also write the findings to FILE as SARIF 2.1.0, for code\n"
    "        scanning services.\n"
    "  -j N, --jobs N\n"
    "        Compile N translation units at once (default: the number of\n"
    "        processors).\n"
    "  --clang PATH\n"
    "        The clang that makes bitcode; it must be LLVM " RAVEL_LINT_LLVM_MAJOR
    " (default: RAVEL_LINT_CLANG,\n"
    "        else " RAVEL_LINT_CLANG ").\n"
    "  --color WHEN\n"
    "        always, never or auto (default: auto, colour when stdout is a\n"
    "        terminal and NO_COLOR is not set).\n"
    "  --no-caret\n"
    "        Do not quote the source line under each diagnostic.\n"
    "  --stats\n"
    "        Print timings and counts to stderr.\n"
    "  -v, --verbose\n"
    "        Print each compile command to stderr.\n"
    "  -h, --help\n"
    "        Show this manual.\n"
    "  --version\n"
    "        Show the version of ravel lint and of its LLVM.\n"
    "\n",
    "OUTPUT\n"
    "    One warning per finding, on stdout, as compilers print them, then\n"
    "    notes for the other places involved:\n"
    "\n"
    "      reg.c:24:10: warning: registry_insert(r, name) may act on a stale\n"
    "      check: registry_lookup(r, name) at reg.c:23 can be invalidated by\n"
    "      another thread in between [ravel-check-then-act]\n"
    "      reg.c:23:10: note: the check\n"
    "\n"
    "    (each on one line). A summary line goes to stderr when there are\n"
    "    findings or errors.\n"
    "\n"
    "EXIT STATUS\n"
    "    0  no findings\n"
    "    1  findings\n"
    "    2  analysis failure: bad option, missing or malformed compilation\n"
    "       database or pairs file, a file that does not compile\n"
    "\n"
    "ENVIRONMENT\n"
    "    RAVEL_LINT_CLANG   the clang to use (see --clang)\n"
    "    NO_COLOR           no colour with --color auto\n"
    "    TMPDIR             where bitcode is written while it is read\n"
    "\n"
    "EXAMPLES\n"
    "    ravel lint -p build\n"
    "    ravel lint -p build src/registry.c --sarif lint.sarif\n"
    "    ravel lint server.c util.c -- -Iinclude -DNDEBUG\n"
    "\n"
    "See docs/lint.md.\n"
};

static RAVEL__NORETURN void usage_error(const char *fmt, ...) RAVEL__PRINTF(1, 2);

static void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ravel lint: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(RAVEL__EXIT_USAGE);
}

struct opts {
    const char *db;
    char **files;
    int nfiles;
    char **flags; /* after -- */
    int nflags;
    bool dashdash;
    const char **pairs;
    int npairs;
    bool builtin_pairs;
    bool cta, lockset;
    const char *sarif;
    int jobs;
    const char *clang;
    int color; /* -1 auto, 0 never, 1 always */
    bool caret;
    bool stats;
    bool verbose;
};

/* "--name VALUE" or "--name=VALUE"; returns the value or NULL. */
static const char *value_of(const char *name, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != 0)
        return NULL;
    if (*i + 1 >= argc)
        usage_error("option '%s' needs a value (see 'ravel lint --help')", name);
    return argv[++*i];
}

static void parse_checks(struct opts *o, const char *list)
{
    o->cta = o->lockset = false;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n == 14 && !strncmp(p, "check-then-act", n))
            o->cta = true;
        else if (n == 7 && !strncmp(p, "lockset", n))
            o->lockset = true;
        else
            usage_error("unknown check '%.*s' in --checks (known: "
                        "check-then-act, lockset)",
                        (int)n, p);
        p += n;
        if (*p == ',')
            p++;
    }
    if (!o->cta && !o->lockset)
        usage_error("--checks names no analysis");
}

static void parse_args(struct opts *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->builtin_pairs = o->cta = o->lockset = o->caret = true;
    o->color = -1;
    long np = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = np > 0 ? (int)np : 1;
    o->files = calloc((size_t)argc + 1, sizeof *o->files);
    o->pairs = calloc((size_t)argc + 1, sizeof *o->pairs);
    RAVEL__CHECK(o->files && o->pairs);
    const char *env = getenv("RAVEL_LINT_CLANG");
    o->clang = env && *env ? env : RAVEL_LINT_CLANG;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
        if (!strcmp(a, "--")) {
            o->dashdash = true;
            o->flags = argv + i + 1;
            o->nflags = argc - i - 1;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            for (size_t k = 0; k < RAVEL__COUNT(help); k++)
                fputs(help[k], stdout);
            exit(0);
        }
        if (!strcmp(a, "--version")) {
            printf("ravel lint %s (LLVM %s)\n", RAVEL__VERSION, ravel__lint_llvm_version());
            exit(0);
        }
        if (a[0] != '-' || !strcmp(a, "-")) {
            o->files[o->nfiles++] = argv[i];
            continue;
        }
        if (!strcmp(a, "-p")) {
            if (i + 1 >= argc)
                usage_error("option '-p' needs a build directory");
            o->db = argv[++i];
        } else if (!strncmp(a, "-p", 2) && a[2] != '-') {
            o->db = a + 2;
        } else if ((v = value_of("--pairs", argc, argv, &i))) {
            o->pairs[o->npairs++] = v;
        } else if (!strcmp(a, "--no-builtin-pairs")) {
            o->builtin_pairs = false;
        } else if ((v = value_of("--checks", argc, argv, &i))) {
            parse_checks(o, v);
        } else if ((v = value_of("--sarif", argc, argv, &i))) {
            o->sarif = v;
        } else if ((v = value_of("--jobs", argc, argv, &i)) ||
                   (!strcmp(a, "-j") && (v = value_of("-j", argc, argv, &i))) ||
                   (!strncmp(a, "-j", 2) && a[2] && (v = a + 2))) {
            uint64_t n;
            if (ravel__parse_u64(v, &n) != 0 || n == 0 || n > 1024)
                usage_error("bad number of jobs '%s' (1 to 1024)", v);
            o->jobs = (int)n;
        } else if ((v = value_of("--clang", argc, argv, &i))) {
            o->clang = v;
        } else if ((v = value_of("--color", argc, argv, &i))) {
            if (!strcmp(v, "always"))
                o->color = 1;
            else if (!strcmp(v, "never"))
                o->color = 0;
            else if (!strcmp(v, "auto"))
                o->color = -1;
            else
                usage_error("bad --color '%s' (always, never, auto)", v);
        } else if (!strcmp(a, "--no-caret")) {
            o->caret = false;
        } else if (!strcmp(a, "--stats")) {
            o->stats = true;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->verbose = true;
        } else {
            usage_error("unknown option '%s' (see 'ravel lint --help')", a);
        }
    }
}

static char *absolute(const char *path)
{
    char buf[PATH_MAX];
    if (path[0] == '/') {
        snprintf(buf, sizeof buf, "%s", path);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            snprintf(cwd, sizeof cwd, ".");
        size_t n = strlen(cwd);
        if (n + 1 + strlen(path) + 1 > sizeof buf)
            usage_error("%s: path too long", path);
        memcpy(buf, cwd, n);
        buf[n] = '/';
        memcpy(buf + n + 1, path, strlen(path) + 1);
    }
    /* Normalise through the database code's path joining. */
    struct ravel__lint_cdb tmp = {0};
    char *argv0[] = {(char *)"cc", NULL};
    ravel__lint_cdb_add(&tmp, "/", buf, argv0, 1);
    char *r = strdup(tmp.v[0].file);
    RAVEL__CHECK(r != NULL);
    ravel__lint_cdb_free(&tmp);
    return r;
}

int main(int argc, char **argv)
{
    struct opts o;
    parse_args(&o, argc, argv);
    if (!o.db && o.nfiles == 0)
        usage_error("no input: give -p BUILD_DIR or source FILES (see 'ravel "
                    "lint --help')");
    if (o.db && o.dashdash)
        usage_error("compiler flags after '--' apply only without -p (the "
                    "database has each file's flags)");

    /* Inputs. */
    char err[1024];
    struct ravel__lint_cdb db = {0};
    char **want = calloc((size_t)o.nfiles + 1, sizeof *want);
    RAVEL__CHECK(want != NULL);
    for (int i = 0; i < o.nfiles; i++) {
        struct stat st;
        if (stat(o.files[i], &st) != 0)
            usage_error("%s: %s", o.files[i], strerror(errno));
        if (!S_ISREG(st.st_mode))
            usage_error("%s: not a regular file", o.files[i]);
        want[i] = absolute(o.files[i]);
    }
    if (o.db) {
        if (ravel__lint_cdb_load(o.db, &db, err, sizeof err) != 0)
            usage_error("%s", err);
        for (int i = 0; i < o.nfiles; i++) {
            bool found = false;
            for (size_t k = 0; k < db.n && !found; k++)
                found = !strcmp(db.v[k].file, want[i]);
            if (!found)
                usage_error("%s: not in the compilation database %s", o.files[i], o.db);
        }
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            usage_error("cannot get the current directory: %s", strerror(errno));
        for (int i = 0; i < o.nfiles; i++) {
            char **av = calloc((size_t)o.nflags + 3, sizeof *av);
            RAVEL__CHECK(av != NULL);
            int n = 0;
            av[n++] = (char *)"clang";
            for (int k = 0; k < o.nflags; k++)
                av[n++] = o.flags[k];
            av[n++] = o.files[i];
            ravel__lint_cdb_add(&db, cwd, o.files[i], av, n);
            free(av);
        }
    }

    struct ravel__lint_specs specs;
    ravel__lint_specs_init(&specs, o.builtin_pairs);
    for (int i = 0; i < o.npairs; i++) {
        size_t len;
        char *text = ravel__read_file(o.pairs[i], PAIRS_FILE_LIMIT, &len);
        if (!text)
            usage_error("%s: %s", o.pairs[i], strerror(errno));
        if (ravel__lint_specs_parse(&specs, text, len, err, sizeof err) != 0)
            usage_error("%s:%s", o.pairs[i], err);
        free(text);
    }

    /* Front end. */
    struct ravel__lint_prog prog;
    ravel__lint_prog_init(&prog);
    struct ravel__lint_sources src;
    ravel__lint_sources_init(&src);
    struct ravel__lint_front_opts fo = {o.clang, o.jobs, o.verbose};
    struct ravel__lint_front_result fr;
    size_t analysed = 0;
    for (size_t k = 0; k < db.n; k++)
        analysed += ravel__lint_is_c_source(db.v[k].file);
    if (analysed < db.n) {
        /* Only C translation units: drop the others (C++, assembly). */
        size_t w = 0;
        for (size_t k = 0; k < db.n; k++) {
            if (ravel__lint_is_c_source(db.v[k].file)) {
                db.v[w++] = db.v[k];
            } else {
                free(db.v[k].dir);
                free(db.v[k].file);
                ravel__lint_argv_free(db.v[k].argv);
            }
        }
        db.n = w;
    }
    if (db.n == 0)
        usage_error("no C translation units to analyse");
    double t0 = ravel__now();
    if (ravel__lint_front_run(&fo, &db, &prog, &specs, &src, &fr, err, sizeof err) != 0)
        usage_error("%s", err);
    for (uint32_t i = 0; i < fr.nerrors; i++)
        fprintf(stderr, "ravel lint: %s\n", fr.errors[i].msg);

    /* Analyses. */
    double t1 = ravel__now();
    ravel__lint_prog_link(&prog);
    struct ravel__lint_points_stats pts;
    ravel__lint_points(&prog, &pts);
    double t_points = ravel__now();
    struct ravel__lint_findings findings = {0};
    struct ravel__lint_ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.prog = &prog;
    cx.specs = &specs;
    cx.src = &src;
    cx.out = &findings;
    cx.cta = o.cta;
    cx.lockset = o.lockset;
    ravel__lint_analyze(&cx);
    double t_sums = ravel__now();
    ravel__lint_lockset_roots(&cx);
    double t2 = ravel__now();
    if (o.db && o.nfiles > 0)
        ravel__lint_findings_keep(&findings, &prog, want, (size_t)o.nfiles);
    ravel__lint_findings_sort(&findings, &prog);

    /* Output. */
    bool color = o.color == 1 ||
                 (o.color == -1 && isatty(1) && !(getenv("NO_COLOR") && *getenv("NO_COLOR")));
    struct ravel__strbuf out = RAVEL__STRBUF_INIT;
    ravel__lint_print_text(&out, &findings, &prog, &src, color, o.caret);
    fputs(ravel__sb_str(&out), stdout);
    fflush(stdout);
    int rc = findings.n ? RAVEL__EXIT_BUG : RAVEL__EXIT_CLEAN;
    if (o.sarif) {
        ravel__sb_reset(&out);
        ravel__lint_sarif(&out, &findings, &prog);
        FILE *f = fopen(o.sarif, "w");
        if (!f || fputs(ravel__sb_str(&out), f) == EOF || fclose(f) != 0) {
            fprintf(stderr, "ravel lint: %s: %s\n", o.sarif, strerror(errno));
            rc = RAVEL__EXIT_USAGE;
        }
    }
    ravel__sb_free(&out);
    uint32_t ncta = 0;
    for (uint32_t i = 0; i < findings.n; i++)
        ncta += findings.v[i].rule == RAVEL__RULE_CTA;
    if (findings.n || fr.nerrors || o.stats)
        fprintf(stderr, "ravel lint: %u finding%s (%u check-then-act, %u lockset) in %u "
                        "translation unit%s%s\n",
                findings.n, findings.n == 1 ? "" : "s", ncta, findings.n - ncta, fr.units,
                fr.units == 1 ? "" : "s",
                fr.nerrors ? "; some files could not be analysed" : "");
    if (o.stats)
        fprintf(stderr,
                "ravel lint: stats: calls through pointers: %u resolved (%u to several "
                "functions, %u dispatchers), %u unresolved; %u values rewritten to the "
                "object they point to\n",
                pts.resolved, pts.multi, pts.dispatchers, pts.unresolved, pts.rewritten);
    if (o.stats)
        fprintf(stderr,
                "ravel lint: stats: compile %.3fs, read %.3fs, analyse %.3fs (pointers "
                "%.3fs, summaries %.3fs, threads %.3fs), total %.3fs; %u functions, %u "
                "events, %u paths, %u summary entries dropped\n",
                fr.compile_s, fr.read_s, t2 - t1, t_points - t1, t_sums - t_points,
                t2 - t_sums, t2 - t0, prog.nfuncs, prog.nevents, prog.naps, cx.dropped);
    if (fr.nerrors)
        rc = RAVEL__EXIT_USAGE;

    ravel__lint_ctx_free(&cx);
    ravel__lint_findings_free(&findings);
    ravel__lint_front_result_free(&fr);
    ravel__lint_sources_free(&src);
    ravel__lint_prog_free(&prog);
    ravel__lint_specs_free(&specs);
    ravel__lint_cdb_free(&db);
    for (int i = 0; i < o.nfiles; i++)
        free(want[i]);
    free(want);
    free(o.files);
    free(o.pairs);
    return rc;
}
