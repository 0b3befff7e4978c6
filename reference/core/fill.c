/*
 * reference/core/fill.c: fill, arange and linspace on the host.
 */
#include "reference/core/reference.h"

#include <string.h>

#include <cusci/core.h>

static void fill_row(char *const *p, const int64_t *bs, int64_t n, const void *arg)
{
  const void *const *v = arg;
  size_t size = (size_t)(uintptr_t)v[1];
  char *d = p[0];
  for (int64_t i = 0; i < n; i++, d += bs[0])
    memcpy(d, v[0], size);
}

void cusci__host_fill(const cusci_loop *loop, void *dst, const void *value, int itemsize)
{
  const void *arg[2] = {value, (const void *)(uintptr_t)itemsize};
  char *base[1] = {dst};
  cusci__host_walk(loop, base, &itemsize, fill_row, arg);
}

#define ARANGE_CASE_(D, T, K, unused)                     \
  case CUSCI_##D:                               \
    for (int64_t i = 0; i < n; i++)                       \
      ((T *)dst)[i] = cusci__arange_##D(i, args);         \
    break;

void cusci__host_arange(int dtype, int64_t n, const cusci__arange_args *args, void *dst)
{
  switch (dtype) { CUSCI_TYPES_A(ARANGE_CASE_, 0) }
}

#define LINSPACE_CASE_(D, T, K, unused)                   \
  case CUSCI_##D:                               \
    for (int64_t i = 0; i < args->n; i++)                 \
      ((T *)dst)[i] = cusci__linspace_##D(i, args);       \
    break;

void cusci__host_linspace(int dtype, const cusci__linspace_args *args, void *dst)
{
  switch (dtype) { CUSCI_TYPES_A(LINSPACE_CASE_, 0) }
}
