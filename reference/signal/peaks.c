/*
 * reference/signal/peaks.c: the peak finding of scipy.signal (find_peaks'
 * local maxima with their plateaus, its selections by distance, and
 * peak_prominences and peak_widths), on float64 values, as SciPy defines
 * each step.
 */
#include "design.h"

#include <math.h>
#include <stdlib.h>

int64_t cusci__sig_local_maxima(const double *x, int64_t n, int64_t *mid, int64_t *left, int64_t *right)
{
  int64_t m = 0, i = 1;
  const int64_t i_max = n - 1;
  while (i < i_max) {
    if (x[i - 1] < x[i]) {
      int64_t ahead = i + 1;
      while (ahead < i_max && x[ahead] == x[i])
        ahead++;
      if (x[ahead] < x[i]) {
        left[m] = i, right[m] = ahead - 1;
        mid[m] = (left[m] + right[m]) / 2;
        m++;
        i = ahead;
      }
    }
    i++;
  }
  return m;
}

typedef struct ranked {
  double v;
  int64_t at;
} ranked;

static int by_value(const void *a, const void *b)
{
  const ranked *x = a, *y = b;
  if (x->v != y->v)
    return x->v < y->v ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

int cusci__sig_peak_distance(const int64_t *peaks, const double *priority, int64_t m, double distance, bool *keep)
{
  ranked *r = malloc(sizeof *r * (size_t)(m ? m : 1));
  if (!r)
    return CUSCI__SIG_DESIGN_MEMORY;
  for (int64_t i = 0; i < m; i++)
    keep[i] = true, r[i].v = priority[i], r[i].at = i;
  qsort(r, (size_t)m, sizeof *r, by_value);
  const double d = ceil(distance);
  /* the highest first: each removes its neighbours nearer than d */
  for (int64_t i = m - 1; i >= 0; i--) {
    const int64_t j = r[i].at;
    if (!keep[j])
      continue;
    for (int64_t k = j - 1; k >= 0 && (double)(peaks[j] - peaks[k]) < d; k--)
      keep[k] = false;
    for (int64_t k = j + 1; k < m && (double)(peaks[k] - peaks[j]) < d; k++)
      keep[k] = false;
  }
  free(r);
  return 0;
}

void cusci__sig_peak_prominences(const double *x, int64_t n, const int64_t *peaks, int64_t m, int64_t wlen, double *prom, int64_t *lb, int64_t *rb)
{
  for (int64_t q = 0; q < m; q++) {
    const int64_t p = peaks[q];
    int64_t i_min = 0, i_max = n - 1;
    if (wlen >= 2) {
      i_min = p - wlen / 2 > i_min ? p - wlen / 2 : i_min;
      i_max = p + wlen / 2 < i_max ? p + wlen / 2 : i_max;
    }
    int64_t i = p, left = p, right = p;
    double lmin = x[p], rmin = x[p];
    while (i_min <= i && x[i] <= x[p]) {
      if (x[i] < lmin)
        lmin = x[i], left = i;
      i--;
    }
    i = p;
    while (i <= i_max && x[i] <= x[p]) {
      if (x[i] < rmin)
        rmin = x[i], right = i;
      i++;
    }
    prom[q] = x[p] - (lmin > rmin ? lmin : rmin);
    lb[q] = left, rb[q] = right;
  }
}

void cusci__sig_peak_widths(const double *x, const int64_t *peaks, int64_t m, double rel_height, const double *prom, const int64_t *lb,
                            const int64_t *rb, double *width, double *height, double *lip, double *rip)
{
  for (int64_t q = 0; q < m; q++) {
    const int64_t p = peaks[q], i_min = lb[q], i_max = rb[q];
    const double h = x[p] - prom[q] * rel_height;
    height[q] = h;
    int64_t i = p;
    while (i_min < i && h < x[i])
      i--;
    double left = (double)i;
    if (x[i] < h)
      left += (h - x[i]) / (x[i + 1] - x[i]);
    i = p;
    while (i < i_max && h < x[i])
      i++;
    double right = (double)i;
    if (x[i] < h)
      right -= (h - x[i]) / (x[i - 1] - x[i]);
    width[q] = right - left;
    lip[q] = left, rip[q] = right;
  }
}

int64_t cusci__sig_relextrema(const double *x, int64_t outer, int64_t n, int64_t inner, int cmp, int order, bool wrap, bool *mask)
{
  int64_t count = 0;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < inner; j++) {
        const double *line = x + o * n * inner + j;
        const double c = line[i * inner];
        bool keep = true;
        for (int64_t s = 1; keep && s <= order; s++)
          for (int side = -1; keep && side <= 1; side += 2) {
            int64_t k = i + side * s;
            if (wrap)
              k = ((k % n) + n) % n;
            else
              k = k < 0 ? 0 : k >= n ? n - 1 : k;
            const double e = line[k * inner];
            keep = cmp == 0 ? c > e : cmp == 1 ? c < e : cmp == 2 ? c >= e : c <= e;
          }
        mask[(o * n + i) * inner + j] = keep;
        count += keep;
      }
  return count;
}
