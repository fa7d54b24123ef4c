/*
 * ravel.h - the public interface of ravel's runtime.
 *
 * Programs are tested without including this header: build them with
 * ravel-cc (or the CMake function ravel_instrument) and run them with
 * `ravel run`. Include it to tell ravel more than it can see:
 *
 *   ravel_result(v)   declares the result of this execution. ravel reports
 *                     a bug of kind "nondeterminism" when executions of the
 *                     program declare different results, listing each
 *                     distinct result with a replay ticket.
 *   ravel_choose(n)   a value in [0, n) that ravel chooses, like a thread
 *                     choice: systematic strategies try every value, a
 *                     ticket records it. (Outside ravel: 0.)
 *   ravel_assume(c)   an execution where c is false is discarded, not
 *                     reported (it counts as "blocked").
 *   ravel_atomic_begin(), ravel_atomic_end()
 *                     no other thread runs in between (unless this one
 *                     blocks): an atomic section, to model operations the
 *                     real system performs atomically.
 *   ravel_ignore_begin(), ravel_ignore_end()
 *                     the calling thread's plain memory accesses in
 *                     between are not checked for data races: for code
 *                     you have judged benign (a statistics counter whose
 *                     exact value does not matter) and cannot change yet.
 *                     Prefer atomics: a data race is undefined behaviour,
 *                     and the compiler may break "benign" ones.
 *
 * When the program is not running under ravel, these functions do
 * nothing. C and C++ compatible. Link against libravel_rt (ravel-cc does).
 *
 * The second half of this header is property-based testing of an API
 * against a sequential model (QuickCheck's state machines, run under
 * ravel's scheduler; docs/pbt.md): describe the model's commands, hand
 * the model to ravel_test_model() from main, build with ravel-cc and run
 * the program. ravel generates sequential and parallel tests, checks
 * the results against the model (linearizability for parallel calls) and
 * shrinks a failure to a minimal test case with a replay ticket.
 *
 * The third part is concurrency unit tests (docs/tests.md): many named
 * tests in one program, each explored on its own, with fixtures,
 * filters, a result table and a replay ticket per failing test:
 *
 *   RAVEL_TEST(queue, two_producers) {
 *       struct queue q; queue_init(&q);
 *       pthread_t a, b; ...start two producers, join them...
 *       ravel_assert_eq(queue_len(&q), 2);
 *   }
 *
 * Build with ravel-cc (or ravel_add_tests in CMake) and run `ravel test
 * ./tests` or `./tests` (--list, --filter 'queue/...').
 */
#ifndef RAVEL_H
#define RAVEL_H

#define RAVEL_VERSION_MAJOR 0
#define RAVEL_VERSION_MINOR 1
#define RAVEL_VERSION_PATCH 0

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Declares the result of the current execution (the last call wins). */
void ravel_result(long value);

/* A nondeterministic value in [0, n), chosen by ravel (n >= 1). */
unsigned ravel_choose(unsigned n);

/* Discards the current execution unless cond holds. */
void ravel_assume(int cond);

/* An atomic section of the calling thread (they nest). */
void ravel_atomic_begin(void);
void ravel_atomic_end(void);

/* Plain accesses of the calling thread are not race-checked in between
 * (they nest). See docs/races.md. */
void ravel_ignore_begin(void);
void ravel_ignore_end(void);

/* ---- property-based testing against a model (docs/pbt.md) ------------ */

/*
 * A generator's source of values. Every generator draws from one stream
 * of choices, so a failing test case can be shrunk by shrinking the
 * stream and generating again: no generator needs shrink code of its
 * own. Valid only inside the `gen` callback it is passed to.
 */
typedef struct ravel_gen ravel_gen;

/*
 * A symbolic variable: the result of an earlier command of the test
 * case, numbered from 1 in program order ($1, $2 ... in reports). A
 * model keeps variables, not values (a process registry's model says
 * "name a is registered to $1", the pid spawn returned); the real value
 * is ravel_var_value(v) when the test runs.
 */
typedef unsigned ravel_var;

/*
 * Typed results (docs/pbt.md). A command's results are of one kind: an
 * integer (the default), a pointer, a string, a block of bytes, or a
 * value of a user type with its own equality and printer.
 */
enum ravel_kind {
    RAVEL_INT = 0, /* a long */
    RAVEL_PTR,     /* a pointer, compared as an address */
    RAVEL_STR,     /* a NUL-terminated string (NULL allowed), copied */
    RAVEL_BYTES,   /* len bytes, copied; printed in hex */
    RAVEL_USER,    /* a value of a struct ravel_type, copied */
};

