/*
 * intercept/tsan.c - the compiler's ThreadSanitizer hooks, served by
 * ravel instead of libtsan.
 *
 * Code compiled with -fsanitize=thread calls:
 *   __tsan_init                       once per instrumented module
 *   __tsan_func_entry/exit            around every function: ravel keeps a
 *                                     shadow call stack per thread, which
 *                                     gives every report file:line stacks
 *   __tsan_atomicN_* / fences         for every C11 <stdatomic.h>,
 *                                     __atomic_* and __sync_* operation:
 *                                     these are visible operations
 *   __tsan_readN/writeN and variants  for every plain memory access:
 *                                     counted per thread and execution,
 *                                     and checked by the data-race
 *                                     detector (race.c)
 *
 * The plain-access hooks are the hottest code in ravel (a loop over an
 * array calls one per element). Inline they only count the access and
 * return when the thread runs alone (nothing can race with it then), so
 * that a sequential phase costs what counting costs (ravel__hook_access
 * in hooks_abi.h). Otherwise one call (race_read or race_write, the kind
 * a constant): a read first tests, on the shadow itself, whether the
 * thread's own access of this epoch already covers the bytes
 * (ravel__det_nothing_new_at; on both granules an unaligned read
 * straddles, ravel__det_nothing_new_split, out of line), which settles
 * most of a loop's reads; then, out of line, the detector's inline path
 * (ravel__det_quick_at) checks and records a simple access that races
 * with nothing the granule remembers (a loop's first access to each
 * element after another thread's, under a lock); only what it leaves
 * calls the detector (ravel__det_read/write). The eight hottest hooks
 * have copies linked into the executable itself (tsan_local.c), which
 * call the same functions through ravel__hook_readN/writeN (the size a
 * constant in each copy) and ravel__hook_quiet: these here serve shared
 * libraries and executables linked without them.
 *
 * The list covers what gcc 12 and clang 14 emit, plus the names newer
 * clang emits (compound read-write, __tsan_memcpy ...), so that a program
 * built by either links. While ravel does not control the calling thread
 * the atomics simply perform the operation.
 *
 * Under ravel's control only one thread runs at a time, so the memory
 * operation itself is performed with a sequentially consistent atomic
 * once the thread holds the baton; the memory order the program asked for
 * is recorded in the event (argument `mo`) for happens-before analysis.
 * Under --memory-model tso a relaxed or release store goes to the
 * thread's store buffer instead, and a load reads memory overlaid with
 * the thread's own buffered stores (src/rt/tso.c). Under --memory-model
 * rc11 the model (src/rt/rc11.c) chooses which store a load or
 * read-modify-write reads and where a store goes in modification order;
 * a read-modify-write's new value is computed here from the value it
 * chose (rmw_compute). Volatile accesses keep reading and writing memory
 * (the newest store).
 */
#include "../rt.h"

#include "../../model/detect.h"
#include "../../model/spin.h"

#include <errno.h>
#include <string.h>

/* These functions are the compiler's interface: gcc and clang call them by
 * name and no header declares them. */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* 16-byte atomics are not lock-free here and go through libatomic; that is
 * the program's choice, made when it used a 128-bit atomic. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Watomic-alignment"
#endif

/* The state the program's own copies of the hooks read (hooks_abi.h). */
RAVEL__EXPORT struct ravel__hooks_state RAVEL__HOOKS_ABI;

/* ---- module registration and shadow stacks --------------------------- */

RAVEL__EXPORT void __tsan_init(void)
{
    ravel__modules_register(RAVEL__CALLER_PC);
}

/* SV-COMP's special functions (a program that has some): a
 * __VERIFIER_atomic_* function runs atomically, reach_error() is the
 * error. Out of line, with the rest of the entry (after the push): every
 * other function entry only tests whether a module has them. */
static __attribute__((noinline)) void
special_entry(struct ravel__worker *w, uint64_t caller_pc, uint64_t fn_pc)
{
    struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
    if (ravel__race_on)
        ravel__race_push(th, caller_pc);
    int special = ravel__pc_special_function(fn_pc);
    if (RAVEL__UNLIKELY(special == RAVEL__FN_REACH_ERROR)) {
        ravel__stack_pop(th); /* the error is at the call */
        ravel__svcomp_error(w, caller_pc, "reach_error() called");
    }
    if (RAVEL__UNLIKELY(special == RAVEL__FN_ATOMIC) &&
        th->atomic_fn < RAVEL__COUNT(th->atomic_fn_depth)) {
        if (th->atomic == 0) /* a scheduling point (src/rt/section.c) */
            ravel__section_enter(w, caller_pc);
        th = &ravel__rt.x->threads[w->slot];
        th->atomic_fn_depth[th->atomic_fn++] = th->depth;
        th->atomic++;
    }
}

