/*
 * ravel/svcomp.h - the SV-COMP verification conventions on top of ravel.
 *
 * Concurrency benchmarks from the SV-COMP competition (and programs
 * written for verifiers that follow it) use these functions. The runtime
 * defines them all (src/rt/svcomp.c), so a task that declares them itself,
 * as published tasks do, needs no header; this one declares them for
 * programs written here. Build with ravel-cc, or run a task's .yml with
 * `ravel svcomp` (docs/svcomp.md):
 *
 *   __VERIFIER_nondet_int() ...   a value ravel chooses: systematic
 *                                 strategies try every value of bool, char
 *                                 and unsigned char, and -R .. R for wider
 *                                 types (0 .. 2R unsigned; R is
 *                                 --nondet-range, 2 by default)
 *   __VERIFIER_assume(c)          outside an atomic section: discard
 *                                 executions where c is false; inside one:
 *                                 the section waits until c holds
 *   __VERIFIER_atomic_begin/end() an atomic section (a scheduling point)
 *   reach_error(), __VERIFIER_error()  the error (reported as an assertion)
 *
 * Functions whose name starts with __VERIFIER_atomic_ run atomically, and
 * a program's own reach_error is the error whatever its body: the runtime
 * finds them in the program's symbol table and acts when one is entered.
 * A call the compiler inlined is not seen: build such programs at -O0 (as
 * SV-COMP programs usually are), or mark the functions
 * __attribute__((noinline)). Programs that create threads without bound
 * can be capped with --max-threads (docs/exploration.md).
 */
#ifndef RAVEL_SVCOMP_H
#define RAVEL_SVCOMP_H

#include <ravel.h>

#ifdef __cplusplus
extern "C" {
#endif

_Bool __VERIFIER_nondet_bool(void);
char __VERIFIER_nondet_char(void);
unsigned char __VERIFIER_nondet_uchar(void);
short __VERIFIER_nondet_short(void);
unsigned short __VERIFIER_nondet_ushort(void);
int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
unsigned int __VERIFIER_nondet_unsigned(void);
long __VERIFIER_nondet_long(void);
unsigned long __VERIFIER_nondet_ulong(void);
long long __VERIFIER_nondet_longlong(void);
unsigned long long __VERIFIER_nondet_ulonglong(void);
float __VERIFIER_nondet_float(void);
double __VERIFIER_nondet_double(void);
void *__VERIFIER_nondet_pointer(void);
void __VERIFIER_assume(int cond);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
void __VERIFIER_error(void) __attribute__((__noreturn__));
void reach_error(void);

#ifdef __cplusplus
}
#endif

#endif
