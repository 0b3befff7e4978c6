/*
 * tests/linalg-eig-gpu.c: liblinalg's eigenproblems, Schur and Hessenberg
 * forms, polar, ldl and pinvh on a GPU against the host backend, on the
 * same random inputs in the four dtypes, batched and strided (the
 * eigenvalues of a general matrix are compared as sets, since the solvers
 * may order them differently; vectors by their residuals); then the
 * property suite and some error paths on the GPU. Skipped where there is
 * no GPU.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-eig-suite.h"

static cusci_ctx *gpu, *host;

static void pair(cusci_dtype dt, int ndim, const int64_t *shape, const lu_c *vals, cusci_array **g, cusci_array **h)
{
  *g = lu_array(gpu, dt, ndim, shape, vals);
  *h = lu_array(host, dt, ndim, shape, vals);
}

/* |g - h| <= tol * max(1, |h|) (sets of eigenvalues when sorted), shapes
 * and dtypes equal. */
static void cmp(cusci_status sg, cusci_status sh, cusci_array *g, cusci_array *h, double tol, bool sets, const char *what, const char *dn)
{
  double err = INFINITY, scale = 1;
  bool same = sg == CUSCI_OK && sh == CUSCI_OK && lu_same_shape(g, h, false);
  if (same) {
    int64_t n = cusci_array_size(h), m = cusci_array_shape(h)[cusci_array_ndim(h) - 1];
    lu_c *x = lu_values(gpu, g), *y = lu_values(host, h);
    err = sets ? le_match_eigs(x, y, m ? n / m : 0, m) : lu_maxdiff(x, y, n);
    scale = fmax(1, lu_maxabs(y, n));
    free(x);
    free(y);
  }
  ok(same && err <= tol * scale, "%s %s: GPU vs host %.3g <= %.3g (%s)", what, dn, err, tol * scale,
     sg != CUSCI_OK ? cusci_ctx_last_error(gpu) : sh != CUSCI_OK ? cusci_ctx_last_error(host) : same ? "ok" : "shape or dtype differ");
}

#define EIG_TESTS 5
static void eig_cases(cusci_dtype dt, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  const int64_t n = 24, batch = 3;
  int64_t sh[3] = { batch, n, n };
  double tol = 200 * n * lu_eps(dt) * 2.385;
  lu_c *va = lu_rand_values(seed, dt, 3, sh, 0);
  cusci_array *g, *h, *wg = NULL, *wh = NULL, *vg = NULL, *lg = NULL;
  pair(dt, 3, sh, va, &g, &h);
  cusci_status sg = cusci_linalg_eig(gpu, g, NULL, NULL, &wg, &lg, &vg), shs = cusci_linalg_eigvals(host, h, NULL, NULL, &wh);
  cmp(sg, shs, wg, wh, tol, true, "eig (24x24, batch 3): eigenvalues", dn);
  double r = INFINITY, rl = INFINITY, u = INFINITY;
  if (sg == CUSCI_OK) {
    lu_c *hw = lu_values(gpu, wg), *hv = lu_values(gpu, vg), *hl = lu_values(gpu, lg), *ah = le_ctrans(va, batch, n, n),
         *cw = le_alloc(batch * n);
    for (int64_t i = 0; i < batch * n; i++)
      cw[i] = conj(hw[i]);
    r = le_eig_res(va, hv, hw, batch, n, n);
    rl = le_eig_res(ah, hl, cw, batch, n, n);
    u = fmax(le_unit_err(hv, batch, n, n), le_unit_err(hl, batch, n, n));
    free(hw), free(hv), free(hl), free(ah), free(cw);
  }
  double rt = 20 * tol * n;
  ok(r <= rt && rl <= rt, "eig %s on the GPU: A vr = vr w (%.3g), vl^H A = w vl^H (%.3g) <= %.3g", dn, r, rl, rt);
  ok(u <= 64 * n * lu_eps(dt), "eig %s on the GPU: unit eigenvectors (%.3g)", dn, u);
  cusci_array_release(wg), cusci_array_release(wh), cusci_array_release(vg), cusci_array_release(lg);
  wg = wh = NULL;
  /* A transposed view: eigenvalues of A^T are A's. */
  cusci_array *tv = NULL;
  int axes[3] = { 0, 2, 1 };
  cusci_array_transpose(gpu, g, axes, &tv);
  sg = cusci_linalg_eigvals(gpu, tv, NULL, NULL, &wg);
  shs = cusci_linalg_eigvals(host, h, NULL, NULL, &wh);
  cmp(sg, shs, wg, wh, tol, true, "eigvals of a transposed view", dn);
  cusci_array_release(tv), cusci_array_release(wg), cusci_array_release(wh);
  wg = wh = NULL;
  /* Generalized (staged to the host on a GPU context). */
  int64_t s2[2] = { 8, 8 };
  lu_c *vb = lu_rand_values(seed, dt, 2, s2, 12.0);
  cusci_array *ga, *ha, *gb, *hb;
  pair(dt, 2, s2, va, &ga, &ha);
  pair(dt, 2, s2, vb, &gb, &hb);
  sg = cusci_linalg_eigvals(gpu, ga, gb, NULL, &wg);
  shs = cusci_linalg_eigvals(host, ha, hb, NULL, &wh);
  cmp(sg, shs, wg, wh, tol, true, "eigvals with b", dn);
  cusci_array_release(ga), cusci_array_release(ha), cusci_array_release(gb), cusci_array_release(hb);
  cusci_array_release(wg), cusci_array_release(wh), cusci_array_release(g), cusci_array_release(h);
  free(va), free(vb);
}

