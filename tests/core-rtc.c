/*
 * tests/core-rtc.c: users' own kernels, the parts that need no GPU:
 * parameter lists and type binding, the generated source (compiled by
 * NVRTC for sm_90, which needs no device), compile errors and their log,
 * the compiled-code cache (keys, atomic files, corrupt and truncated files
 * rejected and rewritten, the directory's environment variables), and
 * CUSCI_ERR_NOT_SUPPORTED on a host context.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/testkit.h"

static cusci_ctx *host;
static char dir[256];
static const cusci_kernel_opts sm90 = {.arch = 90};

static cusci_kernel_cache_stats stats(void)
{
  cusci_kernel_cache_stats s;
  cusci_kernel_cache_get_stats(&s);
  return s;
}

static cusci_array *host_array(int ndim, const int64_t *shape, cusci_dtype dt)
{
  cusci_array *a = NULL;
  if (cusci_array_zeros(host, ndim, shape, dt, &a) != CUSCI_OK) {
    printf("Bail out! no host array\n");
    exit(1);
  }
  return a;
}

/* -------------------------------------------------- parameter lists */

static void test_params(void)
{
  cusci_elementwise_kernel *k = NULL;
  cusci_status st = cusci_elementwise_kernel_create(host, "T x, T y", "T z", "z = x + y", "add2", NULL, &k);
  is_int(st, CUSCI_OK, "elementwise: T x, T y -> T z parses on a host context");
  is_int(cusci_elementwise_kernel_nin(k), 2, "elementwise: two inputs");
  is_int(cusci_elementwise_kernel_nout(k), 1, "elementwise: one output");
  cusci_elementwise_kernel_destroy(k);

  k = NULL;
  st = cusci_elementwise_kernel_create(host, " raw float32 a ,int64 n,U s ", "raw float32 b", "b[i] = a[i]", NULL,
                                       NULL, &k);
  is_int(st, CUSCI_OK, "elementwise: raw, dtype names, spaces");
  is_int(cusci_elementwise_kernel_nin(k), 3, "elementwise: three inputs");
  cusci_elementwise_kernel_destroy(k);

  static const struct {
    const char *in, *out, *op, *name;
    cusci_status want;
    const char *what;
  } bad[] = {
    {"T", "T z", "z = 1", NULL, CUSCI_ERR_INVALID_ARGUMENT, "a parameter without a name"},
    {"T x,", "T z", "z = x", NULL, CUSCI_ERR_INVALID_ARGUMENT, "an empty parameter after a comma"},
    {"float33 x", "T z", "z = x", NULL, CUSCI_ERR_DTYPE, "an unknown type"},
    {"float x", "T z", "z = x", NULL, CUSCI_ERR_DTYPE, "a C type name instead of a dtype"},
    {"TT x", "T z", "z = x", NULL, CUSCI_ERR_DTYPE, "a two-letter placeholder"},
    {"const T x", "T z", "z = x", NULL, CUSCI_ERR_INVALID_ARGUMENT, "an unknown keyword"},
    {"T x, T x", "T z", "z = x", NULL, CUSCI_ERR_INVALID_ARGUMENT, "a name used twice"},
    {"T x", "T x", "x = x", NULL, CUSCI_ERR_INVALID_ARGUMENT, "an input and an output of one name"},
    {"T i", "T z", "z = i", NULL, CUSCI_ERR_INVALID_ARGUMENT, "the reserved name i"},
    {"T _ind", "T z", "z = 1", NULL, CUSCI_ERR_INVALID_ARGUMENT, "the reserved name _ind"},
    {"T 2x", "T z", "z = 1", NULL, CUSCI_ERR_INVALID_ARGUMENT, "a name that is not an identifier"},
    {"T x", "", "x", NULL, CUSCI_ERR_INVALID_ARGUMENT, "no output"},
    {"T x", "T z", "  \n", NULL, CUSCI_ERR_INVALID_ARGUMENT, "an empty operation"},
    {"T x", "T z", "z = x", "my-kernel", CUSCI_ERR_INVALID_ARGUMENT, "a kernel name that is not an identifier"},
  };
  for (size_t t = 0; t < sizeof bad / sizeof *bad; t++) {
    k = NULL;
    st = cusci_elementwise_kernel_create(host, bad[t].in, bad[t].out, bad[t].op, bad[t].name, NULL, &k);
    char name[160];
    snprintf(name, sizeof name, "elementwise: %s is %s", bad[t].what, cusci_status_name(bad[t].want));
    if (!is_int(st, bad[t].want, name))
      cusci_elementwise_kernel_destroy(k);
    else
      ok(strstr(cusci_ctx_last_error(host), "cusci_elementwise_kernel_create") != NULL, "  message names the function: %s",
         cusci_ctx_last_error(host));
  }
  is_int(cusci_elementwise_kernel_create(host, "T x", "T z", NULL, NULL, NULL, &k), CUSCI_ERR_NULL_POINTER,
         "elementwise: NULL operation");
  is_int(cusci_elementwise_kernel_create(host, "T x", "T z", "z = x", NULL, NULL, NULL), CUSCI_ERR_NULL_POINTER,
         "elementwise: NULL out");
  is_int(cusci_elementwise_kernel_create(NULL, "T x", "T z", "z = x", NULL, NULL, &k), CUSCI_ERR_NULL_POINTER,
         "elementwise: NULL ctx");
  cusci_kernel_opts neg = {.n_options = -1};
  is_int(cusci_elementwise_kernel_create(host, "T x", "T z", "z = x", NULL, &neg, &k), CUSCI_ERR_INVALID_ARGUMENT,
         "elementwise: n_options < 0");

  cusci_reduction_kernel *r = NULL;
  st = cusci_reduction_kernel_create(host, "T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2", NULL, &r);
  is_int(st, CUSCI_OK, "reduction: l2 norm parses");
  cusci_reduction_kernel_destroy(r);
  is_int(cusci_reduction_kernel_create(host, "raw T x", "T y", "x", "a + b", NULL, "0", NULL, NULL, &r),
         CUSCI_ERR_INVALID_ARGUMENT, "reduction: raw is refused");
  is_int(cusci_reduction_kernel_create(host, "T x", "T y, T w", "x", "a + b", NULL, "0", NULL, NULL, &r),
         CUSCI_ERR_INVALID_ARGUMENT, "reduction: two outputs are refused");
  is_int(cusci_reduction_kernel_create(host, "T x", "T a", "x", "a + b", NULL, "0", NULL, NULL, &r),
         CUSCI_ERR_INVALID_ARGUMENT, "reduction: an output named a is refused");
  is_int(cusci_reduction_kernel_create(host, "T x", "T y", " ", "a + b", NULL, "0", NULL, NULL, &r),
         CUSCI_ERR_INVALID_ARGUMENT, "reduction: an empty map_expr");
  cusci_kernel_opts rt = {.reduce_type = "double"};
  is_int(cusci_reduction_kernel_create(host, "T x", "T y", "x", "a + b", NULL, "0", NULL, &rt, &r), CUSCI_ERR_DTYPE,
         "reduction: reduce_type must be a dtype name or a placeholder");
}

