/*
 * reference/signal/remez.c: equiripple linear-phase FIR filters by the
 * Parks-McClellan algorithm (T. W. Parks and J. H. McClellan, "Chebyshev
 * approximation for nonrecursive digital filters with linear phase", IEEE
 * Trans. Circuit Theory 19, 1972; J. H. McClellan, T. W. Parks and L. R.
 * Rabiner, "A computer program for designing optimum FIR linear phase
 * digital filters", IEEE Trans. Audio Electroacoust. 21, 1973), on the
 * dense grid those papers define and scipy.signal.remez uses, so that the
 * minimax solution is the same one.
 *
 * Every filter type is an approximation by a cosine polynomial P(w) =
 * sum_k alpha_k cos(k w), k < nfcns, of a modified desired response and
 * weight (divided, and multiplied, by cos(w/2), sin(w) or sin(w/2) for
 * types II, III and IV). The exchange: on a reference of nfcns + 1 grid
 * points, P interpolates with the levelled error of alternating sign
 * (the barycentric form of Lagrange's formula in x = cos w); the new
 * reference takes, of each run of the error's sign on the grid, its
 * largest value, keeping those at least the levelled error, then thins
 * them to nfcns + 1 alternating points (the smaller end first). It stops
 * when the reference no longer changes, or the levelled error no longer
 * grows (a tie between equal extrema). The coefficients come from P at
 * Chebyshev points of the grid's span (a cosine transform), mapped back
 * from the span to [-1, 1] by Clenshaw's recurrence on Chebyshev series.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "reference/signal/design.h"

typedef struct remez_work {
  int64_t r;             /* reference size, nfcns + 1 */
  double *x, *gam, *y;   /* reference abscissae, barycentric weights, values */
} remez_work;

/* The barycentric weights 1 / prod_{j != k} 2 (x_k - x_j), scaled by a
 * common power of two (the formula is invariant under it). */
static void bary_weights(remez_work *w, int *ex)
{
  const int64_t r = w->r;
  int emax = INT32_MIN;
  for (int64_t k = 0; k < r; k++) {
    double m = 1.0;
    int e = 0;
    for (int64_t j = 0; j < r; j++) {
      if (j == k)
        continue;
      m *= 2 * (w->x[k] - w->x[j]);
      if (fabs(m) > 0x1p500 || fabs(m) < 0x1p-500) {
        int t;
        m = frexp(m, &t);
        e += t;
      }
    }
    int t;
    m = frexp(1.0 / m, &t);
    ex[k] = t - e;
    w->gam[k] = m;
    if (ex[k] > emax)
      emax = ex[k];
  }
  for (int64_t k = 0; k < r; k++)
    w->gam[k] = ldexp(w->gam[k], ex[k] - emax);
}

/* P(x) by the barycentric formula on the reference. */
static double bary_eval(const remez_work *w, double x)
{
  double num = 0, den = 0;
  for (int64_t k = 0; k < w->r; k++) {
    const double d = x - w->x[k];
    if (d == 0)
      return w->y[k];
    const double c = w->gam[k] / d;
    num += c * w->y[k];
    den += c;
  }
  return num / den;
}

/* The reference's candidates from the error e on the grid (ng points):
 * the largest |e| of each run of one sign, at least lev; consecutive
 * ones of one sign merged. Indices into c, *nc of them. */
static void candidates(const double *e, int64_t ng, double lev, int64_t *c, int64_t *nc)
{
  int64_t n = 0;
  for (int64_t j = 0; j < ng; j++) {
    if (e[j] == 0)
      continue;
    if (n && (e[j] > 0) == (e[c[n - 1]] > 0)) {
      if (fabs(e[j]) > fabs(e[c[n - 1]]))
        c[n - 1] = j;
    } else {
      c[n++] = j;
    }
  }
  int64_t m = 0;
  for (int64_t i = 0; i < n; i++) {
    if (fabs(e[c[i]]) < lev)
      continue;
    if (m && (e[c[i]] > 0) == (e[c[m - 1]] > 0)) {
      if (fabs(e[c[i]]) > fabs(e[c[m - 1]]))
        c[m - 1] = c[i];
    } else {
      c[m++] = c[i];
    }
  }
  *nc = m;
}

/* Thin the alternating candidates c (*nc of them) to r. */
static void thin(const double *e, int64_t *c, int64_t *nc, int64_t r)
{
  int64_t n = *nc;
  while (n > r) {
    if (n == r + 1) {
      /* A tie (a symmetric error) keeps the first. */
      if (fabs(e[c[0]]) < fabs(e[c[n - 1]]) * (1 - 1e-12))
        memmove(c, c + 1, sizeof *c * (size_t)(n - 1));
      n--;
      continue;
    }
    int64_t s = 0;
    for (int64_t i = 1; i < n; i++)
      if (fabs(e[c[i]]) < fabs(e[c[s]]))
        s = i;
    if (s == 0 || s == n - 1) {
      if (s == 0)
        memmove(c, c + 1, sizeof *c * (size_t)(n - 1));
      n--;
      continue;
    }
    /* An inner one: its neighbours, now of one sign, keep the larger. */
    const int64_t drop = fabs(e[c[s - 1]]) < fabs(e[c[s + 1]]) ? s - 1 : s + 1;
    const int64_t lo = s < drop ? s : drop;
    memmove(c + lo, c + lo + 2, sizeof *c * (size_t)(n - lo - 2));
    n -= 2;
  }
  *nc = n;
}

