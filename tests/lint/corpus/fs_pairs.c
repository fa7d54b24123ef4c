/*
 * fs_pairs.c - every built-in file-system check and act, paired on the
 * same path, and the cases that must stay silent.
 *
 * Annotations (Goblint's style): RACE on the line of each act that must be
 * reported, CHECK on the check it names, NORACE on lines that must not be.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void access_open(const char *p)
{
    if (access(p, R_OK) == 0) // CHECK
        close(open(p, O_RDONLY)); // RACE
}

void faccessat_openat(int dir, const char *p)
{
    if (faccessat(dir, p, R_OK, 0) == 0) // CHECK
        close(openat(dir, p, O_RDONLY)); // RACE
}

void stat_fopen(const char *p)
{
    struct stat st;
    if (stat(p, &st) == 0 && st.st_size > 0) // CHECK
        fclose(fopen(p, "r")); // RACE
}

void lstat_creat(const char *p)
{
    struct stat st;
    if (lstat(p, &st) != 0) // CHECK
        close(creat(p, 0600)); // RACE
}

void fstatat_unlink(const char *p)
{
    struct stat st;
    if (fstatat(AT_FDCWD, p, &st, 0) == 0) // CHECK
        unlink(p); // RACE
}

void statx_unlinkat(int dir, const char *p)
{
    struct statx sx;
    if (statx(dir, p, 0, STATX_MODE, &sx) == 0) // CHECK
        unlinkat(dir, p, 0); // RACE
}

void realpath_rename_old(const char *p, const char *to)
{
    char buf[PATH_MAX];
    if (realpath(p, buf)) // CHECK
        rename(p, to); // RACE
}

void readlink_rename_new(const char *from, const char *p)
{
    char buf[64];
    if (readlink(p, buf, sizeof buf) < 0) // CHECK
        rename(from, p); // RACE
}

void access_renameat(const char *p)
{
    if (access(p, W_OK) == 0) // CHECK
        renameat(AT_FDCWD, p, AT_FDCWD, "/tmp/moved"); // RACE
}

void stat_chmod(const char *p)
{
    struct stat st;
    if (stat(p, &st) == 0 && !(st.st_mode & S_IWUSR)) // CHECK
        chmod(p, st.st_mode | S_IWUSR); // RACE
}

void lstat_chown(const char *p)
{
    struct stat st;
    if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) // CHECK
        chown(p, 0, 0); // RACE
}

void access_lchown(const char *p)
{
    if (access(p, F_OK) == 0) // CHECK
        lchown(p, 0, 0); // RACE
}

void stat_truncate(const char *p)
{
    struct stat st;
    if (stat(p, &st) == 0 && st.st_size > 4096) // CHECK
        truncate(p, 0); // RACE
}

void access_mkdir(const char *p)
{
    if (access(p, F_OK) != 0) // CHECK
        mkdir(p, 0700); // RACE
}

void stat_rmdir(const char *p)
{
    struct stat st;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) // CHECK
        rmdir(p); // RACE
}

void access_link(const char *p, const char *to)
{
    if (access(p, R_OK) == 0) // CHECK
        link(p, to); // RACE
}

void lstat_symlink(const char *target, const char *p)
{
    struct stat st;
    if (lstat(p, &st) != 0) // CHECK
        symlink(target, p); // RACE
}

void access_execve(const char *p, char *const argv[], char *const envp[])
{
    if (access(p, X_OK) == 0) // CHECK
        execve(p, argv, envp); // RACE
}

/* The same literal path twice is the same resource. */
void same_literal(void)
{
    if (access("/etc/ravel.conf", R_OK) == 0) // CHECK
        close(open("/etc/ravel.conf", O_RDONLY)); // RACE
}

/* Different literal paths never pair. */
void different_literals(void)
{
    if (access("/etc/ravel.conf", R_OK) == 0)
        close(open("/etc/ravel.conf.d", O_RDONLY)); // NORACE
}

/* Different variables are different resources. */
void different_paths(const char *a, const char *b)
{
    if (access(a, R_OK) == 0)
        close(open(b, O_RDONLY)); // NORACE
}

/* O_CREAT|O_EXCL re-checks atomically: the safe idiom. */
void exclusive_create(const char *p)
{
    if (access(p, F_OK) != 0)
        close(open(p, O_CREAT | O_EXCL | O_WRONLY, 0600)); // NORACE
}

/* So does fopen's "x" mode (C11). */
void exclusive_fopen(const char *p)
{
    struct stat st;
    if (stat(p, &st) != 0)
        fclose(fopen(p, "wx")); // NORACE
}

/* Check and act on branches that exclude each other. */
void exclusive_branches(const char *p, int how)
{
    if (how)
        access(p, F_OK);
    else
        unlink(p); // NORACE
}

/* An act with no check before it, and a check after the act. */
void act_then_check(const char *p)
{
    unlink(p); // NORACE
    access(p, F_OK);
}

/* A path built in a local buffer still names a file anyone can change. */
void local_buffer(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/lock", dir);
    if (access(path, F_OK) == 0) // CHECK
        unlink(path); // RACE
}

/* A mutex does not stop another process from changing the file. */
static pthread_mutex_t fs_lock = PTHREAD_MUTEX_INITIALIZER;
void locked_still_races(const char *p)
{
    pthread_mutex_lock(&fs_lock);
    if (access(p, W_OK) == 0) // CHECK
        truncate(p, 0); // RACE
    pthread_mutex_unlock(&fs_lock);
}

/* A newer check of the same path supersedes the older one. */
void recheck(const char *p)
{
    access(p, F_OK);
    if (access(p, W_OK) == 0) // CHECK
        unlink(p); // RACE
}

/* One of two paths: perhaps the same file. */
void perhaps_same(const char *p, int tmp)
{
    const char *q = tmp ? "/tmp/scratch" : p;
    if (access(p, F_OK) == 0) // CHECK
        unlink(q); // RACE
}
