/*
 * tests/testkit.h: what cusci's test programs share.
 *
 *  - contexts: a host context, a GPU context or the whole program skipped,
 *    and the pool without caching (CUSCI_POOL=off) for tail tests;
 *  - fixtures from tests/fixtures (written by SciPy and NumPy);
 *  - copies between devices, element comparison bit for bit, in ulps or
 *    within a relative tolerance, and GPU-against-host agreement with a
 *    tolerance per dtype;
 *  - an expected status with a fragment of its message;
 *  - high-entropy random arrays, contiguous or as strided views;
 *  - guarded outputs: an array inside a larger buffer of sentinel bytes,
 *    so that a write past either end shows without a memory checker.
 *
 * A GPU test program reads:
 *
 *   cusci_ctx *gpu = tk_gpu_ctx_or_skip(), *host = tk_host_ctx();
 *   cusci_array *h = tk_random(host, 2, shape, CUSCI_FLOAT32, -3, 3, &seed);
 *   cusci_array *g = tk_copy_to(gpu, host, h);
 *   ... the function on both ...
 *   tk_agree(gpu, rg, host, rh, TK_REL(1e-5, 1e-13), "what");
 */
#ifndef CUSCI_TESTS_TESTKIT_H
#define CUSCI_TESTS_TESTKIT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>

#include <cusci/cusci.h>

#include "tests/tap.h"

/* ---------------------------------------------------------------- contexts */

/* A host context, or the test program exits with a failure. */
cusci_ctx *tk_host_ctx(void);
/* A context on GPU 0; skips the whole program (TAP "1..0 # SKIP") where
 * there is none. */
cusci_ctx *tk_gpu_ctx_or_skip(void);
/* Turn the pool of ctx's device off (cusci_pool_set_caching): every array
 * its own exact allocation from here on, so that a stray access faults or
 * lands in a guard. Nothing may be in use in that pool. Returns whether it
 * took. */
bool tk_pool_off(cusci_ctx *ctx);
/* The largest power of two (as an exponent) a test should reach where it
 * asked for 2^want: want itself, or at most 22 when the program runs
 * under compute-sanitizer (tests/sanitize.sh sets CUSCI_TEST_SANITIZE),
 * where every kernel and every copy is many times slower. 2^22 elements
 * still span several rounds of every grid-stride kernel. */
int tk_top_log2(int want);
/* Whether the program runs under compute-sanitizer (CUSCI_TEST_SANITIZE),
 * for tests whose cost is in many large calls rather than one array. */
bool tk_sanitizing(void);
/* A program split into parts, so that its runs under a slow tool go side
 * by side: CUSCI_TEST_PART=k/n (k from 1 to n; make check-sanitize sets it
 * for the programs it splits) runs the pieces i with i % n == k - 1, where
 * a program numbers its pieces (a dtype, say). Unset, every piece runs.
 * tk_part_count(total) is how many of the pieces 0 .. total - 1 run. */
bool tk_part(int i);
int tk_part_count(int total);

/* ---------------------------------------------------------------- fixtures */

/* Load tests/fixtures/<sub>/<name>.npy on ctx; NULL (with a diagnostic,
 * unless `optional`) when it does not load. The caller tests for NULL. */
cusci_array *tk_fixture(cusci_ctx *ctx, const char *sub, const char *name, bool optional);

/* tests/fixtures/<sub>/<name> (a case manifest) opened for reading, with
 * a test that it opens (inline, so that the calling program counts it);
 * NULL when it does not. */
static inline FILE *tk_manifest(const char *sub, const char *name)
{
  char path[1024];
  const char *dir = getenv("CUSCI_FIXTURES");
  snprintf(path, sizeof path, "%s/%s/%s", dir ? dir : "tests/fixtures", sub, name);
  FILE *f = fopen(path, "r");
  ok(f != NULL, "the manifest %s opens", path);
  return f;
}
/* The next case line of a manifest into line (its newline removed,
 * comment lines skipped); false at the end. */
static inline bool tk_manifest_line(FILE *f, char *line, size_t size)
{
  while (fgets(line, (int)size, f)) {
    if (line[0] == '#')
      continue;
    line[strcspn(line, "\n")] = 0;
    return true;
  }
  return false;
}

/* ---------------------------------------------------------------- copies */

/* Copy an array to a malloc'ed host buffer in C order (caller frees). */
void *tk_to_host(cusci_ctx *ctx, const cusci_array *a);
/* A copy of a (on any device) on ctx's device, through the host; NULL on
 * failure. */
cusci_array *tk_copy_to(cusci_ctx *ctx, cusci_ctx *from, const cusci_array *a);

/* ---------------------------------------------------------------- elements */

/* Compare n elements of dtype dt: bits equal, or both NaN for float and
 * complex parts; mask (bool per element) may be NULL. Returns the index of
 * the first mismatch or -1. */
int64_t tk_first_mismatch(cusci_dtype dt, const void *got, const void *want, const uint8_t *mask, int64_t n);
/*
 * Index of the first element farther apart than `ulps` (NaN matches NaN,
 * infinities and integers must be equal), or -1. A negative `ulps` -u
 * compares complex numbers as a whole, |got - want| <= u eps |want|.
 */
int64_t tk_first_far(cusci_dtype dt, const void *got, const void *want, int64_t n, int ulps);
/* Index of the first element of got not within tol of want (relative,
 * absolute below 1), or -1; integers, bools and tol 0 exactly (NaN equal
 * to NaN). */
