/*
 * race_mmap.c - two threads that map memory of their own, write it and
 * unmap it, as a program with its own allocator does (libatomic_ops'
 * AO_malloc maps large blocks). The kernel hands an unmapped range out
 * again, so the second thread's fresh mapping often lies where the first
 * thread's was: new memory, which has no history with what the first
 * thread wrote there. Not a data race; ravel reported one until mmap and
 * munmap made the detector forget the range (src/rt/intercept/libc.c).
 *
 * ravel-expect: clean
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/mman.h>

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        size_t len = 1 << 16;
        char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        for (size_t k = 0; k < len; k += 4096)
            p[k] = (char)i;
        munmap(p, len);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    return 0;
}
