/* Joined through a struct field: after the join nothing else runs. */
#include <pthread.h>
struct task { pthread_t thread; int result; };
static void *work(void *a) { struct task *t = a; t->result = 1; return a; } // NORACE
static void start(struct task *t) { pthread_create(&t->thread, 0, work, t); }
static void finish(struct task *t) { pthread_join(t->thread, 0); }
int main(void)
{
    struct task task;
    start(&task);
    finish(&task);
    return task.result; // NORACE
}
