/*
 * tests/core-npy.c: .npy and .npz against files NumPy wrote (every dtype,
 * Fortran order, big-endian, versions 2.0 and 3.0, 0-d, empty, savez and
 * savez_compressed), round trips of cusci's own files, and hostile input.
 * With CUSCI_NPY_OUT set, the files cusci writes are left in that folder
 * for tests/check_npy_interop.py to read with NumPy.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/testkit.h"

static cusci_ctx *ctx;

static int same(const cusci_array *a, const cusci_array *b)
{
  if (!a || !b || cusci_array_dtype(a) != cusci_array_dtype(b) || cusci_array_ndim(a) != cusci_array_ndim(b))
    return 0;
  for (int i = 0; i < cusci_array_ndim(a); i++)
    if (cusci_array_shape(a)[i] != cusci_array_shape(b)[i])
      return 0;
  void *x = tk_to_host(ctx, a), *y = tk_to_host(ctx, b);
  int64_t bad = tk_first_mismatch(cusci_array_dtype(a), x, y, NULL, cusci_array_size(a));
  free(x);
  free(y);
  return bad < 0;
}

/* Read a fixture file into memory. */
static unsigned char *slurp(const char *name, size_t *len)
{
  const char *dir = getenv("CUSCI_FIXTURES");
  char path[1024];
  snprintf(path, sizeof path, "%s/npy/%s", dir ? dir : "tests/fixtures", name);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)n + 1);
  *len = fread(b, 1, (size_t)n, f);
  fclose(f);
  return b;
}

static void numpy_files(void)
{
  /* Every dtype, C order: values against float64 2.385 * i + 0.5 cast as NumPy casts. */
  cusci_array *f64 = tk_fixture(ctx, "npy", "all_float64", false);
  int good = f64 != NULL;
  for (int d = 0; d < 14 && good; d++) {
    char name[64];
    snprintf(name, sizeof name, "all_%s", cusci_dtype_name((cusci_dtype)d));
    cusci_array *a = tk_fixture(ctx, "npy", name, false), *want = NULL;
    if (cusci_dtype_kind((cusci_dtype)d) != 'c') {
      cusci_array_astype(ctx, f64, (cusci_dtype)d, true, &want);
      good &= same(a, want);
    } else {
      good &= a && cusci_array_dtype(a) == (cusci_dtype)d && cusci_array_size(a) == 12;
    }
    cusci_array_release(a);
    cusci_array_release(want);
  }
  ok(good, "all 14 dtypes load with NumPy's values");
  cusci_array_release(f64);

  static const char *const twins[][2] = {
    {"fortran_f64", "fortran_f64_expect"}, {"big_i32", "big_i32_expect"}, {"big_c128", "big_c128_expect"},
    {"big_f16", "big_f16_expect"}, {"big_u64", "big_u64_expect"}, {"version2", "version_expect"},
    {"version3", "version_expect"},
  };
  for (size_t i = 0; i < sizeof twins / sizeof *twins; i++) {
    cusci_array *a = tk_fixture(ctx, "npy", twins[i][0], false), *b = tk_fixture(ctx, "npy", twins[i][1], false);
    ok(same(a, b), "%s loads with the values of its plain twin", twins[i][0]);
    if (i == 0)
      ok(a && !cusci_array_is_c_contiguous(a) && cusci_array_strides(a)[0] == 1,
         "a Fortran-order file loads as a Fortran-ordered view");
    cusci_array_release(a);
    cusci_array_release(b);
  }
  cusci_array *s = tk_fixture(ctx, "npy", "scalar", false), *e = tk_fixture(ctx, "npy", "empty", false);
  double sv = 0;
  ok(s && cusci_array_ndim(s) == 0 && cusci_array_to_host(ctx, s, &sv, 8) == CUSCI_OK && sv == 2.385, "a 0-d array");
  ok(e && cusci_array_ndim(e) == 2 && cusci_array_shape(e)[0] == 0 && cusci_array_shape(e)[1] == 5 &&
         cusci_array_dtype(e) == CUSCI_INT16,
     "an empty (0, 5) int16 array");
  cusci_array_release(s);
  cusci_array_release(e);

  static const char *const refused[] = {"object", "structured", "datetime"};
  for (int i = 0; i < 3; i++) {
    cusci_array *a = tk_fixture(ctx, "npy", refused[i], true);
    ok(a == NULL && strstr(cusci_ctx_last_error(ctx), "cusci_npy_load:"), "%s arrays are refused: %s", refused[i],
       cusci_ctx_last_error(ctx));
    cusci_array_release(a);
  }

  /* .npz from numpy.savez and numpy.savez_compressed. */
  const char *dir = getenv("CUSCI_FIXTURES");
  cusci_array *first = tk_fixture(ctx, "npy", "npz_first", false), *second = tk_fixture(ctx, "npy", "npz_second", false);
  static const char *const archives[] = {"plain.npz", "compressed.npz"};
  for (int i = 0; i < 2; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/npy/%s", dir ? dir : "tests/fixtures", archives[i]);
    cusci_npz *z = NULL;
    cusci_status st = cusci_npz_load(ctx, path, &z);
#ifndef CUSCI_TEST_NO_ZLIB
    ok(st == CUSCI_OK && cusci_npz_count(z) == 2 && !strcmp(cusci_npz_name(z, 0), "first") &&
           same(cusci_npz_get(z, "first"), first) && same(cusci_npz_get(z, "second"), second) &&
           cusci_npz_get(z, "third") == NULL && cusci_npz_array(z, 2) == NULL,
       "%s from NumPy loads (%s)", archives[i], st == CUSCI_OK ? "ok" : cusci_ctx_last_error(ctx));
#endif
    cusci_npz_free(z);
  }
  cusci_array_release(first);
  cusci_array_release(second);
}

