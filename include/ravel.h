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
 */
#ifndef RAVEL_H
#define RAVEL_H

#define RAVEL_VERSION_MAJOR 0
#define RAVEL_VERSION_MINOR 1
#define RAVEL_VERSION_PATCH 0

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

#ifdef __cplusplus
}
#endif

#endif
