/*
 * init.c - taking over the program: __libc_start_main.
 *
 * The C runtime's startup code (crt1.o) calls __libc_start_main with the
 * program's main. The runtime library precedes libc in the program's
 * dependencies, so this definition is the one called. It reads the
 * options (RAVEL_OPTIONS), loads the ticket of a replay, sets up the
 * memory shared with the supervisor and the files that capture each
 * execution's output, and forks:
 *
 *   parent  -> the supervisor (supervisor.c); it never runs program code,
 *              not even constructors, and can fork a fresh executor
 *              after a crash;
 *   child   -> the executor: calls the C library's own __libc_start_main
 *              with ravel's main (executor.c), so the program's
 *              constructors run once, then its main once per execution.
 *
 * With supervise=0 (a replay under gdb) there is no fork and no capture:
 * the process runs the executions and prints its own report.
 */
#include "../rt.h"

#include "../../common/hash.h"
#include "../../common/shard.h"
#include "../../explore/checkpoint.h"
#include "../../explore/depend.h"
#include "../../report/elf.h"
#include "../../report/report.h"
#include "../../report/symbolize.h"
#include "../intercept/real.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <unistd.h>

/* Synchronisation objects one execution may use. */
#define MAX_OBJECTS 262144

struct ravel__rt ravel__rt = {
    .cap_out = -1,
    .cap_err = -1,
    .real_out = -1,
    .real_err = -1,
    .to_sv = -1,
    .from_sv = -1,
    .sv_in = -1,
    .sv_out = -1,
    .result_fd = -1,
};

typedef int (*libc_start_fn)(ravel__main_fn, int, char **, void (*)(void),
                             void (*)(void), void (*)(void), void *);

static struct {
    libc_start_fn real;
    int argc;
    char **argv;
    void (*init)(void);
    void (*fini)(void);
    void (*rtld_fini)(void);
    void *stack_end;
} boot;

__attribute__((constructor(101))) static void runtime_init(void)
{
    ravel__real_resolve();
}

RAVEL__NORETURN void ravel__fatal(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    if ((size_t)n > sizeof msg - 2)
        n = (int)sizeof msg - 2;
    msg[n++] = '\n';
    ravel__write_all(2, "ravel: error: ", 14);
    ravel__write_all(2, msg, (size_t)n);
    REAL(_exit)(RAVEL__EXIT_USAGE);
    __builtin_unreachable();
}

/* ---- program identity -------------------------------------------------- */

static char exe_path[PATH_MAX];
static uint64_t exe_hash;
static bool exe_hash_known;

const char *ravel__exe_path(void)
{
    if (!exe_path[0]) {
        ssize_t n = readlink("/proc/self/exe", exe_path, sizeof exe_path - 1);
        if (n > 0)
            exe_path[n] = 0;
        else
            snprintf(exe_path, sizeof exe_path, "/unknown");
    }
    return exe_path;
}

uint64_t ravel__exe_hash(void)
{
    if (!exe_hash_known) {
        if (ravel__hash_file("/proc/self/exe", &exe_hash) != 0)
            exe_hash = 0;
        exe_hash_known = true;
    }
    return exe_hash;
}

const char *ravel__program_name(void)
{
    return ravel__basename(ravel__exe_path());
}

static void bug_context(int fd)
{
    char buf[256];
    struct ravel__rt *rt = &ravel__rt;
    int n = snprintf(buf, sizeof buf,
                     "ravel: program %s, strategy %s, seed %llu, execution "
                     "%llu, %u steps so far\n",
                     ravel__exe_path(), rt->opt.strategy ? rt->opt.strategy : "",
                     rt->sh ? (unsigned long long)rt->sh->seed : 0ULL,
                     rt->x ? (unsigned long long)rt->x->number + 1 : 0ULL,
                     rt->x ? rt->x->nevents : 0);
    if (n > 0)
        ravel__write_all(fd, buf, (size_t)n);
}

/* ---- set-up ------------------------------------------------------------ */

/* Moves fd above the numbers programs commonly use, close-on-exec. */
static int move_high(int fd)
{
    int h = fcntl(fd, F_DUPFD_CLOEXEC, 900);
    if (h < 0)
        return fd;
    close(fd);
    return h;
}

static void read_options(void)
{
    struct ravel__rt *rt = &ravel__rt;
    char err[512];
    ravel__options_defaults(&rt->opt);
    const char *env = getenv("RAVEL_OPTIONS");
    if (env && ravel__options_parse(&rt->opt, env, err, sizeof err) != 0)
        ravel__fatal("RAVEL_OPTIONS: %s", err);
    if (ravel__options_validate(&rt->opt, err, sizeof err) != 0)
        ravel__fatal("RAVEL_OPTIONS: %s", err);
}

