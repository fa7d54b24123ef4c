/*
 * interproc.c - checks and acts reached through calls: reported at the
 * calls in the function where the check meets the act.
 *
 * ravel-lint: pair tbl_find(1) -> tbl_add(1)
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int tbl_find(const char *name);
void tbl_add(const char *name);

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static int exists_twice_removed(const char *p)
{
    return exists(p);
}

static int create(const char *p)
{
    return open(p, O_CREAT | O_WRONLY, 0600);
}

static void remove_second(const char *a, const char *b)
{
    (void)a;
    unlink(b);
}

void check_in_callee(const char *p)
{
    if (!exists(p)) // CHECK
        close(open(p, O_WRONLY | O_CREAT, 0600)); // RACE
}

void act_in_callee(const char *p)
{
    if (access(p, F_OK) != 0) // CHECK
        create(p); // RACE
}

void both_in_callees(const char *p)
{
    if (!exists(p)) // CHECK
        create(p); // RACE
}

static void ensure(const char *p)
{
    if (!exists(p)) // CHECK
        create(p); // RACE
}

/* Reported once, in ensure(), not again at each caller. */
void calls_ensure(const char *p)
{
    ensure(p); // NORACE
}

void two_levels(const char *p)
{
    if (exists_twice_removed(p)) // CHECK
        unlink(p); // RACE
}

/* Parameters are bound at each call: the second argument is removed. */
void other_argument(const char *x, const char *y)
{
    if (exists(x))
        remove_second(x, y); // NORACE
}

void same_argument(const char *x, const char *y)
{
    if (exists(x)) // CHECK
        remove_second(y, x); // RACE
}

static int find_twice(const char *name)
{
    return tbl_find(name) || tbl_find(name);
}

/* A user pair through a helper. */
void user_pair_helper(const char *name)
{
    if (!find_twice(name)) // CHECK
        tbl_add(name); // RACE
}
