/*
 * ir.h - the program as ravel lint sees it: functions, blocks, a few kinds
 * of events, and symbolic names for values ("access paths").
 *
 * The analyses (flow.c, lockset.c) never see LLVM. The front end
 * (front.c) reads each translation unit's bitcode and writes it down here;
 * unit tests write small programs by hand with the same builder calls.
 * Keeping the analyses on this small model is what lets them be tested
 * without a compiler, and lets the core of ravel build without LLVM.
 *
 * A function is a control-flow graph of blocks; a block is a list of
 * events in program order and a list of successor blocks:
 *
 *     CALL   callee (a symbol, or none when indirect), argument values
 *     LOAD   address                      (a read of memory)
 *     STORE  address, stored value        (a write of memory)
 *     RET    returned value
 *
 * Everything else the compiler produced (arithmetic, comparisons,
 * branches) is folded into the values and the edges.
 *
 * Values are named by access paths, interned so that equal paths have
 * equal ids: a root (a global's address, a parameter's value, a local
 * object's address, a constant, an allocation site, an opaque value
 * computed in a function) followed by steps (add a constant offset, add a
 * variable index times a scale, load through the pointer). `&t->table[3]`
 * in a function whose first parameter is t is PARAM(0) + off(table) + 3*8;
 * the same expression in another function with another first parameter
 * is a different path until a call binds them (flow.c substitutes
 * parameters at call sites). Two uses of the same path are the same
 * resource; that is the "same variable, same field of the same object"
 * of the issue, and the substitution is the "through calls" part.
 *
 * A value where control flow joins (a phi or select) is an opaque value
 * of its own, remembered together with up to three alternatives it may
 * equal: struct ravel__lint_val holds the primary path first and the
 * alternatives after it. Two values are surely the same when their
 * primaries are equal and may be the same when any members are equal;
 * that is where reports say "might".
 */
#ifndef RAVEL_LINT_IR_H
#define RAVEL_LINT_IR_H

#include "../common/common.h"

#define RAVEL__LINT_NONE UINT32_MAX

/* Members of a value: the primary path and up to three alternatives. A
 * phi of more inputs keeps the first three; the bound keeps substitution
 * (a cross product) cheap. */
#define RAVEL__LINT_VAL_MAX 4

/* Steps in one access path before it collapses to UNKNOWN: deep enough
 * for a->b->c[i].d, short enough that walking a linked list in a loop
 * cannot build paths without end. */
#define RAVEL__LINT_AP_DEPTH 10

enum ravel__lint_ap_kind {
    RAVEL__AP_UNKNOWN, /* any value */
    RAVEL__AP_GLOBAL,  /* a = symbol: address of a global variable */
    RAVEL__AP_FUNC,    /* a = symbol: address of a function */
    RAVEL__AP_PARAM,   /* a = index: value of the current function's param */
    RAVEL__AP_ARG,     /* a = function, b = index: a root function's param */
    RAVEL__AP_LOCAL,   /* a = function, b = id: address of a stack object */
    RAVEL__AP_VALUE,   /* a = function, b = id: opaque value computed there */
    RAVEL__AP_ALLOC,   /* a = function, b = event: object from malloc etc. */
    RAVEL__AP_INT,     /* a = value (two's complement) */
    RAVEL__AP_STR,     /* a = string id: address of a literal with that text */
    RAVEL__AP_OFFSET,  /* parent + a bytes */
    RAVEL__AP_INDEX,   /* parent + (value of path a) * b bytes */
    RAVEL__AP_DEREF,   /* the value stored at address parent */
};

struct ravel__lint_ap {
    uint8_t kind;
    uint8_t depth;     /* steps from the root */
    uint8_t has_param; /* PARAM somewhere inside (root or an index) */
    uint8_t has_index; /* an INDEX step somewhere on the path */
    uint32_t parent;   /* steps: the path this one extends */
    uint32_t root;     /* id of the root path */
    int64_t a, b;
};

/* A value: primary path first, then alternatives (see above). */
struct ravel__lint_val {
    uint32_t n;
    uint32_t ap[RAVEL__LINT_VAL_MAX];
};

enum ravel__lint_ev_kind {
    RAVEL__EV_CALL,
    RAVEL__EV_LOAD,
    RAVEL__EV_STORE,
    RAVEL__EV_RET,
};

#define RAVEL__EVF_ATOMIC 1u   /* atomic load/store/rmw: never a data race */
#define RAVEL__EVF_ESCAPE 2u   /* the front end saw the address escape */

