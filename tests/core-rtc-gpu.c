/*
 * tests/core-rtc-gpu.c: users' own kernels on the GPU: RawKernel vector add
 * against cusci_add, a RawModule of two kernels, ElementwiseKernel with
 * broadcasting, strides, scalars and two dtype signatures, ReductionKernel
 * (sum of squares and L2 norm over axes, keepdims, the split path of a
 * large array, a reduction without identity) against host sums, and a
 * disk-cache hit on a second context. Prints "1..0 # SKIP no CUDA device"
 * where there is none.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/testkit.h"

static cusci_ctx *gpu;
static uint64_t seed = 0x5eed2385;

static cusci_array *upload(const void *buf, int ndim, const int64_t *shape, cusci_dtype dt)
{
  cusci_array *a = NULL;
  if (cusci_array_from_host(gpu, buf, ndim, shape, dt, &a) != CUSCI_OK) {
    printf("Bail out! from_host: %s\n", cusci_ctx_last_error(gpu));
    exit(1);
  }
  return a;
}

static float *rand_f32(int64_t n)
{
  float *v = malloc((size_t)n * sizeof *v);
  for (int64_t i = 0; i < n; i++)
    v[i] = (float)(tk_rand_double(&seed) * 4.77 - 2.385);
  return v;
}

static double *rand_f64(int64_t n)
{
  double *v = malloc((size_t)n * sizeof *v);
  for (int64_t i = 0; i < n; i++)
    v[i] = tk_rand_double(&seed) * 4.77 - 2.385;
  return v;
}

/* ------------------------------------------------------------ RawKernel */

static const char vadd[] =
  "extern \"C\" __global__ void vadd(const float *x, const float *y, float *z, long long n)\n"
  "{\n"
  "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)\n"
  "    z[i] = x[i] + y[i];\n"
  "}\n";

static void test_raw_kernel(void)
{
  int64_t n = 1000003;
  float *hx = rand_f32(n), *hy = rand_f32(n);
  cusci_array *x = upload(hx, 1, &n, CUSCI_FLOAT32), *y = upload(hy, 1, &n, CUSCI_FLOAT32), *z = NULL, *ref = NULL;
  cusci_array_empty(gpu, 1, &n, CUSCI_FLOAT32, &z);
  cusci_raw_kernel *k = NULL;
  cusci_status st = cusci_raw_kernel_create(gpu, vadd, "vadd", NULL, &k);
  is_int(st, CUSCI_OK, "RawKernel vadd compiles and loads");
  if (st != CUSCI_OK)
    diag("%s", cusci_ctx_last_error(gpu));
  cusci_operand args[4] = {cusci_operand_array(x), cusci_operand_array(y), cusci_operand_array(z), cusci_operand_int(n)};
  unsigned grid[3] = {1024, 1, 1}, block[3] = {256, 1, 1};
  st = cusci_raw_kernel_launch(gpu, k, grid, block, 0, 4, args);
  is_int(st, CUSCI_OK, "vadd launches");
  cusci_add(gpu, x, y, &ref);
  is_int(cusci_ctx_synchronize(gpu), CUSCI_OK, "vadd runs");
  float *g = tk_to_host(gpu, z), *r = tk_to_host(gpu, ref);
  is_int(tk_first_mismatch(CUSCI_FLOAT32, g, r, NULL, n), -1, "vadd equals cusci_add bit for bit");
  free(g);
  free(r);
  is_int(cusci_raw_kernel_launch(gpu, k, (unsigned[3]){0, 1, 1}, block, 0, 4, args), CUSCI_ERR_INVALID_ARGUMENT,
         "a zero grid extent");
  is_int(cusci_raw_kernel_launch(gpu, k, grid, block, 0, -1, args), CUSCI_ERR_INVALID_ARGUMENT, "nargs < 0");
  cusci_raw_kernel *missing = NULL;
  is_int(cusci_raw_kernel_create(gpu, vadd, "vsub", NULL, &missing), CUSCI_ERR_INVALID_ARGUMENT,
         "a kernel name the source lacks");
  is_int(cusci_raw_kernel_create(gpu, "extern \"C\" __global__ void f(int *p) { p[0] = nope; }", "f", NULL, &missing),
         CUSCI_ERR_COMPILE, "a compile error on a GPU context");
  cusci_raw_kernel_destroy(k);
  cusci_array_release(x);
  cusci_array_release(y);
  cusci_array_release(z);
  cusci_array_release(ref);
  free(hx);
  free(hy);
}

