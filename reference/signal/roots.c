/*
 * reference/signal/roots.c: the eigenvalues of a small real matrix and
 * the roots of a real polynomial (numpy.linalg.eigvals and numpy.roots as
 * the conversions of scipy.signal use them), in float64.
 *
 * The eigenvalues are found as LAPACK's dgeev finds them, in three steps
 * written here from the published algorithms: balancing by powers of two
 * (Parlett and Reinsch, "Balancing a matrix for calculation of eigenvalues
 * and eigenvectors", 1969), reduction to upper Hessenberg form by
 * Gaussian elimination with pivoting (Wilkinson's elmhes), and Francis'
 * implicit double-shift QR iteration on the Hessenberg matrix (EISPACK's
 * hqr), with an exceptional shift after every 10 iterations without
 * deflation and LAPACK's limit of 30 max(10, n) of them. The values agree with NumPy's to rounding; their order
 * may differ, as NumPy promises none.
 */
#include "design.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a is n x n, row-major; A(i, j) with i, j from 1, as the algorithms are
 * usually written. */
#define A(i, j) a[((i) - 1) * n + ((j) - 1)]

static void balance(double *a, int64_t n)
{
  const double radix = 2, sqrdx = radix * radix;
  bool done = false;
  while (!done) {
    done = true;
    for (int64_t i = 1; i <= n; i++) {
      double r = 0, c = 0;
      for (int64_t j = 1; j <= n; j++)
        if (j != i) {
          c += fabs(A(j, i));
          r += fabs(A(i, j));
        }
      if (c == 0 || r == 0)
        continue;
      double g = r / radix, f = 1;
      const double s = c + r;
      while (c < g) {
        f *= radix;
        c *= sqrdx;
      }
      g = r * radix;
      while (c > g) {
        f /= radix;
        c /= sqrdx;
      }
      if ((c + r) / f < 0.95 * s) {
        done = false;
        g = 1 / f;
        for (int64_t j = 1; j <= n; j++)
          A(i, j) *= g;
        for (int64_t j = 1; j <= n; j++)
          A(j, i) *= f;
      }
    }
  }
}

/* Upper Hessenberg form by stabilized elimination; what is left below the
 * subdiagonal is cleared. */
static void hessenberg(double *a, int64_t n)
{
  for (int64_t m = 2; m < n; m++) {
    double x = 0;
    int64_t i = m;
    for (int64_t j = m; j <= n; j++)
      if (fabs(A(j, m - 1)) > fabs(x)) {
        x = A(j, m - 1);
        i = j;
      }
    if (i != m) {
      for (int64_t j = m - 1; j <= n; j++) {
        const double t = A(i, j);
        A(i, j) = A(m, j), A(m, j) = t;
      }
      for (int64_t j = 1; j <= n; j++) {
        const double t = A(j, i);
        A(j, i) = A(j, m), A(j, m) = t;
      }
    }
    if (x != 0)
      for (i = m + 1; i <= n; i++) {
        double y = A(i, m - 1);
        if (y != 0) {
          y /= x;
          A(i, m - 1) = y;
          for (int64_t j = m; j <= n; j++)
            A(i, j) -= y * A(m, j);
          for (int64_t j = 1; j <= n; j++)
            A(j, m) += y * A(j, i);
        }
      }
  }
  for (int64_t i = 3; i <= n; i++)
    for (int64_t j = 1; j <= i - 2; j++)
      A(i, j) = 0;
}

static double sign_of(double a, double b)
{
  return b >= 0 ? fabs(a) : -fabs(a);
}

/* The eigenvalues of the upper Hessenberg a into w[0..n) (destroying a):
 * 0, or CUSCI__SIG_DESIGN_EIGVALS after 30 max(10, n) iterations on one
 * value (LAPACK's dlahqr's limit). */