/* A user type of results: values of `size` bytes (at most 4096). */
struct ravel_type {
    const char *name;
    size_t size;
    /* Are a and b the same value? NULL: the same bytes. */
    int (*equal)(const void *a, const void *b);
    /* Writes v as the user would write it. NULL: its bytes in hex. */
    void (*print)(char *buf, size_t size, const void *v);
};

/*
 * A result: made by the constructors below, never by hand. ravel_ref(k)
 * is "the value call $k returned" (a model's next_value returns it when
 * the result is what an earlier call gave, e.g. the node a push made).
 */
typedef struct ravel_value {
    enum ravel_kind kind;
    unsigned ref;                  /* ravel_ref: the variable, else 0 */
    long i;                        /* RAVEL_INT */
    const void *p;                 /* PTR; STR, BYTES, USER: the data */
    size_t len;                    /* BYTES, USER: bytes at p */
    const struct ravel_type *type; /* USER */
} ravel_value;

ravel_value ravel_int(long v);
ravel_value ravel_ptr(const void *p);
ravel_value ravel_str(const char *s);
ravel_value ravel_bytes(const void *p, size_t len);
ravel_value ravel_user(const struct ravel_type *t, const void *v);
ravel_value ravel_ref(unsigned var);

/* One operation of the API under test. Only `name` and `run` are
 * required. `state` is the model's state (struct ravel_model), `args`
 * the command's arguments (a zeroed block of the model's args_size). */
struct ravel_command {
    const char *name;
    /* Relative frequency of the command in `state` when generating (0:
     * not now). NULL: 1. */
    unsigned (*weight)(const void *state);
    /* Draws the arguments from g (ravel_gen_* below). NULL: none. */
    void (*gen)(ravel_gen *g, const void *state, void *args);
    /* Precondition: may the command be called in `state` with `args`?
     * A generated command that fails it is left out. NULL: always. */
    int (*pre)(const void *state, const void *args);
    /* Calls the system under test (`sut`, from the model's setup) and
     * returns the result. Runs in the test's threads, under ravel. */
    long (*run)(void *sut, const void *args);
    /* The model: updates `state` in place as the call does and returns
     * the result the call must give. `self` is this call's variable.
     * NULL: the state does not change and the result must be 0 (unless
     * post says otherwise). Must be a function of its arguments. */
    long (*next)(void *state, const void *args, ravel_var self);
    /* Postcondition: is `result` right for a call in `state` (before the
     * call)? NULL: the result must equal what next returns. May use
     * ravel_var_value(). */
    int (*post)(const void *state, const void *args, long result);
    /* Writes the arguments as text for reports ("a, $1"). NULL: none. */
    void (*print)(char *buf, size_t size, const void *args);

    /* -- typed results (optional; docs/pbt.md "Typed results") -- */
    /* The kind of the command's results: RAVEL_INT (the default) or
     * RAVEL_PTR with run and next above (the long is the value); any
     * kind with run_value and next_value. Reports print results as C
     * would write them: strings quoted, pointers as NULL, `new` (the
     * first call to return it) or `$k` (the value call $k returned). */
    enum ravel_kind result;
    /* RAVEL_USER: the values' size, equality and printer. */
    const struct ravel_type *result_type;
    /* Typed forms of run, next and post (used instead of them when
     * set). A string, bytes or user value returned by run_value is
     * copied when it returns; one returned by next_value must stay
     * valid until the next callback of the model is called. */
    ravel_value (*run_value)(void *sut, const void *args);
    ravel_value (*next_value)(void *state, const void *args, ravel_var self);
    int (*post_value)(const void *state, const void *args,
                      ravel_value result);
};

/*
 * The model of an API. The state is plain data of state_size bytes (at
 * most 4096), copied and compared byte for byte (no pointers; zero all
 * of it, padding included, which the zeroed block given to init does).
 * Arguments take at most 256 bytes.
 */
struct ravel_model {
    const char *name;
    size_t state_size;
    void (*init)(void *state); /* NULL: all zero */
    size_t args_size;          /* largest arguments of any command */
    const struct ravel_command *commands;
    unsigned ncommands;        /* 1 .. 64 */
    /* A fresh system under test for each test case, and its end. Both
     * run in the test's main thread, under ravel (setup may start the
     * system's own threads; teardown should stop and join them). */
    void *(*setup)(void);
    void (*teardown)(void *sut);

