/*
 * librandom/choice.c: permutation, shuffle and choice: random keys sorted
 * (reference/random/perm.h), so that host and GPU agree bit for bit.
 */
#include "librandom/internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference/random/reference.h"
#include "kernels/random/launch.h"

static cusci_status launched(cusci_ctx *ctx, const char *fn, int e)
{
  return e == 0 ? CUSCI_OK : cusci_ctx_gpu_status(ctx, fn, NULL, e);
}

/* The permutation of n by g's keys (weights w on the context's device, or
 * NULL) into idx, a C-contiguous int64 array of n elements. */
static cusci_status perm_into(cusci_ctx *ctx, const char *fn, cusci_random_generator *g, int64_t n, const double *w,
                              cusci_array *idx)
{
  if (n == 0)
    return CUSCI_OK;
  bool host = cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST;
  int64_t bytes;
  if (!host && n > INT32_MAX)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "n = %lld: the GPU sorts at most 2^31-1 keys", (long long)n);
  size_t need = 16 * (size_t)n;
  if (!host) {
    int e = cusci__rperm_scratch(n, &need);
    if (e != 0)
      return launched(ctx, fn, e);
  }
  bytes = (int64_t)need;
  cusci_array *scratch = NULL;
  CUSCI_TRY(cusci_array_empty(ctx, 1, &bytes, CUSCI_UINT8, &scratch));
  cusci_status st = CUSCI_OK;
  if (host) {
    cusci__rhost_perm(g->key, g->ctr, n, w, cusci_array_data(scratch), cusci_array_data(idx));
  } else {
    st = cusci_ctx_use_device(ctx, fn);
    if (st == CUSCI_OK)
      st = launched(ctx, fn, cusci__launch_rperm(cusci_ctx_stream(ctx), g->key, g->ctr, n, w, cusci_array_data(scratch),
                                                 (size_t)bytes, cusci_array_data(idx)));
  }
  cusci_array_release(scratch);
  return st;
}

/* Store `src` (C-contiguous) into the result *out asks for: itself when
 * *out is NULL, else a copy into *out. Takes over src's reference. */
static cusci_status deliver(cusci_ctx *ctx, const char *fn, cusci_array *src, int ndim, const int64_t *shape,
                            cusci_array **out)
{
  cusci_array *shaped = NULL;
  cusci_status st = cusci_array_reshape(ctx, src, ndim, shape, &shaped);
  cusci_array_release(src);
  if (st != CUSCI_OK)
    return st;
  if (*out == NULL) {
    *out = shaped;
    return CUSCI_OK;
  }
  st = cusci_array_copy(ctx, shaped, out);
  cusci_array_release(shaped);
  return st;
}

cusci_status cusci_random_permutation(cusci_ctx *ctx, cusci_random_generator *g, int64_t n, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_philox(ctx, fn, g, out));
  if (n < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "n = %lld is negative", (long long)n);
  cusci_array *r = NULL;
  CUSCI_TRY(cusci_prepare_out(ctx, fn, out, 1, &n, CUSCI_INT64, &r));
  cusci_array *dst = r;
  cusci_status st = CUSCI_OK;
  if (!cusci_array_is_c_contiguous(r)) {
    dst = NULL;
    st = cusci_array_empty(ctx, 1, &n, CUSCI_INT64, &dst);
  }
  if (st == CUSCI_OK)
    st = perm_into(ctx, fn, g, n, NULL, dst);
  if (st == CUSCI_OK && dst != r)
    st = cusci_array_copy(ctx, dst, &r);
  if (dst != r)
    cusci_array_release(dst);
  if (st != CUSCI_OK) {
    if (r != *out)
      cusci_array_release(r);
    return st;
  }
  g->ctr += (uint64_t)n;
  *out = r;
  return CUSCI_OK;
}