/* alpha (n values): the Chebyshev coefficients in x of sum_k c_k T_k(aa
 * x + bb), by Clenshaw's recurrence on series (b1, b2, u: room n). */
static void cheb_remap(const double *c, int64_t n, double aa, double bb, double *alpha, double *b1, double *b2, double *u)
{
  memset(b1, 0, sizeof *b1 * (size_t)n);
  memset(b2, 0, sizeof *b2 * (size_t)n);
  for (int64_t k = n - 1; k >= 0; k--) {
    /* u = (aa x + bb) b1, x T_m = (T_{m+1} + T_{|m-1|}) / 2 */
    memset(u, 0, sizeof *u * (size_t)n);
    for (int64_t m = 0; m < n; m++) {
      if (b1[m] == 0)
        continue;
      u[m] += bb * b1[m];
      if (m + 1 < n)
        u[m + 1] += aa * b1[m] * (m == 0 ? 1.0 : 0.5);
      if (m >= 1)
        u[m - 1] += aa * b1[m] * 0.5;
    }
    const double f = k == 0 ? 1.0 : 2.0;
    for (int64_t m = 0; m < n; m++) {
      const double t = f * u[m] - b2[m] + (m == 0 ? c[k] : 0.0);
      b2[m] = b1[m];
      b1[m] = t;
    }
  }
  memcpy(alpha, b1, sizeof *alpha * (size_t)n);
}