/* ------------------------------------------------------------ RawModule */

static const char two[] =
  "extern \"C\" __global__ void scale(double *x, double s, int n)\n"
  "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= s; }\n"
  "extern \"C\" __global__ void iota_sq(long long *y, long long off, int n)\n"
  "{\n"
  "  extern __shared__ long long tile[];\n"
  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
  "  tile[threadIdx.x] = (long long)i * i + off;\n"
  "  __syncthreads();\n"
  "  if (i < n) y[i] = tile[threadIdx.x];\n"
  "}\n";

static void test_raw_module(void)
{
  const char *opts[] = {"--std=c++17", "-DUNUSED=1"};
  cusci_raw_module *m = NULL;
  cusci_status st = cusci_raw_module_create(gpu, two, &(cusci_kernel_opts){.n_options = 2, .options = opts}, &m);
  is_int(st, CUSCI_OK, "RawModule of two kernels compiles");
  cusci_raw_kernel *ks = NULL, *kq = NULL;
  is_int(cusci_raw_module_get_kernel(gpu, m, "scale", &ks), CUSCI_OK, "get scale");
  is_int(cusci_raw_module_get_kernel(gpu, m, "iota_sq", &kq), CUSCI_OK, "get iota_sq");
  cusci_raw_module_destroy(m); /* the kernels keep it */
  int n = 5000;
  int64_t n64 = n;
  double *hx = rand_f64(n);
  cusci_array *x = upload(hx, 1, &n64, CUSCI_FLOAT64), *y = NULL;
  cusci_array_empty(gpu, 1, &n64, CUSCI_INT64, &y);
  unsigned grid[3] = {(unsigned)(n + 127) / 128, 1, 1}, block[3] = {128, 1, 1};
  int32_t n32 = n;
  cusci_operand a1[3] = {cusci_operand_array(x), cusci_operand_float(-1.75), cusci_operand_scalar(CUSCI_INT32, &n32)};
  is_int(cusci_raw_kernel_launch(gpu, ks, grid, block, 0, 3, a1), CUSCI_OK, "scale launches (double and int32 scalars)");
  cusci_operand a2[3] = {cusci_operand_array(y), cusci_operand_int(-17), cusci_operand_scalar(CUSCI_INT32, &n32)};
  is_int(cusci_raw_kernel_launch(gpu, kq, grid, block, 128 * sizeof(long long), 3, a2), CUSCI_OK,
         "iota_sq launches with dynamic shared memory");
  double *gx = tk_to_host(gpu, x);
  int64_t *gy = tk_to_host(gpu, y);
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += gx[i] != hx[i] * -1.75 || gy[i] != (int64_t)i * i - 17;
  is_int(bad, 0, "both kernels' results are exact");
  free(gx);
  free(gy);
  free(hx);
  cusci_raw_kernel_destroy(ks);
  cusci_raw_kernel_destroy(kq);
  cusci_array_release(x);
  cusci_array_release(y);
}

/* ---------------------------------------------------- ElementwiseKernel */

