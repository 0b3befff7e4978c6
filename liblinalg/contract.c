/*
 * liblinalg/contract.c: numpy.vdot, tensordot, linalg.multi_dot,
 * linalg.matrix_power and einsum (one or two operands). Each reduces to
 * views (transposes, reshapes), contiguous copies and cusci_linalg_matmul,
 * so it runs on the operands' device with cuBLAS doing the arithmetic.
 */
#ifdef HAVE_CONFIG_H
#include "config.h" /* CUSCI_HAVE_CUDA, before any cusci header */
#endif

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"


static cusci_status check2(cusci_ctx *ctx, const char *fn, const cusci_array *a, const cusci_array *b, cusci_array **out)
{
  CUSCI_ENTRY_CTX(ctx, fn);
  TRY(cusci_check_array(ctx, fn, "a", a));
  if (b)
    TRY(cusci_check_array(ctx, fn, "b", b));
  if (!out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "out is NULL");
  return CUSCI_OK;
}

/* Hand res over; a caller's *out is checked against it first. */
static cusci_status give(cusci_ctx *ctx, const char *fn, cusci_array *res, cusci_array **out)
{
  if (*out) {
    cusci_array *chk = NULL;
    cusci_status st = cusci_prepare_out(ctx, fn, out, cusci_array_ndim(res), cusci_array_shape(res), cusci_array_dtype(res), &chk);
    if (st != CUSCI_OK) {
      cusci_array_release(res);
      return st;
    }
  }
  return cusci_give_out(ctx, fn, res, out);
}

/* a permuted by perm, made contiguous and reshaped to (rows, cols) or, with
 * batch > 0, (batch, rows, cols). */
static cusci_status as_matrix(cusci_ctx *ctx, const cusci_array *a, const int *perm, int64_t batch, int64_t rows, int64_t cols, cusci_array **out)
{
  cusci_array *t = NULL, *c = NULL;
  *out = NULL;
  cusci_status st = perm ? cusci_array_transpose(ctx, (cusci_array *)a, perm, &t) : CUSCI_OK;
  if (!perm)
    t = cusci_array_retain((cusci_array *)a);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, t, &c);
  int64_t s3[3] = { batch, rows, cols };
  if (st == CUSCI_OK)
    st = batch > 0 ? cusci_array_reshape(ctx, c, 3, s3, out) : cusci_array_reshape(ctx, c, 2, s3 + 1, out);
  cusci_array_release(t), cusci_array_release(c);
  return st;
}

/* numpy.vdot: conj(a).ravel() @ b.ravel(). */
cusci_status cusci_linalg_vdot(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_vdot";
  TRY(check2(ctx, fn, a, b, out));
  int64_t na = cusci_array_size(a), nb = cusci_array_size(b);
  if (na != nb)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a and b have %lld and %lld elements: vdot needs the same number", (long long)na, (long long)nb);
  cusci_array *ca = NULL, *fa = NULL, *fb = NULL, *res = NULL;
  cusci_status st = cusci_dtype_is_complex(cusci_array_dtype(a)) ? cusci_conj(ctx, a, &ca) : cusci_array_ascontiguousarray(ctx, (cusci_array *)a, &ca);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, ca, 1, &na, &fa);
  cusci_array *cb = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, (cusci_array *)b, &cb);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, cb, 1, &nb, &fb);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, fa, fb, &res);
  cusci_array_release(ca), cusci_array_release(fa), cusci_array_release(cb), cusci_array_release(fb);
  if (st != CUSCI_OK)
    return st;
  return give(ctx, fn, res, out);
}

/* numpy.tensordot: a's free axes first, summed axes last; b's summed axes
 * first (in the order paired with a's), free axes last; one matmul. */
