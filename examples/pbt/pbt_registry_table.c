/*
 * pbt_registry.c - a process registry in the style of Erlang's
 * proc_reg, tested against a model (docs/pbt.md).
 *
 * Workers are spawned (spawn returns a pid) and killed; a live worker
 * can be registered under a name, unregistered, and looked up
 * (whereis: the pid, or 0 when the name is free). A server thread
 * monitors registered workers: when one dies, it removes its names.
 *
 * The fast path: register checks the name and writes the table in the
 * client, then tells the server asynchronously to monitor the worker;
 * kill marks the worker dead and tells the server, which cleans its
 * names up later. Two races follow, both of which the model exposes:
 *
 *   - two clients registering one name at once both succeed (the check
 *     and the write are separate steps);
 *   - after kill returns, whereis can still find the dead worker's name
 *     until the server gets round to it (no parallelism needed: the
 *     server is a thread of its own).
 *
 *     ravel run -- ./pbt_registry --seed 1
 *
 * Built with -DFIXED, the table is changed under one mutex and kill
 * removes the names itself before telling the server; 1,000 tests pass.
 */
#include <pthread.h>
#include <ravel.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define NAMES 2
#define MAX_PIDS 16
#define QUEUE 64

enum msg_kind { MONITOR, DOWN, STOP };

struct msg {
    enum msg_kind kind;
    long pid;
};

struct registry {
    atomic_long table[NAMES];       /* name -> pid, 0: free */
    atomic_int alive[MAX_PIDS + 1]; /* by pid */
    atomic_long next_pid;
    pthread_mutex_t lock; /* the fixed version's table lock */
    /* The server's mailbox. */
    pthread_mutex_t mlock;
    pthread_cond_t more;
    struct msg box[QUEUE];
    unsigned head, count;
    pthread_t server;
};

static void post(struct registry *r, enum msg_kind kind, long pid)
{
    pthread_mutex_lock(&r->mlock);
    if (r->count < QUEUE) {
        r->box[(r->head + r->count) % QUEUE] = (struct msg){kind, pid};
        r->count++;
        pthread_cond_signal(&r->more);
    }
    pthread_mutex_unlock(&r->mlock);
}

static void *server(void *arg)
{
    struct registry *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->mlock);
        while (r->count == 0)
            pthread_cond_wait(&r->more, &r->mlock);
        struct msg m = r->box[r->head];
        r->head = (r->head + 1) % QUEUE;
        r->count--;
        pthread_mutex_unlock(&r->mlock);
        if (m.kind == STOP)
            return NULL;
        if (m.kind == DOWN) {
            /* Remove the dead worker's names. */
            for (int i = 0; i < NAMES; i++) {
                long expect = m.pid;
                atomic_compare_exchange_strong(&r->table[i], &expect, 0);
            }
        }
    }
}

static struct registry *registry_new(void)
{
    struct registry *r = calloc(1, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_mutex_init(&r->mlock, NULL);
    pthread_cond_init(&r->more, NULL);
    pthread_create(&r->server, NULL, server, r);
    return r;
}

static void registry_free(struct registry *r)
{
    post(r, STOP, 0);
    pthread_join(r->server, NULL);
    pthread_cond_destroy(&r->more);
    pthread_mutex_destroy(&r->mlock);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

static long spawn(struct registry *r)
{
    long pid = atomic_fetch_add(&r->next_pid, 1) + 1;
    if (pid > MAX_PIDS)
        return 0;
    atomic_store(&r->alive[pid], 1);
    return pid;
}

static bool alive(struct registry *r, long pid)
{
    return pid > 0 && pid <= MAX_PIDS && atomic_load(&r->alive[pid]);
}

/* 0, or -1 when the name is taken or the worker is dead. */
static int reg(struct registry *r, int name, long pid)
{
#ifdef FIXED
    pthread_mutex_lock(&r->lock);
    int rc = -1;
    if (atomic_load(&r->table[name]) == 0 && alive(r, pid)) {
        atomic_store(&r->table[name], pid);
        rc = 0;
    }
    pthread_mutex_unlock(&r->lock);
    if (rc == 0)
        post(r, MONITOR, pid);
    return rc;
#else
    if (atomic_load(&r->table[name]) != 0 || !alive(r, pid))
        return -1;
    atomic_store(&r->table[name], pid);
    post(r, MONITOR, pid);
    return 0;
#endif
}

static int unreg(struct registry *r, int name)
{
#ifdef FIXED
    pthread_mutex_lock(&r->lock);
#endif
    int rc = atomic_exchange(&r->table[name], 0) != 0 ? 0 : -1;
#ifdef FIXED
    pthread_mutex_unlock(&r->lock);
#endif
    return rc;
}

static long whereis(struct registry *r, int name)
{
    return atomic_load(&r->table[name]);
}

static void kill_worker(struct registry *r, long pid)
{
#ifdef FIXED
    pthread_mutex_lock(&r->lock);
    if (pid > 0 && pid <= MAX_PIDS)
        atomic_store(&r->alive[pid], 0);
    for (int i = 0; i < NAMES; i++)
        if (atomic_load(&r->table[i]) == pid)
            atomic_store(&r->table[i], 0);
    pthread_mutex_unlock(&r->lock);
#else
    if (pid > 0 && pid <= MAX_PIDS)
        atomic_store(&r->alive[pid], 0);
#endif
    post(r, DOWN, pid);
}

/* ---- the model, in the table form -------------------------------------
 * Pids are symbolic variables: the model remembers "name a is
 * registered to $2" (the result of the second command, a spawn). An
 * argument drawn from the spawned pids (RAVEL_ARG_VAR) gives register
 * and kill their weight (0 before the first spawn) and precondition. */

struct state {
    unsigned npids;
    ravel_var pids[MAX_PIDS]; /* spawned, in order */
    unsigned char dead[MAX_PIDS];
    ravel_var names[NAMES];
};

static const char *const name_list[NAMES] = {"a", "b"};

static size_t spawned(const void *state, ravel_var *out, size_t max)
{
    const struct state *s = state;
    size_t n = s->npids < max ? s->npids : max;
    for (size_t i = 0; i < n; i++)
        out[i] = s->pids[i];
    return n;
}

static int name_of(const ravel_arg *a)
{
    return a[0].s[0] - 'a';
}

static int pid_index(const struct state *s, ravel_var v)
{
    for (unsigned i = 0; i < s->npids; i++)
        if (s->pids[i] == v)
            return (int)i;
    return -1;
}

static ravel_value spawn_run(void *sut, const ravel_arg *a)
{
    (void)a;
    return ravel_int(spawn(sut));
}

static ravel_value spawn_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)a;
    struct state *s = state;
    s->pids[s->npids++] = self;
    return ravel_ref(self);
}

