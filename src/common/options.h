/*
 * options.h - the options of a run (see options.def for the list).
 *
 * One struct, filled from defaults, then RAVEL_OPTIONS, then command-line
 * flags. Strings are owned by the struct (ravel__options_free).
 */
#ifndef RAVEL_OPTIONS_H
#define RAVEL_OPTIONS_H

#include "strbuf.h"

#define RAVEL__OPT_T_STR const char *
#define RAVEL__OPT_T_U64 uint64_t
#define RAVEL__OPT_T_DBL double
#define RAVEL__OPT_T_BOOL bool

enum ravel__option_id {
#define RAVEL_OPT(f, t, d, m, h) RAVEL__OPT_##f,
#include "options.def"
#undef RAVEL_OPT
    RAVEL__OPT_COUNT
};

struct ravel__options {
#define RAVEL_OPT(f, t, d, m, h) RAVEL__OPT_T_##t f;
#include "options.def"
#undef RAVEL_OPT
    bool set[RAVEL__OPT_COUNT]; /* given explicitly (not a default) */
};

void ravel__options_defaults(struct ravel__options *o);
void ravel__options_free(struct ravel__options *o);

/*
 * Sets one option by name ("max_steps" or "max-steps") from text.
 * Returns 0, or -1 with a one-line message in err.
 */
int ravel__options_set(struct ravel__options *o, const char *name,
                       const char *value, char *err, size_t errlen);

/* True when the named option exists; *is_bool tells whether it takes no
 * value on the command line. Internal options are not found. */
bool ravel__options_known(const char *name, bool *is_bool);

/*
 * Parses a RAVEL_OPTIONS string: name=value pairs separated by spaces or
 * colons; values may be quoted with '...' (literally) or "..." (where
 * \" and \\ stand for " and \).
 * Returns 0, or -1 with a message in err.
 */
int ravel__options_parse(struct ravel__options *o, const char *text,
                         char *err, size_t errlen);

/* Checks combinations (known strategy, replay has a ticket ...). */
int ravel__options_validate(const struct ravel__options *o, char *err,
                            size_t errlen);

/* Appends every explicitly set option as RAVEL_OPTIONS text. */
void ravel__options_serialize(const struct ravel__options *o,
                              struct ravel__strbuf *sb);

/* Appends the --help text for the options (internal ones omitted). */
void ravel__options_help(struct ravel__strbuf *sb);

#endif