int64_t tk_first_off(cusci_dtype dt, const void *got, const void *want, int64_t n, double tol);
/* The value of one float16, float32 or float64 (`part`) at p. */
double tk_float_part(cusci_dtype part, const void *p);
/* Format element i of a buffer of dtype dt. */
const char *tk_elem_str(cusci_dtype dt, const void *buf, int64_t i, char *out, size_t len);

/* ---------------------------------------------------------------- agreement */

/*
 * A tolerance per dtype: relative (absolute below 1, as tk_first_off) for
 * float16, the single-precision dtypes (float32, complex64) and the double
 * ones (float64, complex128), 0 meaning bit for bit; or, when ulps is not
 * 0, that many units in the last place for every float (tk_first_far).
 * Integers and bool are always compared exactly.
 */
typedef struct tk_tol {
  double f16, f32, f64;
  int ulps;
} tk_tol;
#define TK_EXACT ((tk_tol){0, 0, 0, 0})
#define TK_REL(single, dbl) ((tk_tol){1e-2, (single), (dbl), 0})
#define TK_ULPS(u) ((tk_tol){0, 0, 0, (u)})
double tk_tol_of(tk_tol tol, cusci_dtype dt);

/*
 * 1 when g (on gctx) and h (on hctx) have one dtype and shape and every
 * element within tol; else 0, with a diagnostic naming `what` and the first
 * element that differs. Does not print a TAP line: the caller's ok() does.
 */
int tk_agree(cusci_ctx *gctx, const cusci_array *g, cusci_ctx *hctx, const cusci_array *h, tk_tol tol, const char *what);
/*
 * One call on each backend: 1 when both returned CUSCI_OK and their results
 * agree (tk_agree), or, with same_failure, when both failed with the same
 * status; else 0 with a diagnostic. Releases both results.
 */
int tk_both(cusci_ctx *hctx, cusci_status sh, cusci_array *rh, cusci_ctx *gctx, cusci_status sg, cusci_array *rg, tk_tol tol,
            bool same_failure, const char *what);

/* ---------------------------------------------------------------- statuses */

/*
 * One TAP line: the call returned `want` and, when `fragment` is not NULL,
 * ctx's last error contains it. The line names `what` and, on failure, a
 * diagnostic (before it) the status and message seen. A macro, so that the
 * line is counted by the calling program: tap.h keeps its counters per
 * file. tk_status_matches is the check alone, with the diagnostic.
 */
int tk_status_matches(cusci_ctx *ctx, cusci_status got, cusci_status want, const char *fragment);
#define tk_status(ctx, got, want, fragment, what) \
  ok(tk_status_matches((ctx), (got), (want), (fragment)), "%s: %s", (what), cusci_status_name(want))

/* ---------------------------------------------------------------- inputs */

/* splitmix64: a small seeded generator for test inputs. */
uint64_t tk_rand(uint64_t *state);
double tk_rand_double(uint64_t *state); /* in [0, 1) */

/*
 * A new C-contiguous array on ctx of uniform values in [lo, hi): floats
 * with all their bits varied (high entropy, never round numbers), complex
 * parts independently, integers rounded toward zero and clipped to the
 * dtype, bool x != 0. NULL on failure (with a diagnostic).
 */
cusci_array *tk_random(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dt, double lo, double hi, uint64_t *seed);
/* The same values, as a strided view: every other element of the last
 * axis of a larger array, walked backwards, and the other axes offset by
 * one. The view holds the only reference to its base. */
cusci_array *tk_random_strided(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dt, double lo, double hi, uint64_t *seed);

/* The view cases of tests/fixtures/make_fixtures.py (view_tables), applied
 * to `base` (the 2x3x4x5 float64 fixture). tk_view_names is NULL-ended. */
extern const char *const tk_view_names[];
cusci_status tk_view_case(cusci_ctx *ctx, cusci_array *base, const char *name, cusci_array **out);

/* ---------------------------------------------------------------- guards */

/*
 * A guarded output: a C-contiguous array of (ndim, shape, dtype) on ctx that
 * lies inside one allocation with `pad` bytes of sentinel before and after
 * it. Its own bytes are all 0xff (NaN for floats), so that an element a
 * kernel forgets to write shows too. Pass g->out as a function's *out.
 */
typedef struct tk_guard {
  cusci_ctx *ctx;
  cusci_array *whole; /* uint8: pad, the array, pad */
  cusci_array *out;   /* the array inside, a view of whole's memory */
  size_t pad, nbytes;
} tk_guard;
bool tk_guard_make(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dt, size_t pad, tk_guard *g);
/* 1 when every sentinel byte is as written; else 0, with a diagnostic
 * naming `what`, how many bytes changed and the first offset past the
 * array's end (or before its start). */
int tk_guard_intact(tk_guard *g, const char *what);
/* 1 when no element of the array is still all 0xff bytes (for outputs
 * whose every value is a number: floats with no NaN, say). */
int tk_guard_all_written(tk_guard *g, const char *what);
void tk_guard_free(tk_guard *g);

/*
 * Leave 0xff bytes where ctx's next arrays will be: arrays of the given
 * sizes are made, filled and released, so that the next arrays of those
 * sizes reuse their memory (certainly with the pool's caching, usually
 * without), and a kernel that reads scratch it did not write reads
 * garbage, not zeros.
 */
void tk_poison_pool(cusci_ctx *ctx, int n, const size_t *bytes);

#endif
