/*
 * tests/linalg-errors.c: every error status of the linalg functions on
 * the host backend, the failing index and batch index in the message, and
 * the output convention on failure (*out as it was).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-util.h"

static cusci_ctx *ctx;

static cusci_array *arr(cusci_dtype dt, int ndim, const int64_t *shape, double shift)
{
  uint64_t seed = 77;
  lu_c *v = lu_rand_values(&seed, dt, ndim, shape, shift);
  cusci_array *a = lu_array(ctx, dt, ndim, shape, v);
  free(v);
  return a;
}

/* st is `want`, *out stayed NULL, and the message holds `needle`. */
static void expect(cusci_status st, cusci_status want, cusci_array **outp, const char *needle, const char *what)
{
  cusci_array *out = *outp; /* read after the call */
  const char *msg = cusci_ctx_last_error(ctx);
  bool has = !needle || (msg && strstr(msg, needle));
  ok(st == want && out == NULL && has, "%s: %s (want %s), message \"%s\"", what, cusci_status_name(st), cusci_status_name(want), msg ? msg : "");
}

int main(void)
{
  ctx = tk_host_ctx();
  plan(60);
  int64_t s33[2] = { 3, 3 }, s34[2] = { 3, 4 }, s3[1] = { 3 }, s233[3] = { 2, 3, 3 }, s432[3] = { 4, 3, 2 };
  cusci_array *a = arr(CUSCI_FLOAT64, 2, s33, 5), *r = arr(CUSCI_FLOAT64, 2, s34, 0), *v = arr(CUSCI_FLOAT64, 1, s3, 0);
  cusci_array *out = NULL, *o2 = NULL, *o3 = NULL;

  /* NULL pointers. */
  is_int(cusci_linalg_inv(NULL, a, &out), CUSCI_ERR_NULL_POINTER, "inv: NULL ctx");
  expect(cusci_linalg_inv(ctx, NULL, &out), CUSCI_ERR_NULL_POINTER, &out, NULL, "inv: NULL a");
  is_int(cusci_linalg_inv(ctx, a, NULL), CUSCI_ERR_NULL_POINTER, "inv: NULL out");
  expect(cusci_linalg_matmul(ctx, a, NULL, &out), CUSCI_ERR_NULL_POINTER, &out, NULL, "matmul: NULL b");
  expect(cusci_linalg_solve(ctx, a, NULL, NULL, &out), CUSCI_ERR_NULL_POINTER, &out, NULL, "solve: NULL b");
  is_int(cusci_linalg_svd(ctx, a, true, true, NULL, &o2, &o3), CUSCI_ERR_NULL_POINTER, "svd: compute_uv with NULL u");
  is_int(cusci_linalg_svd(ctx, a, true, false, NULL, NULL, NULL), CUSCI_ERR_NULL_POINTER, "svd: NULL s");
  is_int(cusci_linalg_eigh(ctx, a, NULL, NULL, &o2), CUSCI_ERR_NULL_POINTER, "eigh: NULL w");
  ok(o2 == NULL && o3 == NULL, "failed calls left the outputs NULL");

  /* Dimensions and shapes. */
  expect(cusci_linalg_inv(ctx, v, &out), CUSCI_ERR_NDIM, &out, "at least 2", "inv: a 1-D array");
  expect(cusci_linalg_inv(ctx, r, &out), CUSCI_ERR_SHAPE, &out, "3x4", "inv: a 3x4 matrix");
  expect(cusci_linalg_det(ctx, r, &out), CUSCI_ERR_SHAPE, &out, "square", "det: not square");
  expect(cusci_linalg_cholesky(ctx, r, true, &out), CUSCI_ERR_SHAPE, &out, "square", "cholesky: not square");
  expect(cusci_linalg_eigh(ctx, r, NULL, &out, NULL), CUSCI_ERR_SHAPE, &out, "square", "eigh: not square");
  expect(cusci_linalg_svd(ctx, v, false, false, NULL, &out, NULL), CUSCI_ERR_NDIM, &out, NULL, "svd: a 1-D array");
  expect(cusci_linalg_solve(ctx, r, v, NULL, &out), CUSCI_ERR_SHAPE, &out, "square", "solve: a not square");
  cusci_array *b4 = arr(CUSCI_FLOAT64, 2, (int64_t[]){ 4, 2 }, 0);
  expect(cusci_linalg_solve(ctx, a, b4, NULL, &out), CUSCI_ERR_SHAPE, &out, "must have 3 rows", "solve: b has 4 rows, a is 3x3");
  expect(cusci_linalg_matmul(ctx, r, r, &out), CUSCI_ERR_SHAPE, &out, "inner", "matmul: 3x4 @ 3x4");
  cusci_array *z0 = NULL;
  cusci_array_zeros(ctx, 0, NULL, CUSCI_FLOAT64, &z0);
  expect(cusci_linalg_matmul(ctx, z0, a, &out), CUSCI_ERR_NDIM, &out, NULL, "matmul: a 0-d operand");
  cusci_array *a233 = arr(CUSCI_FLOAT64, 3, s233, 5), *b432 = arr(CUSCI_FLOAT64, 3, s432, 0);
  expect(cusci_linalg_matmul(ctx, a233, b432, &out), CUSCI_ERR_BROADCAST, &out, "broadcast", "matmul: batches 2 and 4");
  expect(cusci_linalg_solve(ctx, a233, b432, NULL, &out), CUSCI_ERR_BROADCAST, &out, "broadcast", "solve: batches 2 and 4");

  /* The products' shapes. */
  expect(cusci_linalg_dot(ctx, r, r, &out), CUSCI_ERR_SHAPE, &out, "summed axes", "dot: (3,4) . (3,4)");
  expect(cusci_linalg_dot(ctx, z0, a, &out), CUSCI_ERR_NDIM, &out, NULL, "dot: a 0-d operand");
  expect(cusci_linalg_inner(ctx, a, r, &out), CUSCI_ERR_SHAPE, &out, "last axes", "inner: last axes 3 and 4");
  expect(cusci_linalg_outer(ctx, a, NULL, &out), CUSCI_ERR_NULL_POINTER, &out, NULL, "outer: NULL b");

  /* matrix_rank: a bad tol; the rank of vectors. */
  expect(cusci_linalg_matrix_rank(ctx, a, &(cusci_linalg_matrix_rank_opts){ .has_tol = true, .tol = -1 }, &out), CUSCI_ERR_VALUE, &out, "tol",
         "matrix_rank: tol = -1");
  {
    double zv[3] = { 0, 0, 0 };
    cusci_array *zz = NULL, *rk = NULL;
    cusci_array_from_host(ctx, zv, 1, s3, CUSCI_FLOAT64, &zz);
    int64_t r0 = -1, r1 = -1;
    if (cusci_linalg_matrix_rank(ctx, zz, NULL, &rk) == CUSCI_OK)
      cusci_array_to_host(ctx, rk, &r0, sizeof r0);
    cusci_array_release(rk);
    rk = NULL;
    if (cusci_linalg_matrix_rank(ctx, v, NULL, &rk) == CUSCI_OK)
      cusci_array_to_host(ctx, rk, &r1, sizeof r1);
    ok(r0 == 0 && r1 == 1, "matrix_rank of a zero vector is 0, of a nonzero one 1 (%lld, %lld)", (long long)r0, (long long)r1);
    cusci_array_release(rk);
    cusci_array_release(zz);
  }

  /* Dtypes: float16 refused, integers converted to float64. */
  cusci_array *h16 = NULL, *i32 = NULL, *res = NULL;
  cusci_array_astype(ctx, a, CUSCI_FLOAT16, false, &h16);
  expect(cusci_linalg_inv(ctx, h16, &out), CUSCI_ERR_DTYPE, &out, "float16", "inv: float16");
  expect(cusci_linalg_matmul(ctx, h16, h16, &out), CUSCI_ERR_DTYPE, &out, NULL, "matmul: float16");
  int32_t iv[9] = { 4, 1, 0, 2, 5, 1, 0, 3, 6 };
  cusci_array_from_host(ctx, iv, 2, s33, CUSCI_INT32, &i32);
  cusci_status st = cusci_linalg_det(ctx, i32, &res);
  double d = 0;
  if (st == CUSCI_OK)
    cusci_array_to_host(ctx, res, &d, sizeof d);
  ok(st == CUSCI_OK && cusci_array_dtype(res) == CUSCI_FLOAT64 && fabs(d - 96.0) < 1e-12, "det of int32 is float64: %g", d);
  cusci_array_release(res);
  res = NULL;
  expect(cusci_linalg_matmul(ctx, i32, i32, &out), CUSCI_ERR_DTYPE, &out, "int32", "matmul: integer operands");
  expect(cusci_linalg_kron(ctx, i32, i32, &out), CUSCI_ERR_DTYPE, &out, NULL, "kron: integer operands");

  /* Options. */
  cusci_array *c = arr(CUSCI_COMPLEX128, 2, s33, 5);
  expect(cusci_linalg_solve(ctx, c, c, &(cusci_linalg_solve_opts){ .transposed = true }, &out), CUSCI_ERR_NOT_SUPPORTED, &out, "real",
         "solve: transposed complex");
  expect(cusci_linalg_solve(ctx, a, v, &(cusci_linalg_solve_opts){ .assume_a = (cusci_linalg_assume_a)9 }, &out), CUSCI_ERR_INVALID_ARGUMENT,
         &out, "assume_a", "solve: assume_a 9");

  /* A caller's out that does not match. */
  cusci_array *bad = NULL;
  cusci_array_empty(ctx, 2, s34, CUSCI_FLOAT64, &bad);
  cusci_array *keep = bad;
  is_int(cusci_linalg_inv(ctx, a, &bad), CUSCI_ERR_SHAPE, "inv: out of the wrong shape");
  cusci_array *bad2 = NULL;
  cusci_array_empty(ctx, 2, s33, CUSCI_FLOAT32, &bad2);
  is_int(cusci_linalg_inv(ctx, a, &bad2), CUSCI_ERR_DTYPE, "inv: out of the wrong dtype");
  ok(bad == keep, "a failed call left *out as it was");

  /* Non-finite input (check_finite), and check_finite off. */
  double nanv[9] = { 1, 2, 3, 4, NAN, 6, 7, 8, 10 };
  cusci_array *an = NULL;
  cusci_array_from_host(ctx, nanv, 2, s33, CUSCI_FLOAT64, &an);
  expect(cusci_linalg_inv(ctx, an, &out), CUSCI_ERR_VALUE, &out, "infs or NaNs", "inv: NaN input");
  expect(cusci_linalg_solve(ctx, an, v, NULL, &out), CUSCI_ERR_VALUE, &out, "infs or NaNs", "solve: NaN input");
  expect(cusci_linalg_eigh(ctx, an, NULL, &out, NULL), CUSCI_ERR_VALUE, &out, "infs or NaNs", "eigh: NaN input");
  st = cusci_linalg_solve(ctx, an, v, &(cusci_linalg_solve_opts){ .no_check_finite = true }, &out);
  ok(st != CUSCI_ERR_VALUE, "solve with no_check_finite does not check (%s)", cusci_status_name(st));
  cusci_array_release(out);
  out = NULL;

  /* lu_solve: pivots of the wrong dtype or out of range, a bad trans. */
  {
    cusci_array *lu = NULL, *piv = NULL, *p64 = NULL, *pbad = NULL, *xo = NULL;
    int32_t badv[3] = { 0, 3, 2 };
    cusci_linalg_lu_factor(ctx, a, &lu, &piv);
    cusci_array_astype(ctx, piv, CUSCI_INT64, false, &p64);
    cusci_array_from_host(ctx, badv, 1, s3, CUSCI_INT32, &pbad);
    is_int(cusci_linalg_lu_solve(ctx, lu, p64, v, CUSCI_LINALG_TRANS_N, &xo), CUSCI_ERR_DTYPE, "lu_solve: int64 pivots");
    is_int(cusci_linalg_lu_solve(ctx, lu, pbad, v, CUSCI_LINALG_TRANS_N, &xo), CUSCI_ERR_VALUE, "lu_solve: a pivot of 3 for n = 3");
    is_int(cusci_linalg_lu_solve(ctx, lu, piv, v, (cusci_linalg_trans)3, &xo), CUSCI_ERR_INVALID_ARGUMENT, "lu_solve: trans 3");
    ok(xo == NULL, "lu_solve: x left NULL");
    cusci_array *lo = NULL, *uo = NULL;
    is_int(cusci_linalg_lu(ctx, a, NULL, NULL, &lo, &uo), CUSCI_ERR_NULL_POINTER, "lu: p NULL without permute_l");
    cusci_array_release(lu), cusci_array_release(piv), cusci_array_release(p64), cusci_array_release(pbad);
  }

  /* solve_triangular: a zero on the diagonal, with its index; unit ignores it. */
  {
    double tri[9] = { 2.385, 0, 0, 1.5, 0, 0, -0.5, 4.25, 3.0 };
    cusci_array *at = NULL, *xo = NULL;
    cusci_array_from_host(ctx, tri, 2, s33, CUSCI_FLOAT64, &at);
    cusci_linalg_solve_triangular_opts lo = { .lower = true };
    expect(cusci_linalg_solve_triangular(ctx, at, v, &lo, &xo), CUSCI_ERR_LINALG, &xo, "diagonal 1", "solve_triangular: zero diagonal");
    lo.unit_diagonal = true;
    ok(cusci_linalg_solve_triangular(ctx, at, v, &lo, &xo) == CUSCI_OK, "solve_triangular: unit_diagonal does not read the diagonal");
    cusci_array_release(xo);
    xo = NULL;
    lo.trans = (cusci_linalg_trans)5;
    is_int(cusci_linalg_solve_triangular(ctx, at, v, &lo, &xo), CUSCI_ERR_INVALID_ARGUMENT, "solve_triangular: trans 5");
    cusci_array_release(at);
  }

  /* pinv: a negative rtol. */
  expect(cusci_linalg_pinv(ctx, a, &(cusci_linalg_pinv_opts){ .rtol = -1 }, &out), CUSCI_ERR_VALUE, &out, "rtol", "pinv: rtol = -1");

  /* slogdet of a NaN matrix. */
  {
    cusci_array *sg = NULL, *lg = NULL;
    is_int(cusci_linalg_slogdet(ctx, an, &sg, &lg), CUSCI_ERR_VALUE, "slogdet: NaN input");
    ok(sg == NULL && lg == NULL, "slogdet: outputs left NULL");
  }

  /* Numerical failure: singular and not positive definite, with indices. */
  double sing[2][9] = { { 2.385, 1, 0, 1, 2.385, 1, 0, 1, 2.385 }, { 1, 2, 3, 2, 4, 6, 1, 0, 1 } };
  cusci_array *as = NULL;
  cusci_array_from_host(ctx, sing, 3, s233, CUSCI_FLOAT64, &as);
  expect(cusci_linalg_inv(ctx, as, &out), CUSCI_ERR_LINALG, &out, "batch index [1]", "inv: singular second matrix");
  expect(cusci_linalg_solve(ctx, as, v, NULL, &out), CUSCI_ERR_LINALG, &out, "singular", "solve: singular");
  st = cusci_linalg_det(ctx, as, &res);
  double dd[2] = { -1, -1 };
  if (st == CUSCI_OK)
    cusci_array_to_host(ctx, res, dd, sizeof dd);
  ok(st == CUSCI_OK && dd[1] == 0 && dd[0] != 0, "det of a singular matrix is 0, no error (%g, %g)", dd[0], dd[1]);
  cusci_array_release(res);
  res = NULL;
  double npd[9] = { 4, 1, 0, 1, -3, 1, 0, 1, 5 };
  cusci_array *anp = NULL;
  cusci_array_from_host(ctx, npd, 2, s33, CUSCI_FLOAT64, &anp);
  expect(cusci_linalg_cholesky(ctx, anp, true, &out), CUSCI_ERR_LINALG, &out, "2-th leading minor", "cholesky: not positive definite");
  expect(cusci_linalg_solve(ctx, anp, v, &(cusci_linalg_solve_opts){ .assume_a = CUSCI_LINALG_ASSUME_POS }, &out), CUSCI_ERR_LINALG, &out,
         "not positive definite", "solve pos: not positive definite");
  expect(cusci_linalg_cholesky(ctx, as, true, &out), CUSCI_ERR_LINALG, &out, "batch index [1]", "cholesky: batch index of the failure");

  /* Empty matrices: nothing to factor, NumPy's shapes and values. */
  int64_t s00[2] = { 0, 0 };
  cusci_array *e = NULL;
  cusci_array_empty(ctx, 2, s00, CUSCI_FLOAT64, &e);
  st = cusci_linalg_det(ctx, e, &res);
  d = 0;
  if (st == CUSCI_OK)
    cusci_array_to_host(ctx, res, &d, sizeof d);
  ok(st == CUSCI_OK && cusci_array_ndim(res) == 0 && d == 1.0, "det of a 0x0 matrix is 1");
  cusci_array_release(res);
  res = NULL;
  st = cusci_linalg_inv(ctx, e, &res);
  ok(st == CUSCI_OK && cusci_array_size(res) == 0, "inv of a 0x0 matrix is 0x0");
  cusci_array_release(res);

  cusci_array *arrays[] = { a, r, v, b4, z0, a233, b432, h16, i32, c, bad, bad2, an, as, anp, e };
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
    cusci_array_release(arrays[i]);
  cusci_ctx_destroy(ctx);
  return done_testing();
}
