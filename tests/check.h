/*
 * check.h - the unit-test harness: a few macros, TAP output.
 *
 *     #include "../../tests/check.h"
 *     CHECK_TEST(parses_a_ticket) { CHECK(x == 1); CHECK_STR(s, "a"); }
 *     int main(void) { return CHECK_RUN(parses_a_ticket, other_test); }
 *
 * Each failed CHECK prints file:line and the expression and marks its test
 * "not ok"; the program exits 1 if any test failed, so ctest sees it.
 * Output is TAP (https://testanything.org), which CI tools read.
 */
#ifndef RAVEL_CHECK_H
#define RAVEL_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failed_in_test;

#define CHECK_TEST(name) static void name(void)

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            printf("# %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);  \
            check_failed_in_test = 1;                                          \
        }                                                                      \
    } while (0)

#define CHECK_EQ(a, b)                                                         \
    do {                                                                       \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);        \
        if (check_a_ != check_b_) {                                            \
            printf("# %s:%d: check failed: %s == %s (%lld != %lld)\n",        \
                   __FILE__, __LINE__, #a, #b, check_a_, check_b_);            \
            check_failed_in_test = 1;                                          \
        }                                                                      \
    } while (0)

#define CHECK_STR(a, b)                                                        \
    do {                                                                       \
        const char *check_a_ = (a), *check_b_ = (b);                           \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {       \
            printf("# %s:%d: check failed: %s == %s (\"%s\" != \"%s\")\n",    \
                   __FILE__, __LINE__, #a, #b, check_a_ ? check_a_ : "(null)", \
                   check_b_ ? check_b_ : "(null)");                            \
            check_failed_in_test = 1;                                          \
        }                                                                      \
    } while (0)

typedef void (*check_fn)(void);

static inline int check_run(const char *names, check_fn *fns, int n)
{
    int failed = 0;
    printf("1..%d\n", n);
    for (int i = 0; i < n; i++) {
        /* names is the stringified argument list: take the i-th entry. */
        const char *p = names;
        for (int k = 0; k < i; k++) {
            p = strchr(p, ',');
            p = p ? p + 1 : "";
        }
        while (*p == ' ')
            p++;
        int len = (int)strcspn(p, ",");
        check_failed_in_test = 0;
        fns[i]();
        printf("%s %d - %.*s\n", check_failed_in_test ? "not ok" : "ok", i + 1,
               len, p);
        failed |= check_failed_in_test;
    }
    return failed;
}

#define CHECK_RUN(...)                                                         \
    check_run(#__VA_ARGS__, (check_fn[]){__VA_ARGS__},                         \
              (int)(sizeof((check_fn[]){__VA_ARGS__}) / sizeof(check_fn)))

#endif