struct ravel__lint_event {
    uint8_t kind;
    uint8_t flags;
    uint16_t nargs;   /* CALL: arguments; LOAD 1; STORE 2; RET 0 or 1 */
    uint32_t callee;  /* CALL: symbol, or NONE when indirect */
    uint32_t args;    /* index of the first value in prog->argv */
    uint32_t file, line, col;
};

struct ravel__lint_block {
    uint32_t first_event, nevents;
    uint32_t first_succ, nsucc;
};

struct ravel__lint_func {
    uint32_t sym;
    uint32_t nparams;
    uint32_t first_block, nblocks;
    uint32_t file, line;
    uint32_t tu;
    uint8_t dispatch; /* made by points.c to stand for a call through a
                         pointer that may reach several functions */
};

/*
 * Where function pointers flow, written by the front end and solved by
 * points.c. A *cell* is a place function pointers are kept, named by an
 * interned string (ravel__lint_str): a struct field by type ("f:S#3",
 * field-based: every object of type S shares it), a global variable or
 * array ("g:..."), a function's parameter ("p:SYM#i") or result
 * ("r:SYM"), memory of a pointer type reached otherwise ("t:TYPE"). A
 * source is a cell's id, or a function symbol with RAVEL__LINT_FP_FUNC set.
 */
#define RAVEL__LINT_FP_FUNC 0x80000000u
struct ravel__lint_fpflow {
    uint32_t from; /* source */
    uint32_t to;   /* cell */
};
/* A use: the callee of call event ev (argi NONE), or argument argi of it
 * (a start routine given to pthread_create), may be what `from` holds. */
struct ravel__lint_fpuse {
    uint32_t ev, argi, from;
};
/* The opaque root path standing for call event ev's result. */
struct ravel__lint_callret {
    uint32_t ev, ap;
};
/* A thread create or join made in a counted loop over an array element
 * (`for (i = 0; i < 9; i++) pthread_join(th[i], 0)`): the loop's index
 * runs from lo up to below hi. Lets a join loop over part of the array
 * that a create loop filled count as joining only part of it. */
struct ravel__lint_range {
    uint32_t ev;
    int64_t lo, hi;
};

enum ravel__lint_sym_kind { RAVEL__SYM_FUNC, RAVEL__SYM_GLOBAL };

#define RAVEL__SYMF_TLS 1u      /* _Thread_local / __thread */
#define RAVEL__SYMF_CONST 2u    /* const-qualified: never written */
#define RAVEL__SYMF_INIT 4u     /* has an initializer other than zeros */
#define RAVEL__SYMF_INTVAL 8u   /* an integer defined here, starting at init */

struct ravel__lint_sym {
    char *name;      /* as in the source (owned) */
    uint32_t tu;     /* translation unit for internal linkage, else NONE */
    uint8_t kind;
    uint8_t flags;
    uint32_t def;    /* FUNC: defining function, or NONE */
    int64_t init;    /* GLOBAL with RAVEL__SYMF_INTVAL: its initial value */
};

struct ravel__lint_file {
    char *shown; /* the path to print (owned) */
    char *path;  /* the path to open, absolute when known (owned) */
};

/*
 * The whole program. Every array grows by doubling; ids are indexes.
 * Owned by whoever called ravel__lint_prog_init; freed with
 * ravel__lint_prog_free.
 */
struct ravel__lint_prog {
    struct ravel__lint_sym *syms;
    uint32_t nsyms, capsyms;
    uint32_t *symhash; /* open addressing over (name, tu) */
    uint32_t symhash_cap;

    struct ravel__lint_file *files;
    uint32_t nfiles, capfiles;

    char **strs; /* interned literal texts */
    uint32_t nstrs, capstrs;
    uint32_t *strhash;
    uint32_t strhash_cap;

    struct ravel__lint_ap *aps;
    uint32_t naps, capaps;
    uint32_t *aphash;
    uint32_t aphash_cap;
    char **apname; /* display names for roots and fields, or NULL */
    uint32_t capapname;

    struct ravel__lint_val *vals;
    uint32_t nvals, capvals;

    uint32_t *argv; /* value ids of event arguments */
    uint32_t nargv, capargv;

    struct ravel__lint_event *events;
    uint32_t nevents, capevents;
    struct ravel__lint_block *blocks;
    uint32_t nblocks, capblocks;
    uint32_t *succs;
    uint32_t nsuccs, capsuccs;
    /* Per successor entry: what is known along that edge about a call's
     * result (RAVEL__LINT_NONE: nothing; else an event id, with
     * RAVEL__LINT_ON_FAIL set when the call returned nonzero there and
     * clear when it returned 0). Lets trylock and checked lock results be
     * taken only on the branch where they succeeded. */
    uint32_t *succon;
    uint32_t capsuccon;
    struct ravel__lint_func *funcs;
    uint32_t nfuncs, capfuncs;

