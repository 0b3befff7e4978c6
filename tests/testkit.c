/*
 * tests/testutil.c: helpers shared by the test programs.
 */
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/core/convert.h"

cusci_ctx *tu_host_ctx(void)
{
  cusci_ctx *ctx = NULL;
  if (cusci_ctx_create(CUSCI_DEVICE_HOST, &ctx) != CUSCI_OK) {
    printf("Bail out! no host context: %s\n", cusci_ctx_create_error());
    exit(1);
  }
  return ctx;
}

cusci_ctx *tu_gpu_ctx_or_skip(void)
{
  int n = 0;
  cusci_device_count(&n);
  if (n == 0)
    skip_all("no CUDA device");
  cusci_ctx *ctx = NULL;
  cusci_status st = cusci_ctx_create(0, &ctx);
  if (st != CUSCI_OK) {
    printf("Bail out! a CUDA device is present but no context: %s\n", cusci_ctx_create_error());
    exit(1);
  }
  return ctx;
}

cusci_array *tu_fixture(cusci_ctx *ctx, const char *sub, const char *name, bool optional)
{
  const char *dir = getenv("CUSCI_FIXTURES");
  char path[1024];
  snprintf(path, sizeof path, "%s/%s/%s.npy", dir ? dir : "tests/fixtures", sub, name);
  cusci_array *a = NULL;
  cusci_status st = cusci_npy_load(ctx, path, &a);
  if (st != CUSCI_OK) {
    if (!optional)
      printf("# fixture %s does not load: %s\n", path, cusci_ctx_last_error(ctx));
    return NULL;
  }
  return a;
}

void *tu_to_host(cusci_ctx *ctx, const cusci_array *a)
{
  size_t n = cusci_array_nbytes(a);
  void *buf = malloc(n ? n : 1);
  if (!buf || cusci_array_to_host(ctx, a, buf, n) != CUSCI_OK) {
    printf("Bail out! to_host failed: %s\n", cusci_ctx_last_error(ctx));
    exit(1);
  }
  return buf;
}

cusci_array *tu_copy_to(cusci_ctx *ctx, cusci_ctx *from, const cusci_array *a)
{
  void *buf = tu_to_host(from, a);
  cusci_array *r = NULL;
  if (buf)
    cusci_array_from_host(ctx, buf, cusci_array_ndim(a), cusci_array_shape(a), cusci_array_dtype(a), &r);
  free(buf);
  return r;
}

