/*
 * report.h - findings as data, and their two outputs: compiler-style
 * diagnostics and SARIF 2.1.0.
 *
 * A finding is one warning at one place (file:line:col) with a message
 * that already names both ends of the race, plus notes pointing at the
 * other places involved - the shape of a clang warning with its notes:
 *
 *     reg.c:267:9: warning: register_name(name) may act on a stale check:
 *         lookup_name(name) at reg.c:265 can be invalidated by another
 *         thread in between [ravel-check-then-act]
 *     reg.c:265:9: note: the check
 *
 * (one line each in the real output). SARIF carries the same: the
 * warning is a result, the notes are relatedLocations.
 */
#ifndef RAVEL_LINT_REPORT_H
#define RAVEL_LINT_REPORT_H

#include "../common/strbuf.h"
#include "ir.h"
#include "source.h"

enum ravel__lint_rule {
    RAVEL__RULE_CTA,     /* ravel-check-then-act */
    RAVEL__RULE_LOCKSET, /* ravel-lockset */
};

/* Notes one finding carries: the other end, and how calls reach each. */
#define RAVEL__LINT_NOTES_MAX 3

struct ravel__lint_note {
    uint32_t file, line, col;
    char *msg; /* owned */
};

struct ravel__lint_finding {
    uint8_t rule;
    uint32_t file, line, col;
    char *msg; /* owned */
    uint32_t nnotes;
    struct ravel__lint_note notes[RAVEL__LINT_NOTES_MAX];
};

struct ravel__lint_findings {
    struct ravel__lint_finding *v;
    uint32_t n, cap;
};

/* Rule id as printed: "ravel-check-then-act", "ravel-lockset". */
const char *ravel__lint_rule_id(enum ravel__lint_rule r);

/*
 * Adds a finding unless one with the same rule, place and message is there
 * (the same race reached through two callers). msg is copied. Returns the
 * finding to attach notes to, or NULL when it was a duplicate.
 */
struct ravel__lint_finding *ravel__lint_finding_add(struct ravel__lint_findings *fs,
                                                    enum ravel__lint_rule rule,
                                                    uint32_t file, uint32_t line,
                                                    uint32_t col, const char *msg);
/* Adds a note (msg copied) unless the finding has RAVEL__LINT_NOTES_MAX. */
void ravel__lint_note_add(struct ravel__lint_finding *f, uint32_t file,
                          uint32_t line, uint32_t col, const char *msg);

/* Orders findings by file (as shown), line, column, rule. */
void ravel__lint_findings_sort(struct ravel__lint_findings *fs,
                               const struct ravel__lint_prog *p);
void ravel__lint_findings_free(struct ravel__lint_findings *fs);

/* Keeps only findings whose file's path is in `paths` (n entries). */
void ravel__lint_findings_keep(struct ravel__lint_findings *fs,
                               const struct ravel__lint_prog *p,
                               char *const *paths, size_t n);

/*
 * Appends the diagnostics, clang style: "file:line:col: warning: msg
 * [rule]" with the source line and a caret under the column when `caret`,
 * then each note the same way. `color` adds the ANSI colours clang uses.
 */
void ravel__lint_print_text(struct ravel__strbuf *out,
                            const struct ravel__lint_findings *fs,
                            const struct ravel__lint_prog *p,
                            struct ravel__lint_sources *src, bool color,
                            bool caret);

/*
 * Appends a SARIF 2.1.0 log with one run: the tool, its two rules, and one
 * result per finding (notes as relatedLocations). Paths that are absolute
 * become file:// URIs; relative ones stay relative references.
 */
void ravel__lint_sarif(struct ravel__strbuf *out,
                       const struct ravel__lint_findings *fs,
                       const struct ravel__lint_prog *p);

#endif
