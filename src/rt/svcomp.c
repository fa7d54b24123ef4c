/*
 * svcomp.c - the functions of SV-COMP's verification conventions, defined
 * in the runtime so that tasks work as they are published: a task declares
 * them itself (`extern int __VERIFIER_nondet_int(void);`), often in a
 * preprocessed .i file that no header can reach, and links against the
 * runtime like any program built with ravel-cc. include/ravel/svcomp.h
 * only declares them.
 *
 *   __VERIFIER_nondet_T()     a data choice (ravel_choose): every value of
 *                             bool, char and unsigned char; -R .. R for
 *                             wider signed types and 0 .. 2R for unsigned
 *                             ones (R = --nondet-range, 2 by default);
 *                             pointers are NULL. A run that used a
 *                             limited one is never complete (its
 *                             guarantee says so)
 *   __VERIFIER_assume(c)      ravel_assume: outside an atomic section a
 *                             false c discards the execution; inside one
 *                             the section waits (section.c)
 *   __VERIFIER_atomic_begin/end  ravel_atomic_begin/end
 *   __VERIFIER_error(), reach_error()   the error: an assertion failure
 *
 * A task that defines its own reach_error (nearly all do) keeps it: the
 * program's definition wins symbol lookup, and entering it is the error
 * (intercept/tsan.c finds it by name, process/modules.c), whatever its
 * body does. None of these is a scheduling point except the atomic
 * sections'; outside ravel's control the choices return 0 and the rest do
 * nothing.
 */
#include "rt.h"

#include "../../include/ravel.h"

#include <stdlib.h>

/* Declared by the tasks themselves (and in part by ravel/svcomp.h). */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

RAVEL__NORETURN void ravel__svcomp_error(struct ravel__worker *w, uint64_t pc,
                                         const char *what)
{
    ravel__fail_now(w, RAVEL__FAIL_ASSERTION, pc, "%s", what);
}

static long nondet_signed(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return 0;
    uint64_t r = ravel__rt.opt.nondet_range;
    if (r > 1000)
        r = 1000;
    ravel__rt.sh->nondet_limited = 1; /* the guarantee says so */
    return (long)ravel__choose_data(w, (uint32_t)(2 * r + 1)) - (long)r;
}

static unsigned long nondet_unsigned(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return 0;
    uint64_t r = ravel__rt.opt.nondet_range;
    if (r > 1000)
        r = 1000;
    ravel__rt.sh->nondet_limited = 1;
    return ravel__choose_data(w, (uint32_t)(2 * r + 1));
}

static unsigned nondet_byte(void)
{
    struct ravel__worker *w = ravel__controlled();
    return w ? ravel__choose_data(w, 256) : 0;
}

RAVEL__EXPORT _Bool __VERIFIER_nondet_bool(void)
{
    struct ravel__worker *w = ravel__controlled();
    return w ? ravel__choose_data(w, 2) != 0 : 0;
}

RAVEL__EXPORT char __VERIFIER_nondet_char(void)
{
    return (char)((int)nondet_byte() - 128);
}

RAVEL__EXPORT unsigned char __VERIFIER_nondet_uchar(void)
{
    return (unsigned char)nondet_byte();
}

RAVEL__EXPORT unsigned char __VERIFIER_nondet_u8(void)
{
    return (unsigned char)nondet_byte();
}

RAVEL__EXPORT short __VERIFIER_nondet_short(void)
{
    return (short)nondet_signed();
}

RAVEL__EXPORT unsigned short __VERIFIER_nondet_ushort(void)
{
    return (unsigned short)nondet_unsigned();
}

RAVEL__EXPORT unsigned short __VERIFIER_nondet_u16(void)
{
    return (unsigned short)nondet_unsigned();
}

RAVEL__EXPORT int __VERIFIER_nondet_int(void)
{
    return (int)nondet_signed();
}

RAVEL__EXPORT unsigned int __VERIFIER_nondet_uint(void)
{
    return (unsigned int)nondet_unsigned();
}

RAVEL__EXPORT unsigned int __VERIFIER_nondet_unsigned(void)
{
    return (unsigned int)nondet_unsigned();
}

RAVEL__EXPORT unsigned int __VERIFIER_nondet_u32(void)
{
    return (unsigned int)nondet_unsigned();
}

RAVEL__EXPORT long __VERIFIER_nondet_long(void)
{
    return nondet_signed();
}

RAVEL__EXPORT unsigned long __VERIFIER_nondet_ulong(void)
{
    return nondet_unsigned();
}

RAVEL__EXPORT long long __VERIFIER_nondet_longlong(void)
{
    return nondet_signed();
}

RAVEL__EXPORT unsigned long long __VERIFIER_nondet_ulonglong(void)
{
    return nondet_unsigned();
}

RAVEL__EXPORT i128 __VERIFIER_nondet_int128(void)
{
    return nondet_signed();
}

RAVEL__EXPORT u128 __VERIFIER_nondet_uint128(void)
{
    return nondet_unsigned();
}

RAVEL__EXPORT long __VERIFIER_nondet_loff_t(void)
{
    return nondet_signed();
}

RAVEL__EXPORT unsigned long __VERIFIER_nondet_size_t(void)
{
    return nondet_unsigned();
}

RAVEL__EXPORT unsigned long __VERIFIER_nondet_sector_t(void)
{
    return nondet_unsigned();
}

RAVEL__EXPORT unsigned long __VERIFIER_nondet_pthread_t(void)
{
    return nondet_unsigned();
}

RAVEL__EXPORT float __VERIFIER_nondet_float(void)
{
    return (float)nondet_signed();
}

RAVEL__EXPORT double __VERIFIER_nondet_double(void)
{
    return (double)nondet_signed();
}

static void *nondet_null(void)
{
    if (ravel__controlled())
        ravel__rt.sh->nondet_limited = 1;
    return NULL;
}

RAVEL__EXPORT char *__VERIFIER_nondet_pchar(void)
{
    return nondet_null();
}

RAVEL__EXPORT void *__VERIFIER_nondet_pointer(void)
{
    return nondet_null();
}

RAVEL__EXPORT void __VERIFIER_assume(int cond)
{
    ravel_assume(cond);
}

RAVEL__EXPORT void __VERIFIER_atomic_begin(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return;
    if (ravel__rt.x->threads[w->slot].atomic == 0)
        ravel__section_enter(w, RAVEL__CALLER_PC);
    ravel__rt.x->threads[w->slot].atomic++;
}

RAVEL__EXPORT void __VERIFIER_atomic_end(void)
{
    ravel_atomic_end();
}

RAVEL__EXPORT void __VERIFIER_error(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__svcomp_error(w, RAVEL__CALLER_PC, "__VERIFIER_error() called");
    abort();
}

RAVEL__EXPORT void reach_error(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (w)
        ravel__svcomp_error(w, RAVEL__CALLER_PC, "reach_error() called");
    abort();
}