int cusci__sig_remez(int64_t numtaps, const double *edge, const double *fx, const double *wtx, int64_t nb, int jtype, int maxiter, int density,
                     double *h)
{
  const bool neg = jtype != 1, odd = numtaps % 2;
  int64_t nfcns = numtaps / 2;
  if (odd && !neg)
    nfcns++;
  const int64_t r = nfcns + 1;
  const double delf = 0.5 / ((double)density * (double)nfcns);
  const int64_t cap = (int64_t)(0.5 / delf) + 2 * nb + 8;
  double *grid = malloc(sizeof *grid * (size_t)cap);
  double *des = malloc(sizeof *des * (size_t)cap);
  double *wt = malloc(sizeof *wt * (size_t)cap);
  double *err = malloc(sizeof *err * (size_t)cap);
  int64_t *ext = malloc(sizeof *ext * (size_t)(r + 1));
  int64_t *cand = malloc(sizeof *cand * (size_t)cap);
  double *buf = malloc(sizeof *buf * (size_t)(8 * r));
  int *ex = malloc(sizeof *ex * (size_t)r);
  int64_t *band = malloc(sizeof *band * (size_t)cap);
  int rc = CUSCI__SIG_DESIGN_MEMORY;
  if (!grid || !des || !wt || !err || !ext || !cand || !buf || !ex || !band)
    goto done;
  remez_work w = {.r = r, .x = buf, .gam = buf + r, .y = buf + 2 * r};

  /* The dense grid, band by band; each band's last point is its edge. */
  int64_t ng = 0;
  double g = edge[0];
  if (neg && g < delf)
    g = delf;
  for (int64_t l = 0; l < nb; l++) {
    const double fup = edge[2 * l + 1];
    for (;;) {
      if (ng >= cap)
        goto done;
      band[ng] = l;
      grid[ng++] = g;
      g += delf;
      if (!(g <= fup))
        break;
    }
    grid[ng - 1] = fup;
    if (l + 1 < nb)
      g = edge[2 * l + 2];
  }
  rc = CUSCI__SIG_DESIGN_GRID;
  if (ng > 0 && neg == odd && grid[ng - 1] > 0.5 - delf)
    ng--;
  if (ng < r)
    goto done;
  for (int64_t j = 0; j < ng; j++) {
    const int64_t l = band[j];
    const double f = grid[j];
    double d = fx[l], v = wtx[l];
    if (jtype == 2) {
      d = fx[l] * f;
      if (fx[l] >= 0.0001)
        v = wtx[l] / f;
    }
    double change = 1.0;
    if (!neg && !odd)
      change = cos(M_PI * f);
    else if (neg && !odd)
      change = sin(M_PI * f);
    else if (neg)
      change = sin(2 * M_PI * f);
    des[j] = d / change;
    wt[j] = v * change;
  }

  /* The exchange, from equally spaced indices. */
  const double step = (double)(ng - 1) / (double)nfcns;
  for (int64_t j = 0; j < nfcns; j++)
    ext[j] = (int64_t)((double)j * step);
  ext[nfcns] = ng - 1;
  double scale = 0;
  for (int64_t j = 0; j < ng; j++)
    scale = fmax(scale, fabs(wt[j] * des[j]));
  rc = CUSCI__SIG_DESIGN_REMEZ;
  double prev = 0;
  for (int iter = 1;; iter++) {
    if (iter > maxiter)
      goto done;
    for (int64_t k = 0; k < r; k++)
      w.x[k] = cos(2 * M_PI * grid[ext[k]]);
    bary_weights(&w, ex);
    double num = 0, den = 0;
    for (int64_t k = 0; k < r; k++) {
      const double s = k % 2 ? -1.0 : 1.0;
      num += w.gam[k] * des[ext[k]];
      den += s * w.gam[k] / wt[ext[k]];
    }
    const double dev = num / den;
    for (int64_t k = 0; k < r; k++)
      w.y[k] = des[ext[k]] - (k % 2 ? -1.0 : 1.0) * dev / wt[ext[k]];
    for (int64_t j = 0; j < ng; j++)
      err[j] = wt[j] * (des[j] - bary_eval(&w, cos(2 * M_PI * grid[j])));
    int64_t nc;
    /* at least the levelled error, less the rounding of P (its scale
     * that of the weighted gains), else every lobe */
    candidates(err, ng, fabs(dev) * (1 - 1e-9) - 1e-13 * scale, cand, &nc);
    if (nc < r)
      candidates(err, ng, 0, cand, &nc);
    if (nc < r)
      break; /* rounding at the optimum: keep the reference */
    thin(err, cand, &nc, r);
    /* The levelled error grows at each exchange until the optimum. */
    if (!memcmp(cand, ext, sizeof *ext * (size_t)r) || fabs(dev) <= prev * (1 + 1e-13))
      break;
    prev = fabs(dev);
    memcpy(ext, cand, sizeof *ext * (size_t)r);
  }

  /* P at Chebyshev points of the grid's span, its coefficients. */
  const int64_t n = nfcns;
  double *a = buf + 3 * r, *c = buf + 4 * r, *alpha = buf + 5 * r, *t1 = buf + 6 * r, *t2 = buf + 7 * r;
  double *t3 = err; /* free now; room ng >= r */
  const bool full = (edge[0] == 0 && edge[2 * nb - 1] == 0.5) || n <= 3;
  double aa = 1, bb = 0;
  if (!full) {
    const double xhi = cos(2 * M_PI * grid[0]), xlo = cos(2 * M_PI * grid[ng - 1]);
    aa = 2 / (xhi - xlo);
    bb = -(xhi + xlo) / (xhi - xlo);
  }
  const double cn = (double)(2 * n - 1);
  for (int64_t j = 0; j < n; j++) {
    const double u = cos(2 * M_PI * (double)j / cn);
    a[j] = bary_eval(&w, full ? u : (u - bb) / aa);
  }
  for (int64_t k = 0; k < n; k++) {
    double s = 0;
    for (int64_t j = 1; j < n; j++)
      s += a[j] * cos(2 * M_PI * (double)((j * k) % (2 * n - 1)) / cn);
    c[k] = (a[0] + 2 * s) * (k ? 2.0 : 1.0) / cn;
  }
  if (full)
    memcpy(alpha, c, sizeof *alpha * (size_t)n);
  else
    cheb_remap(c, n, aa, bb, alpha, t1, t2, t3);

  /* The taps from the cosine coefficients (1-based as the papers'). */
#define AL(i) ((i) >= 1 && (i) <= n ? alpha[(i) - 1] : 0.0)
#define H(j) h[(j) - 1]
  const int64_t nz = n + 1;
  if (!neg && odd) {
    for (int64_t j = 1; j <= n - 1; j++)
      H(j) = 0.5 * AL(nz - j);
    H(n) = AL(1);
  } else if (!neg) {
    H(1) = 0.25 * AL(n);
    for (int64_t j = 2; j <= n - 1; j++)
      H(j) = 0.25 * (AL(nz - j) + AL(n + 2 - j));
    H(n) = 0.5 * AL(1) + 0.25 * AL(2);
  } else if (odd) {
    H(1) = 0.25 * AL(n);
    if (n >= 2)
      H(2) = 0.25 * AL(n - 1);
    for (int64_t j = 3; j <= n - 1; j++)
      H(j) = 0.25 * (AL(nz - j) - AL(n + 3 - j));
    H(n) = 0.5 * AL(1) - 0.25 * AL(3);
    H(nz) = 0.0;
  } else {
    H(1) = 0.25 * AL(n);
    for (int64_t j = 2; j <= n - 1; j++)
      H(j) = 0.25 * (AL(nz - j) - AL(n + 2 - j));
    H(n) = 0.5 * AL(1) - 0.25 * AL(2);
  }
  for (int64_t j = 1; j <= n; j++)
    H(numtaps + 1 - j) = neg ? -H(j) : H(j);
  if (neg && odd)
    H(nz) = 0.0;
#undef AL
#undef H
  rc = CUSCI__SIG_DESIGN_OK;
done:
  free(band);
  free(ex);
  free(buf);
  free(cand);
  free(ext);
  free(err);
  free(wt);
  free(des);
  free(grid);
  return rc;
}
