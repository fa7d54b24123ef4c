/*
 * ticket.h - replay tickets: a schedule as a small text file.
 *
 * A ticket names the program (path and a hash of its bytes), its
 * arguments, how the schedule was found (strategy, seed, execution), and
 * the schedule itself: the thread that ran at every step, run-length
 * encoded, plus the data choices. Replaying it re-executes exactly that
 * schedule. The format is documented in docs/tickets.md:
 *
 *     ravel-ticket 1
 *     program "/home/me/proj/counter"
 *     program-hash 5d0c2f6e8a9b1c3d
 *     argv "./counter"
 *     strategy random
 *     seed 1
 *     execution 3
 *     max-steps 100000
 *     kind assertion
 *     schedule 1*2 1.1*2 1.2*2 1.1 1.2 1*3
 *     choices 12:2:1
 *     promote 0:11a9 0:11b4     (race-directed scheduling, if any)
 *     promote-data 100000000048  (racing variables, if any)
 *     end
 *
 * The parser is strict (every line known, every number in range, `end`
 * last, so truncation is detected) and is fuzzed (fuzz/fuzz_ticket.c).
 */
#ifndef RAVEL_TICKET_H
#define RAVEL_TICKET_H

#include "../common/strbuf.h"

#define RAVEL__TICKET_VERSION 1
/* Largest ticket file accepted (a schedule of 10^8 steps compresses to
 * far less than this unless it alternates threads at every step). */
#define RAVEL__TICKET_MAX_BYTES (256u << 20)

/* Code locations made scheduling points by race-directed scheduling when
 * the ticket was recorded (a replay needs the same ones). */
#define RAVEL__TICKET_MAX_PROMOTE 64
struct ravel__ticket_promote {
    uint32_t module; /* instrumented module, in load order */
    uint64_t offset; /* from the module's load address */
};

/* Memory every access to which was a scheduling point: 8-byte granules
 * of module data, named by module, segment and offset (the `where` of
 * the runtime's ravel__addr_global). */
struct ravel__ticket_promote_data {
    uint64_t where;
};

struct ravel__ticket_vchoice {
    uint32_t step; /* events before the choice (0-based step) */
    uint32_t n;
    uint32_t value;
};

struct ravel__ticket {
    unsigned version;
    char *program; /* absolute path of the executable when recorded */
    uint64_t program_hash;
    int argc;
    char **argv;
    char *strategy;
    uint64_t seed;
    uint64_t execution;
    uint64_t max_steps;
    char *kind; /* failure kind, or "outcome" */
    char *memory_model; /* --memory-model when not "sc"; NULL: sc */
    char *timeouts;     /* --timeouts when not "any"; NULL: any */
    uint32_t nnames;
    char **names; /* distinct thread names, in order of first step */
    uint32_t nsteps; /* total steps */
    uint32_t nruns;  /* the schedule, run-length encoded */
    uint32_t runs_cap;
    struct ravel__ticket_run {
        uint32_t name; /* index into names */
        uint32_t count;
    } *runs;
    uint32_t nvchoices;
    struct ravel__ticket_vchoice *vchoices;
    uint32_t npromote;
    struct ravel__ticket_promote promote[RAVEL__TICKET_MAX_PROMOTE];
    uint32_t npromote_data;
    struct ravel__ticket_promote_data promote_data[RAVEL__TICKET_MAX_PROMOTE];
};

/* Parses len bytes of ticket text. On error returns -1 with a one-line
 * message ("line 7: ...") in err; t is then empty. */
int ravel__ticket_parse(const char *text, size_t len, struct ravel__ticket *t,
                        char *err, size_t errlen);
/* Reads and parses a ticket file. */
int ravel__ticket_load(const char *path, struct ravel__ticket *t, char *err,
                       size_t errlen);
/* Appends the ticket's text. */
void ravel__ticket_format(const struct ravel__ticket *t,
                          struct ravel__strbuf *sb);
void ravel__ticket_free(struct ravel__ticket *t);

/* Adds a step run by thread `name` (copied); returns -1 on OOM/limits. */
int ravel__ticket_add_step(struct ravel__ticket *t, const char *name);

/* Is s a valid thread name ("1", "1.2.10" ...)? */
bool ravel__thread_name_valid(const char *s);

#endif