/* ------------------------------------------------------------ binding */

static cusci_status ew_source(cusci_elementwise_kernel *k, int nin, const cusci_operand *in, cusci_array *out0,
                              char **src)
{
  cusci_array *outs[1] = {out0};
  return cusci_elementwise_kernel_source(host, k, nin, in, 1, outs, src);
}

static void test_binding(void)
{
  cusci_elementwise_kernel *k = NULL;
  cusci_elementwise_kernel_create(host, "T x, T y", "T z", "z = x * y + 1", "fma1", NULL, &k);
  int64_t s31[2] = {3, 1}, s4[1] = {4}, s3[1] = {3}, s34[2] = {3, 4};
  cusci_array *a = host_array(2, s31, CUSCI_FLOAT32), *b = host_array(1, s4, CUSCI_FLOAT32);
  cusci_array *c = host_array(1, s4, CUSCI_FLOAT64), *d = host_array(1, s3, CUSCI_FLOAT32);
  cusci_array *o34 = host_array(2, s34, CUSCI_FLOAT32), *o4 = host_array(1, s4, CUSCI_FLOAT32);
  cusci_array *i8 = host_array(1, s4, CUSCI_INT8);
  char *src = NULL;
  cusci_operand ab[2] = {cusci_operand_array(a), cusci_operand_array(b)};
  is_int(ew_source(k, 2, ab, NULL, &src), CUSCI_OK, "binding: (3,1) float32 with (4,) float32");
  ok(src && strstr(src, "typedef float T;") && strstr(src, "extern \"C\" __global__ void fma1("),
     "binding: T is float in the source");
  free(src);
  src = NULL;
  is_int(ew_source(k, 2, ab, o34, &src), CUSCI_OK, "binding: a given output of the broadcast shape");
  free(src);
  is_int(ew_source(k, 2, ab, o4, &src), CUSCI_ERR_SHAPE, "binding: a given output of another shape");
  cusci_operand ac[2] = {cusci_operand_array(a), cusci_operand_array(c)};
  is_int(ew_source(k, 2, ac, NULL, &src), CUSCI_ERR_DTYPE, "binding: T bound to float32 and float64");
  ok(strstr(cusci_ctx_last_error(host), "float64") != NULL, "  message: %s", cusci_ctx_last_error(host));
  cusci_operand bd[2] = {cusci_operand_array(b), cusci_operand_array(d)};
  is_int(ew_source(k, 2, bd, NULL, &src), CUSCI_ERR_BROADCAST, "binding: (4,) and (3,) do not broadcast");
  is_int(cusci_elementwise_kernel_source(host, k, 1, ab, 1, (cusci_array *[1]){NULL}, &src),
         CUSCI_ERR_INVALID_ARGUMENT, "binding: one input for two");
  cusci_operand two_scalars[2] = {cusci_operand_float(1.5), cusci_operand_int(2)};
  is_int(ew_source(k, 2, two_scalars, NULL, &src), CUSCI_ERR_SHAPE, "binding: no array to take the shape from");
  cusci_operand big[2] = {cusci_operand_array(i8), cusci_operand_int(300)};
  is_int(ew_source(k, 2, big, NULL, &src), CUSCI_ERR_OVERFLOW, "binding: Python int 300 for an int8 T");
  cusci_operand weak[2] = {cusci_operand_array(i8), cusci_operand_int(-7)};
  is_int(ew_source(k, 2, weak, NULL, &src), CUSCI_OK, "binding: Python int -7 takes the int8 T");
  ok(src && strstr(src, "typedef signed char T;") && strstr(src, "const signed char y,"),
     "binding: the scalar is passed by value as int8");
  free(src);
  src = NULL;
  cusci_operand none[2] = {cusci_operand_array(a), cusci_operand_none()};
  is_int(ew_source(k, 2, none, NULL, &src), CUSCI_ERR_NULL_POINTER, "binding: an operand that is nothing");
  cusci_elementwise_kernel_destroy(k);

  /* Fixed types, unbound outputs, raw parameters. */
  cusci_elementwise_kernel_create(host, "float32 x, raw T r", "U z", "z = x + r[0]", NULL, NULL, &k);
  cusci_operand fi[2] = {cusci_operand_array(i8), cusci_operand_array(b)};
  is_int(ew_source(k, 2, fi, NULL, &src), CUSCI_ERR_DTYPE, "binding: int8 for a float32 parameter");
  cusci_operand fb[2] = {cusci_operand_array(b), cusci_operand_array(d)};
  is_int(ew_source(k, 2, fb, NULL, &src), CUSCI_ERR_DTYPE, "binding: an output placeholder nothing binds");
  ok(strstr(cusci_ctx_last_error(host), "give the output") != NULL, "  message: %s", cusci_ctx_last_error(host));
  is_int(ew_source(k, 2, fb, c, &src), CUSCI_OK, "binding: a given float64 output binds U; raw (3,) does not broadcast");
  ok(src && strstr(src, "typedef double U;") && strstr(src, "_cusci_raw<float> r"), "binding: U double, r raw");
  free(src);
  src = NULL;
  cusci_operand fs[2] = {cusci_operand_array(b), cusci_operand_float(2.0)};
  is_int(ew_source(k, 2, fs, c, &src), CUSCI_ERR_DTYPE, "binding: a scalar for a raw parameter");
  cusci_elementwise_kernel_destroy(k);

  cusci_array_release(a);
  cusci_array_release(b);
  cusci_array_release(c);
  cusci_array_release(d);
  cusci_array_release(o34);
  cusci_array_release(o4);
  cusci_array_release(i8);
}