static void test_elementwise(void)
{
  cusci_elementwise_kernel *k = NULL;
  cusci_status st = cusci_elementwise_kernel_create(gpu, "T x, T y, T s", "T z", "z = x * y + s - i % 3", "fused", NULL, &k);
  is_int(st, CUSCI_OK, "ElementwiseKernel created");
  /* (37, 1) with (53,) broadcast to (37, 53); s a Python float. */
  int64_t sa[2] = {37, 1}, sb[1] = {53}, sz[2] = {37, 53};
  for (int pass = 0; pass < 2; pass++) {
    cusci_dtype dt = pass == 0 ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
    double *da = rand_f64(37), *db = rand_f64(53);
    void *ha = malloc(37 * 8), *hb = malloc(53 * 8);
    for (int i = 0; i < 37; i++)
      pass == 0 ? (void)(((float *)ha)[i] = (float)da[i]) : (void)(((double *)ha)[i] = da[i]);
    for (int i = 0; i < 53; i++)
      pass == 0 ? (void)(((float *)hb)[i] = (float)db[i]) : (void)(((double *)hb)[i] = db[i]);
    cusci_array *a = upload(ha, 2, sa, dt), *b = upload(hb, 1, sb, dt), *z = NULL;
    cusci_operand in[3] = {cusci_operand_array(a), cusci_operand_array(b), cusci_operand_float(0.625)};
    st = cusci_elementwise_kernel_call(gpu, k, 3, in, 1, &z);
    char name[96];
    snprintf(name, sizeof name, "%s: (37,1) x (53,) broadcast call", cusci_dtype_name(dt));
    is_int(st, CUSCI_OK, name);
    if (st != CUSCI_OK)
      diag("%s", cusci_ctx_last_error(gpu));
    ok(z && cusci_array_dtype(z) == dt && cusci_array_ndim(z) == 2 && cusci_array_shape(z)[0] == 37 &&
           cusci_array_shape(z)[1] == 53,
       "  output allocated, %s, 37x53", cusci_dtype_name(dt));
    int bad = 0;
    if (z) {
      void *g = tk_to_host(gpu, z);
      for (int r = 0; r < 37; r++)
        for (int c = 0; c < 53; c++) {
          int idx = r * 53 + c;
          if (pass == 0) {
            float w = ((float *)ha)[r] * ((float *)hb)[c] + 0.625f - (float)(idx % 3);
            bad += fabsf(((float *)g)[idx] - w) > 1e-6f * (1 + fabsf(w));
          } else {
            double w = ((double *)ha)[r] * ((double *)hb)[c] + 0.625 - idx % 3;
            bad += fabs(((double *)g)[idx] - w) > 1e-14 * (1 + fabs(w));
          }
        }
      free(g);
    }
    is_int(bad, 0, "  values equal the host's (i is the flat index)");
    /* Into a given output, from a transposed (strided) view. */
    cusci_array *zt = NULL, *zz = NULL, *at = NULL;
    cusci_array_empty(gpu, 2, sz, dt, &zz);
    cusci_array_transpose(gpu, a, NULL, &at); /* (1, 37) */
    cusci_array *a2 = NULL;
    cusci_array_reshape(gpu, at, 2, sa, &a2);
    cusci_operand in2[3] = {cusci_operand_array(a2), cusci_operand_array(b), cusci_operand_float(0.625)};
    zt = zz;
    is_int(cusci_elementwise_kernel_call(gpu, k, 3, in2, 1, &zt), CUSCI_OK, "  into a given output");
    if (z) {
      void *g1 = tk_to_host(gpu, z), *g2 = tk_to_host(gpu, zz);
      ok(memcmp(g1, g2, cusci_array_nbytes(z)) == 0, "  the same values");
      free(g1);
      free(g2);
    }
    cusci_array *wrong = NULL;
    cusci_array_empty(gpu, 2, sz, pass == 0 ? CUSCI_FLOAT64 : CUSCI_FLOAT32, &wrong);
    cusci_array *w0 = wrong;
    is_int(cusci_elementwise_kernel_call(gpu, k, 3, in, 1, &wrong), CUSCI_ERR_DTYPE, "  an output of another dtype");
    ok(wrong == w0, "  out unchanged");
    cusci_array_release(wrong);
    cusci_array_release(at);
    cusci_array_release(a2);
    cusci_array_release(zz);
    cusci_array_release(a);
    cusci_array_release(b);
    cusci_array_release(z);
    free(da);
    free(db);
    free(ha);
    free(hb);
  }
  cusci_elementwise_kernel_destroy(k);

  /* One strided axis: every third element of a float64 array, into a
   * column of a 2-d output. */
  {
    cusci_elementwise_kernel *k3 = NULL;
    cusci_elementwise_kernel_create(gpu, "T x", "T z", "z = x * x - 2.385", "strided", NULL, &k3);
    int64_t nb = 3000, shape2[2] = {1000, 2};
    double *hv = rand_f64(nb);
    cusci_array *v = upload(hv, 1, &nb, CUSCI_FLOAT64), *v3 = NULL, *z2 = NULL, *col = NULL;
    cusci_array_slice(gpu, v, NULL, NULL, (int64_t[]){3}, &v3);
    cusci_array_zeros(gpu, 2, shape2, CUSCI_FLOAT64, &z2);
    cusci_array_slice(gpu, z2, (int64_t[]){0, 1}, (int64_t[]){CUSCI_SLICE_NONE, 2}, NULL, &col);
    cusci_array *c1 = NULL;
    cusci_array_squeeze(gpu, col, 1, (int[]){1}, &c1);
    cusci_operand in3[1] = {cusci_operand_array(v3)};
    cusci_array *o3 = c1;
    cusci_status s3 = cusci_elementwise_kernel_call(gpu, k3, 1, in3, 1, &o3);
    is_int(s3, CUSCI_OK, "a stride-3 input into a stride-2 column");
    double *g = tk_to_host(gpu, z2);
    int bad = 0;
    for (int i = 0; i < 1000; i++)
      bad += g[2 * i] != 0 || fabs(g[2 * i + 1] - (hv[3 * i] * hv[3 * i] - 2.385)) > 4e-15; /* a fused multiply-add may round once */
    is_int(bad, 0, "  the column holds x*x - 2.385, the other column stays 0");
    free(g);
    free(hv);
    cusci_array_release(v);
    cusci_array_release(v3);
    cusci_array_release(z2);
    cusci_array_release(col);
    cusci_array_release(c1);
    cusci_elementwise_kernel_destroy(k3);
  }

  /* int32 with a raw array and two outputs of fixed types. */
  cusci_elementwise_kernel_create(gpu, "int32 x, raw int32 t", "int64 q, bool odd", "q = (long long)x * t[i % 4]; odd = x & 1",
                                  "mix", NULL, &k);
  int64_t n = 4099, four = 4;
  int32_t *hx = malloc((size_t)n * 4), ht[4] = {3, -5, 7, 11};
  for (int64_t i = 0; i < n; i++)
    hx[i] = (int32_t)(tk_rand(&seed) % 200001) - 100000;
  cusci_array *x = upload(hx, 1, &n, CUSCI_INT32), *t = upload(ht, 1, &four, CUSCI_INT32);
  cusci_array *outs[2] = {NULL, NULL};
  cusci_operand in[2] = {cusci_operand_array(x), cusci_operand_array(t)};
  st = cusci_elementwise_kernel_call(gpu, k, 2, in, 2, outs);
  is_int(st, CUSCI_OK, "int32 kernel with a raw table and two outputs");
  if (st == CUSCI_OK) {
    int64_t *q = tk_to_host(gpu, outs[0]);
    uint8_t *odd = tk_to_host(gpu, outs[1]);
    int bad = 0;
    for (int64_t i = 0; i < n; i++)
      bad += q[i] != (int64_t)hx[i] * ht[i % 4] || odd[i] != (uint8_t)(hx[i] & 1);
    is_int(bad, 0, "  exact");
    free(q);
    free(odd);
  }
  cusci_array_release(outs[0]);
  cusci_array_release(outs[1]);
  cusci_array_release(x);
  cusci_array_release(t);
  free(hx);
  cusci_elementwise_kernel_destroy(k);
}

