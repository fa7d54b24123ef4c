/*
 * loops.c - checks that reach acts around loops.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct node {
    const char *path;
    struct node *next;
};

/* Checked in one iteration, acted on in the next. */
void next_iteration(const char *p, int n)
{
    int seen = 0;
    for (int i = 0; i < n; i++) {
        if (seen)
            unlink(p); // RACE
        seen = access(p, F_OK) == 0; // CHECK
    }
}

void in_the_body(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        if (access(paths[i], W_OK) == 0) // CHECK
            truncate(paths[i], 0); // RACE
}

void walk_a_list(struct node *head)
{
    struct stat st;
    for (struct node *q = head; q; q = q->next)
        if (stat(q->path, &st) == 0) // CHECK
            chmod(q->path, 0600); // RACE
}

/* The act of one element is not a stale check of another. */
void different_elements(char **paths, int n)
{
    for (int i = 0; i + 1 < n; i++)
        if (access(paths[i], F_OK) == 0)
            unlink(paths[i + 1]); // NORACE
}

/* Around the back edge only. */
void back_edge(const char *p, int n)
{
    for (int i = 0; i < n; i++) {
        unlink(p); // RACE
        if (access(p, F_OK) == 0) // CHECK
            continue;
    }
}

/* Without the loop the same order is safe. */
void no_loop(const char *p)
{
    unlink(p); // NORACE
    access(p, F_OK);
}
