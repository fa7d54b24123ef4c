/*
 * intercept/tsan_local.c - the plain-access hooks a program calls most,
 * linked into the program itself.
 *
 * Not part of libravel_rt.so: this file becomes lib/ravel_hooks.o, which
 * ravel-cc and ravel_instrument() add to the link of every instrumented
 * executable. The program's calls to __tsan_read1/2/4/8 and
 * __tsan_write1/2/4/8 - one per plain memory access - and to
 * __tsan_func_entry/exit - two per function call - then bind here, to
 * direct calls, instead of through the PLT into the runtime; and the
 * hooks reach the runtime's state through one GOT entry each. Measured
 * on a loop over an array, that is about a quarter of what a hook costs
 * when the thread runs alone; on a loop calling a small function, about
 * a third of what a call costs (scripts/bench-races' calls workload; the
 * runtime's copies are in intercept/tsan.c; hooks_abi.h says why and
 * what the two share).
 *
 * The definitions are hidden: the executable's own calls bind to them,
 * and nothing else sees them (a shared library built with ravel-cc keeps
 * calling the runtime's copies, which do the same). Everything beyond
 * counting - the race check when the thread is not alone, the plain-spin
 * check - is one call into the runtime (ravel__hook_read/write/quiet);
 * beyond the shadow stack's push and pop and the depot's remembered
 * child, one call too (ravel__hook_enter_more/leave_more).
 *
 * Built as position-independent code whatever the program is: its
 * references to the runtime's data then go through the GOT, never
 * through copy relocations (which would give the program a copy of the
 * state that the runtime does not write).
 */
#include "hooks_abi.h"

/* The runtime's ravel__self (struct ravel__worker *), read as the view
 * that is its first member. */
extern _Thread_local struct ravel__hook_view *ravel__self
    __attribute__((tls_model("initial-exec")));

/* These are the compiler's interface: it calls them by name and no
 * header declares them. */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"

#define HIDDEN __attribute__((visibility("hidden")))
#define PC ((uint64_t)(uintptr_t)__builtin_return_address(0))

/* The race check through the runtime's copy for the size, whose
 * checks and masks are constants there (the two-argument entry points
 * take the size the quiet hook's signature gives them). */
#define LOCAL_HOOKS(n)                                                         \
    static void check_read##n(const void *a, uint64_t size, uint64_t pc)      \
    {                                                                          \
        (void)size;                                                            \
        ravel__hook_read##n(a, pc);                                            \
    }                                                                          \
    static void check_write##n(const void *a, uint64_t size, uint64_t pc)     \
    {                                                                          \
        (void)size;                                                            \
        ravel__hook_write##n(a, pc);                                           \
    }                                                                          \
    HIDDEN void __tsan_read##n(void *a)                                        \
    {                                                                          \
        ravel__hook_access(ravel__self, &RAVEL__HOOKS_ABI, a, n, false, PC,    \
                           ravel__hook_quiet, check_read##n);                  \
    }                                                                          \
    HIDDEN void __tsan_write##n(void *a)                                       \
    {                                                                          \
        ravel__hook_access(ravel__self, &RAVEL__HOOKS_ABI, a, n, true, PC,     \
                           ravel__hook_quiet, check_write##n);                 \
    }
LOCAL_HOOKS(1)
LOCAL_HOOKS(2)
LOCAL_HOOKS(4)
LOCAL_HOOKS(8)
#undef LOCAL_HOOKS

/* The entry and exit without a frame under gcc: three instructions that
 * were a tenth of a call's cost. (clang has no per-function switch for
 * it, so they keep theirs there. The access hooks keep theirs: without
 * it the sequential loop of scripts/bench-races was a tenth slower with
 * gcc 12, although each hook is two instructions shorter.) */
#if defined(__GNUC__) && !defined(__clang__)
#define NO_FRAME __attribute__((optimize("omit-frame-pointer")))
#else
#define NO_FRAME
#endif

NO_FRAME HIDDEN void __tsan_func_entry(void *caller_pc)
{
    ravel__hook_enter(ravel__self, &RAVEL__HOOKS_ABI,
                      (uint64_t)(uintptr_t)caller_pc, PC,
                      ravel__hook_enter_more);
}

NO_FRAME HIDDEN void __tsan_func_exit(void)
{
    ravel__hook_leave(ravel__self, &RAVEL__HOOKS_ABI, ravel__hook_leave_more);
}