    /* -- optional fields (docs/pbt.md) ------------------------------- */
    /* States of any size: when state_copy is set the state is the
     * user's object (state_size and init are not used). state_new
     * makes the initial state, state_copy a deep copy, state_free ends
     * one; equal and hash (both, or neither: then states are never
     * merged, and the check is slower, never wrong) let the
     * linearizability checker recognise a state it has seen; print
     * writes one for reports. ravel frees every state it makes. */
    void *(*state_new)(void);
    void *(*state_copy)(const void *state);
    void (*state_free)(void *state);
    int (*state_equal)(const void *a, const void *b);
    uint64_t (*state_hash)(const void *state);
    void (*state_print)(char *buf, size_t size, const void *state);
    /* An invariant of the model's state, checked after every command of
     * the prefix (false: the test fails) and after every step of every
     * linearization the checker tries (false: that order is rejected). */
    int (*invariant)(const void *state);
    /* The shape of parallel tests (0: the options' values, else their
     * defaults; an option given explicitly wins): threads running
     * branches (--branches, 0 to 4), most calls per thread (--ops), most
     * calls in the prefix (--prefix). */
    unsigned threads, ops_per_thread, prefix_len;
    /* The declarative form (struct ravel_op below): a table of
     * operations, used instead of commands when set. */
    const struct ravel_op *ops;
    unsigned nops;
};

/*
 * Tests `model` and returns what main should return. Call it from main
 * of a program built with ravel-cc: each execution of main runs one test
 * case under one schedule. The program's arguments are ravel's options
 * (--seed, --tests N, --branches K, --mode random|exhaustive ...; `ravel
 * run --help`), as are RAVEL_OPTIONS.
 */
int ravel_test_model(const struct ravel_model *model);

/* A value in [lo, hi] (lo <= hi), any int64 range. Shrinks toward the
 * value of the range closest to 0. */
int64_t ravel_gen_int(ravel_gen *g, int64_t lo, int64_t hi);
/* 0 or 1. Shrinks toward 0. */
int ravel_gen_bool(ravel_gen *g);
/* The index of one of n elements (n >= 1), uniformly. Shrinks toward 0,
 * so put the simplest element first. */
size_t ravel_gen_element(ravel_gen *g, size_t n);
/* An index in [0, n) chosen with the given relative weights (not all
 * zero; a zero weight is never chosen). Shrinks toward 0. */
size_t ravel_gen_frequency(ravel_gen *g, const unsigned *weights, size_t n);
/*
 * A list of min .. max elements of elem_size bytes each, written to out
 * (room for max), each made by elem(g, element, ctx): the way to
 * generate user structs, alone (min = max = 1) or in lists. Returns the
 * number of elements. Shrinks by removing elements and shrinking each.
 */
size_t ravel_gen_list(ravel_gen *g, void *out, size_t elem_size, size_t min,
                      size_t max,
                      void (*elem)(ravel_gen *g, void *element, void *ctx),
                      void *ctx);
/* One of n variables (n >= 1), e.g. of the pids a model holds. */
ravel_var ravel_gen_var(ravel_gen *g, const ravel_var *vars, size_t n);
/* The real result of the call that `v` names: valid in run (for results
 * of calls that precede it: the prefix, or earlier in the same thread)
 * and in post. */
long ravel_var_value(ravel_var v);
/* The same as a typed value (post_value's companion). */
ravel_value ravel_var_result(ravel_var v);

/*
 * Labels, statistics and coverage (QuickCheck's classify and collect,
 * Hedgehog's cover), from any callback of the model. Each is counted
 * once per test case in which it was called, and tabulated at the end
 * as a percentage of the test cases.
 */
void ravel_label(const char *label);
/* A value of a named quantity ("depth", 3): its distribution. */
void ravel_collect(const char *name, long value);
/* A requirement: at least `percent` of the test cases must call this
 * with cond true; else the run fails, saying which label fell short. */
void ravel_cover(int cond, double percent, const char *label);

/*
 * The declarative form: a table of operations with typed argument
 * generators. Arguments reach run and next as an array of ravel_arg
 * (.i for integers, .s for strings, .var for variables), and are
 * printed by ravel. An argument drawn from the model's variables
 * (RAVEL_ARG_VAR) gives the operation its default weight (0 while the
 * model holds none) and precondition (the variable is still held).
 */