cusci_status cusci_random_shuffle(cusci_ctx *ctx, cusci_random_generator *g, cusci_array *x)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_philox(ctx, fn, g, x));
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  if (cusci_array_ndim(x) < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "x is 0-dimensional; shuffle needs an axis");
  int64_t n = cusci_array_shape(x)[0];
  if (n == 0 || cusci_array_size(x) == 0)
    return CUSCI_OK;
  size_t row = cusci_array_nbytes(x) / (size_t)n;
  cusci_array *idx = NULL, *src = NULL, *dst = NULL;
  cusci_status st = cusci_array_empty(ctx, 1, &n, CUSCI_INT64, &idx);
  if (st == CUSCI_OK)
    st = perm_into(ctx, fn, g, n, NULL, idx);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, x, &src); /* a C-contiguous copy */
  bool direct = cusci_array_is_c_contiguous(x);
  if (st == CUSCI_OK && !direct)
    st = cusci_array_copy(ctx, x, &dst);
  cusci_array *target = direct ? x : dst;
  if (st == CUSCI_OK) {
    if (cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST) {
      const char *s = cusci_array_data(src);
      char *d = cusci_array_data(target);
      const int64_t *ix = cusci_array_data(idx);
      for (int64_t i = 0; i < n; i++)
        memcpy(d + (size_t)i * row, s + (size_t)ix[i] * row, row);
    } else {
      st = cusci_ctx_use_device(ctx, fn);
      if (st == CUSCI_OK)
        st = launched(ctx, fn, cusci__launch_rgather(cusci_ctx_stream(ctx), cusci_array_data(src),
                                                     cusci_array_data(target), cusci_array_data(idx), n, row));
    }
  }
  if (st == CUSCI_OK && !direct)
    st = cusci_array_copy(ctx, dst, &x);
  cusci_array_release(idx);
  cusci_array_release(src);
  cusci_array_release(dst);
  if (st == CUSCI_OK)
    g->ctr += (uint64_t)n;
  return st;
}

/* p as n host doubles, checked as NumPy checks it. */
static cusci_status load_p(cusci_ctx *ctx, const char *fn, const cusci_array *p, int64_t a, double **out)
{
  CUSCI_TRY(cusci_check_array(ctx, fn, "p", p));
  if (cusci_array_ndim(p) != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "p has %d dimensions, expected 1", cusci_array_ndim(p));
  if (cusci_array_shape(p)[0] != a)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "p has %lld entries, a is %lld",
                          (long long)cusci_array_shape(p)[0], (long long)a);
  cusci_dtype dt = cusci_array_dtype(p);
  if (dt != CUSCI_FLOAT32 && dt != CUSCI_FLOAT64)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "p has dtype %s, expected float32 or float64", cusci_dtype_name(dt));
  cusci_array *d = NULL;
  CUSCI_TRY(cusci_array_astype(ctx, (cusci_array *)p, CUSCI_FLOAT64, false, &d));
  double *h = malloc((size_t)(a > 0 ? a : 1) * sizeof *h);
  cusci_status st = h ? cusci_array_to_host(ctx, d, h, (size_t)a * sizeof *h)
                      : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for p");
  cusci_array_release(d);
  if (st != CUSCI_OK) {
    free(h);
    return st;
  }
  /* Kahan's sum, and NumPy's tolerance: sqrt of the dtype's epsilon. */
  double sum = 0, c = 0;
  for (int64_t i = 0; i < a; i++) {
    if (!(h[i] >= 0) || isinf(h[i])) {
      double v = h[i];
      free(h);
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "p[%lld] = %g: probabilities must be finite and >= 0",
                            (long long)i, v);
    }
    double y = h[i] - c, t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  double atol = sqrt(dt == CUSCI_FLOAT32 ? (double)FLT_EPSILON : DBL_EPSILON);
  if (fabs(sum - 1.0) > atol) {
    free(h);
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "probabilities sum to %.17g, not 1", sum);
  }
  *out = h;
  return CUSCI_OK;
}