    struct ravel__lint_fpflow *fpflows;
    uint32_t nfpflows, capfpflows;
    struct ravel__lint_fpuse *fpuses;
    uint32_t nfpuses, capfpuses;
    struct ravel__lint_callret *callrets;
    uint32_t ncallrets, capcallrets;
    struct ravel__lint_range *ranges; /* by increasing event */
    uint32_t nranges, capranges;
    /* Per root path id (below npublished): a stack object or heap block
     * that points.c found stored in a global pointer, so threads other
     * than its creator reach it. */
    uint8_t *published;
    uint32_t npublished;

    uint32_t ntus;
    uint32_t cur_func; /* the function being built, or NONE */
};

void ravel__lint_prog_init(struct ravel__lint_prog *p);
void ravel__lint_prog_free(struct ravel__lint_prog *p);

/* Interns a file (copies both strings); returns its id. */
uint32_t ravel__lint_file(struct ravel__lint_prog *p, const char *shown,
                          const char *path);

/*
 * Interns a symbol: `tu` is the translation unit for internal linkage
 * (static) names and RAVEL__LINT_NONE for external ones, so that two
 * files' `static int count` stay apart. Copies name; returns the id.
 */
uint32_t ravel__lint_sym(struct ravel__lint_prog *p, const char *name,
                         uint32_t tu, enum ravel__lint_sym_kind kind);

/* Interns a string literal's text (n bytes, copied); returns its id. */
uint32_t ravel__lint_str(struct ravel__lint_prog *p, const char *s, size_t n);

/*
 * Interns an access path and returns its id. Steps are normalised: a zero
 * offset is its parent, offsets on offsets add up, a path deeper than
 * RAVEL__LINT_AP_DEPTH or a step on UNKNOWN is UNKNOWN.
 */
uint32_t ravel__lint_ap(struct ravel__lint_prog *p, enum ravel__lint_ap_kind k,
                        uint32_t parent, int64_t a, int64_t b);
/* Shorthands for roots and steps. */
uint32_t ravel__lint_ap_root(struct ravel__lint_prog *p,
                             enum ravel__lint_ap_kind k, int64_t a, int64_t b);
uint32_t ravel__lint_ap_deref(struct ravel__lint_prog *p, uint32_t ap);
uint32_t ravel__lint_ap_offset(struct ravel__lint_prog *p, uint32_t ap,
                               int64_t off);
uint32_t ravel__lint_ap_index(struct ravel__lint_prog *p, uint32_t ap,
                              uint32_t index_ap, int64_t scale);

/* Sets the display name of a root or field path unless it has one. */
void ravel__lint_ap_setname(struct ravel__lint_prog *p, uint32_t ap,
                            const char *name);

/*
 * Writes a readable rendering of the object at address `ap` (an lvalue:
 * `counter`, `ctx.count`, `p->n`, `*q`) into buf. Never fails.
 */
void ravel__lint_ap_lvalue(const struct ravel__lint_prog *p, uint32_t ap,
                           char *buf, size_t len);

/*
 * Replaces PARAM(i) by the primary of args[i] (RAVEL__LINT_NONE or i out of
 * range: UNKNOWN) throughout `ap`; display names carry over. Returns the
 * new path's id.
 */
uint32_t ravel__lint_ap_subst(struct ravel__lint_prog *p, uint32_t ap,
                              const uint32_t *args, uint32_t nargs);

/* True when the two paths may name the same location although they are
 * not equal: they differ only in the values of INDEX steps. */
bool ravel__lint_ap_may_alias(const struct ravel__lint_prog *p, uint32_t a,
                              uint32_t b);

/* True when a path with index steps may name the same location as one
 * without (`a[i].v` and `a[2].v`, `p->q[i]` and `p->q[0]`): segment by
 * segment between the pointers followed, the constant one's offset is
 * the indexed one's plus a multiple (zero or more) of its scales. Array
 * bounds are not known, so an element past the end may meet the field
 * after the array. */
bool ravel__lint_ap_may_overlap(const struct ravel__lint_prog *p, uint32_t a,
                                uint32_t b);

/* Root kind of a path. */
static inline enum ravel__lint_ap_kind
ravel__lint_ap_rootkind(const struct ravel__lint_prog *p, uint32_t ap)
{
    return (enum ravel__lint_ap_kind)p->aps[p->aps[ap].root].kind;
}

/* True when ap contains a DEREF step. */
bool ravel__lint_ap_has_deref(const struct ravel__lint_prog *p, uint32_t ap);