static void round_trips(void)
{
  const char *keep = getenv("CUSCI_NPY_OUT");
  char dir[512];
  if (keep && *keep)
    snprintf(dir, sizeof dir, "%s", keep);
  else
    snprintf(dir, sizeof dir, "/tmp/cusci-npy-%d", (int)getpid());
  char cmd[600];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  if (system(cmd) != 0)
    diag("cannot make %s", dir);
  uint64_t seed = 42;
  int good = 1;
  const cusci_array *all[14];
  const char *names[14];
  for (int d = 0; d < 14; d++) {
    int64_t shape[3] = {3, 1, 5};
    unsigned char raw[15 * 16];
    for (size_t i = 0; i < sizeof raw; i++)
      raw[i] = (unsigned char)tk_rand(&seed);
    cusci_array *a = NULL, *t = NULL, *b = NULL, *ascii = NULL;
    cusci_array_from_host(ctx, raw, 3, shape, (cusci_dtype)d, &ascii);
    cusci_array_astype(ctx, ascii, (cusci_dtype)d, true, &a); /* bool becomes 0/1 as NumPy stores it */
    cusci_array_transpose(ctx, a, NULL, &t); /* saved from a strided view */
    char path[700];
    snprintf(path, sizeof path, "%s/cusci_%s.npy", dir, cusci_dtype_name((cusci_dtype)d));
    good &= cusci_npy_save(ctx, path, t) == CUSCI_OK && cusci_npy_load(ctx, path, &b) == CUSCI_OK && same(t, b);
    all[d] = t;
    names[d] = cusci_dtype_name((cusci_dtype)d);
    cusci_array_release(ascii);
    cusci_array_release(a);
    cusci_array_release(b);
  }
  ok(good, "save then load gives back every dtype, from strided views");
  for (int compress = 0; compress < 2; compress++) {
    char path[700];
    snprintf(path, sizeof path, "%s/cusci_%s.npz", dir, compress ? "compressed" : "plain");
    cusci_npz *z = NULL;
    cusci_status st = cusci_npz_save(ctx, path, 14, names, all, compress);
    int g = st == CUSCI_OK && cusci_npz_load(ctx, path, &z) == CUSCI_OK && cusci_npz_count(z) == 14;
    for (int d = 0; g && d < 14; d++)
      g = !strcmp(cusci_npz_name(z, d), names[d]) && same(cusci_npz_array(z, d), all[d]);
    ok(g, "npz_save (%s) then npz_load gives back 14 arrays", compress ? "compressed" : "stored");
    cusci_npz_free(z);
  }
  for (int d = 0; d < 14; d++)
    cusci_array_release((cusci_array *)all[d]);
  if (!(keep && *keep)) {
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
      diag("cannot remove %s", dir);
  }
}

/* Load a buffer that must be refused with `want`. */
static void refuse(const unsigned char *buf, size_t len, cusci_status want, const char *what)
{
  cusci_array *a = NULL;
  cusci_status st = cusci_npy_load_buffer(ctx, buf, len, &a);
  ok(st == want && a == NULL, "%s: %s (%s)", what, cusci_status_name(want), cusci_ctx_last_error(ctx));
  cusci_array_release(a);
}