cusci_status cusci_random_choice(cusci_ctx *ctx, cusci_random_generator *g, int64_t a, int ndim, const int64_t *shape,
                                 bool replace, const cusci_array *p, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_philox(ctx, fn, g, out));
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, 8));
  int64_t m = 1;
  for (int i = 0; i < ndim; i++)
    m *= shape[i];
  if (a < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a = %lld is negative", (long long)a);
  if (a == 0 && m > 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a is 0: there is nothing to choose from");
  if (!replace && m > a)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn,
                          "cannot take a larger sample (%lld) than the population (%lld) without replacement",
                          (long long)m, (long long)a);
  double *ph = NULL;
  if (p) {
    CUSCI_TRY(load_p(ctx, fn, p, a, &ph));
    if (!replace) {
      int64_t nz = 0;
      for (int64_t i = 0; i < a; i++)
        nz += ph[i] > 0;
      if (nz < m) {
        free(ph);
        return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fewer non-zero entries in p (%lld) than size (%lld)",
                              (long long)nz, (long long)m);
      }
    }
  } else if (replace) {
    return cusci_random_integers(ctx, g, 0, a, false, ndim, shape, CUSCI_INT64, out);
  }
  if (*out) { /* check *out before any work */
    cusci_array *r = NULL;
    cusci_status st = cusci_prepare_out(ctx, fn, out, ndim, shape, CUSCI_INT64, &r);
    if (st != CUSCI_OK) {
      free(ph);
      return st;
    }
  }
  bool host = cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST;
  cusci_status st = CUSCI_OK;
  cusci_array *res = NULL, *wdev = NULL;
  const double *w = NULL;
  if (ph) { /* the weights, or the cumulative sums, on the context's device */
    if (replace)
      for (int64_t i = 1; i < a; i++)
        ph[i] += ph[i - 1];
    if (host)
      w = ph;
    else if ((st = cusci_array_from_host(ctx, ph, 1, &a, CUSCI_FLOAT64, &wdev)) == CUSCI_OK)
      w = cusci_array_data(wdev);
  }
  uint64_t used = 0;
  if (st == CUSCI_OK && replace) { /* with probabilities: bisection of the cdf */
    st = cusci_array_empty(ctx, 1, &m, CUSCI_INT64, &res);
    if (st == CUSCI_OK && m > 0) {
      if (host) {
        cusci__rhost_choice_cdf(g->key, g->ctr, w, a, m, cusci_array_data(res));
      } else {
        st = cusci_ctx_use_device(ctx, fn);
        if (st == CUSCI_OK)
          st = launched(ctx, fn, cusci__launch_rchoice_cdf(cusci_ctx_stream(ctx), g->key, g->ctr, w, a, m,
                                                           cusci_array_data(res)));
      }
    }
    used = (uint64_t)m;
  } else if (st == CUSCI_OK) { /* without replacement: the m smallest keys */
    cusci_array *all = NULL, *head = NULL;
    st = cusci_array_empty(ctx, 1, &a, CUSCI_INT64, &all);
    if (st == CUSCI_OK)
      st = perm_into(ctx, fn, g, a, w, all);
    int64_t start = 0, stop = m;
    if (st == CUSCI_OK)
      st = cusci_array_slice(ctx, all, &start, &stop, NULL, &head);
    if (st == CUSCI_OK)
      st = cusci_array_ascontiguousarray(ctx, head, &res);
    cusci_array_release(all);
    cusci_array_release(head);
    used = (uint64_t)a;
  }
  if (st == CUSCI_OK) {
    st = deliver(ctx, fn, res, ndim, shape, out);
    res = NULL;
  }
  cusci_array_release(res);
  cusci_array_release(wdev);
  free(ph);
  if (st == CUSCI_OK)
    g->ctr += used;
  return st;
}

/*
 * Generator.permuted: each slice along `axis` (all of x when axis is NULL)
 * permuted on its own. Slice r of n elements takes the keys at counter
 * ctr + r n + i, so a call uses rows x n counter steps. Built from the same
 * keys, sort and gather as permutation and shuffle, one slice at a time.
 */
cusci_status cusci_random_permuted(cusci_ctx *ctx, cusci_random_generator *g, cusci_array *x, const int *axis, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_philox(ctx, fn, g, out));
  CUSCI_TRY(cusci_check_array(ctx, fn, "x", x));
  int nd = cusci_array_ndim(x);
  int ax = axis ? *axis : 0;
  if (axis && (ax < -nd || ax >= nd))
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of range for %d dimensions", ax, nd);
  if (ax < 0)
    ax += nd;
  if (*out) { /* check *out before any work */
    cusci_array *r = NULL;
    CUSCI_TRY(cusci_prepare_out(ctx, fn, out, nd, cusci_array_shape(x), cusci_array_dtype(x), &r));
  }
  /* t: x with the permuted axis last (or flattened), as a C-contiguous copy */
  int perm[CUSCI_MAX_NDIM], inv[CUSCI_MAX_NDIM];
  for (int i = 0, k = 0; i < nd; i++)
    if (i != ax)
      perm[k++] = i;
  if (nd > 0)
    perm[nd - 1] = ax;
  for (int i = 0; i < nd; i++)
    inv[perm[i]] = i;
  cusci_array *tv = NULL, *src = NULL, *dst = NULL, *idx = NULL, *back = NULL;
  cusci_status st = axis && nd > 0 ? cusci_array_transpose(ctx, x, perm, &tv) : CUSCI_OK;
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, tv ? tv : x, &src);
  int64_t size = cusci_array_size(x);
  int64_t n = nd == 0 ? 1 : axis ? cusci_array_shape(x)[ax] : size;
  int64_t rows = n > 0 ? size / n : 0;
  size_t isz = cusci_dtype_itemsize(cusci_array_dtype(x));
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, src, &dst);
  if (st == CUSCI_OK && n > 0)
    st = cusci_array_empty(ctx, 1, &n, CUSCI_INT64, &idx);
  bool host = cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST;
  for (int64_t r = 0; st == CUSCI_OK && r < rows && n > 1; r++) {
    cusci_random_generator at = *g;
    at.ctr = g->ctr + (uint64_t)r * (uint64_t)n;
    st = perm_into(ctx, fn, &at, n, NULL, idx);
    const char *s = (const char *)cusci_array_data(src) + (size_t)(r * n) * isz;
    char *d = (char *)cusci_array_data(dst) + (size_t)(r * n) * isz;
    if (st != CUSCI_OK)
      break;
    if (host) {
      const int64_t *ix = cusci_array_data(idx);
      for (int64_t i = 0; i < n; i++)
        memcpy(d + (size_t)i * isz, s + (size_t)ix[i] * isz, isz);
    } else {
      st = launched(ctx, fn, cusci__launch_rgather(cusci_ctx_stream(ctx), s, d, cusci_array_data(idx), n, isz));
    }
  }
  /* back to x's layout */
  cusci_array *shaped = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, dst, nd, axis ? cusci_array_shape(src) : cusci_array_shape(x), &shaped);
  if (st == CUSCI_OK && axis && nd > 0)
    st = cusci_array_transpose(ctx, shaped, inv, &back);
  if (st == CUSCI_OK) {
    cusci_array *view = back ? back : shaped;
    if (*out)
      st = cusci_array_copy(ctx, view, out);
    else
      st = cusci_array_ascontiguousarray(ctx, view, out);
  }
  cusci_array_release(tv), cusci_array_release(src), cusci_array_release(dst), cusci_array_release(idx);
  cusci_array_release(shaped), cusci_array_release(back);
  if (st == CUSCI_OK)
    g->ctr += (uint64_t)rows * (uint64_t)n;
  return st;
}