cusci_status cusci_linalg_tensordot(cusci_ctx *ctx, const cusci_array *a, const cusci_array *b, int n, const int *axes_a, const int *axes_b,
                                    cusci_array **out)
{
  static const char fn[] = "cusci_linalg_tensordot";
  TRY(check2(ctx, fn, a, b, out));
  int nda = cusci_array_ndim(a), ndb = cusci_array_ndim(b);
  const int64_t *sa = cusci_array_shape(a), *sb = cusci_array_shape(b);
  if (n < 0 || n > nda || n > ndb)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "%d summed axes for operands of %d and %d dimensions", n, nda, ndb);
  if ((axes_a == NULL) != (axes_b == NULL))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "axes_a and axes_b must both be given or both be NULL");
  int xa[CUSCI_MAX_NDIM], xb[CUSCI_MAX_NDIM];
  bool used_a[CUSCI_MAX_NDIM] = { false }, used_b[CUSCI_MAX_NDIM] = { false };
  for (int i = 0; i < n; i++) {
    int ia = axes_a ? axes_a[i] : nda - n + i, ib = axes_b ? axes_b[i] : i;
    if (ia < -nda || ia >= nda || ib < -ndb || ib >= ndb)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "summed axis pair (%d, %d) is out of range", ia, ib);
    ia = ia < 0 ? ia + nda : ia;
    ib = ib < 0 ? ib + ndb : ib;
    if (used_a[ia] || used_b[ib])
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "repeated summed axis");
    used_a[ia] = used_b[ib] = true;
    if (sa[ia] != sb[ib])
      return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "shape mismatch for sum: a's axis %d is %lld, b's axis %d is %lld", ia, (long long)sa[ia], ib,
                            (long long)sb[ib]);
    xa[i] = ia;
    xb[i] = ib;
  }
  int pa[CUSCI_MAX_NDIM], pb[CUSCI_MAX_NDIM], ka = 0, kb = 0, nout = 0;
  int64_t rows = 1, cols = 1, inner = 1, oshape[CUSCI_MAX_NDIM];
  for (int i = 0; i < nda; i++)
    if (!used_a[i]) {
      pa[ka++] = i;
      rows *= sa[i];
      oshape[nout++] = sa[i];
    }
  for (int i = 0; i < n; i++) {
    pa[ka++] = xa[i];
    pb[kb++] = xb[i];
    inner *= sa[xa[i]];
  }
  for (int i = 0; i < ndb; i++)
    if (!used_b[i]) {
      pb[kb++] = i;
      cols *= sb[i];
      if (nout == CUSCI_MAX_NDIM)
        return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "the result would have more than %d dimensions", CUSCI_MAX_NDIM);
      oshape[nout++] = sb[i];
    }
  cusci_array *ma = NULL, *mb = NULL, *p = NULL, *res = NULL;
  cusci_status st = as_matrix(ctx, a, pa, 0, rows, inner, &ma);
  if (st == CUSCI_OK)
    st = as_matrix(ctx, b, pb, 0, inner, cols, &mb);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, ma, mb, &p);
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, p, nout, oshape, &res);
  cusci_array_release(ma), cusci_array_release(mb), cusci_array_release(p);
  if (st != CUSCI_OK)
    return st;
  return give(ctx, fn, res, out);
}

/*
 * numpy.linalg.multi_dot: the matrix-chain order. With dims p[0..n], cost
 * m[i][j] = min over k of m[i][k] + m[k+1][j] + p[i] p[k+1] p[j+1]; the
 * product is then formed recursively along the split points.
 */
static cusci_status chain(cusci_ctx *ctx, cusci_array **mats, const int *split, int n, int i, int j, cusci_array **out)
{
  if (i == j) {
    *out = cusci_array_retain(mats[i]);
    return CUSCI_OK;
  }
  int k = split[i * n + j];
  cusci_array *l = NULL, *r = NULL;
  cusci_status st = chain(ctx, mats, split, n, i, k, &l);
  if (st == CUSCI_OK)
    st = chain(ctx, mats, split, n, k + 1, j, &r);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, l, r, out);
  cusci_array_release(l), cusci_array_release(r);
  return st;
}

