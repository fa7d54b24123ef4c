/*
 * pbt_files.c - the table form's variables, and the model's invariant
 * (tests/pbt/pbt.py, group table and invariant).
 *
 * A table of open files: open() returns the lowest free slot, close(fd)
 * frees one. close draws its argument from the descriptors the model
 * holds (RAVEL_ARG_VAR), so the table form gives it weight 0 while none
 * is open and the precondition "fd is still open": the system asserts
 * it is never handed a closed one. Built with -DBUG, open scans for a
 * free slot before taking the lock: two opens in parallel can return
 * the same slot. Built with -DCAP3, the model's invariant says at most
 * three files are open, and a test that opens a fourth fails with
 * "invariant: false after ...".
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdlib.h>

#define SLOTS 16

struct files {
    pthread_mutex_t lock;
    atomic_int used[SLOTS];
};

static long files_open(struct files *f)
{
#ifdef BUG
    int i = 0;
    while (i < SLOTS && atomic_load(&f->used[i]))
        i++;
    pthread_mutex_lock(&f->lock);
#else
    pthread_mutex_lock(&f->lock);
    int i = 0;
    while (i < SLOTS && atomic_load(&f->used[i]))
        i++;
#endif
    if (i < SLOTS)
        atomic_store(&f->used[i], 1);
    pthread_mutex_unlock(&f->lock);
    return i < SLOTS ? i : -1;
}

static void files_close(struct files *f, long fd)
{
    pthread_mutex_lock(&f->lock);
    ravel_assert(fd >= 0 && fd < SLOTS && atomic_load(&f->used[fd]));
    atomic_store(&f->used[fd], 0);
    pthread_mutex_unlock(&f->lock);
}

/* ---- the model: which slots are open, and by which open call ---------- */

struct state {
    ravel_var by[SLOTS]; /* by[i]: the open that returned slot i, or 0 */
};

static size_t open_fds(const void *state, ravel_var *out, size_t max)
{
    const struct state *s = state;
    size_t n = 0;
    for (int i = 0; i < SLOTS && n < max; i++)
        if (s->by[i])
            out[n++] = s->by[i];
    return n;
}

static ravel_value open_run(void *sut, const ravel_arg *a)
{
    (void)a;
    return ravel_int(files_open(sut));
}

static ravel_value open_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)a;
    struct state *s = state;
    for (int i = 0; i < SLOTS; i++)
        if (!s->by[i]) {
            s->by[i] = self;
            return ravel_int(i);
        }
    return ravel_int(-1);
}

static ravel_value close_run(void *sut, const ravel_arg *a)
{
    files_close(sut, ravel_var_value(a[0].var));
    return ravel_int(0);
}

static ravel_value close_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)self;
    struct state *s = state;
    for (int i = 0; i < SLOTS; i++)
        if (s->by[i] == a[0].var)
            s->by[i] = 0;
    return ravel_int(0);
}

#ifdef CAP3
static int at_most_three(const void *state)
{
    const struct state *s = state;
    int n = 0;
    for (int i = 0; i < SLOTS; i++)
        n += s->by[i] != 0;
    return n <= 3;
}
#endif

static void *setup(void)
{
    struct files *f = calloc(1, sizeof *f);
    pthread_mutex_init(&f->lock, NULL);
    return f;
}

static void teardown(void *sut)
{
    struct files *f = sut;
    pthread_mutex_destroy(&f->lock);
    free(f);
}

static const struct ravel_op ops[] = {
    {.name = "open", .run = open_run, .next = open_next, .weight = 2},
    {.name = "close", .args = {RAVEL_ARG_VAR(open_fds)}, .run = close_run,
     .next = close_next},
};

static const struct ravel_model model = {
    .name = "files",
    .state_size = sizeof(struct state),
    .ops = ops,
    .nops = 2,
    .setup = setup,
    .teardown = teardown,
#ifdef CAP3
    .invariant = at_most_three,
#endif
};

int main(void)
{
    return ravel_test_model(&model);
}
