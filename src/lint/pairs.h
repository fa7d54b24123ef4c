/*
 * pairs.h - what the analyses know about calls by name: check-then-act
 * pairs, locks, thread creation and joining, allocation.
 *
 * A *family* is one kind of check-then-act race: the built-in file-system
 * family (access/stat/... then open/unlink/...), or one a user declares.
 * Each call in a family names the resource it works on by the positions of
 * some of its arguments: access(path, mode) names it by argument 1,
 * table_lookup(t, key) perhaps by arguments 1 and 2. A check and an act of
 * the same family on the same resource (ir.h: the same value), with
 * another thread or process able to run in between, is a finding.
 *
 * Users declare pairs and lock functions in a file (--pairs FILE) or in a
 * comment in their sources, with the same one-line directives:
 *
 *     pair lookup_name(1) -> register_name(1)
 *     pair table_lookup(1,2), table_has(1,2) -> table_insert(1,2)
 *     pair is_ready() -> make_ready()          (no arguments: global state)
 *     lock my_lock(1)
 *     unlock my_unlock(1)
 *
 *     // ravel-lint: pair lookup_name(1) -> register_name(1)
 *
 * Positions count from 1, as in the compiler's format and nonnull
 * attributes. All calls of one pair name the same number of arguments.
 *
 * Families have a scope. The file system is shared with every other
 * process, so no mutex of this program protects a stat from a later open
 * (scope "process"): those findings are never filtered by locks held or
 * by the path living in a local buffer. A user's pair is about the
 * program's own memory (scope "thread", the default): holding one lock
 * from the check to the act, or working on a local object that never
 * escapes, makes it safe.
 */
#ifndef RAVEL_LINT_PAIRS_H
#define RAVEL_LINT_PAIRS_H

#include "../common/common.h"

/* Resource arguments one call may name; generous for a key of a few parts. */
#define RAVEL__LINT_RES_MAX 4
/* Largest argument position accepted in a directive (a sanity bound). */
#define RAVEL__LINT_ARGPOS_MAX 32
/* Longest function name accepted in a directive (C has no limit; 255 is
 * what common toolchains guarantee to keep significant). */
#define RAVEL__LINT_NAME_MAX 255

enum ravel__lint_role {
    RAVEL__ROLE_CHECK,  /* res: the resource */
    RAVEL__ROLE_ACT,    /* res: the resource */
    RAVEL__ROLE_LOCK,   /* res[0]: the lock */
    RAVEL__ROLE_UNLOCK, /* res[0]: the lock */
    RAVEL__ROLE_WAIT,   /* res[0]: the mutex released and re-taken */
    RAVEL__ROLE_CREATE, /* res[0]: handle address, res[1]: start, res[2]: arg */
    RAVEL__ROLE_JOIN,   /* res[0]: the thread handle value */
    RAVEL__ROLE_ALLOC,  /* returns a fresh object */
};

enum ravel__lint_scope { RAVEL__SCOPE_THREAD, RAVEL__SCOPE_PROCESS };

/* How a LOCK call takes its lock: TRY holds it only where the call's
 * result was tested equal to 0; SHARED takes it in read mode (rwlocks). */
#define RAVEL__LOCKM_TRY 1u
#define RAVEL__LOCKM_SHARED 2u

struct ravel__lint_spec {
    char *name;      /* function name (owned) */
    uint8_t role;
    uint8_t nres;
    uint8_t res[RAVEL__LINT_RES_MAX]; /* 0-based argument indexes */
    int8_t excl_flags; /* ACT: argument holding open(2) flags, or -1 */
    int8_t excl_mode;  /* ACT: argument holding an fopen mode, or -1 */
    uint32_t family;   /* CHECK/ACT */
    uint8_t builtin;   /* from ravel's own table, not the user's */
    uint8_t lockmode;  /* LOCK: RAVEL__LOCKM_* bits */
    uint32_t next;     /* next spec with the same name, or UINT32_MAX */
};

struct ravel__lint_family {
    char *name;  /* for messages: "access -> open", "lookup -> insert" */
    uint8_t scope;
};

/* All specs; owned by the caller, freed with ravel__lint_specs_free. */
struct ravel__lint_specs {
    struct ravel__lint_spec *v;
    uint32_t n, cap;
    struct ravel__lint_family *fam;
    uint32_t nfam, capfam;
    uint32_t *hash; /* name -> first spec, open addressing */
    uint32_t hashcap;
    char **seen;    /* normalised directives already taken (dedup) */
    uint32_t nseen, capseen;
};

/*
 * Starts a table with the built-in knowledge: locks, condition waits,
 * thread create/join, allocators, and (unless !fs_pairs) the file-system
 * family.
 */
void ravel__lint_specs_init(struct ravel__lint_specs *s, bool fs_pairs);
void ravel__lint_specs_free(struct ravel__lint_specs *s);

/*
 * Parses one directive (the text after "ravel-lint:" or one line of a
 * pairs file; leading blanks and a trailing comment closer "*" "/" are
 * ignored). An empty line or a '#' comment is accepted and does nothing.
 * Returns 0, or -1 with a one-line reason in err. A directive already
 * taken (the same header scanned from two files) is accepted silently.
 */
int ravel__lint_specs_directive(struct ravel__lint_specs *s, const char *line,
                                size_t len, char *err, size_t errlen);

/*
 * Parses a whole pairs file's text (len bytes, need not be NUL-terminated):
 * one directive per line. On error returns -1 with "LINE: reason" in err.
 */
int ravel__lint_specs_parse(struct ravel__lint_specs *s, const char *text,
                            size_t len, char *err, size_t errlen);

/* The first spec for a function name, or NULL; follow ->next (an index into
 * s->v, UINT32_MAX at the end) for the others. */
const struct ravel__lint_spec *ravel__lint_specs_find(const struct ravel__lint_specs *s,
                                                      const char *name);

/* O_EXCL on Linux (asm-generic/fcntl.h: 00000200 octal), which every
 * architecture Debian ships uses except alpha, hppa, mips and sparc. An
 * open with O_CREAT|O_EXCL fails when the file exists, so it re-checks
 * atomically and acts on no stale check. */
#define RAVEL__LINT_O_EXCL 0200

#endif