/* ------------------------------------------------ generated source */

static bool compiles(const char *src, const char *what)
{
  cusci_raw_module *m = NULL;
  cusci_status st = cusci_raw_module_create(host, src, &sm90, &m);
  if (st != CUSCI_OK)
    diag("%s: %s", what, cusci_ctx_last_error(host));
  cusci_raw_module_destroy(m);
  return st == CUSCI_OK;
}

static void test_codegen(void)
{
  static const cusci_dtype dts[] = {CUSCI_BOOL,    CUSCI_INT8,    CUSCI_UINT16,    CUSCI_INT32,     CUSCI_INT64,
                                    CUSCI_UINT64,  CUSCI_FLOAT16, CUSCI_FLOAT32,   CUSCI_FLOAT64,   CUSCI_COMPLEX64,
                                    CUSCI_COMPLEX128};
  cusci_elementwise_kernel *k = NULL;
  cusci_elementwise_kernel_create(host, "T x, T y, raw T r", "T z", "z = x * y + r[i % r.size()] - x", "ew", NULL, &k);
  int64_t s5[1] = {5};
  for (size_t t = 0; t < sizeof dts / sizeof *dts; t++) {
    if (dts[t] == CUSCI_BOOL)
      continue; /* bool arithmetic is not what this kernel does */
    cusci_array *x = host_array(1, s5, dts[t]);
    cusci_operand in[3] = {cusci_operand_array(x), cusci_operand_int(3), cusci_operand_array(x)};
    char *src = NULL;
    cusci_status st = ew_source(k, 3, in, NULL, &src);
    char what[96];
    snprintf(what, sizeof what, "codegen: elementwise of %s with a scalar and a raw array compiles for sm_90",
             cusci_dtype_name(dts[t]));
    ok(st == CUSCI_OK && compiles(src, what), "%s", what);
    free(src);
    cusci_array_release(x);
  }
  cusci_elementwise_kernel_destroy(k);

  cusci_elementwise_kernel_create(host, "bool p, T x", "T z, bool q", "z = p ? x : -x; q = !p", "sel",
                                  &(cusci_kernel_opts){.preamble = "__device__ int twice(int v) { return 2 * v; }",
                                                       .loop_prep = "int unused = twice(1); (void)unused;",
                                                       .after_loop = "(void)0;"},
                                  &k);
  cusci_array *p = host_array(1, s5, CUSCI_BOOL), *x = host_array(1, s5, CUSCI_FLOAT64);
  cusci_operand in[2] = {cusci_operand_array(p), cusci_operand_array(x)};
  char *src = NULL;
  cusci_array *outs[2] = {NULL, NULL};
  is_int(cusci_elementwise_kernel_source(host, k, 2, in, 2, outs, &src), CUSCI_OK, "codegen: two outputs");
  ok(src && compiles(src, "two outputs, preamble, loop_prep, after_loop"),
     "codegen: two outputs, preamble, loop_prep and after_loop compile");
  free(src);
  cusci_elementwise_kernel_destroy(k);
  cusci_array_release(p);

  cusci_reduction_kernel *r = NULL;
  cusci_reduction_kernel_create(host, "T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm", NULL, &r);
  src = NULL;
  cusci_operand rx[1] = {cusci_operand_array(x)};
  cusci_reduce_opts ax = {.naxes = 1, .axes = (int[]){0}};
  is_int(cusci_reduction_kernel_source(host, r, 1, rx, &ax, NULL, &src), CUSCI_OK, "codegen: l2norm source");
  ok(src && compiles(src, "l2norm") && strstr(src, "l2norm_final"), "codegen: l2norm and l2norm_final compile");
  free(src);
  cusci_reduction_kernel_destroy(r);

  cusci_reduction_kernel_create(host, "T x, float64 w", "float64 y", "w * x", "max(a, b)", NULL, NULL, "wmax",
                                &(cusci_kernel_opts){.reduce_type = "float64"}, &r);
  cusci_array *f32 = host_array(1, s5, CUSCI_FLOAT32);
  cusci_operand rw[2] = {cusci_operand_array(f32), cusci_operand_float(0.5)};
  src = NULL;
  is_int(cusci_reduction_kernel_source(host, r, 2, rw, NULL, NULL, &src), CUSCI_OK,
         "codegen: a reduction without identity, with a scalar");
  ok(src && compiles(src, "wmax"), "codegen: the reduction without identity compiles");
  free(src);
  int64_t zero = 0;
  cusci_array *empty = host_array(1, &zero, CUSCI_FLOAT32);
  cusci_operand re[2] = {cusci_operand_array(empty), cusci_operand_float(0.5)};
  is_int(cusci_reduction_kernel_source(host, r, 2, re, NULL, NULL, &src), CUSCI_ERR_VALUE,
         "reduction: nothing to reduce and no identity is CUSCI_ERR_VALUE");
  cusci_reduce_opts bad = {.naxes = 1, .axes = (int[]){1}};
  is_int(cusci_reduction_kernel_source(host, r, 2, rw, &bad, NULL, &src), CUSCI_ERR_AXIS,
         "reduction: axis 1 of a 1-d array");
  cusci_reduce_opts rep = {.naxes = 2, .axes = (int[]){0, -1}};
  is_int(cusci_reduction_kernel_source(host, r, 2, rw, &rep, NULL, &src), CUSCI_ERR_AXIS,
         "reduction: axis 0 and -1 repeat");
  cusci_array *wrong = host_array(1, s5, CUSCI_FLOAT64);
  is_int(cusci_reduction_kernel_source(host, r, 2, rw, NULL, &wrong, &src), CUSCI_ERR_SHAPE,
         "reduction: an out of shape (5,) for a 0-d result");
  cusci_reduction_kernel_destroy(r);
  cusci_array_release(f32);
  cusci_array_release(empty);
  cusci_array_release(wrong);
  cusci_array_release(x);
}

