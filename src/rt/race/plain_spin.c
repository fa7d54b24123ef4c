/*
 * plain_spin.c - a thread spinning on plain memory, seen at the access
 * hooks and made visible the way race-directed scheduling makes a race
 * visible.
 *
 * `while (!ready) {}` on a plain int (neither volatile nor atomic: a data
 * race in C, but common in older code, and what -O0 keeps as a load per
 * iteration) makes no visible operation. Under ravel's scheduler the
 * spinning thread keeps the baton, the thread that would set `ready`
 * never runs, and the only way out used to be the watchdog's `hang`
 * after ten seconds - a report about ravel, not about the program.
 *
 * Here the hooks notice such a loop. Every plain read bumps the thread's
 * read count; when it passes th->quiet_at the check below runs. A thread
 * that has made QUIET_READS plain reads since its last visible operation
 * and its last plain write (so it changed nothing the loop could depend
 * on but registers) is sampled: its next SAMPLE reads are recorded by
 * code location and address. If they touch at most RAVEL__QUIET_MAX
 * distinct (location, address) pairs and the thread still wrote nothing
 * and took no step, it is going round a loop that only reads: a spin.
 * A long read-only computation over many addresses (a search in a big
 * table) overflows the sample and is checked again only after twice as
 * many reads, so it costs a few hundred slow-path calls in all.
 *
 * A spin found is not a finding. The execution ends (as blocked), and
 * the supervisor adds the loop's code locations to the promoted ones and
 * starts the exploration over, exactly as after a data race
 * (supervisor.c, promote_spin): from then on those reads are visible
 * operations (PLAIN_READ steps, race.c's promoted_step), the read-only
 * loop is recognised by src/model/spin.c like a volatile or atomic one
 * (the thread waits until another thread writes), and the write that
 * ends the wait is a plain access the race detector checks: a spin that
 * ends is reported as the data race it is, as ThreadSanitizer reports
 * it, and that race's promotion then interleaves every access to the
 * variable. A spin nobody ends is the "spins forever" deadlock of
 * spin.c. Only the code locations are promoted, not the variable, so
 * that the race stays visible to the detector.
 *
 * When the supervisor cannot promote (a replay, no supervisor, the
 * phase bound, promotion tables full, race detection off: promoted
 * reads are stepped by the race detector's hook), the loop cannot end
 * under this schedule: the execution fails at once as a hang naming the
 * loop, instead of after the watchdog's seconds.
 *
 * Unlike src/model/spin.c, writes to the thread's own stack count here:
 * a single-threaded loop that fills a buffer whose struct is on main's
 * stack (tezc/sc's buffer test at -O0) writes nothing else, and taking
 * it for a spin promoted its reads and ran it into the step limit.
 *
 * The check is deterministic: it counts the thread's own reads and
 * looks at nothing timed, so a replay of the same schedule finds the
 * same spin at the same read.
 */
#include "../rt.h"

#include "../../report/symbolize.h"

#include <stdio.h>
#include <string.h>

/* Plain reads without a visible operation or plain write before a
 * thread's reads are sampled. A test-and-test-and-set or polling loop
 * makes one or two reads per iteration, so this is a few thousand
 * iterations; at the hooks' speed well under a millisecond. */
#define QUIET_READS (1u << 17)
/* Reads sampled before a loop of few distinct reads is called a spin. */
#define SAMPLE 512u
/* Sampling backs off up to this many reads between checks. */
#define QUIET_MAX_BACKOFF (1u << 26)

/* The thread being watched. Only one thread runs at a time, and any
 * visible operation or plain write of it starts the watch over, so one
 * record suffices. */
static struct {
    uint64_t number;  /* execution */
    uint32_t thread;
    uint32_t events;  /* x->nevents when the watch began */
    uint64_t writes;  /* the thread's plain writes then */
    uint64_t backoff; /* reads until the next check */
    uint32_t sampled;
    uint32_t n;
    uint64_t pc[RAVEL__QUIET_MAX], addr[RAVEL__QUIET_MAX];
    bool armed;
} watch;

static void arm(const struct ravel__exec *x, struct ravel__thread *th,
                uint32_t t, uint64_t backoff)
{
    watch.number = x->number;
    watch.thread = t;
    watch.events = x->nevents;
    watch.writes = th->writes;
    watch.backoff = backoff;
    watch.sampled = 0;
    watch.n = 0;
    watch.armed = true;
    th->quiet_at = th->reads + backoff;
}

void ravel__quiet_read(struct ravel__worker *w, const void *a, uint64_t pc)
{
    struct ravel__exec *x = ravel__rt.x;
    uint32_t t = w->slot;
    struct ravel__thread *th = &x->threads[t];
    if (!watch.armed || watch.number != x->number || watch.thread != t ||
        watch.events != x->nevents || watch.writes != th->writes) {
        /* It made progress since (or was never watched). */
        arm(x, th, t, QUIET_READS);
        return;
    }
    uint64_t addr = (uint64_t)(uintptr_t)a;
    uint32_t k = 0;
    while (k < watch.n && (watch.pc[k] != pc || watch.addr[k] != addr))
        k++;
    if (k == watch.n) {
        if (watch.n == RAVEL__QUIET_MAX) {
            /* Reads all over: a computation, not a wait. */
            uint64_t b = watch.backoff * 2;
            arm(x, th, t, b < QUIET_MAX_BACKOFF ? b : QUIET_MAX_BACKOFF);
            return;
        }
        watch.pc[watch.n] = pc;
        watch.addr[watch.n++] = addr;
    }
    th->quiet_at = th->reads + 1;
    if (++watch.sampled < SAMPLE)
        return;
    /* A loop of at most RAVEL__QUIET_MAX reads that writes nothing. */
    x->quiet_thread = t;
    x->nquiet = watch.n;
    memcpy(x->quiet_pc, watch.pc, watch.n * sizeof *watch.pc);
    memcpy(x->quiet_addr, watch.addr, watch.n * sizeof *watch.addr);
    watch.armed = false;
    ravel__block_execution(w);
}

void ravel__quiet_hang(struct ravel__exec *x)
{
    uint32_t t = x->quiet_thread;
    char what[200] = "";
    size_t len = 0;
    for (uint32_t i = 0; i < x->nquiet && len + 40 < sizeof what; i++) {
        char name[120];
        if (!ravel__symbolize_data(x->quiet_addr[i], name, sizeof name))
            snprintf(name, sizeof name, "0x%llx",
                     (unsigned long long)x->quiet_addr[i]);
        bool dup = false;
        for (uint32_t j = 0; j < i; j++)
            dup |= x->quiet_addr[j] == x->quiet_addr[i];
        if (dup)
            continue;
        int n = snprintf(what + len, sizeof what - len, "%s%s",
                         len ? ", " : "", name);
        if (n > 0)
            len += (size_t)n < sizeof what - len ? (size_t)n
                                                 : sizeof what - len - 1;
    }
    ravel__fail(x, RAVEL__FAIL_HANG, t, x->quiet_pc[0],
                "thread %s spins reading plain memory (%s) that no visible "
                "operation changes, and those reads could not be made "
                "scheduling points in this run",
                t < x->nthreads ? x->threads[t].name : "?", what);
    x->ended = RAVEL__END_FAILURE;
    x->nquiet = 0;
}
