/*
 * cdb_test.c - unit tests of compilation databases: both entry forms,
 * shell splitting, paths, errors, and the derived bitcode command.
 */
#include "cdb.h"

#include "../../tests/check.h"

static int has(char **argv, const char *s)
{
    int n = 0;
    for (; *argv; argv++)
        n += !strcmp(*argv, s);
    return n;
}

CHECK_TEST(reads_both_entry_forms)
{
    const char *text =
        "[{\"directory\": \"/b\", \"file\": \"../src/a.c\","
        "  \"arguments\": [\"gcc\", \"-Iinc\", \"-c\", \"../src/a.c\", \"-o\", \"a.o\"]},"
        " {\"directory\": \"/b\", \"file\": \"/src/b.c\","
        "  \"command\": \"cc -DNAME=\\\"x y\\\" -c '/src/b.c'\", \"output\": \"b.o\"},"
        " {\"directory\": \"/b\", \"file\": \"/src/./b.c\", \"command\": \"cc -c /src/b.c\"}]";
    struct ravel__lint_cdb db;
    char err[200];
    CHECK_EQ(ravel__lint_cdb_parse(text, strlen(text), &db, err, sizeof err), 0);
    /* The third entry is the second's file again: kept once. */
    CHECK_EQ(db.n, 2);
    CHECK_STR(db.v[0].file, "/src/a.c");
    CHECK_STR(db.v[0].dir, "/b");
    CHECK_EQ(db.v[0].argc, 6);
    CHECK_STR(db.v[1].argv[1], "-DNAME=x y");
    CHECK_STR(db.v[1].argv[3], "/src/b.c");
    ravel__lint_cdb_free(&db);
}

CHECK_TEST(splits_like_a_shell)
{
    int argc;
    char err[100];
    char **av = ravel__lint_shell_split("  a 'b c' \"d\\\"e\" f\\ g \"\\n\"", &argc, err, sizeof err);
    CHECK(av != NULL);
    CHECK_EQ(argc, 5);
    if (av && argc == 5) {
        CHECK_STR(av[0], "a");
        CHECK_STR(av[1], "b c");
        CHECK_STR(av[2], "d\"e");
        CHECK_STR(av[3], "f g");
        CHECK_STR(av[4], "\\n");
        CHECK(av[5] == NULL);
    }
    ravel__lint_argv_free(av);
    CHECK(ravel__lint_shell_split("cc 'x", &argc, err, sizeof err) == NULL);
    CHECK_STR(err, "unterminated quote in the command");
}

CHECK_TEST(says_what_is_wrong)
{
    struct ravel__lint_cdb db;
    char err[200];
    struct {
        const char *text, *want;
    } cases[] = {
        {"{}", "not a JSON array of compile commands"},
        {"[1]", "entry 1: not an object"},
        {"[{\"file\": \"a.c\"}]", "entry 1: no \"directory\""},
        {"[{\"directory\": \"/\", \"file\": \"\"}]", "entry 1: \"file\" is not a non-empty string"},
        {"[{\"directory\": \"/\", \"file\": \"a.c\"}]",
         "entry 1: neither \"arguments\" nor \"command\""},
        {"[{\"directory\": \"/\", \"file\": \"a.c\", \"arguments\": [1]}]",
         "entry 1: argument 1 is not a string"},
        {"[{\"directory\": \"/\", \"file\": \"a.c\", \"command\": \"  \"}]",
         "entry 1: empty \"command\""},
        {"[", "line 1, column 2: unexpected end of input"},
    };
    for (size_t i = 0; i < RAVEL__COUNT(cases); i++) {
        CHECK_EQ(ravel__lint_cdb_parse(cases[i].text, strlen(cases[i].text), &db, err,
                                       sizeof err),
                 -1);
        CHECK_STR(err, cases[i].want);
        ravel__lint_cdb_free(&db);
    }
    CHECK_EQ(ravel__lint_cdb_load("/nonexistent-dir", &db, err, sizeof err), -1);
    CHECK(strstr(err, "/nonexistent-dir/compile_commands.json: no compilation database") != NULL);
}

CHECK_TEST(derives_the_bitcode_command)
{
    struct ravel__lint_cdb db = {0};
    const char *argv[] = {"/usr/bin/ccache", "gcc", "-Iinc", "-DX=1", "-O2", "-g3", "-fsanitize=thread",
                    "-Werror", "-Wall", "-MD", "-MF", "dep.d", "-c", "src/a.c", "-o", "a.o",
                    "-flto", "-pipe", NULL};
    ravel__lint_cdb_add(&db, "/p", "src/a.c", (char *const *)argv, 18);
    CHECK_STR(db.v[0].file, "/p/src/a.c");
    char **out = ravel__lint_cdb_argv(&db.v[0], "/usr/bin/clang-14", "/t/0.bc", "/t/0.d");
    CHECK_STR(out[0], "/usr/bin/clang-14");
    CHECK_EQ(has(out, "gcc") + has(out, "/usr/bin/ccache"), 0);
    CHECK_EQ(has(out, "-Iinc") + has(out, "-DX=1") + has(out, "-Wall") + has(out, "src/a.c"), 4);
    CHECK_EQ(has(out, "-O2") + has(out, "-g3") + has(out, "-fsanitize=thread") +
                 has(out, "-Werror") + has(out, "dep.d") + has(out, "a.o") + has(out, "-flto") +
                 has(out, "-pipe") + has(out, "-MD"),
             0);
    CHECK_EQ(has(out, "-emit-llvm") + has(out, "-O0") + has(out, "-gline-tables-only") +
                 has(out, "/t/0.bc") + has(out, "/t/0.d"),
             5);
    CHECK_EQ(has(out, "-c"), 1);
    ravel__lint_argv_free(out);
    /* The source file is added when the command does not name it. */
    const char *argv2[] = {"cc", "-DY", NULL};
    ravel__lint_cdb_add(&db, "/p", "b.c", (char *const *)argv2, 2);
    out = ravel__lint_cdb_argv(&db.v[1], "clang", "o.bc", "o.d");
    CHECK_EQ(has(out, "/p/b.c"), 1);
    ravel__lint_argv_free(out);
    ravel__lint_cdb_free(&db);
}

CHECK_TEST(joins_paths)
{
    struct ravel__lint_cdb db = {0};
    const char *argv[] = {"cc", NULL};
    ravel__lint_cdb_add(&db, "/a/b/", "../c/./d.c", (char *const *)argv, 1);
    ravel__lint_cdb_add(&db, "/a", "/x//y/../z.c", (char *const *)argv, 1);
    ravel__lint_cdb_add(&db, "/", "../../e.c", (char *const *)argv, 1);
    CHECK_STR(db.v[0].file, "/a/c/d.c");
    CHECK_STR(db.v[1].file, "/x/z.c");
    CHECK_STR(db.v[2].file, "/e.c");
    ravel__lint_cdb_add(&db, "", "../a/./../b.c", (char *const *)argv, 1);
    CHECK_STR(db.v[3].file, "../b.c");
    ravel__lint_cdb_free(&db);
    CHECK(ravel__lint_is_c_source("x/a.c"));
    CHECK(!ravel__lint_is_c_source("x.cc/a.cpp"));
    CHECK(!ravel__lint_is_c_source("a.c/b"));
}

int main(void)
{
    return CHECK_RUN(reads_both_entry_forms, splits_like_a_shell, says_what_is_wrong,
                     derives_the_bitcode_command, joins_paths);
}