#define EIGH_TESTS 5
static void eigh_cases(cusci_dtype dt, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  const int64_t n = 40, batch = 2;
  int64_t sh[3] = { batch, n, n };
  double tol = 100 * n * lu_eps(dt) * 2.385;
  lu_c *va = le_herm(seed, dt, 3, sh), *vb = lu_hpd_values(seed, dt, 3, sh);
  cusci_array *g, *h, *gb, *hb, *wg = NULL, *wh = NULL, *vg = NULL;
  pair(dt, 3, sh, va, &g, &h);
  pair(dt, 3, sh, vb, &gb, &hb);
  cusci_linalg_eigh_opts o = { .subset = CUSCI_LINALG_SUBSET_INDEX, .lo = n - 10, .hi = n - 1 };
  cusci_status sg = cusci_linalg_eigh(gpu, g, &o, &wg, &vg), shs = cusci_linalg_eigvalsh(host, h, &o, &wh);
  cmp(sg, shs, wg, wh, tol, false, "eigh subset_by_index (top 10 of 40)", dn);
  double r = INFINITY;
  if (sg == CUSCI_OK) {
    lu_c *hw = lu_values(gpu, wg), *hv = lu_values(gpu, vg);
    r = fmax(le_eig_res(va, hv, hw, batch, n, 10), le_orth_err(hv, batch, n, 10));
    free(hw), free(hv);
  }
  ok(r <= 10 * tol, "eigh %s subset on the GPU: A v = v w, v orthonormal (%.3g)", dn, r);
  cusci_array_release(wg), cusci_array_release(wh), cusci_array_release(vg);
  wg = wh = vg = NULL;
  o = (cusci_linalg_eigh_opts){ .upper = true, .subset = CUSCI_LINALG_SUBSET_VALUE, .vlo = -1.0, .vhi = 40.0 };
  int64_t start[3] = { 1, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE }, stop[3] = { 2, CUSCI_SLICE_NONE, CUSCI_SLICE_NONE };
  cusci_array *g1 = NULL, *h1 = NULL;
  cusci_array_slice(gpu, g, start, stop, NULL, &g1);
  cusci_array_slice(host, h, start, stop, NULL, &h1);
  sg = cusci_linalg_eigvalsh(gpu, g1, &o, &wg);
  shs = cusci_linalg_eigvalsh(host, h1, &o, &wh);
  cmp(sg, shs, wg, wh, tol, false, "eigvalsh subset_by_value (-1, 40], upper", dn);
  cusci_array_release(g1), cusci_array_release(h1), cusci_array_release(wg), cusci_array_release(wh);
  wg = wh = NULL;
  for (int type = 1; type <= 2; type++) {
    o = (cusci_linalg_eigh_opts){ .b = gb, .type = type, .subset = type == 2 ? CUSCI_LINALG_SUBSET_INDEX : 0, .lo = 0, .hi = 4 };
    sg = cusci_linalg_eigvalsh(gpu, g, &o, &wg);
    o.b = hb;
    shs = cusci_linalg_eigvalsh(host, h, &o, &wh);
    cmp(sg, shs, wg, wh, 10 * tol, false, type == 1 ? "eigvalsh with b, type 1" : "eigvalsh with b, type 2, subset_by_index [0, 4]", dn);
    cusci_array_release(wg), cusci_array_release(wh);
    wg = wh = NULL;
  }
  cusci_array_release(g), cusci_array_release(h), cusci_array_release(gb), cusci_array_release(hb);
  free(va), free(vb);
}