/* A function entry past the push that is more than following the depot
 * node's remembered child: a special function, or a call site the node
 * does not remember (the hashing side). Also what the program's copy of
 * the entry calls (hooks_abi.h). */
RAVEL__EXPORT void ravel__hook_enter_more(uint64_t caller_pc, uint64_t fn_pc)
{
    struct ravel__worker *w = ravel__self;
    if (RAVEL__UNLIKELY(ravel__nspecial_fns)) {
        special_entry(w, caller_pc, fn_pc);
        return;
    }
    struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
    th->stack_id = ravel__depot_intern(th->stack_id, caller_pc);
}

static inline const struct ravel__hook_view *self_view(void)
{
    struct ravel__worker *w = ravel__self;
    return w ? &w->view : NULL;
}

RAVEL__EXPORT void __tsan_func_entry(void *caller_pc)
{
    ravel__hook_enter(self_view(), &RAVEL__HOOKS_ABI,
                      (uint64_t)(uintptr_t)caller_pc, RAVEL__CALLER_PC,
                      ravel__hook_enter_more);
}

/* The thread the calling worker runs, or NULL when ravel does not control
 * it (ravel__controlled's test): through the worker's counts, which point
 * into it exactly when it runs one (ravel__worker_bind). */
static inline struct ravel__thread *controlled_thread(void)
{
    struct ravel__worker *w = ravel__self;
    if (RAVEL__LIKELY(w == NULL) || !ravel__rt.executing || !w->counts)
        return NULL;
    return (struct ravel__thread *)(void *)((char *)w->counts -
                                            offsetof(struct ravel__thread,
                                                     plain));
}

/* The exit of a function while the thread is in a __VERIFIER_atomic_*
 * call: if it is that call's, its section ends; then the pop. Also what
 * the program's copy of the exit calls (hooks_abi.h). */
RAVEL__EXPORT void ravel__hook_leave_more(void)
{
    struct ravel__worker *w = ravel__self;
    struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
    if (th->atomic_fn_depth[th->atomic_fn - 1] == th->depth) {
        th->atomic_fn--;
        if (th->atomic && --th->atomic == 0)
            ravel__section_leave(w);
        th = controlled_thread();
        if (!th)
            return;
    }
    if (ravel__race_on && th->depth)
        ravel__race_pop(th);
    ravel__stack_pop(th);
}

RAVEL__EXPORT void __tsan_func_exit(void)
{
    ravel__hook_leave(self_view(), &RAVEL__HOOKS_ABI, ravel__hook_leave_more);
}

RAVEL__EXPORT void __tsan_ignore_thread_begin(void)
{
}

RAVEL__EXPORT void __tsan_ignore_thread_end(void)
{
}

/* ---- plain accesses -------------------------------------------------- */

/* The detector's side of a plain access by a thread that is not alone
 * (after the read hooks' inline test): out of line, one copy per kind,
 * so that the hooks themselves stay as short as counting needs when the
 * thread runs alone. */
static inline __attribute__((always_inline)) void
race_check(struct ravel__worker *w, const void *a, uint64_t size, bool write,
           uint64_t pc)
{
    struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
    /* Not when the thread is in an ignore section or accesses may be
     * promoted to steps: ravel__race_access decides those. */
    if (RAVEL__UNLIKELY(th->ignore ||
                        (ravel__rt.common->npromoted | ravel__race_nploc))) {
        ravel__race_access(w, a, size, write, pc);
        return;
    }
    uint64_t addr = (uint64_t)(uintptr_t)a;
    /* The detector's work put off (race/defer.c). */
    if (ravel__defer_on &&
        ravel__defer_plain(w->slot, addr, size, write, pc, th->stack_id))
        return;
    struct ravel__det_hit hit;
    if (RAVEL__UNLIKELY(
            write ? ravel__det_write(ravel__race_det, w->slot, addr, size, pc,
                                     th->stack_id, &hit)
                  : ravel__det_read(ravel__race_det, w->slot, addr, size, pc,
                                    th->stack_id, &hit)))
        ravel__race_plain_race(w, a, size, write, pc, &hit);
}

static __attribute__((noinline)) void
race_read_full(const void *a, uint64_t size, uint64_t pc)
{
    race_check(ravel__self, a, size, false, pc);
}

static __attribute__((noinline)) void
race_write_full(const void *a, uint64_t size, uint64_t pc)
{
    race_check(ravel__self, a, size, true, pc);
}

/*
 * A write's detector side: first the detector's inline path
 * (ravel__det_quick_at), which checks and records, when the access is
 * simple, an access that races with nothing; then the whole check
 * (race_check). Not when accesses may be promoted to steps, in an ignore
 * section, or while the detector's work is put off: race_check decides
 * those.
 */
