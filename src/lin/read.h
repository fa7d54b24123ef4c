/*
 * read.h - readers that turn history files into histories.
 *
 * Three formats, each documented in docs/lin.md:
 *
 *   log   Jepsen's log lines, as in Porcupine's etcd_*.log:
 *             INFO  jepsen.util - 4	:invoke	:cas	[1 2]
 *   edn   Jepsen's history maps, one per line or inside one vector:
 *             {:process 6, :type :invoke, :f :append, :key "0", :value "x"}
 *   json  ravel's own: {"ops": [{"process": 0, "f": "write", "value": 1,
 *             "call": 0, "return": 3}, ...]}
 *
 * All readers are strict: the first thing they do not understand stops
 * them with "line N: what is wrong", so a truncated or garbled file is
 * never checked as if it were whole. They are fuzzed
 * (fuzz/fuzz_lin_*.c): no input makes them crash, hang or read out of
 * bounds; nesting is limited (RAVEL__LIN_MAX_DEPTH) so recursion is
 * bounded.
 */
#ifndef RAVEL_LIN_READ_H
#define RAVEL_LIN_READ_H

#include "history.h"

enum ravel__lin_format {
    RAVEL__LIN_FMT_AUTO,
    RAVEL__LIN_FMT_LOG,
    RAVEL__LIN_FMT_EDN,
    RAVEL__LIN_FMT_JSON,
};

/* Deepest nesting of [ { ( accepted in values (a history needs 3). */
#define RAVEL__LIN_MAX_DEPTH 64

/* Largest history file read (the largest Jepsen histories are tens of
 * megabytes; checking anything much larger would not finish anyway). */
#define RAVEL__LIN_MAX_FILE (1u << 30)

/*
 * Reads `len` bytes of `buf` (need not be NUL-terminated) in format fmt
 * (AUTO: guessed from the first non-blank character, see
 * ravel__lin_detect) into h, which must be freshly initialised, and
 * finishes it. Returns 0, or -1 with "line N: message" in err; h must be
 * freed by the caller either way.
 */
int ravel__lin_read(const char *buf, size_t len, enum ravel__lin_format fmt,
                    struct ravel__lin_history *h, char *err, size_t errlen);

/* The format a file seems to be in, from its first forms after blanks
 * and ; comments: ( or #, { then a keyword, [ then { then a keyword are
 * EDN; { or [ otherwise JSON; anything else log lines; an empty file is
 * LOG (an empty history in any format). */
enum ravel__lin_format ravel__lin_detect(const char *buf, size_t len);

/* "log", "edn", "json", "auto" <-> enum; parse returns -1 if unknown. */
const char *ravel__lin_format_name(enum ravel__lin_format fmt);
int ravel__lin_format_parse(const char *s, enum ravel__lin_format *out);

/* The individual readers (ravel__lin_read dispatches to them). */
int ravel__lin_read_log(const char *buf, size_t len,
                        struct ravel__lin_history *h, char *err,
                        size_t errlen);
int ravel__lin_read_edn(const char *buf, size_t len,
                        struct ravel__lin_history *h, char *err,
                        size_t errlen);
int ravel__lin_read_json(const char *buf, size_t len,
                         struct ravel__lin_history *h, char *err,
                         size_t errlen);

/*
 * The EDN value parser the readers share: parses one value from
 * [*p, end) into vs, advancing *p and counting newlines into *line.
 * Returns the value id, or RAVEL__LIN_V_NONE with "line N: ..." in err.
 */
uint32_t ravel__lin_edn_value(const char **p, const char *end,
                              uint32_t *line, struct ravel__lin_values *vs,
                              char *err, size_t errlen);

#endif
