/*
 * ravel/svcomp.h - the SV-COMP verification conventions on top of ravel.
 *
 * Concurrency benchmarks from the SV-COMP competition (and programs
 * written for verifiers that follow it) use these functions; include this
 * header (ravel-cc puts it on the include path) and build with ravel-cc:
 *
 *   __VERIFIER_nondet_int() ...   a value ravel chooses: systematic
 *                                 strategies try every value of bool, char
 *                                 and unsigned char, and a small range for
 *                                 wider types (RAVEL_SVCOMP_RANGE)
 *   __VERIFIER_assume(c)          discard executions where c is false
 *   __VERIFIER_atomic_begin/end() an atomic section
 *   reach_error()                 a bug (reported as an assertion)
 *
 * Functions whose name starts with __VERIFIER_atomic_ run atomically: the
 * runtime finds them in the program's symbol table and opens an atomic
 * section when one is entered. A call the compiler inlined is not seen:
 * build such programs at -O0 (as SV-COMP programs usually are), or mark
 * the functions __attribute__((noinline)). Programs that create threads without bound
 * can be capped with --max-threads (docs/exploration.md).
 */
#ifndef RAVEL_SVCOMP_H
#define RAVEL_SVCOMP_H

#include <ravel.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values tried for types wider than a byte: -R .. R (and 0 .. 2R for
 * unsigned types). A complete search over 2^32 values is not useful; bugs
 * in such benchmarks hinge on small values and their signs. */
#ifndef RAVEL_SVCOMP_RANGE
#define RAVEL_SVCOMP_RANGE 2
#endif

static inline long ravel__svcomp_signed(void)
{
    return (long)ravel_choose(2 * RAVEL_SVCOMP_RANGE + 1) - RAVEL_SVCOMP_RANGE;
}

static inline _Bool __VERIFIER_nondet_bool(void)
{
    return ravel_choose(2) != 0;
}
static inline char __VERIFIER_nondet_char(void)
{
    return (char)((int)ravel_choose(256) - 128);
}
static inline unsigned char __VERIFIER_nondet_uchar(void)
{
    return (unsigned char)ravel_choose(256);
}
static inline short __VERIFIER_nondet_short(void)
{
    return (short)ravel__svcomp_signed();
}
static inline unsigned short __VERIFIER_nondet_ushort(void)
{
    return (unsigned short)ravel_choose(2 * RAVEL_SVCOMP_RANGE + 1);
}
static inline int __VERIFIER_nondet_int(void)
{
    return (int)ravel__svcomp_signed();
}
static inline unsigned int __VERIFIER_nondet_uint(void)
{
    return ravel_choose(2 * RAVEL_SVCOMP_RANGE + 1);
}
static inline long __VERIFIER_nondet_long(void)
{
    return ravel__svcomp_signed();
}
static inline unsigned long __VERIFIER_nondet_ulong(void)
{
    return ravel_choose(2 * RAVEL_SVCOMP_RANGE + 1);
}
static inline void *__VERIFIER_nondet_pointer(void)
{
    return (void *)0;
}

static inline void __VERIFIER_assume(int cond)
{
    ravel_assume(cond);
}

static inline void __VERIFIER_atomic_begin(void)
{
    ravel_atomic_begin();
}

static inline void __VERIFIER_atomic_end(void)
{
    ravel_atomic_end();
}

/* The error location of SV-COMP's reachability property. */
#define reach_error() ravel__svcomp_reach_error(__FILE__, __LINE__, __func__)
static inline void ravel__svcomp_reach_error(const char *file, unsigned line,
                                             const char *func)
{
    extern void __assert_fail(const char *, const char *, unsigned,
                              const char *);
    __assert_fail("reach_error()", file, line, func);
}

#ifdef __cplusplus
}
#endif

#endif