static inline __attribute__((always_inline)) void
write_side(const void *a, uint64_t size, uint64_t pc)
{
    struct ravel__worker *w = ravel__self;
    const struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
    uint64_t addr = (uint64_t)(uintptr_t)a;
    if (RAVEL__LIKELY(!th->ignore && !ravel__defer_on &&
                      !(ravel__rt.common->npromoted | ravel__race_nploc))) {
        bool live;
        struct ravel__det_granule *g = ravel__det_leaf_granule(
            (const struct ravel__det_hot *)ravel__race_det, addr, size,
            &live);
        if (g && ravel__det_quick_at(ravel__race_det, g, live, w->slot, addr,
                                     size, pc, th->stack_id, true))
            return;
    }
    race_write_full(a, size, pc); /* (a tail call) */
}

/* A read the inline test did not settle: the detector's inline path
 * (ravel__det_quick_at), then the whole check (a tail call). Its copies
 * below are out of line, so that the test saves no register. In an
 * ignore section, or while the detector's work is put off, race_check
 * decides. */
static inline __attribute__((always_inline)) void
read_rest_body(const void *a, uint64_t size, uint64_t pc,
               struct ravel__det_granule *g, bool live)
{
    struct ravel__worker *w = ravel__self;
    const struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
    if (RAVEL__LIKELY(g && !th->ignore && !ravel__defer_on) &&
        ravel__det_quick_at(ravel__race_det, g, live, w->slot,
                            (uint64_t)(uintptr_t)a, size, pc, th->stack_id,
                            false))
        return;
    race_read_full(a, size, pc);
}

/* One copy for each size the local hooks have (its byte mask a
 * constant), one for any size. */
#define READ_REST(name, n)                                                     \
    static __attribute__((noinline)) void name(                                \
        const void *a, uint64_t size, uint64_t pc,                             \
        struct ravel__det_granule *g, bool live)                               \
    {                                                                          \
        read_rest_body(a, n, pc, g, live);                                     \
        (void)size;                                                            \
    }
READ_REST(read_rest1, 1)
READ_REST(read_rest2, 2)
READ_REST(read_rest4, 4)
READ_REST(read_rest8, 8)
READ_REST(read_rest, size)
#undef READ_REST

/* A read not within one granule whose leaf is cached: an unaligned read
 * across two granules takes the inline test on each, then (as any other)
 * the rest. Out of line, so that the read hooks' own path saves no
 * register. */
static __attribute__((noinline)) void
read_ungranuled(const void *a, uint64_t size, uint64_t pc)
{
    if (ravel__det_nothing_new_split(
            (const struct ravel__det_hot *)ravel__race_det, ravel__self->slot,
            (uint64_t)(uintptr_t)a, size))
        return;
    read_rest(a, size, pc, NULL, false);
}

/* A read's side: first the inline test, on the shadow itself, whether
 * the thread's own access of this epoch already covers the bytes (most
 * reads of a loop: nothing to check or record), then the rest, a tail
 * call given the granule the test found. Not when accesses may be
 * promoted to steps (a promoted read is a step even when it is nothing
 * new); in an ignore section nothing new is nothing to ignore either. */
static inline __attribute__((always_inline)) void
read_side(const void *a, uint64_t size, uint64_t pc)
{
    if (RAVEL__UNLIKELY(ravel__rt.common->npromoted | ravel__race_nploc)) {
        race_read_full(a, size, pc);
        return;
    }
    const struct ravel__det_hot *h =
        (const struct ravel__det_hot *)ravel__race_det;
    uint64_t addr = (uint64_t)(uintptr_t)a;
    bool live;
    struct ravel__det_granule *g = ravel__det_leaf_granule(h, addr, size,
                                                           &live);
    if (RAVEL__UNLIKELY(!g)) {
        read_ungranuled(a, size, pc); /* (a tail call) */
        return;
    }
    if (live && ravel__det_nothing_new_at(h, g, ravel__self->slot, addr, size))
        return;
    switch (size) { /* (a constant in the sized hooks) */
    case 1: read_rest1(a, size, pc, g, live); break;
    case 2: read_rest2(a, size, pc, g, live); break;
    case 4: read_rest4(a, size, pc, g, live); break;
    case 8: read_rest8(a, size, pc, g, live); break;
    default: read_rest(a, size, pc, g, live); break;
    }
}

static __attribute__((noinline)) void
race_read(const void *a, uint64_t size, uint64_t pc)
{
    read_side(a, size, pc);
}

static __attribute__((noinline)) void
race_write(const void *a, uint64_t size, uint64_t pc)
{
    write_side(a, size, pc);
}

/* A read whose count reached quiet_at: the plain-spin check
 * (src/rt/race/plain_spin.c), then the read's race check. */
static __attribute__((noinline)) void
quiet_read(const void *a, uint64_t size, uint64_t pc)
{
    ravel__quiet_read(ravel__self, a, pc);
    if (RAVEL__HOOKS_ABI.race_check)
        race_read(a, size, pc);
}