/* The doors that registered (ravel__door_register), and the one that
 * claimed the program. */
#define MAX_DOORS 4
static const struct ravel__door *doors[MAX_DOORS];
static int ndoors;
const struct ravel__door *ravel__door;

void ravel__door_register(const struct ravel__door *d)
{
    if (ndoors < MAX_DOORS)
        doors[ndoors++] = d;
}

/* Which door claims the program (before anything is set up), and
 * where ravel's options start in its arguments (door_first). */
static int door_first = 1;

static void door_choose(void)
{
    struct ravel__elf e;
    char err[512];
    if (ndoors == 0 ||
        ravel__elf_open("/proc/self/exe", &e, err, sizeof err) != 0)
        return;
    for (int i = 0; i < ndoors && !ravel__door; i++)
        if (doors[i]->claim(&e))
            ravel__door = doors[i];
    ravel__elf_close(&e);
}

/*
 * A program driven by a door (a property program, one that calls
 * ravel_test_model: docs/pbt.md; a unit test's run, docs/tests.md)
 * takes ravel's options as its own arguments too: `./prop --seed 1
 * --tests 100`, as QuickCheck-style runners do. They are read after
 * RAVEL_OPTIONS; a bad one ends the run with a one-line message and exit
 * status 2. A replay keeps its strategy and ticket whatever the
 * arguments say. The door then adjusts the options (a property program
 * runs one executor, its driver picks the strategy of every execution,
 * and there is no limit on executions).
 */
static void door_options(void)
{
    struct ravel__rt *rt = &ravel__rt;
    char err[512];
    if (!ravel__door)
        return;
    bool replay = !strcmp(rt->opt.strategy, "replay");
    for (int i = door_first; i < rt->argc; i++) {
        const char *a = rt->argv[i];
        if (strncmp(a, "--", 2) != 0 || !a[2])
            ravel__fatal("unexpected argument '%s' (a %s program takes "
                         "ravel's options: --seed N, --executions N ...)",
                         a, ravel__door->name);
        char name[64];
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, a + 2, len);
        name[len] = 0;
        bool is_bool = false;
        if (!ravel__options_known(name, &is_bool))
            ravel__fatal("unknown option --%s", name);
        const char *val = eq ? eq + 1 : NULL;
        if (!val && is_bool)
            val = "1";
        if (!val) {
            if (i + 1 >= rt->argc)
                ravel__fatal("option --%s needs a value", name);
            val = rt->argv[++i];
        }
        if (replay && (!strcmp(name, "strategy") || !strcmp(name, "ticket")))
            continue;
        if (ravel__options_set(&rt->opt, name, val, err, sizeof err) != 0)
            ravel__fatal("%s", err);
    }
    if (ravel__options_validate(&rt->opt, err, sizeof err) != 0)
        ravel__fatal("%s", err);
    if (ravel__door->setup)
        ravel__door->setup(rt);
}

static void load_ticket(void)
{
    struct ravel__rt *rt = &ravel__rt;
    char err[700];
    if (ravel__ticket_load(rt->opt.ticket, &rt->ticket, err, sizeof err) != 0)
        ravel__fatal("%s", err);
    rt->have_ticket = true;
    if (rt->ticket.program_hash != ravel__exe_hash())
        ravel__fatal("ticket %s was recorded for %s (program hash %016llx), "
                     "not for this program %s (hash %016llx); rebuild the "
                     "recorded program or record a new ticket",
                     rt->opt.ticket, rt->ticket.program,
                     (unsigned long long)rt->ticket.program_hash,
                     ravel__exe_path(),
                     (unsigned long long)ravel__exe_hash());
    if (!rt->opt.set[RAVEL__OPT_max_steps])
        rt->opt.max_steps = rt->ticket.max_steps;
    /* The schedule names store buffers only under the model it ran. */
    rt->opt.memory_model = rt->ticket.memory_model ? rt->ticket.memory_model
                                                   : "sc";
    /* And holds timed waits back only if it did. */
    rt->opt.timeouts = rt->ticket.timeouts ? rt->ticket.timeouts : "any";
}

static uint64_t fresh_seed(void)
{
    uint32_t v = 0;
    if (getrandom(&v, sizeof v, 0) != sizeof v)
        v = (uint32_t)getpid() ^ (uint32_t)(ravel__now() * 1e6);
    return v ? v : 1;
}