/* ------------------------------------------------------ ReductionKernel */

static void test_reduction(void)
{
  cusci_reduction_kernel *ss = NULL, *l2 = NULL, *mx = NULL;
  cusci_reduction_kernel_create(gpu, "T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq",
                                &(cusci_kernel_opts){.reduce_type = "float64"}, &ss);
  cusci_reduction_kernel_create(gpu, "T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm", NULL, &l2);
  cusci_reduction_kernel_create(gpu, "T x", "T y", "x", "(a > b ? a : b)", NULL, NULL, "rmax", NULL, &mx);
  int64_t shape[3] = {7, 129, 33};
  int64_t n = 7 * 129 * 33;
  float *h = rand_f32(n);
  cusci_array *x = upload(h, 3, shape, CUSCI_FLOAT32);
  static const struct {
    int naxes;
    int axes[3];
    bool keepdims;
  } cases[] = {{0, {0}, false}, {1, {2}, false}, {1, {0}, true}, {2, {0, 2}, false}, {1, {-2}, true}, {3, {2, 1, 0}, true}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    cusci_reduce_opts o = {.naxes = cases[c].naxes, .axes = cases[c].axes, .keepdims = cases[c].keepdims};
    bool red[3] = {o.naxes == 0, o.naxes == 0, o.naxes == 0};
    for (int j = 0; j < o.naxes; j++)
      red[(o.axes[j] + 3) % 3] = true;
    /* The host's sums in double over the output's elements. */
    int64_t nout = 1;
    for (int d = 0; d < 3; d++)
      nout *= red[d] ? 1 : shape[d];
    double *want = calloc((size_t)nout, sizeof *want), *wmax = malloc((size_t)nout * sizeof *wmax);
    for (int64_t o2 = 0; o2 < nout; o2++)
      wmax[o2] = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
      int64_t idx[3] = {i / (129 * 33), (i / 33) % 129, i % 33}, oi = 0;
      for (int d = 0; d < 3; d++)
        if (!red[d])
          oi = oi * shape[d] + idx[d];
      want[oi] += (double)h[i] * h[i];
      if (h[i] > wmax[oi])
        wmax[oi] = h[i];
    }
    cusci_operand in[1] = {cusci_operand_array(x)};
    cusci_array *rs = NULL, *rl = NULL, *rm = NULL;
    cusci_status s1 = cusci_reduction_kernel_call(gpu, ss, 1, in, &o, &rs);
    cusci_status s2 = cusci_reduction_kernel_call(gpu, l2, 1, in, &o, &rl);
    cusci_status s3 = cusci_reduction_kernel_call(gpu, mx, 1, in, &o, &rm);
    char name[128];
    snprintf(name, sizeof name, "reduction case %zu (%d axes, keepdims %d): three kernels run", c, o.naxes, o.keepdims);
    ok(s1 == CUSCI_OK && s2 == CUSCI_OK && s3 == CUSCI_OK, "%s", name);
    if (s1 != CUSCI_OK || s2 != CUSCI_OK || s3 != CUSCI_OK) {
      diag("%s", cusci_ctx_last_error(gpu));
      free(want);
      free(wmax);
      continue;
    }
    int out_nd = 0;
    for (int d = 0; d < 3; d++)
      out_nd += !red[d] || o.keepdims;
    ok(cusci_array_ndim(rs) == out_nd && cusci_array_size(rs) == nout && cusci_array_dtype(rs) == CUSCI_FLOAT32,
       "  shape and dtype");
    float *gs = tk_to_host(gpu, rs), *gl = tk_to_host(gpu, rl), *gm = tk_to_host(gpu, rm);
    int bad = 0;
    for (int64_t i = 0; i < nout; i++) {
      bad += fabs(gs[i] - want[i]) > 2e-6 * want[i] + 1e-30;
      bad += fabs(gl[i] - sqrt(want[i])) > 2e-6 * sqrt(want[i]) + 1e-30;
      bad += gm[i] != (float)wmax[i];
    }
    is_int(bad, 0, "  sum of squares, L2 norm and max equal the host's");
    free(gs);
    free(gl);
    free(gm);
    free(want);
    free(wmax);
    cusci_array_release(rs);
    cusci_array_release(rl);
    cusci_array_release(rm);
  }
  cusci_array_release(x);
  free(h);

  /* A large array over all axes: several blocks per output and a second pass. */
  int64_t big = (1 << 22) + 3;
  float *hb = rand_f32(big);
  double want = 0, wm = -INFINITY;
  for (int64_t i = 0; i < big; i++) {
    want += (double)hb[i] * hb[i];
    wm = hb[i] > wm ? hb[i] : wm;
  }
  cusci_array *xb = upload(hb, 1, &big, CUSCI_FLOAT32), *r1 = NULL, *r2 = NULL;
  cusci_operand in[1] = {cusci_operand_array(xb)};
  is_int(cusci_reduction_kernel_call(gpu, l2, 1, in, NULL, &r1), CUSCI_OK, "L2 norm of 2^22 + 3 elements");
  is_int(cusci_reduction_kernel_call(gpu, mx, 1, in, NULL, &r2), CUSCI_OK, "max of 2^22 + 3 elements (no identity)");
  if (r1 && r2) {
    float g1, g2;
    cusci_array_to_host(gpu, r1, &g1, 4);
    cusci_array_to_host(gpu, r2, &g2, 4);
    is_double(g1, sqrt(want), 1e-5 * sqrt(want), "  the norm");
    is_double(g2, (float)wm, 0, "  the max");
  }
  cusci_array_release(r1);
  cusci_array_release(r2);
  cusci_array_release(xb);
  free(hb);

  int64_t zero[2] = {0, 3};
  cusci_array *e = NULL, *re = NULL;
  cusci_array_empty(gpu, 2, zero, CUSCI_FLOAT32, &e);
  cusci_operand ie[1] = {cusci_operand_array(e)};
  cusci_reduce_opts ax0 = {.naxes = 1, .axes = (int[]){0}};
  is_int(cusci_reduction_kernel_call(gpu, l2, 1, ie, &ax0, &re), CUSCI_OK, "an empty reduction with identity");
  if (re) {
    float g[3];
    cusci_array_to_host(gpu, re, g, sizeof g);
    ok(g[0] == 0 && g[1] == 0 && g[2] == 0, "  is post_map(identity) = 0");
  }
  cusci_array_release(re);
  re = NULL;
  is_int(cusci_reduction_kernel_call(gpu, mx, 1, ie, &ax0, &re), CUSCI_ERR_VALUE, "an empty reduction without identity");
  cusci_array_release(e);
  cusci_reduction_kernel_destroy(ss);
  cusci_reduction_kernel_destroy(l2);
  cusci_reduction_kernel_destroy(mx);
}