/* ---- what the program's own copies of the hooks call (hooks_abi.h) ---- */


/* (The race check itself inlined here too: one call from the program to
 * the detector.) */
RAVEL__EXPORT void ravel__hook_read(const void *a, uint64_t size, uint64_t pc)
{
    read_side(a, size, pc);
}

RAVEL__EXPORT void ravel__hook_write(const void *a, uint64_t size, uint64_t pc)
{
    write_side(a, size, pc);
}

RAVEL__EXPORT void ravel__hook_quiet(const void *a, uint64_t size,
                                     uint64_t pc)
{
    quiet_read(a, size, pc);
}

/* The same for one size (what the local hooks call): the size's checks
 * and the access's byte mask constants. */
#define SIZED_HOOKS(n)                                                         \
    RAVEL__EXPORT void ravel__hook_read##n(const void *a, uint64_t pc)         \
    {                                                                          \
        read_side(a, n, pc);                                                   \
    }                                                                          \
    RAVEL__EXPORT void ravel__hook_write##n(const void *a, uint64_t pc)        \
    {                                                                          \
        write_side(a, n, pc);                                                  \
    }
SIZED_HOOKS(1)
SIZED_HOOKS(2)
SIZED_HOOKS(4)
SIZED_HOOKS(8)
#undef SIZED_HOOKS

_Static_assert(offsetof(struct ravel__worker, view) == 0 &&
                   offsetof(struct ravel__worker, counts) == 0,
               "the program's hooks read a worker as its view");
/* The layout programs were linked against as ravel__hooks_abi_2: a change
 * that trips one of these must also rename RAVEL__HOOKS_ABI (hooks_abi.h),
 * so that a program built before it fails to load instead of
 * miscounting. */
_Static_assert(sizeof(struct ravel__plain_counts) == 32 &&
                   offsetof(struct ravel__plain_counts, writes) == 8 &&
                   offsetof(struct ravel__plain_counts, side_writes) == 16 &&
                   offsetof(struct ravel__plain_counts, quiet_at) == 24 &&
                   sizeof(struct ravel__hook_thread) == 48 &&
                   offsetof(struct ravel__hook_thread, depth) == 32 &&
                   offsetof(struct ravel__hook_thread, stack_id) == 40 &&
                   offsetof(struct ravel__hook_thread, atomic_fn) == 44 &&
                   RAVEL__STACK_FRAMES == 64 &&
                   sizeof(struct ravel__depot_node) == 24 &&
                   offsetof(struct ravel__depot_node, parent) == 8 &&
                   offsetof(struct ravel__depot_node, last_child) == 12 &&
                   offsetof(struct ravel__depot_node, last_pc) == 16 &&
                   sizeof(struct ravel__hook_view) == 32 &&
                   offsetof(struct ravel__hook_view, stack_lo) == 8 &&
                   offsetof(struct ravel__hook_view, stack_hi) == 16 &&
                   offsetof(struct ravel__hook_view, frames) == 24 &&
                   offsetof(struct ravel__hooks_state, race_check) == 1 &&
                   offsetof(struct ravel__hooks_state, special_fns) == 2 &&
                   offsetof(struct ravel__hooks_state, depot) == 8,
               "the hooks' ABI changed: rename RAVEL__HOOKS_ABI");
/* Field f of struct ravel__thread is the same field of its hook member,
 * whose type s has it. */
#define HOOK_FIELD(s, f)                                                       \
    (offsetof(struct ravel__thread, f) ==                                      \
     offsetof(struct ravel__thread, hook) + offsetof(s, f))
_Static_assert(offsetof(struct ravel__thread, plain) ==
                       offsetof(struct ravel__thread, hook) &&
                   HOOK_FIELD(struct ravel__plain_counts, quiet_at) &&
                   HOOK_FIELD(struct ravel__hook_thread, depth) &&
                   HOOK_FIELD(struct ravel__hook_thread, stack_id) &&
                   HOOK_FIELD(struct ravel__hook_thread, atomic_fn),
               "struct ravel__thread's hook fields are its hook member");
#undef HOOK_FIELD

static inline __attribute__((always_inline)) void
plain_access(const void *a, uint64_t size, bool write, uint64_t pc)
{
    struct ravel__worker *w = ravel__self;
    ravel__hook_access(w ? &w->view : NULL, &RAVEL__HOOKS_ABI, a, size,
                       write, pc, quiet_read, write ? race_write : race_read);
}

static struct ravel__event *atomic_step(struct ravel__worker *w,
                                        uint16_t kind, const volatile void *a,
                                        unsigned size, int mo, uint64_t pc);
static uint32_t atomic_obj(struct ravel__worker *w, const volatile void *a,
                           unsigned size);