static void *map_shared(size_t size)
{
    void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED)
        ravel__fatal("cannot map %zu bytes of shared memory: %s", size,
                     strerror(errno));
    return mem;
}

/* --checkpoint, --resume: names the search (the hashes a checkpoint
 * records) and reads the checkpoint to resume, refusing one of another
 * search with one line (exit 2) before anything runs. */
static void load_checkpoint(void)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__search_json(&sb);
    rt->search_hash = ravel__fnv1a(sb.data, sb.len, RAVEL__FNV_INIT);
    ravel__sb_free(&sb);
    if (ravel__hash_file(ravel__exe_path(), &rt->program_hash) != 0)
        rt->program_hash = 0;
    rt->last_checkpoint = ravel__now();
    if (!rt->opt.resume)
        return;
    const char *path = rt->opt.resume;
    size_t len;
    char *text = ravel__read_file(path, (size_t)1 << 32, &len);
    if (!text)
        ravel__fatal("--resume %s: %s", path, strerror(errno));
    static struct ravel__checkpoint c;
    char err[256];
    int rc = ravel__checkpoint_parse(text, len, &c, err, sizeof err);
    free(text);
    if (rc != 0)
        ravel__fatal("--resume %s: not a checkpoint: %s", path, err);
    uint32_t si = 0, sn = 1;
    if (rt->opt.shard)
        ravel__shard_resolve(rt->opt.shard, &si, &sn, NULL, err, sizeof err);
    if (c.search != rt->search_hash)
        ravel__fatal("--resume %s: saved by another search (the program's "
                     "path or arguments, options that decide the traces, "
                     "or the version of ravel's trace fingerprints differ)",
                     path);
    if (c.program != rt->program_hash)
        ravel__fatal("--resume %s: saved by another build of the program",
                     path);
    if (c.shard != si + 1 || c.shards != sn)
        ravel__fatal("--resume %s: saved by shard %u/%u, this is shard %u/%u",
                     path, c.shard, c.shards, si + 1, sn);
    rt->resumed = &c;
}

