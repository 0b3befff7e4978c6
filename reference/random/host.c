/*
 * reference/random/host.c: the host backend of librandom.
 */
#include "reference/random/reference.h"

#include <stdlib.h>

#include <cusci/core.h>

void cusci__rhost_real(int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int f32, int64_t n, void *dst)
{
  int G = cusci__rgroup_size(dist, f32, p);
  int64_t groups = (n + G - 1) / G;
  for (int64_t g = 0; g < groups; g++) {
    double v[4];
    cusci__rgroup_real(dist, p, key, ctr + (uint64_t)g, f32, v);
    for (int i = 0; i < G; i++) {
      int64_t k = g * G + i;
      if (k >= n)
        break;
      if (f32)
        ((float *)dst)[k] = (float)v[i];
      else
        ((double *)dst)[k] = v[i];
    }
  }
}

void cusci__rhost_int(int dist, const cusci__rparams *p, uint64_t key, uint64_t ctr, int dtype, int64_t n, void *dst)
{
  int G = cusci__rgroup_size(dist, 0, p);
  int64_t groups = (n + G - 1) / G;
  for (int64_t g = 0; g < groups; g++) {
    int64_t v[4];
    cusci__rgroup_int(dist, p, key, ctr + (uint64_t)g, G, v);
    for (int i = 0; i < G; i++) {
      int64_t k = g * G + i;
      if (k >= n)
        break;
      switch (dtype) {
      case CUSCI_BOOL: ((uint8_t *)dst)[k] = v[i] != 0; break;
      case CUSCI_INT8: case CUSCI_UINT8: ((uint8_t *)dst)[k] = (uint8_t)v[i]; break;
      case CUSCI_INT16: case CUSCI_UINT16: ((uint16_t *)dst)[k] = (uint16_t)v[i]; break;
      case CUSCI_INT32: case CUSCI_UINT32: ((uint32_t *)dst)[k] = (uint32_t)v[i]; break;
      default: ((uint64_t *)dst)[k] = (uint64_t)v[i]; break;
      }
    }
  }
}

typedef struct kv {
  uint64_t k;
  int64_t i;
} kv;

static int kv_cmp(const void *a, const void *b)
{
  const kv *x = a, *y = b;
  if (x->k != y->k)
    return x->k < y->k ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

void cusci__rhost_perm(uint64_t key, uint64_t ctr, int64_t n, const double *w, void *scratch, int64_t *idx)
{
  kv *a = scratch;
  for (int64_t i = 0; i < n; i++) {
    a[i].k = cusci__rperm_key(key, ctr, i, w);
    a[i].i = i;
  }
  qsort(a, (size_t)n, sizeof *a, kv_cmp);
  for (int64_t i = 0; i < n; i++)
    idx[i] = a[i].i;
}

void cusci__rhost_choice_cdf(uint64_t key, uint64_t ctr, const double *cdf, int64_t n, int64_t m, int64_t *out)
{
  for (int64_t i = 0; i < m; i++)
    out[i] = cusci__rsearch_cdf(cdf, n, cusci__rchoice_u(key, ctr, i));
}

void cusci__rhost_rows(int kind, const double *v, int64_t k, const cusci__rparams *p, uint64_t key, uint64_t ctr,
                       int64_t rows, void *dst)
{
  for (int64_t g = 0; g < rows; g++)
    cusci__rrow(kind, v, k, p, key, ctr + (uint64_t)g, (double *)dst + g * k, (int64_t *)dst + g * k);
}

void cusci__rhost_real_arr(int dist, const double *pa, const double *pb, uint64_t key, uint64_t ctr, int f32, int64_t n,
                           void *dst)
{
  cusci__rparams none = {0};
  int G = cusci__rgroup_size(dist, f32, &none);
  int64_t groups = (n + G - 1) / G;
  for (int64_t g = 0; g < groups; g++) {
    double v[4];
    cusci__rgroup_real_arr(dist, pa, pb, key, ctr + (uint64_t)g, f32, g * G, n, v);
    for (int i = 0; i < G && g * G + i < n; i++) {
      if (f32)
        ((float *)dst)[g * G + i] = (float)v[i];
      else
        ((double *)dst)[g * G + i] = v[i];
    }
  }
}

void cusci__rhost_int_arr(int dist, const double *pa, const int64_t *pn, uint64_t key, uint64_t ctr, int64_t n,
                          int64_t *dst)
{
  for (int64_t k = 0; k < n; k++)
    dst[k] = cusci__rint_arr(dist, pa, pn, key, ctr + (uint64_t)k, k);
}