static bool float_eq(const unsigned char *g, const unsigned char *w, cusci_dtype dt)
{
  switch (dt) {
  case CUSCI_FLOAT16: {
    uint16_t a, b;
    memcpy(&a, g, 2);
    memcpy(&b, w, 2);
    bool na = (a & 0x7c00) == 0x7c00 && (a & 0x3ff), nb = (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
    return na || nb ? na && nb : a == b;
  }
  case CUSCI_FLOAT32: {
    float a, b;
    memcpy(&a, g, 4);
    memcpy(&b, w, 4);
    return isnan(a) || isnan(b) ? isnan(a) && isnan(b) : memcmp(g, w, 4) == 0;
  }
  default: {
    double a, b;
    memcpy(&a, g, 8);
    memcpy(&b, w, 8);
    return isnan(a) || isnan(b) ? isnan(a) && isnan(b) : memcmp(g, w, 8) == 0;
  }
  }
}

int64_t tu_first_mismatch(cusci_dtype dt, const void *got, const void *want, const uint8_t *mask, int64_t n)
{
  size_t sz = cusci_dtype_itemsize(dt);
  const unsigned char *g = got, *w = want;
  for (int64_t i = 0; i < n; i++) {
    if (mask && !mask[i])
      continue;
    const unsigned char *a = g + (size_t)i * sz, *b = w + (size_t)i * sz;
    bool eq;
    switch (cusci_dtype_kind(dt)) {
    case 'f':
      eq = float_eq(a, b, dt);
      break;
    case 'c': {
      cusci_dtype part = dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
      eq = float_eq(a, b, part) && float_eq(a + sz / 2, b + sz / 2, part);
      break;
    }
    case 'b':
      eq = (a[0] != 0) == (b[0] != 0);
      break;
    default:
      eq = memcmp(a, b, sz) == 0;
    }
    if (!eq)
      return i;
  }
  return -1;
}

const char *tu_elem_str(cusci_dtype dt, const void *buf, int64_t i, char *out, size_t len)
{
  const unsigned char *p = (const unsigned char *)buf + (size_t)i * cusci_dtype_itemsize(dt);
  union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint8_t u8; uint16_t u16; uint32_t u32;
          uint64_t u64; float f; double d; float c64[2]; double c128[2]; } v;
  memcpy(&v, p, cusci_dtype_itemsize(dt));
  switch (dt) {
  case CUSCI_BOOL: snprintf(out, len, "%s", v.u8 ? "True" : "False"); break;
  case CUSCI_INT8: snprintf(out, len, "%d", v.i8); break;
  case CUSCI_INT16: snprintf(out, len, "%d", v.i16); break;
  case CUSCI_INT32: snprintf(out, len, "%d", v.i32); break;
  case CUSCI_INT64: snprintf(out, len, "%lld", (long long)v.i64); break;
  case CUSCI_UINT8: snprintf(out, len, "%u", v.u8); break;
  case CUSCI_UINT16: snprintf(out, len, "%u", v.u16); break;
  case CUSCI_UINT32: snprintf(out, len, "%u", v.u32); break;
  case CUSCI_UINT64: snprintf(out, len, "%llu", (unsigned long long)v.u64); break;
  case CUSCI_FLOAT16: snprintf(out, len, "%.9g (0x%04x)", cusci__half_to_double(v.u16), v.u16); break;
  case CUSCI_FLOAT32: snprintf(out, len, "%.9g", v.f); break;
  case CUSCI_FLOAT64: snprintf(out, len, "%.17g", v.d); break;
  case CUSCI_COMPLEX64: snprintf(out, len, "%.9g%+.9gj", v.c64[0], v.c64[1]); break;
  case CUSCI_COMPLEX128: snprintf(out, len, "%.17g%+.17gj", v.c128[0], v.c128[1]); break;
  }
  return out;
}