static void hostile(void)
{
  size_t len = 0;
  unsigned char *good = slurp("all_float64.npy", &len);
  ok(good != NULL, "a good file to damage");
  if (!good)
    return;
  unsigned char *b = malloc(len + 256);
  refuse(good, 5, CUSCI_ERR_FORMAT, "5 bytes");
  refuse(good, len - 1, CUSCI_ERR_FORMAT, "one byte short of its data");
  memcpy(b, good, len);
  b[1] = 'X';
  refuse(b, len, CUSCI_ERR_FORMAT, "wrong magic");
  memcpy(b, good, len);
  b[6] = 9;
  refuse(b, len, CUSCI_ERR_FORMAT, "format version 9");
  memcpy(b, good, len);
  b[8] = 0xff;
  b[9] = 0xff;
  refuse(b, len, CUSCI_ERR_FORMAT, "a header length past the end");
  /* Headers that lie, written by hand. */
  static const char *const headers[] = {
    "{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999, ), }",
    "{'descr': '<f16', 'fortran_order': False, 'shape': (2, ), }",
    "{'descr': '|V8', 'fortran_order': False, 'shape': (2, ), }",
    "{'descr': '|O', 'fortran_order': False, 'shape': (2, ), }",
    "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2, ), }",
    "{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2, ), }",
    "{'descr': '<f8', 'shape': (2, ), }",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (2, -3), }",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }",
    "{'descr': '<f8, 'fortran_order': False, 'shape': (2, ), }",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (2, ",
  };
  for (size_t i = 0; i < sizeof headers / sizeof *headers; i++) {
    size_t hl = strlen(headers[i]);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (unsigned char)(hl & 0xff);
    b[9] = (unsigned char)(hl >> 8);
    memcpy(b + 10, headers[i], hl);
    memset(b + 10 + hl, 0, 32); /* 32 bytes of data: never enough for the lies */
    refuse(b, 10 + hl + 32, CUSCI_ERR_FORMAT, headers[i]);
  }
  free(b);
  free(good);
  cusci_array *a = NULL;
  ok(cusci_npy_load(ctx, "/nonexistent/x.npy", &a) == CUSCI_ERR_IO && strstr(cusci_ctx_last_error(ctx), "No such file"),
     "a missing file: CUSCI_ERR_IO with errno's text");
  ok(cusci_npy_save(ctx, "/nonexistent/dir/x.npy", NULL) == CUSCI_ERR_NULL_POINTER, "save(NULL array)");
  cusci_array *z = NULL;
  cusci_array_zeros(ctx, 1, (const int64_t[]){3}, CUSCI_FLOAT32, &z);
  ok(cusci_npy_save(ctx, "/nonexistent/dir/x.npy", z) == CUSCI_ERR_IO, "save into a missing folder: CUSCI_ERR_IO");
  const char *nm[2] = {"x", "x"};
  const cusci_array *ar[2] = {z, z};
  ok(cusci_npz_save(ctx, "/tmp/never.npz", 2, nm, ar, false) == CUSCI_ERR_INVALID_ARGUMENT &&
         strstr(cusci_ctx_last_error(ctx), "repeats"),
     "npz_save with a repeated name: CUSCI_ERR_INVALID_ARGUMENT");
  cusci_array_release(z);

  /* Damaged archives. */
  size_t zl = 0;
  unsigned char *zz = slurp("plain.npz", &zl);
  if (zz) {
    cusci_npz *out = NULL;
    ok(cusci_npz_load_buffer(ctx, zz, zl - 30, &out) == CUSCI_ERR_FORMAT && !out, "a truncated .npz: CUSCI_ERR_FORMAT");
    unsigned char *dam = malloc(zl);
    memcpy(dam, zz, zl);
    dam[200] ^= 0x55; /* inside the first entry's data */
    ok(cusci_npz_load_buffer(ctx, dam, zl, &out) == CUSCI_ERR_FORMAT && strstr(cusci_ctx_last_error(ctx), "CRC"),
       "a flipped byte fails the CRC-32 check");
    ok(cusci_npz_load_buffer(ctx, "PK\x05\x06", 4, &out) == CUSCI_ERR_FORMAT, "4 bytes are no archive");
    free(dam);
    free(zz);
  }

  /* Inputs the fuzzer once found troublesome stay refused cleanly. */
  const char *dir = getenv("CUSCI_FIXTURES");
  char path[1024];
  int n_reg = 0, reg_ok = 1;
  for (int i = 0; i < 100; i++) {
    snprintf(path, sizeof path, "%s/../fuzz/regress/case%02d", dir ? dir : "tests/fixtures", i);
    FILE *f = fopen(path, "rb");
    if (!f)
      continue;
    unsigned char buf[65536];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    cusci_array *r = NULL;
    cusci_npz *rz = NULL;
    cusci_status s1 = cusci_npy_load_buffer(ctx, buf, n, &r), s2 = cusci_npz_load_buffer(ctx, buf, n, &rz);
    reg_ok &= (s1 == CUSCI_OK || s1 == CUSCI_ERR_FORMAT) && (s2 == CUSCI_OK || s2 == CUSCI_ERR_FORMAT);
    cusci_array_release(r);
    cusci_npz_free(rz);
    n_reg++;
  }
  ok(reg_ok, "%d fuzzer regression inputs load or are refused with CUSCI_ERR_FORMAT", n_reg);
}

int main(void)
{
  ctx = tk_host_ctx();
  numpy_files();
  round_trips();
  hostile();
  cusci_ctx_destroy(ctx);
  return done_testing();
}