cusci_status cusci_linalg_multi_dot(cusci_ctx *ctx, int n, const cusci_array *const *arrays, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_multi_dot";
  CUSCI_ENTRY_CTX(ctx, fn);
  if (!arrays || !out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "arrays or out is NULL");
  if (n < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "expecting at least two arrays, got %d", n);
  for (int i = 0; i < n; i++) {
    TRY(cusci_check_array(ctx, fn, "arrays[i]", arrays[i]));
    int nd = cusci_array_ndim(arrays[i]);
    bool ok = nd == 2 || (nd == 1 && (i == 0 || i == n - 1));
    if (!ok)
      return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "arrays[%d] has %d dimensions: the first and last may be 1-D, the others must be 2-D", i, nd);
  }
  bool row = cusci_array_ndim(arrays[0]) == 1, col = cusci_array_ndim(arrays[n - 1]) == 1;
  cusci_array **mats = calloc((size_t)n, sizeof *mats);
  int64_t *p = malloc(sizeof *p * (size_t)(n + 1));
  double *cost = malloc(sizeof *cost * (size_t)(n * n));
  int *split = malloc(sizeof *split * (size_t)(n * n));
  cusci_status st = mats && p && cost && split ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int i = 0; st == CUSCI_OK && i < n; i++) {
    const int64_t *sh = cusci_array_shape(arrays[i]);
    int64_t s2[2];
    if (cusci_array_ndim(arrays[i]) == 1) {
      s2[0] = i == 0 ? 1 : sh[0];
      s2[1] = i == 0 ? sh[0] : 1;
    } else {
      s2[0] = sh[0], s2[1] = sh[1];
    }
    st = cusci_array_reshape(ctx, (cusci_array *)arrays[i], 2, s2, &mats[i]);
    if (st == CUSCI_OK && i > 0 && p[i] != s2[0])
      st = cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "arrays[%d] has %lld rows where arrays[%d] has %lld columns", i, (long long)s2[0], i - 1,
                          (long long)p[i]);
    if (st == CUSCI_OK) {
      p[i] = s2[0];
      p[i + 1] = s2[1];
    }
  }
  for (int len = 1; st == CUSCI_OK && len < n; len++)
    for (int i = 0; i + len < n; i++) {
      int j = i + len;
      cost[i * n + j] = -1;
      for (int k = i; k < j; k++) {
        double c = (i == k ? 0 : cost[i * n + k]) + (k + 1 == j ? 0 : cost[(k + 1) * n + j]) + (double)p[i] * (double)p[k + 1] * (double)p[j + 1];
        if (cost[i * n + j] < 0 || c < cost[i * n + j]) {
          cost[i * n + j] = c;
          split[i * n + j] = k;
        }
      }
    }
  cusci_array *prod = NULL, *res = NULL;
  if (st == CUSCI_OK)
    st = chain(ctx, mats, split, n, 0, n - 1, &prod);
  if (st == CUSCI_OK) {
    /* Drop the axes the 1-D ends brought. */
    int64_t rs[2];
    int k = 0;
    if (!row)
      rs[k++] = p[0];
    if (!col)
      rs[k++] = p[n];
    st = cusci_array_reshape(ctx, prod, k, rs, &res);
  }
  for (int i = 0; mats && i < n; i++)
    cusci_array_release(mats[i]);
  free(mats), free(p), free(cost), free(split);
  cusci_array_release(prod);
  if (st != CUSCI_OK)
    return st;
  return give(ctx, fn, res, out);
}

/* numpy.linalg.matrix_power: binary powering by repeated squaring. */
cusci_status cusci_linalg_matrix_power(cusci_ctx *ctx, const cusci_array *a, int64_t n, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_matrix_power";
  TRY(check2(ctx, fn, a, NULL, out));
  int nd = cusci_array_ndim(a);
  if (nd < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NDIM, fn, "a has %d dimensions, expected at least 2", nd);
  const int64_t *sh = cusci_array_shape(a);
  if (sh[nd - 1] != sh[nd - 2])
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a is %lldx%lld, expected square matrices", (long long)sh[nd - 2], (long long)sh[nd - 1]);
  cusci_dtype dt = cusci_array_dtype(a);
  if (dt != CUSCI_FLOAT32 && dt != CUSCI_FLOAT64 && !cusci_dtype_is_complex(dt))
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "a has dtype %s: matrix_power takes float32, float64, complex64 and complex128",
                          cusci_dtype_name(dt));
  cusci_status st = CUSCI_OK;
  cusci_array *base = NULL, *res = NULL;
  if (n == 0) {
    /* The identity, broadcast over the batch. */
    int64_t m = sh[nd - 1];
    cusci_array *eye = NULL;
    st = cusci_array_eye(ctx, m, m, 0, dt, &eye);
    cusci_array *bc = NULL;
    if (st == CUSCI_OK)
      st = cusci_array_broadcast_to(ctx, eye, nd, sh, &bc);
    if (st == CUSCI_OK)
      st = cusci_array_copy(ctx, bc, &res);
    cusci_array_release(eye), cusci_array_release(bc);
  } else {
    if (n < 0)
      st = cusci_linalg_inv(ctx, a, &base);
    else
      st = cusci_array_copy(ctx, a, &base);
    uint64_t e = n < 0 ? (uint64_t)(-(n + 1)) + 1 : (uint64_t)n;
    while (st == CUSCI_OK && e) {
      if (e & 1) {
        if (!res) {
          res = cusci_array_retain(base);
        } else {
          cusci_array *t = NULL;
          st = cusci_linalg_matmul(ctx, res, base, &t);
          cusci_array_release(res);
          res = t;
        }
      }
      e >>= 1;
      if (st == CUSCI_OK && e) {
        cusci_array *t = NULL;
        st = cusci_linalg_matmul(ctx, base, base, &t);
        cusci_array_release(base);
        base = t;
      }
    }
  }
  cusci_array_release(base);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  if (*out && res == *out) {
    cusci_array_release(res);
    return CUSCI_OK;
  }
  return give(ctx, fn, res, out);
}

