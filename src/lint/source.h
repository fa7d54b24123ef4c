/*
 * source.h - the program's source text: what a finding quotes, and the
 * ravel-lint directives written in comments.
 *
 * Findings name calls as the programmer wrote them ("lookup_name(name)"),
 * so they are cut from the source at the call's line and column (which
 * clang's debug locations give: the start of the call expression, or of
 * the macro that expands to it). Files are read once and kept.
 */
#ifndef RAVEL_LINT_SOURCE_H
#define RAVEL_LINT_SOURCE_H

#include "pairs.h"

/* Largest source file read (quoting and directives): SQLite's
 * amalgamation, the largest single C file in common use, is 9 MB. */
#define RAVEL__LINT_SOURCE_LIMIT (64u * 1024u * 1024u)

/* Longest call text quoted in a message before it is cut with "...". */
#define RAVEL__LINT_QUOTE_MAX 80

struct ravel__lint_srcfile {
    char *path;
    char *text;       /* NULL when unreadable */
    size_t len;
    uint32_t *line_at; /* offset of each line's start, 1-based lines */
    uint32_t nlines;
};

/* A cache of source files; owned by the caller. */
struct ravel__lint_sources {
    struct ravel__lint_srcfile *v;
    uint32_t n, cap;
};

void ravel__lint_sources_init(struct ravel__lint_sources *s);
void ravel__lint_sources_free(struct ravel__lint_sources *s);

/*
 * Line `line` of `path` (without its newline) in *out / *len; false when
 * the file cannot be read or is shorter. The text stays owned by s.
 */
bool ravel__lint_source_line(struct ravel__lint_sources *s, const char *path,
                             uint32_t line, const char **out, size_t *len);

/*
 * Quotes the call starting at line:col of path: an identifier (or a
 * member access chain) and its balanced parentheses, across lines, with
 * blanks collapsed and cut at RAVEL__LINT_QUOTE_MAX. When the text there
 * does not look like a call, writes "fallback(...)" instead.
 */
void ravel__lint_quote_call(struct ravel__lint_sources *s, const char *path,
                            uint32_t line, uint32_t col, const char *fallback,
                            char *buf, size_t len);

/*
 * Quotes the lvalue a load or store at line:col of path accesses, as
 * written (`pool->queue.len`, `a[i]`, `*p`): clang places a store at its
 * assignment operator (`=`, `+=`, `++`), a member access at the member's
 * name, and other reads at the start of the expression. `whole` says
 * whether the access goes beyond its root (subscripts, fields): a read of
 * a plain variable stops at the name. Blanks are dropped; false (buf
 * untouched) when the text there does not look like an lvalue.
 */
bool ravel__lint_quote_lvalue(struct ravel__lint_sources *s, const char *path,
                              uint32_t line, uint32_t col, bool whole, char *buf,
                              size_t len);

/*
 * Reads every "ravel-lint:" directive in a comment of path into specs.
 * Returns 0 (also when the file cannot be read: the compiler reads the
 * same files and would have failed first), or -1 with "path:line: reason"
 * in err.
 */
int ravel__lint_scan_directives(struct ravel__lint_sources *s, const char *path,
                                struct ravel__lint_specs *specs, char *err,
                                size_t errlen);

#endif