static int hqr(double *a, int64_t n, double complex *w)
{
  double anorm = 0;
  for (int64_t i = 1; i <= n; i++)
    for (int64_t j = i > 1 ? i - 1 : 1; j <= n; j++)
      anorm += fabs(A(i, j));
  int64_t nn = n, l = 1;
  const int64_t itmax = 30 * (n > 10 ? n : 10);
  double t = 0;
  while (nn >= 1) {
    int64_t its = 0;
    do {
      for (l = nn; l >= 2; l--) {
        double s = fabs(A(l - 1, l - 1)) + fabs(A(l, l));
        if (s == 0)
          s = anorm;
        if (fabs(A(l, l - 1)) + s == s) {
          A(l, l - 1) = 0;
          break;
        }
      }
      double x = A(nn, nn);
      if (l == nn) {
        w[nn - 1] = x + t;
        nn--;
      } else {
        double y = A(nn - 1, nn - 1), ww = A(nn, nn - 1) * A(nn - 1, nn);
        if (l == nn - 1) {
          /* a 2 x 2 block: two real values or a conjugate pair */
          const double p = 0.5 * (y - x), q = p * p + ww;
          double z = sqrt(fabs(q));
          x += t;
          if (q >= 0) {
            z = p + sign_of(z, p);
            const double hi = x + z, lo = z != 0 ? x - ww / z : hi;
            w[nn - 2] = hi, w[nn - 1] = lo;
          } else {
            w[nn - 2] = CMPLX(x + p, z), w[nn - 1] = CMPLX(x + p, -z);
          }
          nn -= 2;
        } else {
          if (its == itmax)
            return CUSCI__SIG_DESIGN_EIGVALS;
          if (its > 0 && its % 10 == 0) {
            /* an exceptional shift */
            t += x;
            for (int64_t i = 1; i <= nn; i++)
              A(i, i) -= x;
            const double s = fabs(A(nn, nn - 1)) + fabs(A(nn - 1, nn - 2));
            y = x = 0.75 * s;
            ww = -0.4375 * s * s;
          }
          ++its;
          int64_t m;
          double p = 0, q = 0, r = 0, z;
          for (m = nn - 2; m >= l; m--) {
            z = A(m, m);
            r = x - z;
            double s = y - z;
            p = (r * s - ww) / A(m + 1, m) + A(m, m + 1);
            q = A(m + 1, m + 1) - z - r - s;
            r = A(m + 2, m + 1);
            s = fabs(p) + fabs(q) + fabs(r);
            p /= s, q /= s, r /= s;
            if (m == l)
              break;
            const double u = fabs(A(m, m - 1)) * (fabs(q) + fabs(r));
            const double v = fabs(p) * (fabs(A(m - 1, m - 1)) + fabs(z) + fabs(A(m + 1, m + 1)));
            if (u + v == v)
              break;
          }
          for (int64_t i = m + 2; i <= nn; i++) {
            A(i, i - 2) = 0;
            if (i != m + 2)
              A(i, i - 3) = 0;
          }
          for (int64_t k = m; k <= nn - 1; k++) {
            if (k != m) {
              p = A(k, k - 1);
              q = A(k + 1, k - 1);
              r = k != nn - 1 ? A(k + 2, k - 1) : 0;
              if ((x = fabs(p) + fabs(q) + fabs(r)) != 0)
                p /= x, q /= x, r /= x;
            }
            const double s = sign_of(sqrt(p * p + q * q + r * r), p);
            if (s == 0)
              continue;
            if (k == m) {
              if (l != m)
                A(k, k - 1) = -A(k, k - 1);
            } else {
              A(k, k - 1) = -s * x;
            }
            p += s;
            x = p / s, y = q / s, z = r / s;
            q /= p, r /= p;
            for (int64_t j = k; j <= nn; j++) {
              p = A(k, j) + q * A(k + 1, j);
              if (k != nn - 1) {
                p += r * A(k + 2, j);
                A(k + 2, j) -= p * z;
              }
              A(k + 1, j) -= p * y;
              A(k, j) -= p * x;
            }
            const int64_t mmin = nn < k + 3 ? nn : k + 3;
            for (int64_t i = l; i <= mmin; i++) {
              p = x * A(i, k) + y * A(i, k + 1);
              if (k != nn - 1) {
                p += z * A(i, k + 2);
                A(i, k + 2) -= p * r;
              }
              A(i, k + 1) -= p * q;
              A(i, k) -= p;
            }
          }
        }
      }
    } while (l < nn - 1);
  }
  return 0;
}

#undef A

int cusci__sig_eigvals(double *a, int64_t n, double complex *w)
{
  for (int64_t i = 0; i < n * n; i++)
    if (!isfinite(a[i]))
      return CUSCI__SIG_DESIGN_FINITE;
  if (n == 0)
    return 0;
  balance(a, n);
  hessenberg(a, n);
  return hqr(a, n, w);
}

int cusci__sig_roots(const double *c, int64_t n, double complex *r, int64_t *nr)
{
  int64_t first = 0, last = n - 1;
  while (first < n && c[first] == 0)
    first++;
  *nr = 0;
  if (first == n)
    return 0;
  while (c[last] == 0)
    last--;
  const int64_t trailing = n - 1 - last, m = last - first; /* m roots of the companion */
  int rc = 0;
  if (m > 0) {
    double *a = calloc((size_t)(m * m), sizeof *a);
    if (!a)
      return CUSCI__SIG_DESIGN_MEMORY;
    /* numpy.roots' companion: -c[1:] / c[0] in the first row, ones below the diagonal */
    for (int64_t j = 0; j < m; j++)
      a[j] = -c[first + 1 + j] / c[first];
    for (int64_t i = 1; i < m; i++)
      a[i * m + i - 1] = 1;
    rc = cusci__sig_eigvals(a, m, r);
    free(a);
  }
  for (int64_t i = 0; i < trailing; i++)
    r[m + i] = 0;
  *nr = m + trailing;
  return rc;
}