static void setup(void)
{
    struct ravel__rt *rt = &ravel__rt;
    read_options();
    door_options(); /* may read more options from the arguments */
    if (rt->opt.result_fd > 0) {
        /* A test driver's pipe (src/unit/driver.c): the supervisor writes
         * the JSON summary there; no executor keeps it open. */
        int fd = (int)rt->opt.result_fd;
        rt->result_fd = fcntl(fd, F_GETFD) < 0 ? -1 : move_high(fd);
    }
    ravel__race_suppressions_load();
    rt->direct = !rt->opt.run_by_cli && !ravel__door && rt->opt.supervise &&
                 strcmp(rt->opt.strategy, "replay") != 0;
    /* Run directly, the first execution is the program's own run, often
     * one test of a suite doing real work (a logger test's 60,000 locked
     * writes, a thread library's 128 threads x 10,000 iterations): the
     * step limit, there to stop livelocks, must not cut it short. Memory
     * for the events is reserved, not touched, so the cost is only that
     * of the steps an execution really takes. */
    if (rt->direct && !rt->opt.set[RAVEL__OPT_max_steps])
        rt->opt.max_steps = RAVEL__DIRECT_MAX_STEPS;
    /* Several executions read one stdin: a pipe is read to its end. */
    if (rt->opt.supervise && rt->opt.executions != 1 &&
        strcmp(rt->opt.strategy, "replay") != 0)
        ravel__reset_stdin_pipe();
    /* And a test runner waits for it: the default budget of executions,
     * there to explore, must not make a test of seconds run for an hour
     * (pigz compressing 100 kB on four threads: 7 s an execution, 1,000
     * of them). Unless the run names its own budget, it also stops
     * starting executions after RAVEL__DIRECT_TIME seconds; a clean run
     * prints nothing either way, and json=1 says the search was not
     * complete. */
    if (rt->direct && !rt->opt.set[RAVEL__OPT_executions] &&
        !rt->opt.set[RAVEL__OPT_time])
        rt->opt.time = RAVEL__DIRECT_TIME;
    if (ravel__door && ravel__door->attach)
        ravel__door->attach(map_shared(ravel__door->shared_size()));
    rt->start_time = ravel__now();
    rt->start_ticks = ravel__ticks();
    bool replay = !strcmp(rt->opt.strategy, "replay");
    if (replay)
        load_ticket();

    /* Lanes: the systematic strategies explore with --jobs executors in
     * parallel (default: one per core); the others use one. DPOR's lanes
     * use source sets, the default DPOR mode: optimal DPOR on one
     * executor is faster where sleep sets waste (lastzero, indexer), but
     * the differential oracle found programs where it claimed
     * "exhausted" and missed outcomes (tests/oracle/regress,
     * docs/exploration.md): most fixed, one open (tests/oracle/open;
     * that search says "not a proof of all"), so it is opt-in. */
    uint32_t lanes = 1;
    bool systematic = !strcmp(rt->opt.strategy, "dfs") ||
                      !strcmp(rt->opt.strategy, "dpor") ||
                      !strcmp(rt->opt.strategy, "auto");
    if (systematic && rt->opt.supervise) {
        uint64_t j = rt->opt.jobs;
        if (j == 0) {
            long n = sysconf(_SC_NPROCESSORS_ONLN);
            j = n > 0 ? (uint64_t)n : 1;
        }
        lanes = j > RAVEL__MAX_LANES ? RAVEL__MAX_LANES : (uint32_t)j;
        /* A search in work units (--shard) explores them one after the
         * other on one executor: more shards, not more jobs, use more
         * cores (docs/scale-out.md). */
        if (rt->opt.shard || rt->opt.checkpoint || rt->opt.resume)
            lanes = 1;
    }
    rt->nlanes = lanes;
    rt->lanes = map_shared(lanes * sizeof *rt->lanes);
    rt->common = map_shared(sizeof *rt->common);
    uint64_t seed = replay ? rt->ticket.seed
                    : rt->opt.set[RAVEL__OPT_seed] ? rt->opt.seed
                                                   : fresh_seed();
    uint32_t max_events = (uint32_t)rt->opt.max_steps + 64;
    for (uint32_t l = 0; l < lanes; l++) {
        struct ravel__lane_io *ln = &rt->lanes[l];
        ln->sh = map_shared(offsetof(struct ravel__shared, exec) +
                            ravel__exec_size(max_events, MAX_OBJECTS));
        ln->sh->magic = RAVEL__SHARED_MAGIC;
        ln->sh->seed = seed;
        ln->x = ravel__exec_layout(&ln->sh->exec, max_events, MAX_OBJECTS);
        ln->cap_out = ln->cap_err = ln->to_sv = ln->from_sv = -1;
        ln->sv_in = ln->sv_out = -1;
    }
    /* The systematic strategies keep their search tree in shared memory,
     * so that a crash does not lose the search and lanes share it. */
    rt->strategy_mem_size = ravel__strategy_shared_size(rt->opt.max_steps,
                                                        lanes);
    rt->strategy_mem = map_shared(rt->strategy_mem_size);
    if (rt->opt.checkpoint || rt->opt.resume)
        load_checkpoint();
    if (rt->opt.trace)
        rt->last_complete = ravel__exec_layout(
            map_shared(ravel__exec_size(max_events, MAX_OBJECTS)), max_events,
            MAX_OBJECTS);
    /* The memory model (src/rt/tso.c): every execution's model follows
     * it, and DPOR's dependency knows what drains a store buffer. */
    uint8_t mm = !strcmp(rt->opt.memory_model, "tso")    ? RAVEL__MM_TSO
                 : !strcmp(rt->opt.memory_model, "rc11") ? RAVEL__MM_RC11
                                                         : RAVEL__MM_SC;
    for (uint32_t l = 0; l < lanes; l++)
        rt->lanes[l].x->memory_model = mm;
    bool late = !strcmp(rt->opt.timeouts, "late");
    for (uint32_t l = 0; l < lanes; l++)
        rt->lanes[l].x->timeouts_late = late;
    if (rt->last_complete) {
        rt->last_complete->memory_model = mm;
        rt->last_complete->timeouts_late = late;
    }
    ravel__depend_tso = mm == RAVEL__MM_TSO;
    ravel__depend_rc11 = mm == RAVEL__MM_RC11;
    ravel__bug_context = bug_context;
    ravel__report_program_pc = ravel__pc_instrumented;
    ravel__modules_scan();

    if (rt->opt.supervise) {
        rt->supervised = true;
        for (uint32_t l = 0; l < lanes; l++) {
            struct ravel__lane_io *ln = &rt->lanes[l];
            int out = memfd_create("ravel-stdout", MFD_CLOEXEC);
            int err = memfd_create("ravel-stderr", MFD_CLOEXEC);
            int ev[2], rp[2];
            if (out < 0 || err < 0 || pipe2(ev, O_CLOEXEC) ||
                pipe2(rp, O_CLOEXEC))
                ravel__fatal("cannot create the run's pipes and files: %s",
                             strerror(errno));
            ln->cap_out = move_high(out);
            ln->cap_err = move_high(err);
            ln->sv_in = move_high(ev[0]);
            ln->to_sv = move_high(ev[1]);
            ln->from_sv = move_high(rp[0]);
            ln->sv_out = move_high(rp[1]);
        }
    }
    ravel__use_lane(0);
}

