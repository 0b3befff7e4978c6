/*
 * librandom/internal.h: what librandom's files share.
 */
#ifndef CUSCI_LIBRANDOM_INTERNAL_H
#define CUSCI_LIBRANDOM_INTERNAL_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/random.h>

#include "reference/random/dists.h"

struct cusci_random_generator {
  cusci_bitgen kind;
  uint64_t seed;
  uint64_t key;     /* Philox: the key */
  uint64_t ctr;     /* Philox: the next counter; cuRAND: the offset */
  uint64_t spawned; /* children made so far */
  int device;       /* cuRAND: the GPU that owns the engine */
  void *curand;     /* cuRAND: the curandGenerator_t */
  bool reseek;      /* cuRAND: seek to ctr before the next call */
};

/* Argument checks (librandom/check.c). A sampling function's: ctx, g and
 * out not NULL, the shape, and a dtype the distribution makes (integers:
 * an integer dtype or bool; discrete ones int64; the rest float32 or
 * float64), a cuRAND generator on ctx's device. */
cusci_status cusci__rcheck_sample(cusci_ctx *ctx, const char *fn, int dist, bool discrete, cusci_random_generator *g, int ndim,
                                  const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* The _array variants' (parameters that broadcast): a Philox generator
 * (cuRAND's engines take scalars only), then cusci__rcheck_sample's checks
 * of the shape and of a float (or, discrete, int64) dtype. */
cusci_status cusci__rcheck_array_params(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, int ndim, const int64_t *shape,
                                        cusci_dtype dtype, bool discrete, cusci_array **out);
/* ctx, g and out not NULL and g a Philox generator (CUSCI_ERR_NOT_SUPPORTED
 * for cuRAND's engines): the permutations, choice, the multivariate
 * distributions. */
cusci_status cusci__rcheck_philox(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, const void *out);

/* cuRAND engines (librandom/curand.c); NOT_SUPPORTED without CUDA. */
cusci_status cusci__rcurand_create(cusci_ctx *ctx, const char *fn, cusci_random_generator *g);
void cusci__rcurand_destroy(cusci_random_generator *g);
/* Re-seed the engine with g->seed and seek to g->ctr. */
cusci_status cusci__rcurand_seek(cusci_ctx *ctx, const char *fn, cusci_random_generator *g);
/* cuRAND's 32-bit values that a call of n elements may use, at most (the
 * engine's offset moves by this much), so that calls after a re-seek never
 * reuse values. */
uint64_t cusci__rcurand_consumed(const cusci_random_generator *g, int dist, cusci_dtype dtype, int64_t n);
/* Fill the C-contiguous `dst` (n elements of dtype) with distribution
 * `dist`; CUSCI_ERR_NOT_SUPPORTED for one cuRAND does not make. */
cusci_status cusci__rcurand_sample(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, int dist,
                                   const cusci__rparams *p, cusci_dtype dtype, cusci_array *dst);

#endif
