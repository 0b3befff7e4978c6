/*
 * tests/testkit.c: what cusci's test programs share (see testkit.h).
 */
#include "tests/testkit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/kit/convert.h>

cusci_ctx *tk_host_ctx(void)
{
  cusci_ctx *ctx = NULL;
  if (cusci_ctx_create(CUSCI_DEVICE_HOST, &ctx) != CUSCI_OK) {
    printf("Bail out! no host context: %s\n", cusci_ctx_create_error());
    exit(1);
  }
  return ctx;
}

cusci_ctx *tk_gpu_ctx_or_skip(void)
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

bool tk_pool_off(cusci_ctx *ctx)
{
  cusci_pool *p = cusci_ctx_pool(ctx);
  cusci_pool_free_all_blocks(p);
  if (cusci_pool_set_caching(p, false) != CUSCI_OK) {
    diag("the pool cannot be turned off: %s", cusci_pool_last_error(p));
    return false;
  }
  return true;
}

bool tk_sanitizing(void)
{
  const char *s = getenv("CUSCI_TEST_SANITIZE");
  return s && *s && strcmp(s, "0");
}

int tk_top_log2(int want)
{
  return tk_sanitizing() && want > 22 ? 22 : want;
}

bool tk_part(int i)
{
  const char *s = getenv("CUSCI_TEST_PART");
  int k, n;
  if (!s || !*s || sscanf(s, "%d/%d", &k, &n) != 2 || n < 1 || k < 1 || k > n)
    return true;
  return i % n == k - 1;
}

int tk_part_count(int total)
{
  int c = 0;
  for (int i = 0; i < total; i++)
    c += tk_part(i);
  return c;
}

cusci_array *tk_fixture(cusci_ctx *ctx, const char *sub, const char *name, bool optional)
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

void *tk_to_host(cusci_ctx *ctx, const cusci_array *a)
{
  size_t n = cusci_array_nbytes(a);
  void *buf = malloc(n ? n : 1);
  if (!buf || cusci_array_to_host(ctx, a, buf, n) != CUSCI_OK) {
    printf("Bail out! to_host failed: %s\n", cusci_ctx_last_error(ctx));
    exit(1);
  }
  return buf;
}

