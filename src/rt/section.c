/*
 * section.c - atomic sections: ravel_atomic_begin/end, SV-COMP's
 * __VERIFIER_atomic_begin/end and functions named __VERIFIER_atomic_*.
 *
 * Entering the outermost section is a scheduling point, the SECTION
 * operation on one object that stands for every section of the execution
 * (a global lock): the strategies choose when each section runs, and
 * DPOR, which classes SECTION as dependent with every other SECTION,
 * explores every order of the sections. Inside a section the thread is
 * never preempted (sched.c goes on with it unless it blocks), so sections
 * are mutually exclusive without any lock state, and the race detector
 * orders them like critical sections of one lock (race.c).
 *
 * Assumptions inside a section. In the SV-COMP convention
 *
 *     __VERIFIER_atomic_begin();
 *     __VERIFIER_assume(lock == 0);   // wait until the lock is free
 *     lock = 1;
 *     __VERIFIER_atomic_end();
 *
 * a false assumption means "this section cannot run now", not "discard
 * the execution": the thread waits until another thread changes the
 * state. So the section is rolled back: the thread resumes at its
 * SECTION step as if the section had not begun, the step's event is
 * flagged FAILED, and the thread's next SECTION is disabled until another
 * thread's section has run to its end (the model's section generation).
 * Under the global-lock view only another section can make the
 * assumption true in a race-free program: any other write it could read
 * races with the section's read, which the detector reports, and
 * race-directed scheduling then makes that write a visible step that
 * ends the wait (below). When no thread can go on
 * and one waits this way, the execution is infeasible and is discarded
 * (END_BLOCKED), not reported as a deadlock.
 *
 * Rolling back is a checkpoint taken right after the SECTION step:
 * __builtin_setjmp in ravel__section_enter's frame plus a copy of the
 * thread's stack from below that frame up to where the program's code
 * starts (the thread's start routine or main). The rollback copies the
 * stack back (from a frame moved below the copied range with alloca) and
 * jumps. It is only done when the section did nothing that cannot be
 * undone that way: no visible operation other than reads (a promoted
 * plain read, an atomic load), no data choice and no plain write since it
 * began (heap memory and globals are not copied). Else the false
 * assumption discards the execution, as outside sections. The wait ends
 * when another thread's section ends, or when another thread writes, in a
 * visible step, something the failed attempt read in one: a racing
 * variable promoted by race-directed scheduling is written outside
 * sections, and the section waiting on it must see that.
 *
 * One checkpoint exists at a time: only one thread is ever inside a
 * section, and a thread that blocks inside one (a visible operation) can
 * no longer be rolled back anyway.
 */
#include "rt.h"

#include <string.h>
#include <sys/mman.h>

/* The object every section steps on (its address only names it). */
static char section_anchor;

/* Stacks deeper than this (from the section's frame to the program's
 * first frame) are not copied: such sections are not rolled back. */
#define CKPT_MAX (64 * 1024)

static struct {
    bool valid;
    uint32_t owner;   /* thread slot */
    uint32_t obj;     /* the section object */
    uint32_t event;   /* the SECTION event */
    uint32_t nevents, nvchoices;
    uint64_t writes;
    /* Thread state the hooks keep, as at the step. */
    uint64_t depth;
    uint32_t stack_id, atomic, atomic_fn;
    uint64_t atomic_fn_depth[8];
    uint64_t frames[RAVEL__STACK_FRAMES];
    /* The stack. */
    uintptr_t lo;
    size_t len;
    void *jb[5];
    unsigned char *copy; /* CKPT_MAX bytes, mapped once */
} ck;

uint32_t ravel__section_object(struct ravel__worker *w)
{
    bool created;
    uint32_t o = ravel__object(w, &section_anchor, RAVEL__OBJ_SECTION,
                               &created);
    /* Named the same in every process (the runtime's address is not). */
    if (created)
        ravel__rt.x->objects[o].key = 0x5345435449304e31ULL;
    return o;
}

/* Copies the stack from just below the caller's frame to the program's
 * first frame. Not inlined: its own frame lies below the caller's. */
