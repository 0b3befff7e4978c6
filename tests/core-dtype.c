/*
 * tests/core-dtype.c: dtype facts, NumPy 2 promotion and casting against
 * tables NumPy produced, status names, version; the kit's dtype questions,
 * lists and dispatch, and cusci_loop_init.
 */
#include <string.h>

#include <cusci/kit/dtypes.h>
#include <cusci/kit/loop.h>

#include "tests/testkit.h"

static const char *const np_names[14] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                         "uint32", "uint64", "float16", "float32", "float64",
                                         "complex64", "complex128"};

/* CUSCI_DISPATCH_SDCZ picks the instance by letter. */
static int which_s(int x) { return 10 + x; }
static int which_d(int x) { return 20 + x; }
static int which_c(int x) { return 30 + x; }
static int which_z(int x) { return 40 + x; }
static int which(cusci_dtype dt, int x) { CUSCI_DISPATCH_SDCZ(dt, -1, which, x) }

/* The kit's dtype questions against core.h's table, for every dtype. */
static void kit_dtypes(void)
{
  int bad = 0;
  for (int d = 0; d < CUSCI_N_DTYPES; d++) {
    char k = cusci_dtype_kind((cusci_dtype)d);
    bad += cusci_kit_itemsize(d) != cusci_dtype_itemsize((cusci_dtype)d);
    bad += cusci_dtype_is_complex(d) != (k == 'c');
    bad += cusci_dtype_is_float(d) != (k == 'f');
    bad += cusci_dtype_is_inexact(d) != (k == 'f' || k == 'c');
    bad += cusci_dtype_is_integer(d) != (k == 'i' || k == 'u');
    bad += cusci_dtype_is_single(d) != (d == CUSCI_FLOAT32 || d == CUSCI_COMPLEX64);
    cusci_dtype r = cusci_dtype_real_of(d);
    bad += k == 'c' ? cusci_dtype_itemsize(r) * 2 != cusci_dtype_itemsize((cusci_dtype)d) || cusci_dtype_kind(r) != 'f' : (int)r != d;
  }
  ok(bad == 0 && CUSCI_N_DTYPES == 14 && cusci_kit_itemsize(99) == 0 && cusci_kit_itemsize(-1) == 0,
     "the kit's itemsize and questions agree with the dtype table for all 14 dtypes (%d differ)", bad);
  ok(cusci_dtype_complex_of(CUSCI_FLOAT32) == CUSCI_COMPLEX64 && cusci_dtype_complex_of(CUSCI_FLOAT16) == CUSCI_COMPLEX64 &&
         cusci_dtype_complex_of(CUSCI_FLOAT64) == CUSCI_COMPLEX128 && cusci_dtype_complex_of(CUSCI_COMPLEX64) == CUSCI_COMPLEX64 &&
         cusci_dtype_complex_of(CUSCI_INT32) == CUSCI_COMPLEX128,
     "complex_of: the complex dtype of a precision");

  /* Each list holds dtypes of its kind whose C type has the dtype's size. */
  int n = 0, wrong = 0;
#define CHECK_(NAME, T, want) n++, wrong += sizeof(T) != cusci_dtype_itemsize(CUSCI_##NAME) || !strchr(want, cusci_dtype_kind(CUSCI_##NAME));
  CUSCI_DTYPES_INTEGER(CHECK_, "iu")
  CUSCI_DTYPES_REAL(CHECK_, "f")
  CUSCI_DTYPES_COMPLEX(CHECK_, "c")
#undef CHECK_
  ok(n == 12 && wrong == 0, "the lists: 8 integers, 2 reals, 2 complex, each of its kind and size (%d wrong)", wrong);
  int m = 0;
#define SDCZ_(NAME, T, R, L, x) m++, wrong += sizeof(T) != cusci_dtype_itemsize(CUSCI_##NAME) || sizeof(R) * (cusci_dtype_is_complex(CUSCI_##NAME) ? 2 : 1) != sizeof(T);
  CUSCI_DTYPES_SDCZ(SDCZ_, 0)
#undef SDCZ_
  ok(m == 4 && wrong == 0, "the SDCZ list: four dtypes, their C and real C types of the right sizes");
  ok(which(CUSCI_FLOAT32, 1) == 11 && which(CUSCI_FLOAT64, 2) == 22 && which(CUSCI_COMPLEX64, 3) == 33 &&
         which(CUSCI_COMPLEX128, 4) == 44 && which(CUSCI_INT32, 5) == -1,
     "CUSCI_DISPATCH_SDCZ calls fn_s, fn_d, fn_c, fn_z, and the fallback for another dtype");

  /* cusci_loop_init merges axes that are contiguous in every operand. */
  cusci_loop l;
  const int64_t shape[3] = {4, 1, 6}, c0[3] = {6, 99, 1}, t0[3] = {1, 99, 4};
  const int64_t *cs[2] = {c0, c0}, *ts[2] = {c0, t0};
  cusci_loop_init(&l, 3, shape, 2, cs);
  ok(l.ndim == 1 && l.size == 24 && l.shape[0] == 24 && cusci_loop_contiguous(&l),
     "a C-contiguous 4x1x6 walk becomes one axis of 24, contiguous");
  cusci_loop_init(&l, 3, shape, 2, ts);
  ok(l.ndim == 2 && l.size == 24 && !cusci_loop_contiguous(&l) && l.stride[1][0] == 1 && l.stride[1][1] == 4,
     "with a transposed operand the extent-1 axis goes and two axes stay");
}