cusci_array *tk_copy_to(cusci_ctx *ctx, cusci_ctx *from, const cusci_array *a)
{
  void *buf = tk_to_host(from, a);
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

int64_t tk_first_mismatch(cusci_dtype dt, const void *got, const void *want, const uint8_t *mask, int64_t n)
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

/* A float's bits as an integer that orders like the value. */
static int64_t ordered(cusci_dtype part, const unsigned char *p)
{
  if (part == CUSCI_FLOAT16) {
    uint16_t b;
    memcpy(&b, p, 2);
    return (b & 0x8000) ? -(int64_t)(b & 0x7fff) : (int64_t)b;
  }
  if (part == CUSCI_FLOAT32) {
    uint32_t b;
    memcpy(&b, p, 4);
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
  }
  uint64_t b;
  memcpy(&b, p, 8);
  return (b >> 63) ? -(int64_t)(b & 0x7fffffffffffffffull) : (int64_t)b;
}

double tk_float_part(cusci_dtype part, const void *pv)
{
  const unsigned char *p = pv;
  if (part == CUSCI_FLOAT16) {
    uint16_t b;
    memcpy(&b, p, 2);
    int e = (b >> 10) & 31;
    double m = b & 1023;
    double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return (b & 0x8000) ? -v : v;
  }
  if (part == CUSCI_FLOAT32) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  double d;
  memcpy(&d, p, 8);
  return d;
}

/*
 * Index of the first element farther apart than `ulps` (NaN matches NaN,
 * infinities and integers must be equal), or -1. A negative `ulps` -u
 * compares complex numbers as a whole, |got - want| <= u eps |want|:
 * complex products round differently with and without fused multiply-adds
 * (NumPy's SIMD loops use them), and a part that cancels can differ by
 * many of its own ulps.
 */
int64_t tk_first_far(cusci_dtype dt, const void *got, const void *want, int64_t n, int ulps)
{
  char k = cusci_dtype_kind(dt);
  if (ulps < 0 && k == 'c') {
    double eps = dt == CUSCI_COMPLEX64 ? 0x1p-23 : 0x1p-52;
    for (int64_t i = 0; i < n; i++) {
      double g[2], w[2];
      for (int j = 0; j < 2; j++) {
        if (dt == CUSCI_COMPLEX64) {
          g[j] = ((const float *)got)[2 * i + j];
          w[j] = ((const float *)want)[2 * i + j];
        } else {
          g[j] = ((const double *)got)[2 * i + j];
          w[j] = ((const double *)want)[2 * i + j];
        }
      }
      int gn = isnan(g[0]) || isnan(g[1]), wn = isnan(w[0]) || isnan(w[1]);
      if (gn || wn) {
        if (gn != wn)
          return i;
        continue;
      }
      if (isinf(w[0]) || isinf(w[1]) || isinf(g[0]) || isinf(g[1])) {
        /* Infinite parts equal; a finite part beside one within the
         * tolerance of its own size (log(-inf + iy) = inf + i pi is
         * rounded by each side's atan2). */
        for (int j = 0; j < 2; j++)
          if ((isinf(w[j]) || isinf(g[j])) ? g[j] != w[j] : fabs(g[j] - w[j]) > -ulps * eps * fabs(w[j]))
            return i;
        continue;
      }
      if (hypot(g[0] - w[0], g[1] - w[1]) > -ulps * eps * hypot(w[0], w[1]))
        return i;
    }
    return -1;
  }
  if (ulps == 0 || (k != 'f' && k != 'c'))
    return tk_first_mismatch(dt, got, want, NULL, n);
  cusci_dtype part = dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dt == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : dt;
  size_t ps = cusci_dtype_itemsize(part);
  int parts = k == 'c' ? 2 : 1;
  const unsigned char *g = got, *w = want;
  for (int64_t i = 0; i < n; i++) {
    for (int j = 0; j < parts; j++) {
      const unsigned char *a = g + ((size_t)i * parts + j) * ps, *b = w + ((size_t)i * parts + j) * ps;
      double va = tk_float_part(part, a), vb = tk_float_part(part, b);
      if (isnan(va) || isnan(vb)) {
        if (!(isnan(va) && isnan(vb)))
          return i;
        continue;
      }
      if (isinf(va) || isinf(vb)) {
        if (va != vb)
          return i;
        continue;
      }
      int64_t d = ordered(part, a) - ordered(part, b);
      if (d < -ulps || d > ulps)
        return i;
    }
  }
  return -1;
}

/* Index of the first element of got (host memory) not within tol of want
 * (relative, absolute below 1), or -1; integers, bools and tol 0 exactly
 * (NaN equal to NaN). */
int64_t tk_first_off(cusci_dtype dt, const void *got, const void *want, int64_t n, double tol)
{
  char k = cusci_dtype_kind(dt);
  if ((k != 'f' && k != 'c') || tol == 0)
    return tk_first_mismatch(dt, got, want, NULL, n);
  cusci_dtype part = dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dt == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : dt;
  size_t ps = cusci_dtype_itemsize(part);
  int parts = k == 'c' ? 2 : 1;
  for (int64_t i = 0; i < n * parts; i++) {
    double g = tk_float_part(part, (const unsigned char *)got + i * ps), w = tk_float_part(part, (const unsigned char *)want + i * ps);
    if (isnan(g) || isnan(w)) {
      if (!(isnan(g) && isnan(w)))
        return i / parts;
    } else if (isinf(g) || isinf(w)) {
      if (g != w)
        return i / parts;
    } else if (fabs(g - w) > tol * (fabs(w) > 1 ? fabs(w) : 1)) {
      return i / parts;
    }
  }
  return -1;
}

const char *tk_elem_str(cusci_dtype dt, const void *buf, int64_t i, char *out, size_t len)
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
  case CUSCI_FLOAT16: snprintf(out, len, "%.9g (0x%04x)", cusci_half_to_double(v.u16), v.u16); break;
  case CUSCI_FLOAT32: snprintf(out, len, "%.9g", v.f); break;
  case CUSCI_FLOAT64: snprintf(out, len, "%.17g", v.d); break;
  case CUSCI_COMPLEX64: snprintf(out, len, "%.9g%+.9gj", v.c64[0], v.c64[1]); break;
  case CUSCI_COMPLEX128: snprintf(out, len, "%.17g%+.17gj", v.c128[0], v.c128[1]); break;
  }
  return out;
}

