/*
 * ravel.h - the public interface of ravel's runtime.
 *
 * Programs are tested without including this header: build them with
 * ravel-cc (or the CMake function ravel_instrument) and run them with
 * `ravel run`. Include it to tell ravel more than it can see:
 *
 *   ravel_result(v)   declares the result of this execution. ravel reports
 *                     a bug of kind "nondeterminism" when executions of the
 *                     program declare different results, listing each
 *                     distinct result with a replay ticket.
 *
 * When the program is not running under ravel, these functions do
 * nothing. C and C++ compatible. Link against libravel_rt (ravel-cc does).
 */
#ifndef RAVEL_H
#define RAVEL_H

#define RAVEL_VERSION_MAJOR 0
#define RAVEL_VERSION_MINOR 1
#define RAVEL_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/* Declares the result of the current execution (the last call wins). */
void ravel_result(long value);

#ifdef __cplusplus
}
#endif

#endif