/* ---------------------------------------------------------- disk cache */

static void test_disk_cache(void)
{
  char dir[] = "/tmp/cusci-rtc-gpu-XXXXXX";
  if (!mkdtemp(dir)) {
    skip(4, "no temporary directory");
    return;
  }
  setenv("CUSCI_CACHE_DIR", dir, 1);
  const char *src = "extern \"C\" __global__ void fill7(int *p, int n)\n"
                    "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 7 * i + 2385; }\n";
  cusci_raw_kernel *k = NULL;
  cusci_kernel_cache_stats s0, s1, s2;
  cusci_kernel_cache_get_stats(&s0);
  is_int(cusci_raw_kernel_create(gpu, src, "fill7", NULL, &k), CUSCI_OK, "disk cache: first context compiles");
  cusci_kernel_cache_get_stats(&s1);
  is_int(s1.disk_writes - s0.disk_writes, 1, "  and writes the file");
  cusci_raw_kernel_destroy(k);
  cusci_kernel_cache_clear_memory();

  cusci_ctx *second = NULL;
  cusci_ctx_create(0, &second);
  k = NULL;
  is_int(cusci_raw_kernel_create(second, src, "fill7", NULL, &k), CUSCI_OK, "second context: the kernel loads");
  cusci_kernel_cache_get_stats(&s2);
  ok(s2.disk_hits - s1.disk_hits == 1 && s2.compiles == s1.compiles, "  from the disk cache, without NVRTC");
  int64_t n = 1000;
  cusci_array *p = NULL;
  cusci_array_empty(second, 1, &n, CUSCI_INT32, &p);
  cusci_operand a[2] = {cusci_operand_array(p), cusci_operand_scalar(CUSCI_INT32, &(int32_t){1000})};
  cusci_raw_kernel_launch(second, k, (unsigned[3]){8, 1, 1}, (unsigned[3]){128, 1, 1}, 0, 2, a);
  int32_t *g = tk_to_host(second, p);
  int bad = 0;
  for (int i = 0; i < 1000; i++)
    bad += g[i] != 7 * i + 2385;
  is_int(bad, 0, "  and computes");
  free(g);
  cusci_array_release(p);
  cusci_raw_kernel_destroy(k);
  cusci_ctx_destroy(second);
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[600];
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  if (d)
    closedir(d);
  rmdir(dir);
}

int main(void)
{
  gpu = tk_gpu_ctx_or_skip();
  char dir[] = "/tmp/cusci-rtc-gpu-main-XXXXXX";
  if (mkdtemp(dir))
    setenv("CUSCI_CACHE_DIR", dir, 1);
  test_raw_kernel();
  test_raw_module();
  test_elementwise();
  test_reduction();
  test_disk_cache();
  cusci_ctx_destroy(gpu);
  /* The first directory's files. */
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[600];
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  if (d)
    closedir(d);
  rmdir(dir);
  return done_testing();
}