uint64_t tk_rand(uint64_t *s)
{
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

double tk_rand_double(uint64_t *s)
{
  return (double)(tk_rand(s) >> 11) * 0x1.0p-53;
}

const char *const tk_view_names[] = {
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

cusci_status tk_view_case(cusci_ctx *ctx, cusci_array *b, const char *name, cusci_array **out)
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

/* ------------------------------------------------------------ agreement */

double tk_tol_of(tk_tol tol, cusci_dtype dt)
{
  switch (dt) {
  case CUSCI_FLOAT16: return tol.f16;
  case CUSCI_FLOAT32: case CUSCI_COMPLEX64: return tol.f32;
  case CUSCI_FLOAT64: case CUSCI_COMPLEX128: return tol.f64;
  default: return 0;
  }
}

/* The checks both agreements make before they compare elements: one dtype,
 * one shape. */
static int same_kind(const cusci_array *g, const cusci_array *h, const char *what)
{
  if (!g || !h) {
    diag("%s: %s result is NULL", what, !g ? "the GPU's" : "the host's");
    return 0;
  }
  if (cusci_array_dtype(g) != cusci_array_dtype(h) || cusci_array_ndim(g) != cusci_array_ndim(h) ||
      memcmp(cusci_array_shape(g), cusci_array_shape(h), sizeof(int64_t) * (size_t)cusci_array_ndim(h)) != 0) {
    char s1[256], s2[256];
    diag("%s: GPU %s %s, host %s %s", what, cusci_dtype_name(cusci_array_dtype(g)),
         cusci_shape_str(cusci_array_ndim(g), cusci_array_shape(g), s1, sizeof s1), cusci_dtype_name(cusci_array_dtype(h)),
         cusci_shape_str(cusci_array_ndim(h), cusci_array_shape(h), s2, sizeof s2));
    return 0;
  }
  return 1;
}

int tk_agree(cusci_ctx *gctx, const cusci_array *g, cusci_ctx *hctx, const cusci_array *h, tk_tol tol, const char *what)
{
  if (!same_kind(g, h, what))
    return 0;
  cusci_dtype dt = cusci_array_dtype(h);
  int64_t n = cusci_array_size(h);
  void *gb = tk_to_host(gctx, g), *hb = tk_to_host(hctx, h);
  int64_t bad = tol.ulps ? tk_first_far(dt, gb, hb, n, tol.ulps) : tk_first_off(dt, gb, hb, n, tk_tol_of(tol, dt));
  if (bad >= 0) {
    char a[96], b[96];
    diag("%s: element %lld of %lld is %s on the GPU, %s on the host", what, (long long)bad, (long long)n,
         tk_elem_str(dt, gb, bad, a, sizeof a), tk_elem_str(dt, hb, bad, b, sizeof b));
  }
  free(gb);
  free(hb);
  return bad < 0;
}

int tk_both(cusci_ctx *hctx, cusci_status sh, cusci_array *rh, cusci_ctx *gctx, cusci_status sg, cusci_array *rg, tk_tol tol,
            bool same_failure, const char *what)
{
  int good;
  if (sh == CUSCI_OK && sg == CUSCI_OK) {
    good = tk_agree(gctx, rg, hctx, rh, tol, what);
  } else {
    good = same_failure && sh == sg;
    if (!good)
      diag("%s: host %s (%s), GPU %s (%s)", what, cusci_status_name(sh), sh ? cusci_ctx_last_error(hctx) : "",
           cusci_status_name(sg), sg ? cusci_ctx_last_error(gctx) : "");
  }
  cusci_array_release(rh);
  cusci_array_release(rg);
  return good;
}

/* ------------------------------------------------------------ statuses */

int tk_status_matches(cusci_ctx *ctx, cusci_status got, cusci_status want, const char *fragment)
{
  const char *msg = cusci_ctx_last_error(ctx);
  int pass = got == want && (!fragment || strstr(msg, fragment) != NULL);
  if (!pass)
    diag("got %s, message \"%s\"%s%s%s", cusci_status_name(got), msg, fragment ? ", expected it to contain \"" : "",
         fragment ? fragment : "", fragment ? "\"" : "");
  return pass;
}

/* ------------------------------------------------------------ inputs */

/* A float in [lo, hi) with all its bits varied. */
static double draw(uint64_t *seed, double lo, double hi)
{
  return lo + (hi - lo) * tk_rand_double(seed);
}

static void store_value(cusci_dtype dt, unsigned char *p, double re, double im)
{
  switch (dt) {
  case CUSCI_BOOL: *p = re != 0; break;
#define INT_CASE(D, T, MIN, MAX)                                        \
  case D: {                                                            \
    double v = trunc(re);                                              \
    T x = v <= (double)(MIN) ? (T)(MIN) : v >= (double)(MAX) ? (T)(MAX) : (T)v; \
    memcpy(p, &x, sizeof x);                                           \
    break;                                                             \
  }
    INT_CASE(CUSCI_INT8, int8_t, INT8_MIN, INT8_MAX)
    INT_CASE(CUSCI_INT16, int16_t, INT16_MIN, INT16_MAX)
    INT_CASE(CUSCI_INT32, int32_t, INT32_MIN, INT32_MAX)
    INT_CASE(CUSCI_INT64, int64_t, -9.2e18, 9.2e18)
    INT_CASE(CUSCI_UINT8, uint8_t, 0, UINT8_MAX)
    INT_CASE(CUSCI_UINT16, uint16_t, 0, UINT16_MAX)
    INT_CASE(CUSCI_UINT32, uint32_t, 0, UINT32_MAX)
    INT_CASE(CUSCI_UINT64, uint64_t, 0, 1.8e19)
#undef INT_CASE
  case CUSCI_FLOAT16: {
    cusci_f16 h = cusci_double_to_half(re);
    memcpy(p, &h, sizeof h);
    break;
  }
  case CUSCI_FLOAT32: {
    float f = (float)re;
    memcpy(p, &f, sizeof f);
    break;
  }
  case CUSCI_FLOAT64: memcpy(p, &re, sizeof re); break;
  case CUSCI_COMPLEX64: {
    float c[2] = {(float)re, (float)im};
    memcpy(p, c, sizeof c);
    break;
  }
  case CUSCI_COMPLEX128: {
    double c[2] = {re, im};
    memcpy(p, c, sizeof c);
    break;
  }
  }
}

cusci_array *tk_random(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dt, double lo, double hi, uint64_t *seed)
{
  int64_t n = 1;
  for (int d = 0; d < ndim; d++)
    n *= shape[d];
  size_t sz = cusci_dtype_itemsize(dt);
  unsigned char *buf = malloc(n > 0 ? (size_t)n * sz : 1);
  if (!buf)
    return NULL;
  for (int64_t i = 0; i < n; i++) {
    double re = draw(seed, lo, hi), im = cusci_dtype_kind(dt) == 'c' ? draw(seed, lo, hi) : 0;
    store_value(dt, buf + (size_t)i * sz, re, im);
  }
  cusci_array *a = NULL;
  if (cusci_array_from_host(ctx, buf, ndim, shape, dt, &a) != CUSCI_OK)
    diag("tk_random: %s", cusci_ctx_last_error(ctx));
  free(buf);
  return a;
}

cusci_array *tk_random_strided(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dt, double lo, double hi, uint64_t *seed)
{
  if (ndim == 0)
    return tk_random(ctx, 0, shape, dt, lo, hi, seed);
  int64_t big[CUSCI_MAX_NDIM], start[CUSCI_MAX_NDIM], stop[CUSCI_MAX_NDIM], step[CUSCI_MAX_NDIM];
  for (int d = 0; d < ndim; d++) {
    bool last = d == ndim - 1;
    big[d] = last ? 2 * shape[d] + 1 : shape[d] + 1;
    start[d] = last ? CUSCI_SLICE_NONE : 1;
    stop[d] = CUSCI_SLICE_NONE;
    step[d] = last ? -2 : 1;
  }
  cusci_array *base = tk_random(ctx, ndim, big, dt, lo, hi, seed), *view = NULL;
  if (base && cusci_array_slice(ctx, base, start, stop, step, &view) != CUSCI_OK)
    diag("tk_random_strided: %s", cusci_ctx_last_error(ctx));
  cusci_array_release(base);
  return view;
}

/* ------------------------------------------------------------ guards */

#define SENTINEL 0xa5

bool tk_guard_make(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dt, size_t pad, tk_guard *g)
{
  memset(g, 0, sizeof *g);
  g->ctx = ctx;
  pad = (pad + 255) / 256 * 256; /* the array stays as aligned as an allocation */
  int64_t n = 1;
  for (int d = 0; d < ndim; d++)
    n *= shape[d];
  g->pad = pad;
  g->nbytes = (size_t)n * cusci_dtype_itemsize(dt);
  int64_t total = (int64_t)(2 * pad + g->nbytes), inner = (int64_t)g->nbytes;
  const uint8_t s = SENTINEL, ff = 0xff;
  cusci_array *bytes = NULL;
  bool made = cusci_array_full(ctx, 1, &total, CUSCI_UINT8, &s, &g->whole) == CUSCI_OK &&
              cusci_array_wrap(ctx, (char *)cusci_array_data(g->whole) + pad, 1, &inner, NULL, CUSCI_UINT8, &bytes) == CUSCI_OK &&
              cusci_array_full(ctx, 1, &inner, CUSCI_UINT8, &ff, &bytes) == CUSCI_OK &&
              cusci_array_wrap(ctx, (char *)cusci_array_data(g->whole) + pad, ndim, shape, NULL, dt, &g->out) == CUSCI_OK;
  cusci_array_release(bytes);
  if (!made) {
    diag("tk_guard_make: %s", cusci_ctx_last_error(ctx));
    tk_guard_free(g);
  }
  return made;
}

int tk_guard_intact(tk_guard *g, const char *what)
{
  if (!g->whole) {
    diag("%s: no guard was made", what);
    return 0;
  }
  if (cusci_ctx_synchronize(g->ctx) != CUSCI_OK) {
    diag("%s: %s", what, cusci_ctx_last_error(g->ctx));
    return 0;
  }
  unsigned char *b = tk_to_host(g->ctx, g->whole);
  size_t changed = 0, first_after = SIZE_MAX, last_before = SIZE_MAX;
  for (size_t i = 0; i < g->pad; i++)
    if (b[i] != SENTINEL) {
      changed++;
      if (last_before == SIZE_MAX || g->pad - i > last_before)
        last_before = g->pad - i;
    }
  for (size_t i = 0; i < g->pad; i++)
    if (b[g->pad + g->nbytes + i] != SENTINEL) {
      changed++;
      if (first_after == SIZE_MAX)
        first_after = i;
    }
  free(b);
  if (changed)
    diag("%s: %zu guard bytes changed (%s%zu bytes before the array, first %zu bytes after its end)", what, changed,
         last_before == SIZE_MAX ? "none " : "up to ", last_before == SIZE_MAX ? 0 : last_before,
         first_after == SIZE_MAX ? 0 : first_after);
  return changed == 0;
}

int tk_guard_all_written(tk_guard *g, const char *what)
{
  if (!g->out)
    return 0;
  size_t sz = cusci_dtype_itemsize(cusci_array_dtype(g->out));
  unsigned char *b = tk_to_host(g->ctx, g->out);
  int64_t n = cusci_array_size(g->out), missed = 0, first = -1;
  for (int64_t i = 0; i < n; i++) {
    size_t k = 0;
    while (k < sz && b[(size_t)i * sz + k] == 0xff)
      k++;
    if (k == sz && missed++ == 0)
      first = i;
  }
  free(b);
  if (missed)
    diag("%s: %lld of %lld elements never written, the first at %lld", what, (long long)missed, (long long)n, (long long)first);
  return missed == 0;
}

void tk_guard_free(tk_guard *g)
{
  cusci_array_release(g->out);
  cusci_array_release(g->whole);
  g->out = g->whole = NULL;
}

void tk_poison_pool(cusci_ctx *ctx, int n, const size_t *bytes)
{
  cusci_array *keep[16] = {NULL};
  const uint8_t ff = 0xff;
  for (int i = 0; i < n && i < 16; i++) {
    int64_t len = (int64_t)bytes[i];
    cusci_array_full(ctx, 1, &len, CUSCI_UINT8, &ff, &keep[i]);
  }
  cusci_ctx_synchronize(ctx);
  for (int i = 0; i < n && i < 16; i++)
    cusci_array_release(keep[i]);
}