/* ---------------------------------------------------------------- einsum */

typedef struct term {
  char lab[CUSCI_MAX_NDIM + 1];
  int n;
} term;

static cusci_status parse_term(cusci_ctx *ctx, const char *fn, const char *s, size_t len, term *t)
{
  t->n = 0;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (c == ' ')
      continue;
    if (c == '.')
      return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "ellipsis ('...') is not supported");
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "invalid subscript '%c' in einstein sum subscripts string", c);
    if (t->n == CUSCI_MAX_NDIM)
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "too many subscripts in one operand");
    t->lab[t->n++] = c;
  }
  t->lab[t->n] = 0;
  return CUSCI_OK;
}

static int find(const term *t, char c)
{
  for (int i = 0; i < t->n; i++)
    if (t->lab[i] == c)
      return i;
  return -1;
}

/* Sum x over the axes whose labels are in `drop` (removing them from t). */
static cusci_status sum_out(cusci_ctx *ctx, cusci_array **x, term *t, const bool *drop)
{
  int axes[CUSCI_MAX_NDIM], k = 0, j = 0;
  for (int i = 0; i < t->n; i++) {
    if (drop[i])
      axes[k++] = i;
    else
      t->lab[j++] = t->lab[i];
  }
  t->n = j;
  t->lab[j] = 0;
  if (!k)
    return CUSCI_OK;
  cusci_array *y = NULL;
  cusci_reduce_opts o = { .naxes = k, .axes = axes };
  cusci_status st = cusci_sum(ctx, *x, &o, &y);
  cusci_array_release(*x);
  *x = y;
  return st;
}

/* One operand: a repeated label takes the diagonal (one pair at a time),
 * labels not in the output are summed, the rest transposed to its order. */