uint64_t tu_rand(uint64_t *s)
{
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

double tu_rand_double(uint64_t *s)
{
  return (double)(tu_rand(s) >> 11) * 0x1.0p-53;
}

const char *const tu_view_names[] = {
  "t_rev", "t_perm", "t_neg", "s_mixed", "s_empty", "s_clip", "s_none_neg", "r_flat", "r_infer",
  "r_copy", "r_view_of_slice", "r_copy_of_slice", "r_ones", "q_all", "q_axis", "x_0", "x_2",
  "x_last", "x_of_t", "b_to", "b_lead", NULL};

#define N_ CUSCI_SLICE_NONE

/* base[start:stop:step, ...] as a helper. */
static cusci_status sl(cusci_ctx *ctx, cusci_array *a, const int64_t *start, const int64_t *stop, const int64_t *step,
                       cusci_array **out)
{
  return cusci_array_slice(ctx, a, start, stop, step, out);
}

cusci_status tu_view_case(cusci_ctx *ctx, cusci_array *b, const char *name, cusci_array **out)
{
  cusci_status st = CUSCI_ERR_INVALID_ARGUMENT;
  cusci_array *t = NULL;
  *out = NULL;
  if (!strcmp(name, "t_rev")) {
    st = cusci_array_transpose(ctx, b, NULL, out);
  } else if (!strcmp(name, "t_perm")) {
    st = cusci_array_transpose(ctx, b, (const int[]){1, 0, 3, 2}, out);
  } else if (!strcmp(name, "t_neg")) {
    st = cusci_array_transpose(ctx, b, (const int[]){-1, 0, 1, 2}, out);
  } else if (!strcmp(name, "s_mixed")) { /* b[::-1, 1:, ::2, -2:0:-1] */
    st = sl(ctx, b, (const int64_t[]){N_, 1, N_, -2}, (const int64_t[]){N_, N_, N_, 0},
            (const int64_t[]){-1, 1, 2, -1}, out);
  } else if (!strcmp(name, "s_empty")) { /* b[1:1] */
    st = sl(ctx, b, (const int64_t[]){1, N_, N_, N_}, (const int64_t[]){1, N_, N_, N_}, NULL, out);
  } else if (!strcmp(name, "s_clip")) { /* b[:, -10:10:3, 1::-1, 3:] */
    st = sl(ctx, b, (const int64_t[]){N_, -10, 1, 3}, (const int64_t[]){N_, 10, N_, N_},
            (const int64_t[]){1, 3, -1, 1}, out);
  } else if (!strcmp(name, "s_none_neg")) { /* b[::-2, ::-1, 2::-2, :] */
    st = sl(ctx, b, (const int64_t[]){N_, N_, 2, N_}, NULL, (const int64_t[]){-2, -1, -2, 1}, out);
  } else if (!strcmp(name, "r_flat")) {
    st = cusci_array_reshape(ctx, b, 2, (const int64_t[]){6, 20}, out);
  } else if (!strcmp(name, "r_infer")) {
    st = cusci_array_reshape(ctx, b, 2, (const int64_t[]){-1, 5}, out);
  } else if (!strcmp(name, "r_copy")) {
    st = cusci_array_transpose(ctx, b, NULL, &t);
    if (st == CUSCI_OK)
      st = cusci_array_reshape(ctx, t, 2, (const int64_t[]){20, -1}, out);
  } else if (!strcmp(name, "r_view_of_slice") || !strcmp(name, "r_copy_of_slice")) {
    st = sl(ctx, b, (const int64_t[]){N_, N_, 1, N_}, (const int64_t[]){N_, N_, 3, N_}, NULL, &t);
    if (st == CUSCI_OK)
      st = cusci_array_reshape(ctx, t, 2, name[2] == 'v' ? (const int64_t[]){6, 10} : (const int64_t[]){3, 20}, out);
  } else if (!strcmp(name, "r_ones")) {
    st = cusci_array_reshape(ctx, b, 3, (const int64_t[]){1, 120, 1}, out);
  } else if (!strcmp(name, "q_all") || !strcmp(name, "q_axis")) {
    st = sl(ctx, b, (const int64_t[]){N_, 0, N_, 1}, (const int64_t[]){N_, 1, N_, 2}, NULL, &t);
    if (st == CUSCI_OK)
      st = name[2] == 'a' && name[3] == 'l' ? cusci_array_squeeze(ctx, t, 0, NULL, out)
                                            : cusci_array_squeeze(ctx, t, 1, (const int[]){1}, out);
  } else if (!strcmp(name, "x_0")) {
    st = cusci_array_expand_dims(ctx, b, 0, out);
  } else if (!strcmp(name, "x_2")) {
    st = cusci_array_expand_dims(ctx, b, 2, out);
  } else if (!strcmp(name, "x_last")) {
    st = cusci_array_expand_dims(ctx, b, -1, out);
  } else if (!strcmp(name, "x_of_t")) {
    st = cusci_array_transpose(ctx, b, NULL, &t);
    if (st == CUSCI_OK)
      st = cusci_array_expand_dims(ctx, t, 4, out);
  } else if (!strcmp(name, "b_to")) { /* broadcast_to(b[0, :, 0:1, 0], (2, 3, 4)) */
    cusci_array *u = NULL;
    st = sl(ctx, b, (const int64_t[]){0, N_, 0, 0}, (const int64_t[]){1, N_, 1, 1}, NULL, &t);
    if (st == CUSCI_OK)
      st = cusci_array_squeeze(ctx, t, 2, (const int[]){0, 3}, &u);
    if (st == CUSCI_OK)
      st = cusci_array_broadcast_to(ctx, u, 3, (const int64_t[]){2, 3, 4}, out);
    cusci_array_release(u);
  } else if (!strcmp(name, "b_lead")) { /* broadcast_to(b[1, 2, 3, :], (3, 2, 5)) */
    cusci_array *u = NULL;
    st = sl(ctx, b, (const int64_t[]){1, 2, 3, N_}, (const int64_t[]){2, 3, 4, N_}, NULL, &t);
    if (st == CUSCI_OK)
      st = cusci_array_reshape(ctx, t, 1, (const int64_t[]){5}, &u);
    if (st == CUSCI_OK)
      st = cusci_array_broadcast_to(ctx, u, 3, (const int64_t[]){3, 2, 5}, out);
    cusci_array_release(u);
  }
  cusci_array_release(t);
  return st;
}
