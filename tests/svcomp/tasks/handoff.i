# 1 "handoff.c"
# 1 "<built-in>"
# 1 "<command-line>"
# 1 "handoff.c"
/* A preprocessed task (.i, LP64): the system headers' declarations are
   written out, as in the competition's .i files. A value handed over
   through a mutex and a flag the consumer waits on with assume: the
   consumer always reads what the producer wrote. */
typedef unsigned long int pthread_t;
typedef union { char __size[56]; long int __align; } pthread_attr_t;
typedef union { char __size[40]; long int __align; } pthread_mutex_t;
typedef union { char __size[4]; int __align; } pthread_mutexattr_t;
extern int pthread_create(pthread_t *__restrict __newthread, const pthread_attr_t *__restrict __attr, void *(*__start_routine)(void *), void *__restrict __arg) __attribute__((__nothrow__)) __attribute__((__nonnull__(1, 3)));
extern int pthread_join(pthread_t __th, void **__thread_return);
extern int pthread_mutex_lock(pthread_mutex_t *__mutex) __attribute__((__nothrow__)) __attribute__((__nonnull__(1)));
extern int pthread_mutex_unlock(pthread_mutex_t *__mutex) __attribute__((__nothrow__)) __attribute__((__nonnull__(1)));
extern void abort(void) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
extern void __assert_fail(const char *__assertion, const char *__file, unsigned int __line, const char *__function) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "handoff.c", 3, "reach_error"); }
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);
# 20 "handoff.c"
pthread_mutex_t m = { { 0 } };
int full = 0;
int value = 0;

void *producer(void *arg)
{
  pthread_mutex_lock(&m);
  value = 7;
  pthread_mutex_unlock(&m);
  __VERIFIER_atomic_begin();
  full = 1;
  __VERIFIER_atomic_end();
  return 0;
}

void *consumer(void *arg)
{
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(full == 1);
  __VERIFIER_atomic_end();
  pthread_mutex_lock(&m);
  if (value != 7) {
    ERROR: {reach_error(); abort();}
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