/*
 * A volatile load or store (the compilers call these hooks apart from
 * plain ones when built with tsan-distinguish-volatile, which ravel-cc
 * and ravel_instrument ask for). Volatile flags are how much older code
 * waits for other threads (`while (!ready) {}`), so each access is a
 * visible operation, which lets the loop see the write it waits for and
 * lets spin-waits be recognised (src/model/spin.c). For the race
 * detector it is an acquire load or a release store: it publishes, as it
 * does on the hardware such code was written for, and is never reported
 * as a race. The hook runs before the compiler's own access, while this
 * thread holds the baton: a load's value is read here; a store's is not
 * known (the trace shows none).
 */
static void volatile_access(const void *a, unsigned size, bool write,
                            uint64_t pc)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return;
    int saved = errno;
    int mo = write ? __ATOMIC_RELEASE : __ATOMIC_ACQUIRE;
    /* obj2 set: a store ravel cannot buffer (src/model/model.c). */
    int rc;
    struct ravel__event *ev = ravel__step(
        w, write ? RAVEL__OP_ATOMIC_STORE : RAVEL__OP_ATOMIC_LOAD,
        atomic_obj(w, a, size), write ? 0 : RAVEL__NONE, mo, pc, &rc);
    ev->flags |= RAVEL__EV_VOLATILE;
    if (!write) {
        int64_t v = 0;
        memcpy(&v, a, size < sizeof v ? size : sizeof v);
        ev->value = v;
        if (RAVEL__UNLIKELY(ravel__rt.x->memory_model == RAVEL__MM_TSO) &&
            size <= 16) {
            /* The program's own load reads memory: what it reads is what
             * the event shows; note a store waiting in a buffer. */
            unsigned char b[16];
            uint16_t f = ev->flags;
            ravel__tso_load(w, ev, a, size, b);
            if (ev->flags & RAVEL__EV_FORWARDED) /* not what it reads */
                ev->flags = f, ev->aux = RAVEL__NONE;
        }
    }
    ravel__race_atomic(w, ev, mo, a, size);
    ravel__spin_note(ravel__rt.x, w->slot, ev);
    errno = saved;
}

/* The pc of an access is the return address into the program (the
 * instruction after the hook's call): symbolized like any call site. */
#define PC RAVEL__CALLER_PC
#define ACCESS_HOOKS(n)                                                        \
    RAVEL__EXPORT void __tsan_read##n(void *a)                                 \
    {                                                                          \
        plain_access(a, n, false, PC);                                         \
    }                                                                          \
    RAVEL__EXPORT void __tsan_write##n(void *a)                                \
    {                                                                          \
        plain_access(a, n, true, PC);                                          \
    }                                                                          \
    RAVEL__EXPORT void __tsan_read##n##_pc(void *a, void *pc)                  \
    {                                                                          \
        plain_access(a, n, false, (uint64_t)(uintptr_t)pc);                    \
    }                                                                          \
    RAVEL__EXPORT void __tsan_write##n##_pc(void *a, void *pc)                 \
    {                                                                          \
        plain_access(a, n, true, (uint64_t)(uintptr_t)pc);                     \
    }                                                                          \
    RAVEL__EXPORT void __tsan_unaligned_read##n(void *a)                       \
    {                                                                          \
        plain_access(a, n, false, PC);                                         \
    }                                                                          \
    RAVEL__EXPORT void __tsan_unaligned_write##n(void *a)                      \
    {                                                                          \
        plain_access(a, n, true, PC);                                          \
    }                                                                          \
    RAVEL__EXPORT void __tsan_volatile_read##n(void *a)                        \
    {                                                                          \
        volatile_access(a, n, false, PC);                                      \
    }                                                                          \
    RAVEL__EXPORT void __tsan_volatile_write##n(void *a)                       \
    {                                                                          \
        volatile_access(a, n, true, PC);                                       \
    }                                                                          \
    RAVEL__EXPORT void __tsan_unaligned_volatile_read##n(void *a)              \
    {                                                                          \
        volatile_access(a, n, false, PC);                                      \
    }                                                                          \
    RAVEL__EXPORT void __tsan_unaligned_volatile_write##n(void *a)             \
    {                                                                          \
        volatile_access(a, n, true, PC);                                       \
    }                                                                          \
    RAVEL__EXPORT void __tsan_compound_rw##n(void *a)                          \
    {                                                                          \
        plain_access(a, n, false, PC);                                         \
        plain_access(a, n, true, PC);                                          \
    }                                                                          \
    RAVEL__EXPORT void __tsan_unaligned_compound_rw##n(void *a)                \
    {                                                                          \
        plain_access(a, n, false, PC);                                         \
        plain_access(a, n, true, PC);                                          \
    }
ACCESS_HOOKS(1)
ACCESS_HOOKS(2)
ACCESS_HOOKS(4)
ACCESS_HOOKS(8)
ACCESS_HOOKS(16)
#undef ACCESS_HOOKS