/*
 * Generator.choice(a, size, replace, p) with an array a: the rows of a
 * (along axis 0) at the indices choice(len(a), ...) draws, shape
 * size + a.shape[1:], any dtype. The same counter use as choice.
 */
cusci_status cusci_random_choice_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *a, int ndim, const int64_t *shape, bool replace, const cusci_array *p, cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_TRY(cusci__rcheck_philox(ctx, fn, g, out));
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  CUSCI_TRY(cusci_check_shape(ctx, fn, "shape", ndim, shape, 8));
  int and_ = cusci_array_ndim(a);
  if (and_ < 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "a is 0-dimensional; choice needs an axis to choose along");
  if (ndim + and_ - 1 > CUSCI_MAX_NDIM)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have %d dimensions", ndim + and_ - 1);
  int64_t full[CUSCI_MAX_NDIM];
  for (int i = 0; i < ndim; i++)
    full[i] = shape[i];
  for (int i = 1; i < and_; i++)
    full[ndim + i - 1] = cusci_array_shape(a)[i];
  cusci_dtype dt = cusci_array_dtype(a);
  CUSCI_TRY(cusci_check_shape(ctx, fn, "size + a.shape[1:]", ndim + and_ - 1, full, cusci_dtype_itemsize(dt)));
  cusci_array *r = NULL;
  CUSCI_TRY(cusci_prepare_out(ctx, fn, out, ndim + and_ - 1, full, dt, &r));
  uint64_t ctr0 = g->ctr;
  int64_t n0 = cusci_array_shape(a)[0];
  int64_t rows = 1;
  for (int i = 0; i < ndim; i++)
    rows *= shape[i];
  size_t row = n0 > 0 ? cusci_array_nbytes(a) / (size_t)n0 : 0;
  cusci_array *idx = NULL, *src = NULL, *tmp = NULL;
  cusci_status st = cusci_random_choice(ctx, g, n0, 1, &rows, replace, p, &idx);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, (cusci_array *)a, &src);
  cusci_array *dst = r;
  if (st == CUSCI_OK && !cusci_array_is_c_contiguous(r)) {
    st = cusci_array_empty(ctx, ndim + and_ - 1, full, dt, &tmp);
    dst = tmp;
  }
  if (st == CUSCI_OK && rows > 0 && row > 0) {
    if (cusci_ctx_device(ctx) == CUSCI_DEVICE_HOST) {
      const char *s = cusci_array_data(src);
      char *d = cusci_array_data(dst);
      const int64_t *ix = cusci_array_data(idx);
      for (int64_t i = 0; i < rows; i++)
        memcpy(d + (size_t)i * row, s + (size_t)ix[i] * row, row);
    } else {
      st = cusci_ctx_use_device(ctx, fn);
      if (st == CUSCI_OK)
        st = launched(ctx, fn, cusci__launch_rgather(cusci_ctx_stream(ctx), cusci_array_data(src), cusci_array_data(dst),
                                                     cusci_array_data(idx), rows, row));
    }
  }
  if (st == CUSCI_OK && tmp)
    st = cusci_array_copy(ctx, tmp, &r);
  cusci_array_release(idx), cusci_array_release(src), cusci_array_release(tmp);
  if (st != CUSCI_OK) {
    g->ctr = ctr0;
    if (r != *out)
      cusci_array_release(r);
    return st;
  }
  *out = r;
  return CUSCI_OK;
}