#define STAGED_TESTS 8
static void staged_cases(cusci_dtype dt, uint64_t *seed)
{
  const char *dn = cusci_dtype_name(dt);
  const int64_t n = 12, batch = 2;
  int64_t sh[3] = { batch, n, n };
  double tol = 100 * n * lu_eps(dt) * 2.385;
  lu_c *va = lu_rand_values(seed, dt, 3, sh, 0), *vh = le_herm(seed, dt, 3, sh);
  cusci_array *g, *h, *gh, *hh;
  pair(dt, 3, sh, va, &g, &h);
  pair(dt, 3, sh, vh, &gh, &hh);
  cusci_array *t1 = NULL, *z1 = NULL, *t2 = NULL, *z2 = NULL;
  cusci_status sg = cusci_linalg_schur(gpu, g, NULL, &t1, &z1), shs = cusci_linalg_schur(host, h, NULL, &t2, &z2);
  cmp(sg, shs, t1, t2, tol, false, "schur T", dn);
  cusci_array *c1 = NULL, *c2 = NULL, *y1 = NULL, *y2 = NULL;
  sg = sg == CUSCI_OK ? cusci_linalg_rsf2csf(gpu, t1, z1, &c1, &y1) : sg;
  shs = shs == CUSCI_OK ? cusci_linalg_rsf2csf(host, t2, z2, &c2, &y2) : shs;
  cmp(sg, shs, y1, y2, tol, false, "rsf2csf Z", dn);
  cusci_array_release(t1), cusci_array_release(z1), cusci_array_release(t2), cusci_array_release(z2);
  cusci_array_release(c1), cusci_array_release(c2), cusci_array_release(y1), cusci_array_release(y2);
  t1 = z1 = t2 = z2 = NULL;
  sg = cusci_linalg_hessenberg(gpu, g, &t1, &z1), shs = cusci_linalg_hessenberg(host, h, &t2, &z2);
  cmp(sg, shs, t1, t2, tol, false, "hessenberg H", dn);
  cusci_array_release(t1), cusci_array_release(z1), cusci_array_release(t2), cusci_array_release(z2);
  cusci_array *l1 = NULL, *d1 = NULL, *p1 = NULL, *l2 = NULL, *d2 = NULL, *p2 = NULL;
  sg = cusci_linalg_ldl(gpu, gh, NULL, &l1, &d1, &p1), shs = cusci_linalg_ldl(host, hh, NULL, &l2, &d2, &p2);
  cmp(sg, shs, d1, d2, tol, false, "ldl d", dn);
  cmp(sg, shs, p1, p2, 0, false, "ldl perm", dn);
  cusci_array_release(l1), cusci_array_release(d1), cusci_array_release(p1);
  cusci_array_release(l2), cusci_array_release(d2), cusci_array_release(p2);
  /* Compositions: polar (svd + matmul) and pinvh (eigh + matmul) on the device. */
  cusci_array *u1 = NULL, *u2 = NULL, *q1 = NULL, *q2 = NULL;
  sg = cusci_linalg_polar(gpu, g, CUSCI_LINALG_POLAR_RIGHT, &u1, &q1), shs = cusci_linalg_polar(host, h, CUSCI_LINALG_POLAR_RIGHT, &u2, &q2);
  cmp(sg, shs, q1, q2, 10 * tol, false, "polar P", dn);
  cusci_array_release(u1), cusci_array_release(u2), cusci_array_release(q1), cusci_array_release(q2);
  q1 = q2 = NULL;
  sg = cusci_linalg_pinvh(gpu, gh, NULL, &q1), shs = cusci_linalg_pinvh(host, hh, NULL, &q2);
  cmp(sg, shs, q1, q2, 100 * tol, false, "pinvh", dn);
  cusci_array_release(q1), cusci_array_release(q2);
  /* The tridiagonal problem: the dense matrix through eigh on the GPU. */
  if (dt == CUSCI_FLOAT32 || dt == CUSCI_FLOAT64) {
    int64_t sd[2] = { batch, n }, se[2] = { batch, n - 1 };
    cusci_array *dg, *dh, *eg, *eh, *w1 = NULL, *w2 = NULL;
    pair(dt, 2, sd, va, &dg, &dh);
    pair(dt, 2, se, va + 100, &eg, &eh);
    cusci_linalg_eigh_tridiagonal_opts o = { .select = CUSCI_LINALG_SUBSET_INDEX, .lo = 2, .hi = 7 };
    sg = cusci_linalg_eigvalsh_tridiagonal(gpu, dg, eg, &o, &w1), shs = cusci_linalg_eigvalsh_tridiagonal(host, dh, eh, &o, &w2);
    cmp(sg, shs, w1, w2, tol, false, "eigvalsh_tridiagonal select='i'", dn);
    cusci_array_release(dg), cusci_array_release(dh), cusci_array_release(eg), cusci_array_release(eh);
    cusci_array_release(w1), cusci_array_release(w2);
  } else {
    cusci_array *w1 = NULL;
    sg = cusci_linalg_eigvalsh_tridiagonal(gpu, g, g, NULL, &w1);
    ok(sg == CUSCI_ERR_DTYPE && !w1, "eigvalsh_tridiagonal %s on the GPU: refused (%s)", dn, cusci_status_name(sg));
  }
  cusci_array_release(g), cusci_array_release(h), cusci_array_release(gh), cusci_array_release(hh);
  free(va), free(vh);
}

