/*
 * tests/linalg-funm-gpu.c: sqrtm, logm and funm on a GPU context against
 * the host context on the same random inputs, in the four dtypes and
 * batched, with errest. The GPU path stages to the host, so the results
 * should agree to a few ulps; the stated tolerance is 50 eps(dt) times the
 * result's magnitude (logm's errest goes through expm on each device, so
 * it is compared in magnitude only). Skipped where there is no GPU.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-util.h"

static cusci_ctx *gpu, *host;

#define REL(a) (cusci_array_release(a), (a) = NULL)

/* |g - h| <= tol * max(1, |h|), shapes, dtypes and devices right. */
static void cmp(cusci_status sg, cusci_status sh, cusci_array *g, cusci_array *h, double tol, const char *what, cusci_dtype dt)
{
  double err = INFINITY, scale = 1;
  bool same = sg == CUSCI_OK && sh == CUSCI_OK && lu_same_shape(g, h, false) && cusci_array_device(g) == cusci_ctx_device(gpu);
  if (same)
    err = lu_array_diff(gpu, g, host, h, &scale);
  ok(same && err <= tol * scale, "%s %s: GPU vs host %.3g <= %.3g (%s / %s: %s)", what, cusci_dtype_name(dt), err, tol * scale,
     cusci_status_name(sg), cusci_status_name(sh), sg != CUSCI_OK ? cusci_ctx_last_error(gpu) : "");
}

static double complex f_cos(double complex z, void *user)
{
  (void)user;
  return ccos(z);
}

#define PER_DTYPE 7

static void run(cusci_dtype dt, uint64_t *seed)
{
  int64_t sh[3] = { 4, 40, 40 }, sb[2] = { 3, 3 };
  lu_c *v = lu_rand_values(seed, dt, 3, sh, 12.0);
  cusci_array *ag = lu_array(gpu, dt, 3, sh, v), *ah = lu_array(host, dt, 3, sh, v);
  free(v);
  double tol = 50 * lu_eps(dt);
  cusci_array *g = NULL, *h = NULL, *eg = NULL, *eh = NULL;
  cusci_status s1 = cusci_linalg_sqrtm(gpu, ag, &g, &eg), s2 = cusci_linalg_sqrtm(host, ah, &h, &eh);
  cmp(s1, s2, g, h, tol, "sqrtm", dt);
  cmp(s1, s2, eg, eh, 1e-6, "sqrtm errest", dt);
  REL(g), REL(h), REL(eg), REL(eh);
  s1 = cusci_linalg_logm(gpu, ag, &g, &eg), s2 = cusci_linalg_logm(host, ah, &h, &eh);
  cmp(s1, s2, g, h, tol, "logm", dt);
  cmp(s1, s2, eg, eh, 1e-3, "logm errest", dt);
  REL(g), REL(h), REL(eg), REL(eh);
  s1 = cusci_linalg_funm(gpu, ag, f_cos, NULL, &g, &eg), s2 = cusci_linalg_funm(host, ah, f_cos, NULL, &h, &eh);
  cmp(s1, s2, g, h, tol, "funm(cos)", dt);
  REL(g), REL(h), REL(eg), REL(eh);
  REL(ag), REL(ah);
  /* A real matrix with a negative eigenvalue: complex on both. */
  lu_c nv[9] = { -2.0, 0.6, 0.3, 0.1, 1.4, 0.2, 0.25, -0.3, 2.2 };
  ag = lu_array(gpu, dt, 2, sb, nv), ah = lu_array(host, dt, 2, sb, nv);
  s1 = cusci_linalg_sqrtm(gpu, ag, &g, NULL), s2 = cusci_linalg_sqrtm(host, ah, &h, NULL);
  cmp(s1, s2, g, h, tol, "sqrtm, negative eigenvalue", dt);
  REL(g), REL(h);
  /* Into a given output on the GPU. */
  cusci_array_empty(gpu, 2, sb, cusci_array_dtype(ah) == CUSCI_FLOAT32 ? CUSCI_COMPLEX64 : cusci_array_dtype(ah) == CUSCI_FLOAT64 ? CUSCI_COMPLEX128 : cusci_array_dtype(ah), &g);
  s1 = cusci_linalg_logm(gpu, ag, &g, NULL), s2 = cusci_linalg_logm(host, ah, &h, NULL);
  cmp(s1, s2, g, h, tol, "logm into out, negative eigenvalue", dt);
  REL(g), REL(h), REL(ag), REL(ah);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  host = tk_host_ctx();
  plan(4 * PER_DTYPE);
  uint64_t seed = 0xf00d;
  for (int i = 0; i < 4; i++)
    run(lu_dtypes[i], &seed);
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
