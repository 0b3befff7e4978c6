/*
 * librandom/check.c: the argument checks of librandom's functions, apart
 * from their work: what every sampling function checks (ctx, g, out, the
 * shape and the dtype), those of the _array variants, and the generators
 * that the permutations, choice and the multivariate distributions take
 * (Philox only).
 */
#include "librandom/internal.h"

/* ctx, g, out, shape and dtype: the checks every sampling function makes. */
cusci_status cusci__rcheck_sample(cusci_ctx *ctx, const char *fn, int dist, bool discrete, cusci_random_generator *g, int ndim,
                                  const int64_t *shape, cusci_dtype dtype, cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, g, out);
  CUSCI_TRY(cusci_check_dtype(ctx, fn, "dtype", dtype));
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, cusci_dtype_itemsize(dtype)));
  char k = cusci_dtype_kind(dtype);
  if (dist == CUSCI__RD_INTEGERS) {
    if (k != 'i' && k != 'u' && k != 'b')
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "dtype %s is not an integer dtype or bool",
                            cusci_dtype_name(dtype));
  } else if (discrete) {
    if (dtype != CUSCI_INT64)
      return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "discrete distributions make int64");
  } else if (dtype != CUSCI_FLOAT32 && dtype != CUSCI_FLOAT64) {
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "dtype %s: expected float32 or float64",
                          cusci_dtype_name(dtype));
  }
  if (g->curand && cusci_ctx_device(ctx) != g->device)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "g is a cuRAND generator of device %d, ctx is on %d",
                          g->device, cusci_ctx_device(ctx));
  return CUSCI_OK;
}

cusci_status cusci__rcheck_philox(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, const void *out)
{
  CUSCI_ENTRY(ctx, fn, g, out);
  if (g->curand)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "cuRAND's engines do not make this; use CUSCI_BITGEN_PHILOX");
  return CUSCI_OK;
}

cusci_status cusci__rcheck_array_params(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, int ndim, const int64_t *shape,
                                        cusci_dtype dtype, bool discrete, cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, g, out);
  if (g->curand)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn,
                          "cuRAND's engines take scalar parameters only; use CUSCI_BITGEN_PHILOX");
  /* -1: no distribution of its own rule (integers'), the float or int64
   * rule by `discrete`. */
  return cusci__rcheck_sample(ctx, fn, -1, discrete, g, ndim, shape, dtype, out);
}