/* A larger general matrix, an ill-conditioned one with known
 * eigenvalues, and the errors the GPU path reports itself. */
#define GPU_ONLY_TESTS 6
static void gpu_only(uint64_t *seed)
{
  /* The companion matrix of (x - 1)(x - 2)...(x - 8): eigenvalues 1..8,
   * sensitive to rounding (condition up to about 1e5 for the middle ones). */
  {
    const int64_t m = 8;
    double c[9] = { 1 };
    for (int k = 1; k <= m; k++)
      for (int i = k; i >= 1; i--)
        c[i] -= k * c[i - 1];
    lu_c cm[64] = { 0 };
    for (int64_t j = 0; j < m; j++)
      cm[j] = -c[j + 1];
    for (int64_t i = 1; i < m; i++)
      cm[i * m + i - 1] = 1;
    int64_t s8[2] = { m, m };
    lu_c exact[8];
    for (int k = 0; k < 8; k++)
      exact[k] = k + 1;
    for (int on = 0; on < 2; on++) {
      cusci_ctx *cx = on ? host : gpu;
      cusci_array *a = lu_array(cx, CUSCI_FLOAT64, 2, s8, cm), *w = NULL;
      cusci_status st = cusci_linalg_eigvals(cx, a, NULL, NULL, &w);
      double d = INFINITY;
      if (st == CUSCI_OK) {
        lu_c *hw = lu_values(cx, w);
        d = le_match_eigs(hw, exact, 1, m);
        free(hw);
      }
      ok(d <= 1e-7, "eigvals of the companion matrix of (x-1)...(x-8) on the %s: roots within %.3g", on ? "host" : "GPU", d);
      cusci_array_release(a), cusci_array_release(w);
    }
  }
  const int64_t n = 300;
  int64_t sh[2] = { n, n };
  lu_c *va = lu_rand_values(seed, CUSCI_FLOAT64, 2, sh, 0);
  cusci_array *g, *h, *wg = NULL, *wh = NULL, *vg = NULL;
  pair(CUSCI_FLOAT64, 2, sh, va, &g, &h);
  cusci_status sg = cusci_linalg_eig(gpu, g, NULL, NULL, &wg, NULL, &vg), shs = cusci_linalg_eigvals(host, h, NULL, NULL, &wh);
  cmp(sg, shs, wg, wh, 1e-9, true, "eig (300x300): eigenvalues", "float64");
  double r = INFINITY;
  if (sg == CUSCI_OK) {
    lu_c *hw = lu_values(gpu, wg), *hv = lu_values(gpu, vg);
    r = le_eig_res(va, hv, hw, 1, n, n);
    free(hw), free(hv);
  }
  ok(r <= 1e-10 * n, "eig float64 300x300 on the GPU: A vr = vr w (%.3g)", r);
  cusci_array_release(wg), cusci_array_release(vg), cusci_array_release(wh), cusci_array_release(g), cusci_array_release(h);
  free(va);
  /* inf/NaN found on the device; b not positive definite in cuSOLVER. */
  int64_t s3[2] = { 3, 3 };
  lu_c bad[9] = { 1, 2, 3, 4, INFINITY, 6, 7, 8, 9.5 }, nb[9] = { 1, 0, 0, 0, -1, 0, 0, 0, 1 }, hv3[9] = { 2.385, 0.5, 0, 0.5, 1.9, 0, 0, 0, 1 };
  cusci_array *a = lu_array(gpu, CUSCI_FLOAT64, 2, s3, bad), *w = NULL;
  sg = cusci_linalg_eigvals(gpu, a, NULL, NULL, &w);
  ok(sg == CUSCI_ERR_VALUE && !w, "eigvals on the GPU: inf is CUSCI_ERR_VALUE (%s)", cusci_ctx_last_error(gpu));
  cusci_array_release(a);
  a = lu_array(gpu, CUSCI_FLOAT64, 2, s3, hv3);
  cusci_array *b = lu_array(gpu, CUSCI_FLOAT64, 2, s3, nb);
  sg = cusci_linalg_eigvalsh(gpu, a, &(cusci_linalg_eigh_opts){ .b = b }, &w);
  const char *msg = cusci_ctx_last_error(gpu);
  ok(sg == CUSCI_ERR_LINALG && !w && msg && strstr(msg, "not positive definite"), "eigvalsh with b on the GPU: b not positive definite (%s)", msg);
  cusci_array_release(a), cusci_array_release(b);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  /* Pieces (tk_part): the dtypes; the GPU-only cases go with the first. */
  plan(tk_part_count(4) * (EIG_TESTS + EIGH_TESTS + STAGED_TESTS) + (tk_part(0) ? GPU_ONLY_TESTS : 0) + le_props_count());
  uint64_t seed = 0x2385eu;
  for (int i = 0; i < 4; i++) {
    if (!tk_part(i))
      continue;
    eig_cases(lu_dtypes[i], &seed);
    eigh_cases(lu_dtypes[i], &seed);
    staged_cases(lu_dtypes[i], &seed);
  }
  if (tk_part(0))
    gpu_only(&seed);
  le_props(gpu);
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