/* Creates a value with the given members (the first is primary;
 * duplicates dropped, at most RAVEL__LINT_VAL_MAX kept). Returns its id. */
uint32_t ravel__lint_val(struct ravel__lint_prog *p, const uint32_t *aps,
                         uint32_t n);
/* A value of one member. */
uint32_t ravel__lint_val1(struct ravel__lint_prog *p, uint32_t ap);

/* Substitutes parameters in every member of value v (args are value ids,
 * whose members are all tried, bounded); returns the new value's id. */
uint32_t ravel__lint_val_subst(struct ravel__lint_prog *p, uint32_t v,
                               const uint32_t *args, uint32_t nargs);

/* How two values relate: YES when their primaries are equal, MIGHT when
 * any other members are (a phi of the one may be the other), else NO. */
enum ravel__lint_same { RAVEL__SAME_NO, RAVEL__SAME_MIGHT, RAVEL__SAME_YES };
enum ravel__lint_same ravel__lint_val_same(const struct ravel__lint_prog *p,
                                           uint32_t v, uint32_t w);

/* Primary path of a value. */
static inline uint32_t ravel__lint_val_primary(const struct ravel__lint_prog *p,
                                               uint32_t v)
{
    return p->vals[v].ap[0];
}

/*
 * Building a function. Call func_begin with the number of blocks it will
 * have, then for each block in order block_begin, its events (add_event
 * copies the argument value ids) and its successors (block indexes within
 * the function), then func_end. Returns the function's index.
 */
uint32_t ravel__lint_func_begin(struct ravel__lint_prog *p, uint32_t sym,
                                uint32_t nparams, uint32_t nblocks,
                                uint32_t file, uint32_t line, uint32_t tu);
void ravel__lint_block_begin(struct ravel__lint_prog *p);
uint32_t ravel__lint_add_event(struct ravel__lint_prog *p,
                               enum ravel__lint_ev_kind kind, uint32_t callee,
                               const uint32_t *args, uint32_t nargs,
                               uint32_t file, uint32_t line, uint32_t col,
                               unsigned flags);
void ravel__lint_add_succ(struct ravel__lint_prog *p, uint32_t block);
/* The same, for an edge taken only when call event `ev` returned 0
 * (ok true) or nonzero (ok false). */
#define RAVEL__LINT_ON_FAIL 0x80000000u
/* With this bit, the edge fact names a path (below 2^30) instead of an
 * event: that pointer is null along the edge (the "ok" edge) - `if (p)`
 * around a lock call. */
#define RAVEL__LINT_ON_NULL 0x40000000u
void ravel__lint_add_succ_on(struct ravel__lint_prog *p, uint32_t block,
                             uint32_t ev, bool ok);
void ravel__lint_func_end(struct ravel__lint_prog *p);

/*
 * Links calls to definitions: every symbol's `def` is set to the function
 * that defines it (the first definition when several translation units
 * define the same external name). Call after the last function is built.
 */
void ravel__lint_prog_link(struct ravel__lint_prog *p);

/* Records a function-pointer flow, a use, a call's result root (see
 * struct ravel__lint_fpflow). Duplicates are allowed. */
void ravel__lint_fp_flow(struct ravel__lint_prog *p, uint32_t from, uint32_t to);
void ravel__lint_fp_use(struct ravel__lint_prog *p, uint32_t ev, uint32_t argi,
                        uint32_t from);
void ravel__lint_call_ret(struct ravel__lint_prog *p, uint32_t ev, uint32_t ap);
/* Records the counted loop a call event is made in (events in increasing
 * order), and finds it again: false when ev has none. */
void ravel__lint_range_add(struct ravel__lint_prog *p, uint32_t ev, int64_t lo, int64_t hi);
bool ravel__lint_range_of(const struct ravel__lint_prog *p, uint32_t ev, int64_t *lo,
                          int64_t *hi);

/* True when the root of path ap was published (see prog.published). */
static inline bool ravel__lint_ap_published(const struct ravel__lint_prog *p, uint32_t ap)
{
    uint32_t r = p->aps[ap].root;
    return r < p->npublished && p->published[r];
}

/* Argument i of event e (a value id). */
static inline uint32_t ravel__lint_ev_arg(const struct ravel__lint_prog *p,
                                          const struct ravel__lint_event *e,
                                          uint32_t i)
{
    return p->argv[e->args + i];
}

/* Name of a function's symbol. */
static inline const char *ravel__lint_func_name(const struct ravel__lint_prog *p,
                                                uint32_t f)
{
    return p->syms[p->funcs[f].sym].name;
}

#endif
