/*
 * liblinalg/blocks.c: scipy.linalg.block_diag and convolution_matrix,
 * built on the host in plain loops (as the special matrices of special.c)
 * and copied to the context's device.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA, before any cusci header */
#endif

#include <stdlib.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"

/* x's values in dtype dt, C order, on the host (caller frees). */
static cusci_status host_values(cusci_ctx *ctx, const char *fn, const cusci_array *x, cusci_dtype dt, void **v)
{
  cusci_array *c = NULL;
  size_t bytes = (size_t)cusci_array_size(x) * cusci_dtype_itemsize(dt);
  *v = malloc(bytes ? bytes : 1);
  if (!*v)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  cusci_status st = cusci_array_astype(ctx, (cusci_array *)x, dt, true, &c);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, c, *v, bytes);
  cusci_array_release(c);
  if (st != CUSCI_OK) {
    free(*v);
    *v = NULL;
  }
  return st;
}

static cusci_status finish(cusci_ctx *ctx, const char *fn, void *buf, int ndim, const int64_t *shape, cusci_dtype dt, cusci_array **out)
{
  cusci_array *res = NULL;
  cusci_status st = cusci_array_from_host(ctx, buf, ndim, shape, dt, &res);
  free(buf);
  if (st != CUSCI_OK)
    return st;
  if (*out) {
    cusci_array *chk = NULL;
    st = cusci_prepare_out(ctx, fn, out, ndim, shape, dt, &chk);
    if (st != CUSCI_OK) {
      cusci_array_release(res);
      return st;
    }
  }
  return cusci_give_out(ctx, fn, res, out);
}

/* scipy.linalg.block_diag: each block at the running (row, column) corner. */
cusci_status cusci_linalg_block_diag(cusci_ctx *ctx, int n, const cusci_array *const *arrays, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_block_diag";
  CUSCI_ENTRY_CTX(ctx, fn);
  if (!out || (n > 0 && !arrays))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "arrays or out is NULL");
  if (n < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n is %d", n);
  int64_t rows = 0, cols = 0;
  cusci_dtype dt = CUSCI_FLOAT64;
  for (int i = 0; i < n; i++) {
    TRY(cusci_check_array(ctx, fn, "arrays[i]", arrays[i]));
    int nd = cusci_array_ndim(arrays[i]);
    if (nd > 2)
      return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "arguments to block_diag must have at most 2 dimensions, arrays[%d] has %d", i, nd);
    const int64_t *sh = cusci_array_shape(arrays[i]);
    rows += nd == 2 ? sh[0] : 1;
    cols += nd == 2 ? sh[1] : nd == 1 ? sh[0] : 1;
    if (i == 0)
      dt = cusci_array_dtype(arrays[i]);
    else
      TRY(cusci_promote_types(dt, cusci_array_dtype(arrays[i]), &dt));
  }
  if (n == 0)
    rows = 1;
  size_t isz = cusci_dtype_itemsize(dt);
  int64_t shape[2] = { rows, cols };
  char *buf = calloc((size_t)(rows * cols) + 1, isz);
  if (!buf)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a %lldx%lld matrix", (long long)rows, (long long)cols);
  int64_t r0 = 0, c0 = 0;
  for (int i = 0; i < n; i++) {
    int nd = cusci_array_ndim(arrays[i]);
    const int64_t *sh = cusci_array_shape(arrays[i]);
    int64_t br = nd == 2 ? sh[0] : 1, bc = nd == 2 ? sh[1] : nd == 1 ? sh[0] : 1;
    void *v = NULL;
    cusci_status st = host_values(ctx, fn, arrays[i], dt, &v);
    if (st != CUSCI_OK) {
      free(buf);
      return st;
    }
    for (int64_t r = 0; r < br; r++)
      memcpy(buf + (size_t)((r0 + r) * cols + c0) * isz, (char *)v + (size_t)(r * bc) * isz, (size_t)bc * isz);
    free(v);
    r0 += br;
    c0 += bc;
  }
  return finish(ctx, fn, buf, 2, shape, dt, out);
}

/*
 * scipy.linalg.convolution_matrix: A[i][j] = a[i - j + t] where that index
 * is in range, else 0, with t = 0 (full), (min(m, n) - 1) / 2 (same) or
 * min(m, n) - 1 (valid): the rows of the full Toeplitz matrix that
 * numpy.convolve keeps in that mode.
 */
cusci_status cusci_linalg_convolution_matrix(cusci_ctx *ctx, const cusci_array *a, int64_t n, cusci_linalg_conv_mode mode, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_convolution_matrix";
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, "a", a));
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  if (cusci_array_ndim(a) != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "a has %d dimensions, expected 1", cusci_array_ndim(a));
  if (n <= 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n must be a positive integer, got %lld", (long long)n);
  if ((int)mode < 0 || mode > CUSCI_LINALG_CONV_VALID)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "mode %d is not full, same or valid", (int)mode);
  int64_t m = cusci_array_shape(a)[0];
  if (m == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "len(a) must be at least 1");
  int64_t mn = m < n ? m : n, mx = m > n ? m : n;
  int64_t t = mode == CUSCI_LINALG_CONV_FULL ? 0 : mode == CUSCI_LINALG_CONV_SAME ? (mn - 1) / 2 : mn - 1;
  int64_t rows = mode == CUSCI_LINALG_CONV_FULL ? m + n - 1 : mode == CUSCI_LINALG_CONV_SAME ? mx : mx - mn + 1;
  cusci_dtype dt = cusci_array_dtype(a);
  size_t isz = cusci_dtype_itemsize(dt);
  if (rows > 0 && n > INT64_MAX / rows / (int64_t)isz)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "a %lldx%lld matrix is too large", (long long)rows, (long long)n);
  void *v = NULL;
  TRY(host_values(ctx, fn, a, dt, &v));
  char *buf = calloc((size_t)(rows * n) + 1, isz);
  if (!buf) {
    free(v);
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a %lldx%lld matrix", (long long)rows, (long long)n);
  }
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < n; j++) {
      int64_t k = i - j + t;
      if (k >= 0 && k < m)
        memcpy(buf + (size_t)(i * n + j) * isz, (char *)v + (size_t)k * isz, isz);
    }
  free(v);
  int64_t shape[2] = { rows, n };
  return finish(ctx, fn, buf, 2, shape, dt, out);
}