static cusci_status einsum_one(cusci_ctx *ctx, const char *fn, const cusci_array *a, term ta, const term *to, cusci_array **out)
{
  cusci_array *x = cusci_array_retain((cusci_array *)a);
  cusci_status st = CUSCI_OK;
  for (bool again = true; again && st == CUSCI_OK;) {
    again = false;
    for (int i = 0; i < ta.n && !again; i++)
      for (int j = i + 1; j < ta.n && !again; j++)
        if (ta.lab[i] == ta.lab[j]) {
          const int64_t *sh = cusci_array_shape(x);
          if (sh[i] != sh[j]) {
            st = cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "dimensions in operand for collapsing index '%c' don't match (%lld != %lld)", ta.lab[i],
                                (long long)sh[i], (long long)sh[j]);
            break;
          }
          /* The diagonal over axes i and j, placed at i: trace's slice
           * without the sum, by the same flatten. */
          int nd = ta.n, perm[CUSCI_MAX_NDIM], k = 0;
          int64_t fs[CUSCI_MAX_NDIM];
          for (int d = 0; d < nd; d++)
            if (d != i && d != j) {
              fs[k] = sh[d];
              perm[k++] = d;
            }
          perm[k] = i, perm[k + 1] = j;
          int64_t m = sh[i];
          fs[k] = m * m;
          cusci_array *t1 = NULL, *c1 = NULL, *f1 = NULL, *dg = NULL;
          st = cusci_array_transpose(ctx, x, perm, &t1);
          if (st == CUSCI_OK)
            st = cusci_array_ascontiguousarray(ctx, t1, &c1);
          if (st == CUSCI_OK)
            st = cusci_array_reshape(ctx, c1, k + 1, fs, &f1);
          int64_t lo[CUSCI_MAX_NDIM], hi[CUSCI_MAX_NDIM], sp[CUSCI_MAX_NDIM];
          for (int d = 0; d < k; d++)
            lo[d] = hi[d] = CUSCI_SLICE_NONE, sp[d] = 1;
          lo[k] = 0, hi[k] = CUSCI_SLICE_NONE, sp[k] = m + 1;
          if (st == CUSCI_OK)
            st = cusci_array_slice(ctx, f1, lo, hi, sp, &dg);
          cusci_array_release(t1), cusci_array_release(c1), cusci_array_release(f1);
          cusci_array_release(x);
          x = dg;
          /* New label order: the others, then the diagonal's. */
          term nt;
          nt.n = 0;
          for (int d = 0; d < nd; d++)
            if (d != i && d != j)
              nt.lab[nt.n++] = ta.lab[d];
          nt.lab[nt.n++] = ta.lab[i];
          nt.lab[nt.n] = 0;
          ta = nt;
          again = true;
        }
  }
  bool drop[CUSCI_MAX_NDIM];
  for (int i = 0; i < ta.n; i++)
    drop[i] = find(to, ta.lab[i]) < 0;
  if (st == CUSCI_OK)
    st = sum_out(ctx, &x, &ta, drop);
  int perm[CUSCI_MAX_NDIM];
  for (int i = 0; i < to->n; i++)
    perm[i] = find(&ta, to->lab[i]);
  cusci_array *t = NULL;
  if (st == CUSCI_OK)
    st = cusci_array_transpose(ctx, x, perm, &t);
  if (st == CUSCI_OK)
    st = cusci_array_copy(ctx, t, out);
  cusci_array_release(t);
  cusci_array_release(x);
  return st;
}

