/*
 * elf_test.c - the ELF reader finds this very test's symbols and
 * dependencies, and refuses what is not ELF.
 */
#include "elf.h"

#include "../../tests/check.h"
#include "symbolize.h"

#include <link.h>
#include <stdlib.h>

int ravel_test_global_object[4] = {1, 2, 3, 4};

CHECK_TEST(finds_symbols_of_a_real_executable)
{
    struct ravel__elf e;
    char err[256];
    CHECK_EQ(ravel__elf_open("/proc/self/exe", &e, err, sizeof err), 0);
    CHECK(e.nsyms > 0);
    CHECK(ravel__elf_needs(&e, "libc.so"));
    CHECK(!ravel__elf_needs(&e, "libravel_rt.so"));
    /* Addresses in the file are relative to the load bias. */
    uintptr_t bias = _r_debug.r_map ? _r_debug.r_map->l_addr : 0;
    const struct ravel__elf_sym *s = ravel__elf_lookup(
        &e, (uintptr_t)&ravel_test_global_object[2] - bias, false);
    CHECK(s != NULL);
    if (s)
        CHECK_STR(s->name, "ravel_test_global_object");
    ravel__elf_close(&e);
}

CHECK_TEST(names_globals_in_reports)
{
    char buf[64];
    CHECK(ravel__symbolize_data((uintptr_t)&ravel_test_global_object[1], buf,
                                sizeof buf));
    CHECK_STR(buf, "ravel_test_global_object+4");
    int local = 0;
    CHECK(!ravel__symbolize_data((uintptr_t)&local, buf, sizeof buf));
}

CHECK_TEST(symbolizes_code_to_file_and_line)
{
    struct ravel__frame f;
    ravel__symbolize1((uint64_t)(uintptr_t)&finds_symbols_of_a_real_executable,
                      true, &f);
    CHECK_STR(f.func, "finds_symbols_of_a_real_executable");
    CHECK(strstr(f.file, "elf_test.c") != NULL);
    CHECK(f.line > 0);
}

CHECK_TEST(rejects_non_elf_and_truncated_files)
{
    struct ravel__elf e;
    char err[256];
    CHECK_EQ(ravel__elf_parse("hello", 5, &e, err, sizeof err), -1);
    CHECK(strstr(err, "not an ELF") != NULL);
    /* A header claiming sections past the end of the data. */
    unsigned char buf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    buf[40] = 0xff; /* e_shoff */
    buf[58] = 64;   /* e_shentsize */
    buf[60] = 3;    /* e_shnum */
    CHECK_EQ(ravel__elf_parse(buf, sizeof buf, &e, err, sizeof err), -1);
    CHECK_EQ(ravel__elf_open("/nonexistent/x", &e, err, sizeof err), -1);
}

int main(void)
{
    return CHECK_RUN(finds_symbols_of_a_real_executable,
                     names_globals_in_reports, symbolizes_code_to_file_and_line,
                     rejects_non_elf_and_truncated_files);
}