RAVEL__EXPORT void __tsan_read_range(void *a, unsigned long size)
{
    plain_access(a, size, false, PC);
}

RAVEL__EXPORT void __tsan_write_range(void *a, unsigned long size)
{
    plain_access(a, size, true, PC);
}

RAVEL__EXPORT void __tsan_read_range_pc(void *a, unsigned long size, void *pc)
{
    plain_access(a, size, false, (uint64_t)(uintptr_t)pc);
}

RAVEL__EXPORT void __tsan_write_range_pc(void *a, unsigned long size, void *pc)
{
    plain_access(a, size, true, (uint64_t)(uintptr_t)pc);
}

/* C++ virtual-table pointers: counted, not checked (a vptr update in a
 * constructor or destructor racing with a call is a C++ matter that
 * ThreadSanitizer judges with knowledge ravel does not have). */
RAVEL__EXPORT void __tsan_vptr_update(void **vptr, void *val)
{
    (void)val;
    struct ravel__worker *w = ravel__controlled();
    (void)vptr;
    if (w) {
        ravel__rt.x->threads[w->slot].writes++;
        ravel__rt.x->threads[w->slot].side_writes++;
    }
}

RAVEL__EXPORT void __tsan_vptr_read(void **vptr)
{
    struct ravel__worker *w = ravel__controlled();
    (void)vptr;
    if (w)
        ravel__rt.x->threads[w->slot].reads++;
}

RAVEL__EXPORT void *__tsan_memcpy(void *d, const void *s, unsigned long n)
{
    plain_access(s, n, false, PC);
    plain_access(d, n, true, PC);
    return memcpy(d, s, n);
}

RAVEL__EXPORT void *__tsan_memmove(void *d, const void *s, unsigned long n)
{
    plain_access(s, n, false, PC);
    plain_access(d, n, true, PC);
    return memmove(d, s, n);
}

RAVEL__EXPORT void *__tsan_memset(void *d, int c, unsigned long n)
{
    plain_access(d, n, true, PC);
    return memset(d, c, n);
}

/* ---- atomics --------------------------------------------------------- */

typedef char a8;
typedef short a16;
typedef int a32;
typedef long a64;
__extension__ typedef __int128 a128;

static uint32_t atomic_obj(struct ravel__worker *w, const volatile void *a,
                           unsigned size)
{
    uint32_t known = ravel__obj_known(ravel__rt.x, (uint64_t)(uintptr_t)a,
                                      RAVEL__OBJ_ATOMIC);
    if (RAVEL__LIKELY(known != RAVEL__NONE))
        return known;
    bool created;
    uint32_t i = ravel__object(w, (const void *)a, RAVEL__OBJ_ATOMIC, &created);
    if (created)
        ravel__rt.x->objects[i].limit = size;
    return i;
}

/* Starts the visible operation; the caller performs the memory effect
 * and fills in the values. */
static struct ravel__event *atomic_step(struct ravel__worker *w,
                                        uint16_t kind, const volatile void *a,
                                        unsigned size, int mo, uint64_t pc)
{
    int rc;
    return ravel__step(w, kind, atomic_obj(w, a, size), RAVEL__NONE, mo, pc,
                       &rc);
}

#define SC __ATOMIC_SEQ_CST

#define RMW_HOOK(T, N, name, builtin, sub, expr_new)                           \
    RAVEL__EXPORT T __tsan_atomic##N##_##name(volatile T *a, T v, int mo)      \
    {                                                                          \
        struct ravel__worker *w = ravel__controlled();                         \
        if (!w)                                                                \
            return builtin(a, v, SC);                                          \
        int saved = errno;                                                     \
        struct ravel__event *ev = atomic_step(                                 \
            w, RAVEL__OP_ATOMIC_RMW, a, N / 8, mo, RAVEL__CALLER_PC);          \
        T old;                                                                 \
        if (RAVEL__UNLIKELY(ravel__rt.x->memory_model == RAVEL__MM_RC11)) {   \
            struct rmw_ctx c = {(int64_t)v, sub};                              \
            ravel__rc11_rmw(w, ev, a, N / 8, mo, NULL, &old, rmw_compute##N,   \
                            &c);                                               \
        } else {                                                               \
            old = builtin(a, v, SC);                                           \
        }                                                                      \
        ev->aux = sub;                                                         \
        ev->value = (int64_t)old;                                              \
        ev->value2 = (int64_t)(expr_new);                                      \
        ravel__race_atomic(w, ev, mo, a, N / 8);                               \
        if (RAVEL__UNLIKELY(ravel__rt.x->memory_model == RAVEL__MM_RC11))     \
            ravel__rc11_raced(ev);                                             \
        ravel__spin_note(ravel__rt.x, w->slot, ev);                            \
        errno = saved;                                                         \
        return old;                                                            \
    }

