/*
 * atomic_alternate_fixed.c - atomic_alternate.c with an error no order of
 * the ten sections reaches (at most 9 changes of owner): every strategy
 * must come back clean, and the systematic ones with the same 252 traces.
 */
#define FLIPS 10
#include "atomic_alternate.c"
