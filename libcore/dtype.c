/*
 * libcore/dtype.c: dtype facts, NumPy 2 promotion and casting rules.
 */
#include "libcore/internal.h"

#define ITEMSIZE_(name, np, size, kind) size,
const size_t cusci__itemsize[CUSCI_N_DTYPES] = {CUSCI_DTYPE_MAP(ITEMSIZE_)};
#undef ITEMSIZE_

#define NAME_(name, np, size, kind) np,
static const char *const dtype_names[CUSCI_N_DTYPES] = {CUSCI_DTYPE_MAP(NAME_)};
#undef NAME_

#define KIND_(name, np, size, kind) kind,
static const char dtype_kinds[CUSCI_N_DTYPES] = {CUSCI_DTYPE_MAP(KIND_)};
#undef KIND_

/* The values of each integer dtype. */
static const struct {
  int64_t lo;
  uint64_t hi;
} int_range[CUSCI_N_DTYPES] = {
  [CUSCI_INT8] = {INT8_MIN, INT8_MAX},    [CUSCI_INT16] = {INT16_MIN, INT16_MAX},
  [CUSCI_INT32] = {INT32_MIN, INT32_MAX}, [CUSCI_INT64] = {INT64_MIN, INT64_MAX},
  [CUSCI_UINT8] = {0, UINT8_MAX},         [CUSCI_UINT16] = {0, UINT16_MAX},
  [CUSCI_UINT32] = {0, UINT32_MAX},       [CUSCI_UINT64] = {0, UINT64_MAX},
};

bool cusci__int_fits(cusci_dtype dt, int64_t v)
{
  char k = cusci_dtype_kind(dt);
  if (k != 'i' && k != 'u')
    return true;
  return v >= int_range[dt].lo && (v <= 0 || (uint64_t)v <= int_range[dt].hi);
}

bool cusci_dtype_valid(cusci_dtype dt)
{
  return (unsigned)dt < CUSCI_N_DTYPES;
}

const char *cusci_dtype_name(cusci_dtype dt)
{
  return cusci_dtype_valid(dt) ? dtype_names[dt] : "invalid";
}

size_t cusci_dtype_itemsize(cusci_dtype dt)
{
  return cusci_dtype_valid(dt) ? cusci__itemsize[dt] : 0;
}

char cusci_dtype_kind(cusci_dtype dt)
{
  return cusci_dtype_valid(dt) ? dtype_kinds[dt] : 0;
}

/*
 * NumPy's safe casts (numpy.can_cast(a, b, "safe")): bool goes anywhere; an
 * integer goes to any integer that holds all its values, and to a float or
 * complex whose significand holds it (8-bit integers fit float16, 16-bit
 * ones float32 and complex64) or to float64 and complex128, which NumPy
 * counts safe for every integer; a float goes to wider floats and to a
 * complex of at least its precision.
 */
static bool safe_cast(cusci_dtype from, cusci_dtype to)
{
  char kf = dtype_kinds[from], kt = dtype_kinds[to];
  size_t sf = cusci__itemsize[from], st = cusci__itemsize[to];
  if (from == to || kf == 'b')
    return true;
  switch (kf) {
  case 'u':
  case 'i':
    if (kt == 'u')
      return kf == 'u' && st >= sf;
    if (kt == 'i')
      return kf == 'u' ? st > sf : st >= sf;
    if (kt == 'f')
      return to == CUSCI_FLOAT64 || (to == CUSCI_FLOAT32 && sf <= 2) || (to == CUSCI_FLOAT16 && sf == 1);
    if (kt == 'c')
      return to == CUSCI_COMPLEX128 || sf <= 2;
    return false;
  case 'f':
    if (kt == 'f')
      return st >= sf;
    if (kt == 'c')
      return st >= 2 * sf;
    return false;
  case 'c':
    return kt == 'c' && st >= sf;
  }
  return false;
}

/* NumPy's kind order for "same_kind": b < u < i < f < c. */
static int kind_rank(char k)
{
  switch (k) {
  case 'b': return 0;
  case 'u': return 1;
  case 'i': return 2;
  case 'f': return 3;
  default: return 4;
  }
}

bool cusci_can_cast(cusci_dtype from, cusci_dtype to, cusci_casting casting)
{
  if (!cusci_dtype_valid(from) || !cusci_dtype_valid(to))
    return false;
  switch (casting) {
  case CUSCI_CASTING_NO:
  case CUSCI_CASTING_EQUIV:
    return from == to;
  case CUSCI_CASTING_SAFE:
    return safe_cast(from, to);
  case CUSCI_CASTING_SAME_KIND:
    return safe_cast(from, to) || kind_rank(dtype_kinds[from]) <= kind_rank(dtype_kinds[to]);
  case CUSCI_CASTING_UNSAFE:
    return true;
  }
  return false;
}

const char *cusci__casting_name(cusci_casting casting)
{
  switch (casting) {
  case CUSCI_CASTING_NO: return "no";
  case CUSCI_CASTING_EQUIV: return "equiv";
  case CUSCI_CASTING_SAFE: return "safe";
  case CUSCI_CASTING_SAME_KIND: return "same_kind";
  case CUSCI_CASTING_UNSAFE: return "unsafe";
  }
  return "an unknown casting";
}

/*
 * numpy.promote_types: the first dtype, in NumPy's order (bool, integers by
 * size with unsigned first, floats, complex), to which both cast safely.
 * There always is one: complex128 holds everything.
 */
static const cusci_dtype promotion_order[CUSCI_N_DTYPES] = {
  CUSCI_BOOL, CUSCI_UINT8, CUSCI_INT8, CUSCI_UINT16, CUSCI_INT16, CUSCI_UINT32, CUSCI_INT32,
  CUSCI_UINT64, CUSCI_INT64, CUSCI_FLOAT16, CUSCI_FLOAT32, CUSCI_FLOAT64, CUSCI_COMPLEX64,
  CUSCI_COMPLEX128};

static cusci_dtype promote(cusci_dtype a, cusci_dtype b)
{
  for (int i = 0; i < CUSCI_N_DTYPES; i++) {
    cusci_dtype t = promotion_order[i];
    if (safe_cast(a, t) && safe_cast(b, t))
      return t;
  }
  return CUSCI_COMPLEX128;
}

cusci_status cusci_promote_types(cusci_dtype a, cusci_dtype b, cusci_dtype *out)
{
  if (!out)
    return CUSCI_ERR_NULL_POINTER;
  if (!cusci_dtype_valid(a) || !cusci_dtype_valid(b))
    return CUSCI_ERR_DTYPE;
  *out = promote(a, b);
  return CUSCI_OK;
}

cusci_status cusci_result_type(int n, const cusci_dtype *dtypes, cusci_dtype *out)
{
  if (!dtypes || !out)
    return CUSCI_ERR_NULL_POINTER;
  if (n < 1)
    return CUSCI_ERR_INVALID_ARGUMENT;
  for (int i = 0; i < n; i++)
    if (!cusci_dtype_valid(dtypes[i]))
      return CUSCI_ERR_DTYPE;
  cusci_dtype r = dtypes[0];
  for (int i = 1; i < n; i++)
    r = promote(r, dtypes[i]);
  *out = r;
  return CUSCI_OK;
}