int main(void)
{
  cusci_ctx *ctx = tk_host_ctx();

  /* Names, sizes and kinds. */
  static const size_t sizes[14] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16};
  static const char kinds[] = "biiiiuuuufffcc";
  int good = 1;
  for (int d = 0; d < 14; d++)
    good &= !strcmp(cusci_dtype_name((cusci_dtype)d), np_names[d]) && cusci_dtype_itemsize((cusci_dtype)d) == sizes[d] &&
            cusci_dtype_kind((cusci_dtype)d) == kinds[d] && cusci_dtype_valid((cusci_dtype)d);
  ok(good, "names, itemsizes and kinds of the 14 dtypes are NumPy's");
  ok(!cusci_dtype_valid((cusci_dtype)14) && !cusci_dtype_valid((cusci_dtype)-1) &&
         !strcmp(cusci_dtype_name((cusci_dtype)99), "invalid") && cusci_dtype_itemsize((cusci_dtype)99) == 0,
     "values outside the enum are invalid");

  /* Promotion: every pair against numpy.result_type. */
  cusci_array *promo = tk_fixture(ctx, "dtype", "promotion", false);
  ok(promo != NULL, "promotion fixture loads");
  if (promo) {
    const int32_t *want = cusci_array_data(promo);
    int bad = 0;
    for (int a = 0; a < 14; a++)
      for (int b = 0; b < 14; b++) {
        cusci_dtype r = CUSCI_BOOL, pair[2] = {(cusci_dtype)a, (cusci_dtype)b};
        cusci_status st = cusci_result_type(2, pair, &r);
        if (st != CUSCI_OK || (int)r != want[a * 14 + b]) {
          if (bad++ < 5)
            diag("result_type(%s, %s) = %s, NumPy says %s", np_names[a], np_names[b], cusci_dtype_name(r),
                 np_names[want[a * 14 + b]]);
        }
        cusci_dtype p;
        if (cusci_promote_types(pair[0], pair[1], &p) != CUSCI_OK || p != r)
          bad++;
      }
    is_int(bad, 0, "result_type and promote_types agree with NumPy on all 196 pairs");
    cusci_array_release(promo);
  }
  cusci_dtype three[3] = {CUSCI_UINT8, CUSCI_INT8, CUSCI_FLOAT16}, r3;
  ok(cusci_result_type(3, three, &r3) == CUSCI_OK && r3 == CUSCI_FLOAT32,
     "result_type(uint8, int8, float16) is float32");
  ok(cusci_result_type(0, three, &r3) == CUSCI_ERR_INVALID_ARGUMENT, "result_type of no dtypes is refused");
  cusci_dtype badd[2] = {CUSCI_INT8, (cusci_dtype)77};
  ok(cusci_result_type(2, badd, &r3) == CUSCI_ERR_DTYPE, "result_type of an invalid dtype is CUSCI_ERR_DTYPE");
  ok(cusci_result_type(2, NULL, &r3) == CUSCI_ERR_NULL_POINTER, "result_type(NULL) is CUSCI_ERR_NULL_POINTER");

  /* Casting: five levels, every pair, against numpy.can_cast. */
  cusci_array *cast = tk_fixture(ctx, "dtype", "can_cast", false);
  ok(cast != NULL, "casting fixture loads");
  if (cast) {
    const uint8_t *want = cusci_array_data(cast);
    static const char *const levels[5] = {"safe", "no", "equiv", "same_kind", "unsafe"};
    for (int k = 0; k < 5; k++) {
      int bad = 0;
      for (int a = 0; a < 14; a++)
        for (int b = 0; b < 14; b++) {
          bool got = cusci_can_cast((cusci_dtype)a, (cusci_dtype)b, (cusci_casting)k);
          if (got != (want[(k * 14 + a) * 14 + b] != 0) && bad++ < 5)
            diag("can_cast(%s, %s, %s) = %d, NumPy says %d", np_names[a], np_names[b], levels[k], got,
                 want[(k * 14 + a) * 14 + b]);
        }
      ok(bad == 0, "can_cast(..., '%s') agrees with NumPy on all 196 pairs", levels[k]);
    }
    cusci_array_release(cast);
  }
  ok(!cusci_can_cast((cusci_dtype)20, CUSCI_INT8, CUSCI_CASTING_UNSAFE) &&
         !cusci_can_cast(CUSCI_INT8, CUSCI_INT8, (cusci_casting)9),
     "can_cast is false for invalid arguments");

  /* Status names and sentences from the one table. */
  ok(!strcmp(cusci_status_name(CUSCI_ERR_SHAPE), "CUSCI_ERR_SHAPE") && !strcmp(cusci_status_name(CUSCI_OK), "CUSCI_OK"),
     "status names are the enum's");
  int all = 1;
  for (int s = 0; s <= CUSCI_ERR_INTERNAL; s++) {
    const char *n = cusci_status_name((cusci_status)s), *t = cusci_status_string((cusci_status)s);
    all &= strncmp(n, "CUSCI_", 6) == 0 && strcmp(n, "CUSCI_UNKNOWN_STATUS") != 0 && strlen(t) > 10 &&
           t[strlen(t) - 1] == '.';
  }
  ok(all, "every status has a name and a one-sentence description");
  ok(!strcmp(cusci_status_name((cusci_status)1000), "CUSCI_UNKNOWN_STATUS"), "unknown status is named so");

  /* Version: header and library agree. */
  ok(!strcmp(cusci_version(), CUSCI_VERSION_STRING) && cusci_version_number() == CUSCI_VERSION_NUMBER,
     "cusci_version() %s matches the header", cusci_version());

  kit_dtypes();
  cusci_ctx_destroy(ctx);
  return done_testing();
}