cusci_status cusci_linalg_einsum(cusci_ctx *ctx, const char *subscripts, const cusci_array *a, const cusci_array *b, cusci_array **out)
{
  static const char fn[] = "cusci_linalg_einsum";
  TRY(check2(ctx, fn, a, b, out));
  if (!subscripts)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "subscripts is NULL");
  const char *arrow = strstr(subscripts, "->");
  size_t lhs = arrow ? (size_t)(arrow - subscripts) : strlen(subscripts);
  const char *comma = memchr(subscripts, ',', lhs);
  if ((comma != NULL) != (b != NULL))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "'%s' names %d operands, %d given", subscripts, comma ? 2 : 1, b ? 2 : 1);
  if (comma && memchr(comma + 1, ',', lhs - (size_t)(comma + 1 - subscripts)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "more than two operands");
  term ta, tb = { "", 0 }, to;
  TRY(parse_term(ctx, fn, subscripts, comma ? (size_t)(comma - subscripts) : lhs, &ta));
  if (comma)
    TRY(parse_term(ctx, fn, comma + 1, lhs - (size_t)(comma + 1 - subscripts), &tb));
  if (ta.n != cusci_array_ndim(a) || (b && tb.n != cusci_array_ndim(b)))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "operand has more or fewer dimensions than subscripts given in '%s'", subscripts);
  /* Each label's extent, the same wherever it appears. */
  int64_t ext[128];
  int count[128] = { 0 };
  for (int k = 0; k < 2; k++) {
    const term *t = k ? &tb : &ta;
    const cusci_array *x = k ? b : a;
    for (int i = 0; x && i < t->n; i++) {
      unsigned char c = (unsigned char)t->lab[i];
      int64_t e = cusci_array_shape(x)[i];
      if (count[c] && ext[c] != e)
        return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "extents %lld and %lld for subscript '%c' differ", (long long)ext[c], (long long)e, c);
      ext[c] = e;
      count[c]++;
    }
  }
  if (arrow) {
    TRY(parse_term(ctx, fn, arrow + 2, strlen(arrow + 2), &to));
    for (int i = 0; i < to.n; i++) {
      unsigned char c = (unsigned char)to.lab[i];
      if (!count[c])
        return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "output subscript '%c' does not appear in the input", c);
      for (int j = 0; j < i; j++)
        if (to.lab[j] == to.lab[i])
          return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "output subscript '%c' appears more than once", c);
    }
  } else {
    to.n = 0;
    for (int c = 'A'; c <= 'z'; c++)
      if (count[c] == 1)
        to.lab[to.n++] = (char)c;
    to.lab[to.n] = 0;
  }
  if (!b)
    return einsum_one(ctx, fn, a, ta, &to, out);
  for (int i = 0; i < ta.n; i++)
    for (int j = i + 1; j < ta.n; j++)
      if (ta.lab[i] == ta.lab[j])
        return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "a label repeated within one operand of two ('%c')", ta.lab[i]);
  for (int i = 0; i < tb.n; i++)
    for (int j = i + 1; j < tb.n; j++)
      if (tb.lab[i] == tb.lab[j])
        return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "a label repeated within one operand of two ('%c')", tb.lab[i]);

  /* Labels in one operand only and not in the output are summed first. */
  cusci_array *x = cusci_array_retain((cusci_array *)a), *y = cusci_array_retain((cusci_array *)b);
  bool da[CUSCI_MAX_NDIM], db[CUSCI_MAX_NDIM];
  for (int i = 0; i < ta.n; i++)
    da[i] = find(&tb, ta.lab[i]) < 0 && find(&to, ta.lab[i]) < 0;
  for (int i = 0; i < tb.n; i++)
    db[i] = find(&ta, tb.lab[i]) < 0 && find(&to, tb.lab[i]) < 0;
  cusci_status st = sum_out(ctx, &x, &ta, da);
  if (st == CUSCI_OK)
    st = sum_out(ctx, &y, &tb, db);
  /* Classes: batch (both, output), contracted (both, not output), free. */
  int pa[CUSCI_MAX_NDIM], pb[CUSCI_MAX_NDIM], na = 0, nb = 0;
  term order; /* the labels of the matmul's result: batch, free a, free b */
  order.n = 0;
  int64_t B = 1, M = 1, N = 1, Kc = 1;
  for (int i = 0; i < ta.n; i++)
    if (find(&tb, ta.lab[i]) >= 0 && find(&to, ta.lab[i]) >= 0) {
      pa[na++] = i;
      pb[nb++] = find(&tb, ta.lab[i]);
      order.lab[order.n++] = ta.lab[i];
      B *= ext[(unsigned char)ta.lab[i]];
    }
  for (int i = 0; i < ta.n; i++)
    if (find(&tb, ta.lab[i]) < 0) {
      pa[na++] = i;
      order.lab[order.n++] = ta.lab[i];
      M *= ext[(unsigned char)ta.lab[i]];
    }
  for (int i = 0; i < ta.n; i++)
    if (find(&tb, ta.lab[i]) >= 0 && find(&to, ta.lab[i]) < 0) {
      pa[na++] = i;
      pb[nb++] = find(&tb, ta.lab[i]);
      Kc *= ext[(unsigned char)ta.lab[i]];
    }
  for (int i = 0; i < tb.n; i++)
    if (find(&ta, tb.lab[i]) < 0) {
      pb[nb++] = i;
      order.lab[order.n++] = tb.lab[i];
      N *= ext[(unsigned char)tb.lab[i]];
    }
  order.lab[order.n] = 0;
  cusci_array *ma = NULL, *mb = NULL, *p = NULL, *r = NULL, *t = NULL, *res = NULL;
  if (st == CUSCI_OK)
    st = as_matrix(ctx, x, pa, B, M, Kc, &ma);
  if (st == CUSCI_OK)
    st = as_matrix(ctx, y, pb, B, Kc, N, &mb);
  if (st == CUSCI_OK)
    st = cusci_linalg_matmul(ctx, ma, mb, &p);
  int64_t oshape[CUSCI_MAX_NDIM];
  for (int i = 0; i < order.n; i++)
    oshape[i] = ext[(unsigned char)order.lab[i]];
  if (st == CUSCI_OK)
    st = cusci_array_reshape(ctx, p, order.n, oshape, &r);
  int perm[CUSCI_MAX_NDIM];
  for (int i = 0; i < to.n; i++)
    perm[i] = find(&order, to.lab[i]);
  if (st == CUSCI_OK)
    st = cusci_array_transpose(ctx, r, perm, &t);
  if (st == CUSCI_OK)
    st = cusci_array_ascontiguousarray(ctx, t, &res);
  cusci_array *rel[] = { x, y, ma, mb, p, r, t };
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
    cusci_array_release(rel[i]);
  if (st != CUSCI_OK) {
    cusci_array_release(res);
    return st;
  }
  return give(ctx, fn, res, out);
}
