/*
 * main.c - the main of a test program that has none: libravel_test_main.a.
 *
 * A file of RAVEL_TEST bodies needs no main. ravel-cc and the CMake
 * functions link this archive after the program's own objects; a linker
 * takes a member from an archive only to define a symbol still missing,
 * so a program with its own main keeps it (and may call
 * ravel_test_main itself), and any other program is not touched.
 * (gtest_main and libfl's main work the same way.)
 */
#include "../../include/ravel.h"

int main(int argc, char **argv)
{
    return ravel_test_main(argc, argv);
}