void ravel__use_lane(uint32_t l)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__lane_io *ln = &rt->lanes[l];
    rt->lane = l;
    rt->sh = ln->sh;
    rt->x = ln->x;
    rt->cap_out = ln->cap_out;
    rt->cap_err = ln->cap_err;
    rt->to_sv = ln->to_sv;
    rt->from_sv = ln->from_sv;
    rt->sv_in = ln->sv_in;
    rt->sv_out = ln->sv_out;
}

/* Functions a program calls when it needs its threads to be real OS
 * threads: signals to one thread, per-thread signal masks, names,
 * affinity, kernel thread ids, cancellation, its own user-level threads. */
static const char *const needs_os_threads[] = {
    "pthread_kill", "pthread_sigqueue", "pthread_cancel", "pthread_getattr_np",
    "pthread_setname_np", "pthread_getname_np", "pthread_setaffinity_np",
    "pthread_getaffinity_np", "pthread_setschedparam", "pthread_getschedparam",
    "pthread_setschedprio", "pthread_getcpuclockid", "pthread_sigmask",
    "sigprocmask", "sigwait", "sigwaitinfo", "sigtimedwait", "signalfd",
    "gettid", "syscall", "tgkill", "clone", "__pthread_register_cancel",
    "getcontext", "swapcontext", "makecontext", "setitimer", "alarm",
    "pthread_attr_getstack", NULL,
};

void ravel__choose_backend(void)
{
    const char *b = ravel__rt.opt.backend;
#if defined(__x86_64__)
    if (!strcmp(b, "fibers")) {
        ravel__backend = &ravel__backend_fiber;
        return;
    }
    if (!strcmp(b, "auto")) {
        struct ravel__elf e;
        char err[128];
        bool fibers = true;
        if (ravel__elf_open("/proc/self/exe", &e, err, sizeof err) == 0) {
            for (size_t i = 0; needs_os_threads[i] && fibers; i++)
                if (ravel__elf_imports(&e, needs_os_threads[i]))
                    fibers = false;
            ravel__elf_close(&e);
        }
        if (fibers) {
            ravel__backend = &ravel__backend_fiber;
            return;
        }
    }
#endif
    (void)b;
    ravel__backend = &ravel__backend_os;
}

/* Builds the strategy (in the executor, before the first execution). */
void ravel__make_strategy(bool resume)
{
    struct ravel__rt *rt = &ravel__rt;
    const struct ravel__options *o = &rt->opt;
    struct ravel__strategy_config c = {
        .name = o->strategy,
        .seed = rt->sh->seed,
        .preemption_bound = o->set[RAVEL__OPT_preemption_bound]
                                ? (int64_t)o->preemption_bound
                                : -1,
        .delay_bound =
            o->set[RAVEL__OPT_delay_bound] ? (int64_t)o->delay_bound : -1,
        .pct_depth = (uint32_t)o->pct_depth,
        .executions = o->executions,
        .time = o->time,
        .ticket = rt->have_ticket ? &rt->ticket : NULL,
        .shared = rt->strategy_mem,
        .shared_size = rt->strategy_mem_size,
        .resume = resume,
        .max_steps = o->max_steps,
        .lane = rt->lane,
        .lanes = rt->nlanes,
        .dpor_mode = o->dpor_mode,
        .fingerprints = o->trace_fingerprints || o->fingerprints_file,
        .units = o->shard || o->checkpoint || o->resume,
        .units_per_shard = (uint32_t)o->shard_units,
        .stats = &rt->sh->stats,
    };
    if (o->shard) {
        /* Validated at start-up (ravel__options_validate). */
        char err2[256];
        if (ravel__shard_resolve(o->shard, &c.shard, &c.shards, NULL, err2,
                                 sizeof err2) != 0)
            ravel__fatal("%s", err2);
    }
    if (rt->resumed) {
        c.resume_done = rt->resumed->done;
        c.nresume_done = rt->resumed->ndone;
        c.resume_units = rt->resumed->units;
        c.resume_fps = rt->resumed->fps;
        c.nresume_fps = rt->resumed->nfps;
    }
    char err[256];
    rt->strategy = ravel__strategy_new(&c, err, sizeof err);
    if (!rt->strategy)
        ravel__fatal("%s", err);
}

