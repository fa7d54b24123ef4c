/* Values of every __VERIFIER_nondet_* type, declared extern as tasks do;
 * the error needs particular values (char -1, unsigned 2, short -2, bool
 * true) and the thread's store to land before main's check. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "nondet_types.c", 5, "reach_error"); }
extern _Bool __VERIFIER_nondet_bool(void);
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern void *__VERIFIER_nondet_pointer(void);
extern unsigned long __VERIFIER_nondet_size_t(void);
extern unsigned int __VERIFIER_nondet_u32(void);

#include <pthread.h>
#include <stdatomic.h>

atomic_int stored = 0;

void *worker(void *arg)
{
    atomic_store(&stored, 1);
    return 0;
}

int main(void)
{
    pthread_t t;
    /* Every type is callable; most values do not matter. */
    (void)__VERIFIER_nondet_uchar(); (void)__VERIFIER_nondet_ushort();
    (void)__VERIFIER_nondet_int(); (void)__VERIFIER_nondet_long();
    (void)__VERIFIER_nondet_ulong(); (void)__VERIFIER_nondet_longlong();
    (void)__VERIFIER_nondet_ulonglong(); (void)__VERIFIER_nondet_float();
    (void)__VERIFIER_nondet_double(); (void)__VERIFIER_nondet_size_t();
    (void)__VERIFIER_nondet_u32();
    if (__VERIFIER_nondet_pointer() != 0)
        abort();
    pthread_create(&t, 0, worker, 0);
    char c = __VERIFIER_nondet_char();
    unsigned int u = __VERIFIER_nondet_uint();
    short s = __VERIFIER_nondet_short();
    _Bool b = __VERIFIER_nondet_bool();
    if (c == -1 && u == 2 && s == -2 && b && atomic_load(&stored)) {
        ERROR: {reach_error(); abort();}
    }
    pthread_join(t, 0);
    return 0;
}
