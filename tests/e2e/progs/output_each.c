/*
 * output_each.c - every execution prints, through each way a program
 * writes to its stdout and stderr (printf, puts, putchar, fwrite, a line
 * left unterminated, fprintf and perror on stderr, write and writev on the
 * descriptors), lines marked with the value of a data choice (0 to 5), and the
 * last value fails an assertion. The report must show the failing
 * execution's lines, all of them, and none of an earlier execution's: the
 * executor asks the kernel where the capture files stand only when the
 * program may have written (src/rt/process/executor.c,
 * output_since_last), and this checks that every path is seen. Some
 * values print nothing, so that a write after a silent execution is
 * seen too.
 *
 * ravel-expect: assertion
 */
#include <assert.h>
#include <errno.h>
#include <ravel.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

int main(void)
{
    unsigned v = ravel_choose(6);
    char line[64];
    int n;
    if (v == 0 || v >= 4) { /* stdout, through stdio */
        printf("printf %u\n", v);
        snprintf(line, sizeof line, "puts %u", v);
        puts(line);
        putchar('0' + (int)v);
        putchar('\n');
        n = snprintf(line, sizeof line, "fwrite %u\n", v);
        fwrite(line, 1, (size_t)n, stdout);
        printf("unterminated %u", v);
    }
    if (v == 2 || v >= 4) { /* stderr, and the descriptors */
        fprintf(stderr, "stderr %u\n", v);
        errno = ENOENT;
        snprintf(line, sizeof line, "perror %u", v);
        perror(line);
        n = snprintf(line, sizeof line, "write %u\n", v);
        (void)!write(1, line, (size_t)n);
        struct iovec iov[2] = {{"writev ", 7}, {line + 6, (size_t)n - 6}};
        (void)!writev(2, iov, 2);
    }
    /* 1 and 3 print nothing */
    assert(v != 5);
    return 0;
}