/* The program's main as libc calls it, in the executor. */
/* Reads and drops whatever the pipe holds, without blocking. */
static void drain(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    char junk[64];
    while (read(fd, junk, sizeof junk) > 0)
        ;
    fcntl(fd, F_SETFL, fl);
}

static int executor_entry(int argc, char **argv, char **envp)
{
    return ravel__executor_main(argc, argv, envp);
}

void ravel__spawn_executor(bool resume)
{
    struct ravel__rt *rt = &ravel__rt;
    /* A reply a dead executor never read must not reach the next one,
     * nor a message it wrote just before it was killed reach the
     * supervisor as if the new one had sent it (a stale "bug" was read
     * as the new executor's, with its shared block half reset: a report
     * of kind "none", then a run waiting forever for a lane it had
     * marked done). The old executor is dead: nothing more comes. */
    drain(rt->from_sv);
    drain(rt->sv_in);
    atomic_store(&rt->sh->in_execution, 0);
    atomic_store(&rt->sh->probe_done, 0);
    rt->opt.resume_at = resume;
    fflush(NULL);
    pid_t parent = getpid();
    rt->program_pid = parent; /* the executor's getpid() (time.c) */
    pid_t pid = REAL(fork)();
    if (pid < 0)
        ravel__fatal("cannot fork the executor: %s", strerror(errno));
    if (pid == 0) {
        /* An executor never outlives its supervisor (killed with
         * SIGKILL, say): it would go on exploring for nobody. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            REAL(_exit)(RAVEL__EXIT_USAGE);
        /* Only this lane's executor ends of the pipes: an executor sees
         * the supervisor go away as the end of its reply pipe. */
        for (uint32_t l = 0; l < rt->nlanes; l++) {
            struct ravel__lane_io *ln = &rt->lanes[l];
            close(ln->sv_in);
            close(ln->sv_out);
            if (l != rt->lane) {
                close(ln->to_sv);
                close(ln->from_sv);
                close(ln->cap_out);
                close(ln->cap_err);
            }
        }
        if (rt->result_fd >= 0)
            close(rt->result_fd);
        rt->active = true;
        rt->premain = true;
        ravel__choose_backend();
        ravel__backend->init_main();
        boot.real(executor_entry, boot.argc, boot.argv, boot.init, boot.fini,
                  boot.rtld_fini, boot.stack_end);
        REAL(_exit)(RAVEL__EXIT_USAGE);
    }
    rt->lanes[rt->lane].child = pid;
    rt->lanes[rt->lane].exiting = false;
}

RAVEL__EXPORT int __libc_start_main(ravel__main_fn main, int argc, char **argv,
                                    void (*init)(void), void (*fini)(void),
                                    void (*rtld_fini)(void), void *stack_end)
{
    void *p = dlsym(RTLD_NEXT, "__libc_start_main");
    if (!p) {
        static const char msg[] =
            "ravel: cannot find the C library's __libc_start_main\n";
        (void)!write(2, msg, sizeof msg - 1);
        _exit(RAVEL__EXIT_USAGE);
    }
    memcpy(&boot.real, &p, sizeof p);
    boot.argc = argc;
    boot.argv = argv;
    boot.init = init;
    boot.fini = fini;
    boot.rtld_fini = rtld_fini;
    boot.stack_end = stack_end;
    ravel__real_resolve();

    struct ravel__rt *rt = &ravel__rt;
    door_choose();
    if (ravel__door && ravel__door->arguments) {
        door_first = ravel__door->arguments(argc, argv);
        if (door_first < 0) {
            /* The door runs the program natively (a unit test program's
             * driver): ravel stays out of this process. */
            ravel__door = NULL;
            return boot.real(main, argc, argv, init, fini, rtld_fini,
                             stack_end);
        }
    }
    rt->main = main;
    rt->argc = argc;
    rt->argv = argv;
    setup();
    if (rt->supervised)
        ravel__supervisor_main();
    rt->active = true;
    rt->premain = true;
    ravel__choose_backend();
    ravel__backend->init_main();
    return boot.real(executor_entry, argc, argv, init, fini, rtld_fini,
                     stack_end);
}