/* --memory-model rc11 computes a read-modify-write's new value from the
 * value the model chose for it to read (src/rt/rc11.c). */
struct rmw_ctx {
    int64_t v;
    int sub;
};

#define RC11_COMPUTE(T, N)                                                     \
    static void rmw_compute##N(const void *po, void *pn, void *ctx)           \
    {                                                                          \
        const struct rmw_ctx *c = ctx;                                         \
        T old, v = (T)c->v, r;                                                 \
        memcpy(&old, po, sizeof old);                                          \
        switch (c->sub) {                                                      \
        case RAVEL__RMW_XCHG: r = v; break;                                    \
        case RAVEL__RMW_ADD: r = (T)(old + v); break;                          \
        case RAVEL__RMW_SUB: r = (T)(old - v); break;                          \
        case RAVEL__RMW_AND: r = (T)(old & v); break;                          \
        case RAVEL__RMW_OR: r = (T)(old | v); break;                           \
        case RAVEL__RMW_XOR: r = (T)(old ^ v); break;                          \
        default: r = (T)~(old & v); break;                                     \
        }                                                                      \
        memcpy(pn, &r, sizeof r);                                              \
    }                                                                          \
    static void cas_compute##N(const void *po, void *pn, void *ctx)           \
    {                                                                          \
        (void)po;                                                              \
        memcpy(pn, ctx, sizeof(T));                                            \
    }
RC11_COMPUTE(a8, 8)
RC11_COMPUTE(a16, 16)
RC11_COMPUTE(a32, 32)
RC11_COMPUTE(a64, 64)
RC11_COMPUTE(a128, 128)