/* ------------------------------------------- compile errors, host ctx */

static const char good_code[] = "extern \"C\" __global__ void scale(float *x, float s, long long n)\n"
                                "{\n  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
                                "  if (i < n) x[i] *= s;\n}\n";

static void test_compile(void)
{
  cusci_raw_module *m = NULL;
  cusci_status st = cusci_raw_module_create(host, good_code, NULL, &m);
  is_int(st, CUSCI_ERR_NOT_SUPPORTED, "host context, no arch: raw module is CUSCI_ERR_NOT_SUPPORTED");
  ok(strstr(cusci_ctx_last_error(host), "host context") != NULL, "  message: %s", cusci_ctx_last_error(host));
  cusci_raw_kernel *k = NULL;
  is_int(cusci_raw_kernel_create(host, good_code, "scale", &sm90, &k), CUSCI_ERR_NOT_SUPPORTED,
         "host context: raw kernel is CUSCI_ERR_NOT_SUPPORTED");

  st = cusci_raw_module_create(host, good_code, &sm90, &m);
  is_int(st, CUSCI_OK, "host context with arch 90: NVRTC compiles");
  is_int(cusci_raw_module_arch(m), 90, "the module's arch");
  is_int(cusci_raw_module_get_kernel(host, m, "scale", &k), CUSCI_ERR_NOT_SUPPORTED,
         "host context: getting a kernel is CUSCI_ERR_NOT_SUPPORTED");
  cusci_raw_module_destroy(m);

  const char *bad = "extern \"C\" __global__ void broken(float *x) { x[0] = undefined_thing_42; }\n";
  m = NULL;
  st = cusci_raw_module_create(host, bad, &sm90, &m);
  is_int(st, CUSCI_ERR_COMPILE, "a compile error is CUSCI_ERR_COMPILE");
  const char *msg = cusci_ctx_last_error(host);
  ok(strstr(msg, "undefined_thing_42") && strstr(msg, "error"), "  NVRTC's log is in the message");
  if (!strstr(msg, "undefined_thing_42"))
    diag("message: %s", msg);
  ok(m == NULL, "  no module");

  const char *opts[] = {"-DSCALE=2.5f", "--no-such-option"};
  st = cusci_raw_module_create(host, good_code, &(cusci_kernel_opts){.n_options = 2, .options = opts, .arch = 90}, &m);
  is_int(st, CUSCI_ERR_COMPILE, "an unknown NVRTC option is CUSCI_ERR_COMPILE");
  const char *nullopt[] = {NULL};
  is_int(cusci_raw_module_create(host, good_code, &(cusci_kernel_opts){.n_options = 1, .options = nullopt, .arch = 90},
                                 &m),
         CUSCI_ERR_NULL_POINTER, "a NULL option");
  is_int(cusci_raw_module_create(host, good_code, &(cusci_kernel_opts){.arch = -3}, &m), CUSCI_ERR_INVALID_ARGUMENT,
         "a negative arch");
  is_int(cusci_raw_module_create(host, NULL, &sm90, &m), CUSCI_ERR_NULL_POINTER, "NULL code");

  /* Calls of the generated kernels need a GPU. */
  cusci_elementwise_kernel *e = NULL;
  cusci_elementwise_kernel_create(host, "T x", "T z", "z = x", NULL, NULL, &e);
  int64_t s3[1] = {3};
  cusci_array *x = host_array(1, s3, CUSCI_FLOAT32), *z = NULL;
  cusci_operand in[1] = {cusci_operand_array(x)};
  is_int(cusci_elementwise_kernel_call(host, e, 1, in, 1, &z), CUSCI_ERR_NOT_SUPPORTED,
         "host context: an elementwise call is CUSCI_ERR_NOT_SUPPORTED");
  ok(z == NULL, "  no output made");
  cusci_elementwise_kernel_destroy(e);
  cusci_reduction_kernel *r = NULL;
  cusci_reduction_kernel_create(host, "T x", "T y", "x", "a + b", NULL, "0", NULL, NULL, &r);
  is_int(cusci_reduction_kernel_call(host, r, 1, in, NULL, &z), CUSCI_ERR_NOT_SUPPORTED,
         "host context: a reduction call is CUSCI_ERR_NOT_SUPPORTED");
  cusci_reduction_kernel_destroy(r);
  cusci_array_release(x);
}

