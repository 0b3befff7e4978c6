/*
 * tests/testutil.h: what cusci's test programs share: fixtures, contexts,
 * element comparison and a seeded generator for random inputs.
 */
#ifndef CUSCI_TESTS_TESTUTIL_H
#define CUSCI_TESTS_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cusci/cusci.h>

#include "tests/tap.h"

/* A host context, or the test program exits with a failure. */
cusci_ctx *tu_host_ctx(void);
/* A context on GPU 0; skips the whole program (TAP "1..0 # SKIP") where
 * there is none. */
cusci_ctx *tu_gpu_ctx_or_skip(void);
/* Load tests/fixtures/<sub>/<name>.npy on ctx; NULL (with a diagnostic,
 * unless `optional`) when it does not load. The caller tests for NULL. */
cusci_array *tu_fixture(cusci_ctx *ctx, const char *sub, const char *name, bool optional);
/* Copy an array to a malloc'ed host buffer in C order (caller frees). */
void *tu_to_host(cusci_ctx *ctx, const cusci_array *a);
/* A copy of a (on any device) on ctx's device, through the host; NULL on
 * failure. */
cusci_array *tu_copy_to(cusci_ctx *ctx, cusci_ctx *from, const cusci_array *a);
/* Compare n elements of dtype dt: bits equal, or both NaN for float and
 * complex parts; mask (bool per element) may be NULL. Returns the index of
 * the first mismatch or -1. */
int64_t tu_first_mismatch(cusci_dtype dt, const void *got, const void *want, const uint8_t *mask, int64_t n);
/* Format element i of a buffer of dtype dt. */
const char *tu_elem_str(cusci_dtype dt, const void *buf, int64_t i, char *out, size_t len);

/* splitmix64: a small seeded generator for test inputs. */
uint64_t tu_rand(uint64_t *state);
double tu_rand_double(uint64_t *state); /* in [0, 1) */

#endif

/* The view cases of tests/fixtures/make_fixtures.py (view_tables), applied
 * to `base` (the 2x3x4x5 float64 fixture). tu_view_names is NULL-ended. */
extern const char *const tu_view_names[];
cusci_status tu_view_case(cusci_ctx *ctx, cusci_array *base, const char *name, cusci_array **out);