typedef union ravel_arg {
    long i;
    const char *s;
    ravel_var var;
} ravel_arg;

enum ravel_arg_kind { RAVEL__ARG_NONE = 0, RAVEL__ARG_INT, RAVEL__ARG_STR,
                      RAVEL__ARG_VAR };

struct ravel_argspec {
    enum ravel_arg_kind kind;
    long lo, hi;                     /* RAVEL_ARG_INT */
    const char *const *strings;      /* RAVEL_ARG_STR */
    size_t nstrings;
    /* RAVEL_ARG_VAR: writes the variables `state` holds (at most max)
     * and returns their number. */
    size_t (*vars)(const void *state, ravel_var *out, size_t max);
};

/* An integer in [lo, hi]; one of an array of strings; a variable. */
#define RAVEL_ARG_INT(lo, hi) {RAVEL__ARG_INT, (lo), (hi), NULL, 0, NULL}
#define RAVEL_ARG_STR(array)                                                  \
    {RAVEL__ARG_STR, 0, 0, (array), sizeof(array) / sizeof *(array), NULL}
#define RAVEL_ARG_VAR(fn) {RAVEL__ARG_VAR, 0, 0, NULL, 0, (fn)}

#define RAVEL_MAX_OP_ARGS 4

struct ravel_op {
    const char *name;
    struct ravel_argspec args[RAVEL_MAX_OP_ARGS];
    /* The call and the model (next: NULL, no change and result 0). */
    ravel_value (*run)(void *sut, const ravel_arg *a);
    ravel_value (*next)(void *state, const ravel_arg *a, ravel_var self);
    enum ravel_kind result;                /* as in ravel_command */
    const struct ravel_type *result_type;
    unsigned weight;                       /* relative frequency; 0: 1 */
    int (*pre)(const void *state, const ravel_arg *a); /* NULL: always */
    /* Is `result` right in `state` (before the call)? NULL: it must
     * equal what next returns. */
    int (*post)(const void *state, const ravel_arg *a, ravel_value result);
};

/* ---- concurrency unit tests (docs/tests.md) --------------------------- */

/*
 * One test, as RAVEL_TEST and RAVEL_TEST_WITH write it. Every execution
 * of the test runs setup, the body and teardown in thread 1, under
 * ravel's scheduler; the body builds its own state, starts threads,
 * joins them and checks. The options fields below are the test's own
 * budget: zero (or NULL) leaves the run's value (command line,
 * RAVEL_OPTIONS), anything else overrides it for this test.
 */
struct ravel_test {
    const char *suite;
    const char *name;
    void (*body)(void);
    const char *file;
    int line;
    /* -- per-test options (designated initializers of RAVEL_TEST_WITH) */
    const char *strategy;          /* "dpor", "pct", "random" ... */
    unsigned long long executions; /* at most this many executions */
    double time;                   /* at most this many seconds */
    unsigned long long max_steps;  /* visible operations per execution */
    /* The test is expected to fail: it passes when ravel finds a bug of
     * this kind ("deadlock", "assertion", "data-race" ...; "any": any
     * kind) and fails when it finds none or another kind. */
    const char *expect_failure;
    /* Fixtures, run in every execution before and after the body (not
     * after a failing one: ravel restores globals and the heap anyway). */
    void (*setup)(void);
    void (*teardown)(void);
};

/* Registers a test (RAVEL_TEST's constructor calls it; t must live as
 * long as the program). */
void ravel_test_register(const struct ravel_test *t);

/* The test program's entry: lists, filters and runs the registered tests
 * (docs/tests.md). A test program needs no main of its own: ravel-cc and
 * ravel_add_tests link one that calls this. */
int ravel_test_main(int argc, char **argv);

#define RAVEL__TEST_ID(S, N, what) ravel__test_##what##_##S##__##N

/*
 * RAVEL_TEST(suite, name) { body }: a test with the run's options.
 * RAVEL_TEST_WITH(suite, name, .executions = 500, .setup = f, ...) { body }:
 * with its own options (C designated initializers of struct ravel_test).
 * suite and name are C identifiers; the test is called "suite/name".
 */
