/*
 * reference/random/host.c: the host backend of librandom.
 */
#include "reference/random/reference.h"

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
    cusci__rgroup_int(dist, p, key, ctr + (uint64_t)g, v);
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