#define ATOMIC_HOOKS(T, N)                                                     \
    RAVEL__EXPORT T __tsan_atomic##N##_load(const volatile T *a, int mo)       \
    {                                                                          \
        struct ravel__worker *w = ravel__controlled();                         \
        if (!w)                                                                \
            return __atomic_load_n(a, SC);                                     \
        int saved = errno;                                                     \
        struct ravel__event *ev = atomic_step(                                 \
            w, RAVEL__OP_ATOMIC_LOAD, a, N / 8, mo, RAVEL__CALLER_PC);         \
        T v;                                                                   \
        if (RAVEL__UNLIKELY(ravel__rt.x->memory_model == RAVEL__MM_TSO))       \
            ravel__tso_load(w, ev, a, N / 8, &v);                              \
        else if (RAVEL__UNLIKELY(ravel__rt.x->memory_model ==                  \
                                 RAVEL__MM_RC11))                              \
            ravel__rc11_load(w, ev, a, N / 8, mo, &v);                         \
        else                                                                   \
            v = __atomic_load_n(a, SC);                                        \
        ev->value = (int64_t)v;                                                \
        ravel__race_atomic(w, ev, mo, a, N / 8);                               \
        ravel__spin_note(ravel__rt.x, w->slot, ev);                            \
        errno = saved;                                                         \
        return v;                                                              \
    }                                                                          \
    RAVEL__EXPORT void __tsan_atomic##N##_store(volatile T *a, T v, int mo)    \
    {                                                                          \
        struct ravel__worker *w = ravel__controlled();                         \
        if (!w) {                                                              \
            __atomic_store_n(a, v, SC);                                        \
            return;                                                            \
        }                                                                      \
        int saved = errno;                                                     \
        struct ravel__event *ev = atomic_step(                                 \
            w, RAVEL__OP_ATOMIC_STORE, a, N / 8, mo, RAVEL__CALLER_PC);        \
        if (RAVEL__UNLIKELY(ev->flags & RAVEL__EV_BUFFERED))                   \
            ravel__tso_store(w, ev, a, N / 8, &v, mo);                         \
        else if (RAVEL__UNLIKELY(ravel__rt.x->memory_model ==                  \
                                 RAVEL__MM_RC11))                              \
            ravel__rc11_store(w, ev, a, N / 8, &v, mo);                        \
        else                                                                   \
            __atomic_store_n(a, v, SC);                                        \
        ev->value = (int64_t)v;                                                \
        ravel__race_atomic(w, ev, mo, a, N / 8);                               \
        if (RAVEL__UNLIKELY(ravel__rt.x->memory_model == RAVEL__MM_RC11))     \
            ravel__rc11_raced(ev);                                             \
        ravel__spin_note(ravel__rt.x, w->slot, ev);                            \
        errno = saved;                                                         \
    }                                                                          \
    RMW_HOOK(T, N, exchange, __atomic_exchange_n, RAVEL__RMW_XCHG, v)          \
    RMW_HOOK(T, N, fetch_add, __atomic_fetch_add, RAVEL__RMW_ADD,              \
             (T)(old + v))                                                     \
    RMW_HOOK(T, N, fetch_sub, __atomic_fetch_sub, RAVEL__RMW_SUB,              \
             (T)(old - v))                                                     \
    RMW_HOOK(T, N, fetch_and, __atomic_fetch_and, RAVEL__RMW_AND,              \
             (T)(old & v))                                                     \
    RMW_HOOK(T, N, fetch_or, __atomic_fetch_or, RAVEL__RMW_OR, (T)(old | v))   \
    RMW_HOOK(T, N, fetch_xor, __atomic_fetch_xor, RAVEL__RMW_XOR,              \
             (T)(old ^ v))                                                     \
    RMW_HOOK(T, N, fetch_nand, __atomic_fetch_nand, RAVEL__RMW_NAND,           \
             (T)(~(old & v)))                                                  \
    /* Returns the old value; *expected/desired as for __atomic builtins. */  \
    static T cas##N(volatile T *a, T expected, T desired, int mo, bool *ok,    \
                    uint64_t pc)                                               \
    {                                                                          \
        struct ravel__worker *w = ravel__controlled();                         \
        T cur = expected;                                                      \
        if (!w) {                                                              \
            *ok = __atomic_compare_exchange_n(a, &cur, desired, false, SC,     \
                                              SC);                             \
            return cur;                                                        \
        }                                                                      \
        int saved = errno;                                                     \
        struct ravel__event *ev =                                              \
            atomic_step(w, RAVEL__OP_ATOMIC_CAS, a, N / 8, mo, pc);            \
        if (RAVEL__UNLIKELY(ravel__rt.x->memory_model == RAVEL__MM_RC11))     \
            *ok = ravel__rc11_rmw(w, ev, a, N / 8, mo, &expected, &cur,        \
                                  cas_compute##N, &desired);                   \
        else                                                                   \
            *ok = __atomic_compare_exchange_n(a, &cur, desired, false, SC,     \
                                              SC);                             \
        ev->aux = *ok;                                                         \
        ev->value = (int64_t)cur;                                              \
        ev->value2 = (int64_t)(*ok ? desired : expected);                      \
        ravel__race_atomic(w, ev, mo, a, N / 8);                               \
        if (RAVEL__UNLIKELY(ravel__rt.x->memory_model == RAVEL__MM_RC11))     \
            ravel__rc11_raced(ev);                                             \
        ravel__spin_note(ravel__rt.x, w->slot, ev);                            \
        errno = saved;                                                         \
        return cur;                                                            \
    }                                                                          \
    RAVEL__EXPORT int __tsan_atomic##N##_compare_exchange_strong(              \
        volatile T *a, T *c, T v, int mo, int fmo)                             \
    {                                                                          \
        (void)fmo;                                                             \
        bool ok;                                                               \
        T old = cas##N(a, *c, v, mo, &ok, RAVEL__CALLER_PC);                   \
        if (!ok)                                                               \
            *c = old;                                                          \
        return ok;                                                             \
    }                                                                          \
    /* A weak compare-exchange may fail spuriously; ravel does not make     \
     * it, which is one of the allowed behaviours. */                        \
    RAVEL__EXPORT int __tsan_atomic##N##_compare_exchange_weak(                \
        volatile T *a, T *c, T v, int mo, int fmo)                             \
    {                                                                          \
        (void)fmo;                                                             \
        bool ok;                                                               \
        T old = cas##N(a, *c, v, mo, &ok, RAVEL__CALLER_PC);                   \
        if (!ok)                                                               \
            *c = old;                                                          \
        return ok;                                                             \
    }                                                                          \
    RAVEL__EXPORT T __tsan_atomic##N##_compare_exchange_val(                   \
        volatile T *a, T c, T v, int mo, int fmo)                              \
    {                                                                          \
        (void)fmo;                                                             \
        bool ok;                                                               \
        return cas##N(a, c, v, mo, &ok, RAVEL__CALLER_PC);                     \
    }

ATOMIC_HOOKS(a8, 8)
ATOMIC_HOOKS(a16, 16)
ATOMIC_HOOKS(a32, 32)
ATOMIC_HOOKS(a64, 64)
ATOMIC_HOOKS(a128, 128)

RAVEL__EXPORT void __tsan_atomic_thread_fence(int mo)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w) {
        __atomic_thread_fence(SC);
        return;
    }
    int saved = errno, rc;
    ravel__step(w, RAVEL__OP_FENCE, RAVEL__NONE, RAVEL__NONE, mo,
                RAVEL__CALLER_PC, &rc);
    if (RAVEL__UNLIKELY(ravel__rt.x->memory_model == RAVEL__MM_RC11))
        ravel__rc11_fence(w, mo);
    __atomic_thread_fence(SC);
    errno = saved;
}

/* A signal fence orders a thread against its own signal handlers only: no
 * other thread is involved, so it is not a scheduling point. */
RAVEL__EXPORT void __tsan_atomic_signal_fence(int mo)
{
    (void)mo;
    __atomic_signal_fence(SC);
}