#define RAVEL__TEST_DEFINE(S, N, ...)                                  \
    static void RAVEL__TEST_ID(S, N, body)(void);                      \
    static const struct ravel_test RAVEL__TEST_ID(S, N, desc) = {      \
        __VA_ARGS__};                                                         \
    __attribute__((constructor)) static void RAVEL__TEST_ID(S, N,      \
                                                            reg)(void)        \
    {                                                                         \
        ravel_test_register(&RAVEL__TEST_ID(S, N, desc));              \
    }                                                                         \
    static void RAVEL__TEST_ID(S, N, body)(void)

/* Every field given, so that -Wextra's missing-field-initializers is
 * quiet in C and C++ alike. */
#define RAVEL_TEST(S, N)                                               \
    RAVEL__TEST_DEFINE(S, N, #S, #N,                            \
                       RAVEL__TEST_ID(S, N, body), __FILE__, __LINE__, \
                       NULL, 0, 0, 0, NULL, NULL, NULL)

/* Designated initializers: C (or C++20, with the options in the order of
 * the struct's fields). */
#define RAVEL_TEST_WITH(S, N, ...)                                     \
    RAVEL__TEST_DEFINE(S, N, .suite = #S, .name = #N,           \
                       .body = RAVEL__TEST_ID(S, N, body),             \
                       .file = __FILE__, .line = __LINE__, __VA_ARGS__)

/*
 * Checks. A failing check ends the execution as a bug of kind
 * "assertion" whose message names the expression, its file:line and,
 * for comparisons, both values; the report shows the interleaving that
 * led there and a replay ticket. They work in any thread of a test (and
 * in any program under ravel); outside ravel they print the message and
 * abort().
 */
void ravel_check_failed(const char *file, int line, const char *func,
                        const char *expr);
void ravel_check_failed_int(const char *file, int line, const char *func,
                            const char *a_text, const char *op,
                            const char *b_text, long long a, long long b);
void ravel_check_failed_uint(const char *file, int line, const char *func,
                             const char *a_text, const char *op,
                             const char *b_text, unsigned long long a,
                             unsigned long long b);
/* Fails unless a and b are equal strings (NULL equals only NULL). */
void ravel_check_str_eq(const char *file, int line, const char *func,
                        const char *a_text, const char *b_text, const char *a,
                        const char *b);

#define ravel_assert(cond)                                                    \
    ((cond) ? (void)0                                                         \
            : ravel_check_failed(__FILE__, __LINE__, __func__, #cond))

/* (a_text and b_text are stringified by the public macros, before their
 * arguments are expanded.) */
#define RAVEL__CHECK_INT(a, op, b, a_text, b_text)                            \
    do {                                                                      \
        long long ravel__a = (long long)(a), ravel__b = (long long)(b);       \
        if (!(ravel__a op ravel__b))                                          \
            ravel_check_failed_int(__FILE__, __LINE__, __func__, a_text, #op, \
                                   b_text, ravel__a, ravel__b);               \
    } while (0)
#define RAVEL__CHECK_UINT(a, op, b, a_text, b_text)                           \
    do {                                                                      \
        unsigned long long ravel__a = (unsigned long long)(a),                \
                           ravel__b = (unsigned long long)(b);                \
        if (!(ravel__a op ravel__b))                                          \
            ravel_check_failed_uint(__FILE__, __LINE__, __func__, a_text,     \
                                    #op, b_text, ravel__a, ravel__b);         \
    } while (0)

/* Integer comparisons (as long long; the _u forms as unsigned long long). */
#define ravel_assert_eq(a, b) RAVEL__CHECK_INT(a, ==, b, #a, #b)
#define ravel_assert_ne(a, b) RAVEL__CHECK_INT(a, !=, b, #a, #b)
#define ravel_assert_lt(a, b) RAVEL__CHECK_INT(a, <, b, #a, #b)
#define ravel_assert_le(a, b) RAVEL__CHECK_INT(a, <=, b, #a, #b)
#define ravel_assert_gt(a, b) RAVEL__CHECK_INT(a, >, b, #a, #b)
#define ravel_assert_ge(a, b) RAVEL__CHECK_INT(a, >=, b, #a, #b)
#define ravel_assert_eq_u(a, b) RAVEL__CHECK_UINT(a, ==, b, #a, #b)
#define ravel_assert_ne_u(a, b) RAVEL__CHECK_UINT(a, !=, b, #a, #b)
/* Strings: equal contents (NULL equals only NULL). */
#define ravel_assert_str_eq(a, b)                                             \
    ravel_check_str_eq(__FILE__, __LINE__, __func__, #a, #b, (a), (b))

#ifdef __cplusplus
}
#endif

#endif