static int spawn_post(const void *state, const ravel_arg *a, ravel_value r)
{
    (void)state, (void)a;
    return r.i > 0;
}

static ravel_value reg_run(void *sut, const ravel_arg *a)
{
    return ravel_int(reg(sut, name_of(a), ravel_var_value(a[1].var)));
}

static ravel_value reg_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)self;
    struct state *s = state;
    int i = pid_index(s, a[1].var);
    if (s->names[name_of(a)] || s->dead[i])
        return ravel_int(-1);
    s->names[name_of(a)] = a[1].var;
    return ravel_int(0);
}

static ravel_value unreg_run(void *sut, const ravel_arg *a)
{
    return ravel_int(unreg(sut, name_of(a)));
}

static ravel_value unreg_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)self;
    struct state *s = state;
    if (!s->names[name_of(a)])
        return ravel_int(-1);
    s->names[name_of(a)] = 0;
    return ravel_int(0);
}

static ravel_value whereis_run(void *sut, const ravel_arg *a)
{
    return ravel_int(whereis(sut, name_of(a)));
}

/* The pid a spawn returned, or 0: "the value of $k". */
static ravel_value whereis_next(void *state, const ravel_arg *a,
                                ravel_var self)
{
    (void)self;
    ravel_var v = ((const struct state *)state)->names[name_of(a)];
    return v ? ravel_ref(v) : ravel_int(0);
}

static ravel_value kill_run(void *sut, const ravel_arg *a)
{
    kill_worker(sut, ravel_var_value(a[0].var));
    return ravel_int(0);
}

static ravel_value kill_next(void *state, const ravel_arg *a, ravel_var self)
{
    (void)self;
    struct state *s = state;
    s->dead[pid_index(s, a[0].var)] = 1;
    for (int n = 0; n < NAMES; n++)
        if (s->names[n] == a[0].var)
            s->names[n] = 0;
    return ravel_int(0);
}

static void *setup(void)
{
    return registry_new();
}

static void teardown(void *sut)
{
    registry_free(sut);
}

static const struct ravel_op ops[] = {
    {.name = "spawn", .run = spawn_run, .next = spawn_next,
     .post = spawn_post},
    {.name = "register", .weight = 3,
     .args = {RAVEL_ARG_STR(name_list), RAVEL_ARG_VAR(spawned)},
     .run = reg_run, .next = reg_next},
    {.name = "unregister", .args = {RAVEL_ARG_STR(name_list)},
     .run = unreg_run, .next = unreg_next},
    {.name = "whereis", .args = {RAVEL_ARG_STR(name_list)},
     .run = whereis_run, .next = whereis_next},
    {.name = "kill", .weight = 3, .args = {RAVEL_ARG_VAR(spawned)},
     .run = kill_run, .next = kill_next},
};

static const struct ravel_model model = {
    .name = "registry",
    .state_size = sizeof(struct state),
    .ops = ops,
    .nops = 5,
    .setup = setup,
    .teardown = teardown,
};

int main(void)
{
    return ravel_test_model(&model);
}