/* -------------------------------------------------------------- cache */

static bool exists(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0;
}

static int count_tmp(void)
{
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    n += strncmp(e->d_name, ".tmp", 4) == 0;
  if (d)
    closedir(d);
  return n;
}

static cusci_status compile_code(const char *code)
{
  cusci_raw_module *m = NULL;
  cusci_status st = cusci_raw_module_create(host, code, &sm90, &m);
  cusci_raw_module_destroy(m);
  return st;
}

static void test_cache(void)
{
  char got[512];
  is_int(cusci_kernel_cache_dir(got, sizeof got), CUSCI_OK, "cache dir");
  is_int(strcmp(got, dir), 0, "  is CUSCI_CACHE_DIR");
  is_int(cusci_kernel_cache_dir(got, 3), CUSCI_ERR_BUFFER_TOO_SMALL, "cache dir: a small buffer");

  const char *code = "extern \"C\" __global__ void k(int *p) { p[threadIdx.x] = 7 * threadIdx.x; }\n";
  char f1[64], f2[64], f3[64], f4[64];
  const char *o1[] = {"-DA=1"};
  is_int(cusci_kernel_cache_file(code, 0, NULL, 90, f1, sizeof f1), CUSCI_OK, "cache file name");
  cusci_kernel_cache_file(code, 1, o1, 90, f2, sizeof f2);
  cusci_kernel_cache_file(code, 0, NULL, 80, f3, sizeof f3);
  cusci_kernel_cache_file("extern \"C\" __global__ void k(int *p) { p[threadIdx.x] = 8; }\n", 0, NULL, 90, f4,
                          sizeof f4);
  ok(strcmp(f1, f2) && strcmp(f1, f3) && strcmp(f1, f4) && strcmp(f2, f3),
     "the key changes with the options, the arch and the source");
  char again[64];
  cusci_kernel_cache_file(code, 0, NULL, 90, again, sizeof again);
  is_int(strcmp(f1, again), 0, "the key is the same for the same compilation");
  ok(strlen(f1) == 38 && strcmp(f1 + 32, ".cubin") == 0, "  a 128-bit hash in hex: %s", f1);
  is_int(cusci_kernel_cache_file(code, 0, NULL, 90, again, 8), CUSCI_ERR_BUFFER_TOO_SMALL, "cache file: small buffer");

  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, f1);
  cusci_kernel_cache_stats s0 = stats();
  is_int(compile_code(code), CUSCI_OK, "first compile");
  cusci_kernel_cache_stats s1 = stats();
  is_int(s1.compiles - s0.compiles, 1, "  NVRTC ran once");
  is_int(s1.disk_writes - s0.disk_writes, 1, "  one file written");
  ok(exists(path), "  the file is %s", path);
  is_int(count_tmp(), 0, "  no temporary file is left");

  compile_code(code);
  cusci_kernel_cache_stats s2 = stats();
  is_int(s2.memory_hits - s1.memory_hits, 1, "second compile: a memory hit");
  is_int(s2.compiles, s1.compiles, "  no NVRTC");

  cusci_kernel_cache_clear_memory();
  compile_code(code);
  cusci_kernel_cache_stats s3 = stats();
  is_int(s3.disk_hits - s2.disk_hits, 1, "after clearing memory: a disk hit");
  is_int(s3.compiles, s2.compiles, "  no NVRTC");

  /* Damage the code: one byte flipped at the end. */
  FILE *f = fopen(path, "r+b");
  fseek(f, -5, SEEK_END);
  int ch = fgetc(f);
  fseek(f, -5, SEEK_END);
  fputc(ch ^ 0x5a, f);
  fclose(f);
  cusci_kernel_cache_clear_memory();
  is_int(compile_code(code), CUSCI_OK, "a corrupt file: the compile still succeeds");
  cusci_kernel_cache_stats s4 = stats();
  is_int(s4.disk_rejects - s3.disk_rejects, 1, "  the file is rejected (checksum)");
  is_int(s4.compiles - s3.compiles, 1, "  NVRTC ran");
  is_int(s4.disk_writes - s3.disk_writes, 1, "  the file is rewritten");
  cusci_kernel_cache_clear_memory();
  compile_code(code);
  is_int(stats().disk_hits - s4.disk_hits, 1, "  the rewritten file is a hit");

  /* Truncate. */
  struct stat sb;
  stat(path, &sb);
  if (truncate(path, sb.st_size / 2) != 0)
    diag("truncate failed");
  cusci_kernel_cache_clear_memory();
  cusci_kernel_cache_stats s5 = stats();
  is_int(compile_code(code), CUSCI_OK, "a truncated file: the compile succeeds");
  cusci_kernel_cache_stats s6 = stats();
  is_int(s6.disk_rejects - s5.disk_rejects, 1, "  the file is rejected (length)");
  is_int(s6.compiles - s5.compiles, 1, "  NVRTC ran and the file is rewritten");
  stat(path, &sb);
  ok(sb.st_size > 40, "  the file is whole again (%lld bytes)", (long long)sb.st_size);

  /* A valid file of another key under this key's name. */
  const char *other = "extern \"C\" __global__ void k(int *p) { p[threadIdx.x] = 8; }\n";
  compile_code(other);
  char path4[512];
  snprintf(path4, sizeof path4, "%s/%s", dir, f4);
  ok(rename(path4, path) == 0, "another key's file put under this key's name");
  cusci_kernel_cache_clear_memory();
  cusci_kernel_cache_stats s7 = stats();
  compile_code(code);
  cusci_kernel_cache_stats s8 = stats();
  is_int(s8.disk_rejects - s7.disk_rejects, 1, "  rejected: the key in the header differs");
  is_int(s8.compiles - s7.compiles, 1, "  compiled again");

  /* A file too short for the header, and garbage. */
  f = fopen(path, "wb");
  fputs("CUSCIRTC", f);
  fclose(f);
  cusci_kernel_cache_clear_memory();
  cusci_kernel_cache_stats s9 = stats();
  is_int(compile_code(code), CUSCI_OK, "an 8-byte file");
  is_int(stats().disk_rejects - s9.disk_rejects, 1, "  rejected");
  is_int(count_tmp(), 0, "no temporary file is left after all writes");

  /* A cache directory that cannot be made costs only the file. */
  char blocked[300];
  snprintf(blocked, sizeof blocked, "%s/%s", dir, f1); /* a file, not a directory */
  setenv("CUSCI_CACHE_DIR", blocked, 1);
  cusci_kernel_cache_clear_memory();
  cusci_kernel_cache_stats s10 = stats();
  is_int(compile_code(code), CUSCI_OK, "an unusable cache directory: the compile succeeds");
  is_int(stats().disk_writes, s10.disk_writes, "  nothing written");

  /* The default directories. */
  unsetenv("CUSCI_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
  cusci_kernel_cache_dir(got, sizeof got);
  is_int(strcmp(got, "/tmp/xdg-test/cusci"), 0, "XDG_CACHE_HOME/cusci without CUSCI_CACHE_DIR");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/tmp/home-test", 1);
  cusci_kernel_cache_dir(got, sizeof got);
  is_int(strcmp(got, "/tmp/home-test/.cache/cusci"), 0, "HOME/.cache/cusci without either");
  setenv("CUSCI_CACHE_DIR", dir, 1);

  cusci_kernel_cache_stats st;
  is_int(cusci_kernel_cache_get_stats(NULL), CUSCI_ERR_NULL_POINTER, "stats: NULL");
  is_int(cusci_kernel_cache_get_stats(&st), CUSCI_OK, "stats");
}

