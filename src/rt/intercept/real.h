/*
 * real.h - the functions ravel interposes, and how it calls the originals.
 *
 * The runtime is a shared library that precedes libc in the program's
 * dependencies, so its definitions of pthread_mutex_lock, malloc, exit ...
 * win symbol lookup. Each interceptor calls the original through a pointer
 * resolved with dlsym(RTLD_NEXT) when it is not controlling the caller:
 * before main, after the run, in threads ravel did not create.
 *
 * RAVEL_REAL_LIST is the single list of those originals; REAL(name) gives
 * the pointer, resolving the whole table on first use (an interceptor can
 * be reached before the runtime's constructor ran, from another library's
 * constructor).
 */
#ifndef RAVEL_REAL_H
#define RAVEL_REAL_H

#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>

#define RAVEL_REAL_LIST(X)                                                     \
    X(int, pthread_create,                                                     \
      (pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))        \
    X(int, pthread_join, (pthread_t, void **))                                 \
    X(int, pthread_tryjoin_np, (pthread_t, void **))                           \
    X(int, pthread_timedjoin_np, (pthread_t, void **, const struct timespec *))\
    X(int, pthread_detach, (pthread_t))                                        \
    X(pthread_t, pthread_self, (void))                                         \
    X(int, pthread_clockjoin_np,                                               \
      (pthread_t, void **, clockid_t, const struct timespec *))                \
    X(void, pthread_exit, (void *))                                            \
    X(int, pthread_once, (pthread_once_t *, void (*)(void)))                   \
    X(int, pthread_key_create, (pthread_key_t *, void (*)(void *)))            \
    X(int, pthread_key_delete, (pthread_key_t))                                \
    X(void *, pthread_getspecific, (pthread_key_t))                            \
    X(int, pthread_setspecific, (pthread_key_t, const void *))                 \
    X(int, pthread_mutex_init,                                                 \
      (pthread_mutex_t *, const pthread_mutexattr_t *))                        \
    X(int, pthread_mutex_destroy, (pthread_mutex_t *))                         \
    X(int, pthread_mutex_lock, (pthread_mutex_t *))                            \
    X(int, pthread_mutex_trylock, (pthread_mutex_t *))                         \
    X(int, pthread_mutex_timedlock,                                            \
      (pthread_mutex_t *, const struct timespec *))                            \
    X(int, pthread_mutex_clocklock,                                            \
      (pthread_mutex_t *, clockid_t, const struct timespec *))                 \
    X(int, pthread_mutex_unlock, (pthread_mutex_t *))                          \
    X(int, pthread_cond_init, (pthread_cond_t *, const pthread_condattr_t *))  \
    X(int, pthread_cond_destroy, (pthread_cond_t *))                           \
    X(int, pthread_cond_wait, (pthread_cond_t *, pthread_mutex_t *))           \
    X(int, pthread_cond_timedwait,                                             \
      (pthread_cond_t *, pthread_mutex_t *, const struct timespec *))          \
    X(int, pthread_cond_clockwait,                                             \
      (pthread_cond_t *, pthread_mutex_t *, clockid_t,                         \
       const struct timespec *))                                               \
    X(int, pthread_cond_signal, (pthread_cond_t *))                            \
    X(int, pthread_cond_broadcast, (pthread_cond_t *))                         \
    X(int, pthread_rwlock_init,                                                \
      (pthread_rwlock_t *, const pthread_rwlockattr_t *))                      \
    X(int, pthread_rwlock_destroy, (pthread_rwlock_t *))                       \
    X(int, pthread_rwlock_rdlock, (pthread_rwlock_t *))                        \
    X(int, pthread_rwlock_tryrdlock, (pthread_rwlock_t *))                     \
    X(int, pthread_rwlock_timedrdlock,                                         \
      (pthread_rwlock_t *, const struct timespec *))                           \
    X(int, pthread_rwlock_clockrdlock,                                         \
      (pthread_rwlock_t *, clockid_t, const struct timespec *))                \
    X(int, pthread_rwlock_wrlock, (pthread_rwlock_t *))                        \
    X(int, pthread_rwlock_trywrlock, (pthread_rwlock_t *))                     \
    X(int, pthread_rwlock_timedwrlock,                                         \
      (pthread_rwlock_t *, const struct timespec *))                           \
    X(int, pthread_rwlock_clockwrlock,                                         \
      (pthread_rwlock_t *, clockid_t, const struct timespec *))                \
    X(int, pthread_rwlock_unlock, (pthread_rwlock_t *))                        \
    X(int, pthread_spin_init, (pthread_spinlock_t *, int))                     \
    X(int, pthread_spin_destroy, (pthread_spinlock_t *))                       \
    X(int, pthread_spin_lock, (pthread_spinlock_t *))                          \
    X(int, pthread_spin_trylock, (pthread_spinlock_t *))                       \
    X(int, pthread_spin_unlock, (pthread_spinlock_t *))                        \
    X(int, pthread_barrier_init,                                               \
      (pthread_barrier_t *, const pthread_barrierattr_t *, unsigned))          \
    X(int, pthread_barrier_destroy, (pthread_barrier_t *))                     \
    X(int, pthread_barrier_wait, (pthread_barrier_t *))                        \
    X(int, sem_init, (sem_t *, int, unsigned))                                 \
    X(int, sem_destroy, (sem_t *))                                             \
    X(int, sem_wait, (sem_t *))                                                \
    X(int, sem_trywait, (sem_t *))                                             \
    X(int, sem_timedwait, (sem_t *, const struct timespec *))                  \
    X(int, sem_clockwait, (sem_t *, clockid_t, const struct timespec *))       \
    X(int, sem_post, (sem_t *))                                                \
    X(int, sem_getvalue, (sem_t *, int *))                                     \
    X(int, sched_yield, (void))                                                \
    X(unsigned, sleep, (unsigned))                                             \
    X(int, usleep, (useconds_t))                                               \
    X(int, nanosleep, (const struct timespec *, struct timespec *))            \
    X(int, clock_nanosleep,                                                    \
      (clockid_t, int, const struct timespec *, struct timespec *))            \
    X(void, exit, (int))                                                       \
    X(void, _exit, (int))                                                      \
    X(void, _Exit, (int))                                                      \
    X(void, abort, (void))                                                     \
    X(void, __assert_fail,                                                     \
      (const char *, const char *, unsigned, const char *))                    \
    X(int, __cxa_atexit, (void (*)(void *), void *, void *))                   \
    X(void *, malloc, (size_t))                                                \
    X(void *, calloc, (size_t, size_t))                                        \
    X(void *, realloc, (void *, size_t))                                       \
    X(void, free, (void *))                                                    \
    X(int, posix_memalign, (void **, size_t, size_t))                          \
    X(void *, aligned_alloc, (size_t, size_t))                                 \
    X(void *, memalign, (size_t, size_t))                                      \
    X(void *, valloc, (size_t))                                                \
    X(void *, pvalloc, (size_t))                                               \
    X(pid_t, fork, (void))                                                     \
    X(int, chdir, (const char *))                                              \
    X(int, fchdir, (int))                                                      \
    X(int, sigprocmask, (int, const sigset_t *, sigset_t *))                   \
    X(int, pthread_sigmask, (int, const sigset_t *, sigset_t *))               \
    X(int, close, (int))                                                       \
    X(int, dup, (int))                                                         \
    X(int, dup2, (int, int))                                                   \
    X(int, isatty, (int))                                                      \
    X(int, dup3, (int, int, int))                                              \
    X(int, pipe, (int *))                                                      \
    X(int, pipe2, (int *, int))                                                \
    X(int, socketpair, (int, int, int, int *))                                 \
    X(int, socket, (int, int, int))                                            \
    X(int, eventfd, (unsigned, int))                                           \
    X(int, epoll_create, (int))                                                \
    X(int, epoll_create1, (int))                                               \
    X(int, epoll_ctl, (int, int, int, struct epoll_event *))                   \
    X(int, epoll_wait, (int, struct epoll_event *, int, int))                  \
    X(int, epoll_pwait,                                                        \
      (int, struct epoll_event *, int, int, const sigset_t *))                 \
    X(ssize_t, read, (int, void *, size_t))                                    \
    X(ssize_t, __read_chk, (int, void *, size_t, size_t))                      \
    X(ssize_t, readv, (int, const struct iovec *, int))                        \
    X(ssize_t, recv, (int, void *, size_t, int))                               \
    X(ssize_t, __recv_chk, (int, void *, size_t, size_t, int))                 \
    X(ssize_t, recvfrom,                                                       \
      (int, void *, size_t, int, struct sockaddr *, socklen_t *))              \
    X(ssize_t, __recvfrom_chk,                                                 \
      (int, void *, size_t, size_t, int, struct sockaddr *, socklen_t *))      \
    X(ssize_t, recvmsg, (int, struct msghdr *, int))                           \
    X(ssize_t, write, (int, const void *, size_t))                             \
    X(ssize_t, writev, (int, const struct iovec *, int))                       \
    X(ssize_t, send, (int, const void *, size_t, int))                         \
    X(ssize_t, sendto,                                                         \
      (int, const void *, size_t, int, const struct sockaddr *, socklen_t))    \
    X(ssize_t, sendmsg, (int, const struct msghdr *, int))                     \
    X(int, bind, (int, const struct sockaddr *, socklen_t))                    \
    X(int, listen, (int, int))                                                 \
    X(int, connect, (int, const struct sockaddr *, socklen_t))                 \
    X(int, accept4, (int, struct sockaddr *, socklen_t *, int))                \
    X(int, shutdown, (int, int))                                               \
    X(int, poll, (struct pollfd *, nfds_t, int))                               \
    X(int, __poll_chk, (struct pollfd *, nfds_t, int, size_t))                 \
    X(int, ppoll,                                                              \
      (struct pollfd *, nfds_t, const struct timespec *, const sigset_t *))    \
    X(int, __ppoll_chk, (struct pollfd *, nfds_t, const struct timespec *,    \
                         const sigset_t *, size_t))                            \
    X(int, select, (int, fd_set *, fd_set *, fd_set *, struct timeval *))      \
    X(int, pselect, (int, fd_set *, fd_set *, fd_set *,                        \
                     const struct timespec *, const sigset_t *))               \
    X(FILE *, fopen, (const char *, const char *))                             \
    X(FILE *, fopen64, (const char *, const char *))                           \
    X(void *, mmap, (void *, size_t, int, int, int, off_t))                    \
    X(void *, mmap64, (void *, size_t, int, int, int, off_t))                  \
    X(int, munmap, (void *, size_t))                                           \
    X(pid_t, getpid, (void))                                                   \
    X(int, kill, (pid_t, int))                                                 \
    X(FILE *, fdopen, (int, const char *))                                     \
    X(int, fclose, (FILE *))                                                   \
    X(FILE *, freopen, (const char *, const char *, FILE *))                   \
    X(int, rename, (const char *, const char *))                               \
    X(int, renameat, (int, const char *, int, const char *))                   \
    X(int, renameat2, (int, const char *, int, const char *, unsigned))        \
    X(int, unlink, (const char *))                                             \
    X(int, unlinkat, (int, const char *, int))                                 \
    X(int, remove, (const char *))                                             \
    X(int, link, (const char *, const char *))                                 \
    X(int, linkat, (int, const char *, int, const char *, int))                \
    X(int, symlink, (const char *, const char *))                              \
    X(int, symlinkat, (const char *, int, const char *))                       \
    X(int, mkdir, (const char *, mode_t))                                      \
    X(int, mkdirat, (int, const char *, mode_t))                               \
    X(int, rmdir, (const char *))                                              \
    X(int, truncate, (const char *, off_t))                                    \
    X(int, creat, (const char *, mode_t))                                      \
    X(time_t, time, (time_t *))                                                \
    X(int, gettimeofday, (struct timeval *restrict, void *restrict))           \
    X(int, clock_gettime, (clockid_t, struct timespec *))                      \
    X(int, timespec_get, (struct timespec *, int))                             \
    X(clock_t, clock, (void))                                                  \
    X(ssize_t, getrandom, (void *, size_t, unsigned))                          \
    X(int, getentropy, (void *, size_t))                                       \
    X(int, open, (const char *, int, ...))                                     \
    X(int, open64, (const char *, int, ...))                                   \
    X(int, openat, (int, const char *, int, ...))                              \
    X(int, rand, (void))                                                       \
    X(long, random, (void))                                                    \
    X(void, srand, (unsigned))                                                 \
    X(void, srandom, (unsigned))                                               \
    X(char *, initstate, (unsigned, char *, size_t))                           \
    X(char *, setstate, (char *))                                              \
    X(double, drand48, (void))                                                 \
    X(long, lrand48, (void))                                                   \
    X(long, mrand48, (void))                                                   \
    X(void, srand48, (long))                                                   \
    X(unsigned short *, seed48, (unsigned short *))                            \
    X(void, lcong48, (unsigned short *))

#define RAVEL_REAL_DECLARE(ret, name, args) extern ret(*ravel__real_##name) args;
RAVEL_REAL_LIST(RAVEL_REAL_DECLARE)
#undef RAVEL_REAL_DECLARE

/* Resolves every pointer in the table (idempotent). */
void ravel__real_resolve(void);
/* True while ravel__real_resolve runs (dlsym may allocate). */
extern int ravel__real_resolving;

#define REAL(name)                                                             \
    (__builtin_expect(ravel__real_##name == 0, 0) ? ravel__real_resolve()      \
                                                  : (void)0,                   \
     ravel__real_##name)

#endif