__attribute__((noinline)) static void take_copy(struct ravel__worker *w)
{
    uintptr_t lo = (uintptr_t)__builtin_frame_address(0);
    uintptr_t hi = (uintptr_t)w->prog_top;
    ck.valid = false;
    if (!hi || hi <= lo || hi - lo > CKPT_MAX)
        return;
    if (!ck.copy) {
        void *m = mmap(NULL, CKPT_MAX, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return;
        ck.copy = m;
    }
    ck.lo = lo;
    ck.len = hi - lo;
    memcpy(ck.copy, (const void *)lo, ck.len);
    ck.valid = true;
}

void ravel__section_enter(struct ravel__worker *w, uint64_t pc)
{
    /* Read again after a rollback: kept in the frame, not registers. */
    struct ravel__worker *volatile vw = w;
    volatile uint64_t vpc = pc;
    for (;;) {
        w = vw;
        pc = vpc;
        struct ravel__exec *x = ravel__rt.x;
        uint32_t me = w->slot;
        struct ravel__thread *th = &x->threads[me];
        uint32_t obj = ravel__section_object(w);
        int rc;
        ravel__step(w, RAVEL__OP_SECTION, obj, RAVEL__NONE, 0, pc, &rc);
        ck.owner = me;
        ck.obj = obj;
        ck.event = x->nevents - 1;
        ck.nevents = x->nevents;
        ck.nvchoices = x->nvchoices;
        ck.writes = th->writes;
        ck.depth = th->depth;
        ck.stack_id = th->stack_id;
        ck.atomic = th->atomic;
        ck.atomic_fn = th->atomic_fn;
        memcpy(ck.atomic_fn_depth, th->atomic_fn_depth,
               sizeof ck.atomic_fn_depth);
        memcpy(ck.frames, th->frames, sizeof ck.frames);
        if (__builtin_setjmp(ck.jb) == 0) {
            take_copy(w);
            break;
        }
        /* Rolled back (the stack is as it was at the copy): put back
         * what the hooks changed since, and wait at a new step. */
        w = vw;
        x = ravel__rt.x;
        th = &x->threads[w->slot];
        th->depth = ck.depth;
        th->stack_id = ck.stack_id;
        th->atomic = ck.atomic;
        th->atomic_fn = ck.atomic_fn;
        memcpy(th->atomic_fn_depth, ck.atomic_fn_depth,
               sizeof ck.atomic_fn_depth);
        memcpy(th->frames, ck.frames, sizeof ck.frames);
        ck.valid = false;
    }
    ravel__race_atomic_section(vw->slot, true);
}

void ravel__section_leave(struct ravel__worker *w)
{
    ravel__race_atomic_section(w->slot, false);
    if (ck.owner == w->slot)
        ck.valid = false;
    ravel__section_done(ravel__rt.x, ravel__section_object(w));
}

__attribute__((noinline, noreturn)) static void restore_and_jump(void)
{
    memcpy((void *)ck.lo, ck.copy, ck.len);
    __builtin_longjmp(ck.jb, 1);
}

/* Moves the stack pointer below the range to restore, then restores. */
__attribute__((noinline, noreturn)) static void rollback_jump(void)
{
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (here + 4096 > ck.lo) {
        volatile char *pad = __builtin_alloca(here - ck.lo + 8192);
        pad[0] = 0;
        restore_and_jump();
    }
    restore_and_jump();
}

void ravel__section_assume_failed(struct ravel__worker *w)
{
    struct ravel__exec *x = ravel__rt.x;
    const struct ravel__thread *th = &x->threads[w->slot];
    if (!ck.valid || ck.owner != w->slot || x->nvchoices != ck.nvchoices ||
        th->writes != ck.writes)
        return;
    /* Visible steps since the section began: only reads (a promoted plain
     * read, an atomic load) leave nothing to undo; they stay in the log
     * as what the failed attempt read. */
    for (uint32_t e = ck.nevents; e < x->nevents; e++) {
        uint16_t k = x->events[e].kind;
        if (x->events[e].thread != w->slot ||
            (k != RAVEL__OP_PLAIN_READ && k != RAVEL__OP_ATOMIC_LOAD))
            return;
    }
    ravel__race_atomic_section(w->slot, false);
    ravel__section_rolled_back(x, w->slot, ck.obj, ck.event);
    rollback_jump();
}