static void remove_dir(void)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  char p[600];
  while (d && (e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    unlink(p);
  }
  if (d)
    closedir(d);
  rmdir(dir);
}

int main(void)
{
  host = tk_host_ctx();
  int major = 0;
  if (cusci_kernel_cache_file("x", 0, NULL, 90, (char[64]){0}, 64) == CUSCI_ERR_NOT_SUPPORTED) {
    cusci_raw_module *m = NULL;
    is_int(cusci_raw_module_create(host, good_code, &sm90, &m), CUSCI_ERR_NOT_SUPPORTED,
           "a build without NVRTC: CUSCI_ERR_NOT_SUPPORTED");
    test_params();
    cusci_ctx_destroy(host);
    return done_testing();
  }
  (void)major;
  snprintf(dir, sizeof dir, "/tmp/cusci-rtc-test-XXXXXX");
  if (!mkdtemp(dir)) {
    printf("Bail out! no temporary directory\n");
    return 1;
  }
  /* A subdirectory that does not exist yet: the cache makes it. */
  strcat(dir, "/cache");
  setenv("CUSCI_CACHE_DIR", dir, 1);
  test_params();
  test_binding();
  test_codegen();
  test_compile();
  test_cache();
  remove_dir();
  char parent[256];
  snprintf(parent, sizeof parent, "%s", dir);
  *strrchr(parent, '/') = '\0';
  rmdir(parent);
  cusci_ctx_destroy(host);
  return done_testing();
}
