/*
 * spin.h - spin-waits: a loop iteration that only reads is not a new
 * behaviour (the method is described in spin.c).
 */
#ifndef RAVEL_SPIN_H
#define RAVEL_SPIN_H

#include "model.h"

/* Is an event of this kind, with this outcome, a read without side effect
 * (an atomic or volatile load, a failed compare-exchange, a promoted plain
 * read, or a read-modify-write that left the value as it was: the
 * test-and-set of a lock that is held, `while (xchg(&l, 1)) {}`)? */
static inline bool ravel__spin_is_read(const struct ravel__event *ev)
{
    return ev->kind == RAVEL__OP_ATOMIC_LOAD ||
           ev->kind == RAVEL__OP_PLAIN_READ ||
           (ev->kind == RAVEL__OP_ATOMIC_CAS && !ev->aux) ||
           (ev->kind == RAVEL__OP_ATOMIC_RMW && ev->value == ev->value2);
}

/*
 * Thread t has published its pending operation. When it is a read that
 * thread t already made since its last side effect (same instruction,
 * same call site, same location), it has gone once round a loop that only
 * reads: t now waits for the rest of the execution (it is no longer
 * enabled) and the execution is marked as not a trace of its own.
 * Returns true then. Not a scheduling point; the caller is about to make
 * one.
 */
bool ravel__spin_check(struct ravel__exec *x, uint32_t t);

/* After thread t's event ev (its values filled in): extends t's window
 * of reads, or closes it on a side effect; a write wakes nobody but is
 * remembered by the threads waiting on its object. */
void ravel__spin_note(struct ravel__exec *x, uint32_t t,
                      const struct ravel__event *ev);

/* No thread is enabled and some wait in spin loops: returns one that
 * waits forever (no thread wrote what it reads since it started waiting)
 * when every waiting thread does; RAVEL__NONE when one of them would have
 * gone on, so the execution is a longer form of one explored without
 * the repeated iteration. The thread's spin_sure says whether that is
 * proven (it repeated an iteration value for value); if not, release it
 * to find out. */
uint32_t ravel__spin_stuck(const struct ravel__exec *x);

/* Forgets thread t's reads so far: ravel's own code calls this where the
 * thread does something the hooks cannot see (the property-test runner
 * between two commands), so that reads on either side are not taken for
 * one loop. */
static inline void ravel__spin_forget(struct ravel__thread *th)
{
    th->spin_n = 0;
    th->spin_verify = 0;
}

/* Exact repetitions a thread running alone must make before it is
 * reported as spinning forever: a bounded poll (`for (i = 0; i < 100;
 * i++) if (load(&x)) ...`) repeats too, but ends; 1,000 covers the spin
 * counts of adaptive locks, and an iteration costs a few steps of the
 * 100,000 an execution may take by default. */
#define RAVEL__SPIN_PROOF 1000

/* Lets thread t, waiting in a spin loop while no thread can run, go on
 * alone: ravel__spin_check blocks it again only when it repeated an
 * iteration exactly RAVEL__SPIN_PROOF times (then it spins forever), and
 * it is free once it does anything but read. */
void ravel__spin_release(struct ravel__exec *x, uint32_t t);

#endif
