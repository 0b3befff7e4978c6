/*
 * libcore/ufunc.c: NumPy's ufuncs, where and clip: argument checks, type
 * resolution, broadcasting and the output convention, then dispatch to the
 * host rows (reference/core/ufunc.c) or the kernels (kernels/core/ufunc*.cu).
 */
#include "libcore/internal.h"

#include <string.h>

#include <cusci/compute.h>

#include "kernels/core/launch.h"
#include "libcore/backend.h"
#include "reference/core/reference.h"
#include "reference/core/ufunc.h"

/* ----------------------------------------------------------- the table */

/*
 * How a ufunc picks its loop dtype from the promoted dtype of its inputs
 * (NumPy's type resolvers, read off numpy.<f>.types).
 */
enum rule {
  RULE_SAME,     /* the promoted dtype */
  RULE_NOBOOL,   /* the promoted dtype; bool refused (subtract, negative, sign) */
  RULE_BOOL_I8,  /* bool computes in int8 (floor_divide, mod, power, square, conj) */
  RULE_TRUEDIV,  /* bool and integers compute in float64 (divide) */
  RULE_FLOAT,    /* bool and integers in the smallest float that holds them */
  RULE_LOGICAL,  /* everything computes as bool */
  RULE_BITWISE,  /* bool and integers only */
  RULE_SHIFT,    /* integers only; bool computes in int8 */
  RULE_ROUND,    /* floor, ceil, trunc: integers unchanged, complex refused */
  RULE_ISX,      /* isnan, isinf, isfinite: a constant for bool and integers */
  RULE_CPLX,     /* conj, real, imag: the identity (imag: zeros) for real dtypes */
};

/* Complex support: refused as NumPy refuses it, done, or not done yet. */
enum cplx { CPLX_NO, CPLX_YES, CPLX_TODO };

typedef struct ufunc_info {
  const char *name;
  unsigned char nin, rule, out, cplx;
  int kop;   /* the op whose element function runs (greater is less swapped) */
  bool swap; /* swap the two inputs */
} ufunc_info;

enum out_rule { OUT_SAME, OUT_BOOL, OUT_REAL };

#define B2(NAME, name, rule, out, cplx) [CUSCI_UFUNC_##NAME] = {#name, 2, rule, out, cplx, CUSCI_UFUNC_##NAME, false},
#define U1(NAME, name, rule, out, cplx) [CUSCI_UFUNC_##NAME] = {#name, 1, rule, out, cplx, CUSCI_UFUNC_##NAME, false},
static const ufunc_info info[CUSCI_N_UFUNCS] = {
  B2(ADD, add, RULE_SAME, OUT_SAME, CPLX_YES)
  B2(SUBTRACT, subtract, RULE_NOBOOL, OUT_SAME, CPLX_YES)
  B2(MULTIPLY, multiply, RULE_SAME, OUT_SAME, CPLX_YES)
  B2(DIVIDE, divide, RULE_TRUEDIV, OUT_SAME, CPLX_YES)
  B2(FLOOR_DIVIDE, floor_divide, RULE_BOOL_I8, OUT_SAME, CPLX_NO)
  B2(MOD, mod, RULE_BOOL_I8, OUT_SAME, CPLX_NO)
  B2(POWER, power, RULE_BOOL_I8, OUT_SAME, CPLX_YES)
  B2(MAXIMUM, maximum, RULE_SAME, OUT_SAME, CPLX_YES)
  B2(MINIMUM, minimum, RULE_SAME, OUT_SAME, CPLX_YES)
  B2(FMAX, fmax, RULE_SAME, OUT_SAME, CPLX_YES)
  B2(FMIN, fmin, RULE_SAME, OUT_SAME, CPLX_YES)
  B2(ARCTAN2, arctan2, RULE_FLOAT, OUT_SAME, CPLX_NO)
  B2(HYPOT, hypot, RULE_FLOAT, OUT_SAME, CPLX_NO)
  B2(EQUAL, equal, RULE_SAME, OUT_BOOL, CPLX_YES)
  B2(NOT_EQUAL, not_equal, RULE_SAME, OUT_BOOL, CPLX_YES)
  B2(LESS, less, RULE_SAME, OUT_BOOL, CPLX_YES)
  B2(LESS_EQUAL, less_equal, RULE_SAME, OUT_BOOL, CPLX_YES)
  [CUSCI_UFUNC_GREATER] = {"greater", 2, RULE_SAME, OUT_BOOL, CPLX_YES, CUSCI_UFUNC_LESS, true},
  [CUSCI_UFUNC_GREATER_EQUAL] = {"greater_equal", 2, RULE_SAME, OUT_BOOL, CPLX_YES, CUSCI_UFUNC_LESS_EQUAL, true},
  B2(LOGICAL_AND, logical_and, RULE_LOGICAL, OUT_BOOL, CPLX_YES)
  B2(LOGICAL_OR, logical_or, RULE_LOGICAL, OUT_BOOL, CPLX_YES)
  B2(LOGICAL_XOR, logical_xor, RULE_LOGICAL, OUT_BOOL, CPLX_YES)
  B2(BITWISE_AND, bitwise_and, RULE_BITWISE, OUT_SAME, CPLX_NO)
  B2(BITWISE_OR, bitwise_or, RULE_BITWISE, OUT_SAME, CPLX_NO)
  B2(BITWISE_XOR, bitwise_xor, RULE_BITWISE, OUT_SAME, CPLX_NO)
  B2(LEFT_SHIFT, left_shift, RULE_SHIFT, OUT_SAME, CPLX_NO)
  B2(RIGHT_SHIFT, right_shift, RULE_SHIFT, OUT_SAME, CPLX_NO)
  U1(NEGATIVE, negative, RULE_NOBOOL, OUT_SAME, CPLX_YES)
  U1(ABS, abs, RULE_SAME, OUT_REAL, CPLX_YES)
  U1(SIGN, sign, RULE_NOBOOL, OUT_SAME, CPLX_YES)
  U1(SQRT, sqrt, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(CBRT, cbrt, RULE_FLOAT, OUT_SAME, CPLX_NO)
  U1(SQUARE, square, RULE_BOOL_I8, OUT_SAME, CPLX_YES)
  U1(EXP, exp, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(EXP2, exp2, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(EXPM1, expm1, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(LOG, log, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(LOG2, log2, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(LOG10, log10, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(LOG1P, log1p, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(SIN, sin, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(COS, cos, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(TAN, tan, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(ARCSIN, arcsin, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(ARCCOS, arccos, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(ARCTAN, arctan, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(SINH, sinh, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(COSH, cosh, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(TANH, tanh, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(ARCSINH, arcsinh, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(ARCCOSH, arccosh, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(ARCTANH, arctanh, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(FLOOR, floor, RULE_ROUND, OUT_SAME, CPLX_NO)
  U1(CEIL, ceil, RULE_ROUND, OUT_SAME, CPLX_NO)
  U1(TRUNC, trunc, RULE_ROUND, OUT_SAME, CPLX_NO)
  U1(RINT, rint, RULE_FLOAT, OUT_SAME, CPLX_YES)
  U1(ISNAN, isnan, RULE_ISX, OUT_BOOL, CPLX_YES)
  U1(ISINF, isinf, RULE_ISX, OUT_BOOL, CPLX_YES)
  U1(ISFINITE, isfinite, RULE_ISX, OUT_BOOL, CPLX_YES)
  U1(LOGICAL_NOT, logical_not, RULE_LOGICAL, OUT_BOOL, CPLX_YES)
  U1(BITWISE_NOT, bitwise_not, RULE_BITWISE, OUT_SAME, CPLX_NO)
  U1(CONJ, conj, RULE_CPLX, OUT_SAME, CPLX_YES)
  U1(REAL, real, RULE_CPLX, OUT_REAL, CPLX_YES)
  U1(IMAG, imag, RULE_CPLX, OUT_REAL, CPLX_YES)
  U1(ANGLE, angle, RULE_FLOAT, OUT_REAL, CPLX_YES)
};
#undef B2
#undef U1

const char *cusci_ufunc_name(cusci_ufunc f)
{
  return (unsigned)f < CUSCI_N_UFUNCS ? info[f].name : "invalid";
}

int cusci_ufunc_nin(cusci_ufunc f)
{
  return (unsigned)f < CUSCI_N_UFUNCS ? info[f].nin : 0;
}

/* -------------------------------------------------------- type rules */

static int kind_of(cusci_dtype dt)
{
  switch (cusci_dtype_kind(dt)) {
  case 'b': return 0;
  case 'u':
  case 'i': return 1;
  case 'f': return 2;
  default: return 3;
  }
}

/* The smallest float dtype every value of `dt` casts to safely. */
static cusci_dtype float_for(cusci_dtype dt)
{
  switch (dt) {
  case CUSCI_BOOL:
  case CUSCI_INT8:
  case CUSCI_UINT8: return CUSCI_FLOAT16;
  case CUSCI_INT16:
  case CUSCI_UINT16: return CUSCI_FLOAT32;
  case CUSCI_INT32:
  case CUSCI_UINT32:
  case CUSCI_INT64:
  case CUSCI_UINT64: return CUSCI_FLOAT64;
  default: return dt;
  }
}

static cusci_dtype real_of(cusci_dtype dt)
{
  return dt == CUSCI_COMPLEX64 ? CUSCI_FLOAT32 : dt == CUSCI_COMPLEX128 ? CUSCI_FLOAT64 : dt;
}

/* What to do instead of the element loop, for the identities of real
 * dtypes. */
enum special { SPECIAL_NONE, SPECIAL_COPY, SPECIAL_FALSE, SPECIAL_TRUE, SPECIAL_ZEROS };

typedef struct resolved {
  cusci_dtype loop;   /* the dtype the inputs are converted to */
  cusci_dtype result; /* the dtype of the result */
  int special;
} resolved;

/*
 * The loop and result dtypes of f for inputs promoted to `common`.
 * CUSCI_ERR_DTYPE where NumPy has no loop, CUSCI_ERR_NOT_SUPPORTED where
 * NumPy has one that cusci lacks. The message is recorded when ctx is set.
 */
static cusci_status resolve(cusci_ctx *ctx, const char *fn, cusci_ufunc f, cusci_dtype common, resolved *r)
{
  const ufunc_info *u = &info[f];
  int k = kind_of(common);
  cusci_dtype L = common;
  r->special = SPECIAL_NONE;
  switch (u->rule) {
  case RULE_SAME:
    break;
  case RULE_NOBOOL:
    if (k == 0)
      goto refused;
    break;
  case RULE_BOOL_I8:
    if (k == 0)
      L = CUSCI_INT8;
    break;
  case RULE_TRUEDIV:
    if (k <= 1)
      L = CUSCI_FLOAT64;
    break;
  case RULE_FLOAT:
    /* numpy.angle is arctan2(0, x): a weak 0 with bool is int64. */
    L = f == CUSCI_UFUNC_ANGLE && common == CUSCI_BOOL ? CUSCI_FLOAT64 : float_for(common);
    break;
  case RULE_LOGICAL:
    L = CUSCI_BOOL;
    break;
  case RULE_BITWISE:
    if (k >= 2)
      goto refused;
    break;
  case RULE_SHIFT:
    if (k >= 2)
      goto refused;
    if (k == 0)
      L = CUSCI_INT8;
    break;
  case RULE_ROUND:
    if (k <= 1)
      r->special = SPECIAL_COPY;
    break;
  case RULE_ISX:
    if (k <= 1)
      r->special = f == CUSCI_UFUNC_ISFINITE ? SPECIAL_TRUE : SPECIAL_FALSE;
    break;
  case RULE_CPLX:
    if (f == CUSCI_UFUNC_CONJ && k == 0)
      L = CUSCI_INT8;
    if (k <= 2)
      r->special = f == CUSCI_UFUNC_IMAG ? SPECIAL_ZEROS : SPECIAL_COPY;
    break;
  }
  if (kind_of(L) == 3 && u->cplx != CPLX_YES) {
    if (u->cplx == CPLX_NO)
      goto refused;
    return ctx ? cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "%s of %s is not implemented yet", u->name,
                                cusci_dtype_name(L))
               : CUSCI_ERR_NOT_SUPPORTED;
  }
  r->loop = L;
  r->result = u->out == OUT_BOOL ? CUSCI_BOOL : u->out == OUT_REAL ? real_of(L) : L;
  if (r->special == SPECIAL_FALSE || r->special == SPECIAL_TRUE)
    r->result = CUSCI_BOOL;
  return CUSCI_OK;
refused:
  return ctx ? cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "%s does not accept %s, as in NumPy", u->name,
                              cusci_dtype_name(common))
             : CUSCI_ERR_DTYPE;
}

cusci_status cusci_ufunc_result_type(cusci_ufunc f, cusci_dtype x1, cusci_dtype x2, cusci_dtype *out)
{
  if (!out)
    return CUSCI_ERR_NULL_POINTER;
  if ((unsigned)f >= CUSCI_N_UFUNCS)
    return CUSCI_ERR_INVALID_ARGUMENT;
  if (!cusci_dtype_valid(x1) || (info[f].nin == 2 && !cusci_dtype_valid(x2)))
    return CUSCI_ERR_DTYPE;
  cusci_dtype common = x1;
  if (info[f].nin == 2) {
    if (info[f].rule == RULE_FLOAT)
      cusci_promote_types(float_for(x1), float_for(x2), &common);
    else
      cusci_promote_types(x1, x2, &common);
  }
  resolved r;
  cusci_status st = resolve(NULL, NULL, f, common, &r);
  if (st == CUSCI_ERR_NOT_SUPPORTED) {
    /* NumPy's answer all the same: the complex loop keeps its dtype. */
    *out = info[f].out == OUT_REAL ? real_of(common) : common;
    return CUSCI_OK;
  }
  if (st == CUSCI_OK)
    *out = r.result;
  return st;
}

/* ----------------------------------------------------------- operands */

typedef struct operand {
  const cusci_operand *src;
  const cusci_array *arr; /* the array read: src->array or its converted copy */
  cusci_array *tmp;       /* a converted copy, released at the end */
  bool scalar;
  unsigned char val[16] __attribute__((aligned(16))); /* a scalar in the loop dtype */
} operand;

/* The common dtype of the operands under NEP 50: typed operands promote
 * as arrays; Python scalars only raise the kind. */
static cusci_dtype common_dtype_ex(int n, const cusci_operand *const *ops, bool floats);

static cusci_dtype common_dtype(int n, const cusci_operand *const *ops)
{
  return common_dtype_ex(n, ops, false);
}

/*
 * With `floats`, each strong dtype first becomes the smallest float that
 * holds it, as NumPy's loop search does for the float-only ufuncs
 * (arctan2(int8, uint8) is float16, not float32 from int16), unless a weak
 * scalar raises the kind (arctan2(int8, 2.0) is float64).
 */
static cusci_dtype common_dtype_ex(int n, const cusci_operand *const *ops, bool floats)
{
  bool have = false;
  cusci_dtype strong = CUSCI_BOOL;
  int weak = 0; /* 0 none, 1 int, 2 float, 3 complex */
  for (int i = 0; i < n; i++) {
    const cusci_operand *o = ops[i];
    if (o->array || o->kind == CUSCI_SCALAR_TYPED) {
      cusci_dtype dt = o->array ? o->array->dtype : o->dtype;
      if (floats)
        dt = float_for(dt);
      if (have)
        cusci_promote_types(strong, dt, &strong);
      else
        strong = dt;
      have = true;
    } else if (o->kind >= CUSCI_SCALAR_INT && o->kind <= CUSCI_SCALAR_COMPLEX) {
      int w = (int)o->kind; /* INT 1, FLOAT 2, COMPLEX 3 */
      if (w > weak)
        weak = w;
    }
  }
  static const cusci_dtype defaults[4] = {CUSCI_BOOL, CUSCI_INT64, CUSCI_FLOAT64, CUSCI_COMPLEX128};
  if (!have)
    return defaults[weak];
  int k = kind_of(strong);
  if (weak <= k)
    return strong;
  if (weak == 3 && k == 2)
    return strong == CUSCI_FLOAT64 ? CUSCI_COMPLEX128 : CUSCI_COMPLEX64;
  return defaults[weak];
}

/* One element conversion on the host, through astype's table. */
static void convert1(cusci_dtype to, cusci_dtype from, void *dst, const void *src)
{
  cusci_loop loop;
  int64_t one = 1;
  const int64_t *strides[2] = {&one, &one};
  cusci_loop_init(&loop, 1, &one, 2, strides);
  cusci__host_astype(to, from, &loop, dst, src);
}

cusci_status cusci__scalar_as(cusci_ctx *ctx, const char *fn, const char *name, const cusci_operand *o, cusci_dtype dt,
                              void *buf)
{
  memset(buf, 0, 16);
  switch (o->kind) {
  case CUSCI_SCALAR_INT: {
    int64_t v = o->value.i;
    if (!cusci__int_fits(dt, v))
      return cusci_ctx_fail(ctx, CUSCI_ERR_OVERFLOW, fn, "%s: Python integer %lld out of bounds for %s", name,
                            (long long)v, cusci_dtype_name(dt));
    convert1(dt, CUSCI_INT64, buf, &v);
    return CUSCI_OK;
  }
  case CUSCI_SCALAR_FLOAT:
    convert1(dt, CUSCI_FLOAT64, buf, &o->value.f);
    return CUSCI_OK;
  case CUSCI_SCALAR_COMPLEX:
    convert1(dt, CUSCI_COMPLEX128, buf, o->value.c);
    return CUSCI_OK;
  case CUSCI_SCALAR_TYPED:
    if (!cusci_dtype_valid(o->dtype))
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "%s has dtype %d, not a cusci dtype", name, (int)o->dtype);
    convert1(dt, o->dtype, buf, o->value.raw);
    return CUSCI_OK;
  default:
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "%s is neither an array nor a scalar", name);
  }
}

/* Check an operand and, for a scalar, store its value in dtype L. */
static cusci_status operand_init(cusci_ctx *ctx, const char *fn, const char *name, const cusci_operand *src,
                                 cusci_dtype L, operand *o)
{
  memset(o, 0, offsetof(operand, val));
  o->src = src;
  if (src->array) {
    o->arr = src->array;
    return CUSCI_OK;
  }
  o->scalar = true;
  return cusci__scalar_as(ctx, fn, name, src, L, o->val);
}

/* Checks that need no dtype: an array on the context's device, or a known
 * scalar kind with a valid dtype. */
static cusci_status operand_check(cusci_ctx *ctx, const char *fn, const char *name, const cusci_operand *src)
{
  if (src->array)
    return cusci_check_array(ctx, fn, name, src->array);
  if (src->kind == CUSCI_SCALAR_TYPED)
    return cusci_check_dtype(ctx, fn, name, src->dtype);
  if (src->kind < CUSCI_SCALAR_INT || src->kind > CUSCI_SCALAR_TYPED)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "%s is neither an array nor a scalar", name);
  return CUSCI_OK;
}

/* Convert an array operand to dtype L in a temporary where it differs. */
static cusci_status operand_convert(cusci_ctx *ctx, const char *fn, cusci_dtype L, operand *o)
{
  if (o->scalar || o->arr->dtype == L)
    return CUSCI_OK;
  const cusci_array *a = o->arr;
  CUSCI_TRY(cusci__array_new(ctx, fn, a->ndim, a->shape, L, &o->tmp));
  o->arr = o->tmp;
  return cusci__copy_into(ctx, fn, o->tmp, a);
}

/* The broadcast shape of the array operands. */
static cusci_status broadcast(cusci_ctx *ctx, const char *fn, int n, const operand *ops, int *ndim, int64_t *shape)
{
  int nd = 0;
  for (int i = 0; i < n; i++)
    if (!ops[i].scalar && ops[i].arr->ndim > nd)
      nd = ops[i].arr->ndim;
  for (int d = 0; d < nd; d++)
    shape[d] = 1;
  for (int i = 0; i < n; i++) {
    if (ops[i].scalar)
      continue;
    const cusci_array *a = ops[i].arr;
    for (int j = 0; j < a->ndim; j++) {
      int d = nd - a->ndim + j;
      int64_t e = a->shape[j];
      if (e == 1)
        continue;
      if (shape[d] == 1) {
        shape[d] = e;
      } else if (shape[d] != e) {
        char s1[256], s2[256];
        int prev = -1;
        for (int m = 0; m < i; m++)
          if (!ops[m].scalar)
            prev = m;
        return cusci_ctx_fail(ctx, CUSCI_ERR_BROADCAST, fn, "shapes %s and %s do not broadcast",
                              cusci_shape_str(ops[prev].arr->ndim, ops[prev].arr->shape, s1, sizeof s1),
                              cusci_shape_str(a->ndim, a->shape, s2, sizeof s2));
      }
    }
  }
  *ndim = nd;
  return CUSCI_OK;
}

/* Element strides of `a` read as the broadcast shape. */
static void broadcast_strides(const cusci_array *a, int nd, const int64_t *shape, int64_t *strides)
{
  for (int d = 0; d < nd; d++) {
    int j = d - (nd - a->ndim);
    strides[d] = (j < 0 || (a->shape[j] == 1 && shape[d] != 1)) ? 0 : a->strides[j];
  }
}

static void operands_release(int n, operand *ops)
{
  for (int i = 0; i < n; i++)
    cusci_array_release(ops[i].tmp);
}

/* ---------------------------------------------------------- execution */

enum family { FAM_BINARY, FAM_UNARY, FAM_WHERE, FAM_CLIP };

/*
 * Run one element-wise operation over the broadcast shape: the output,
 * then nin inputs already converted to the loop dtype. *out follows the
 * output convention; the result is written through a temporary when *out
 * has another dtype or overlaps an input other than exactly.
 */
static cusci_status run(cusci_ctx *ctx, const char *fn, int fam, int kop, const resolved *rs, int nin, operand *ops,
                        int nd, const int64_t *shape, cusci_array **out)
{
  cusci_array *given = *out, *target = NULL;
  int64_t st_in[CUSCI_LOOP_MAX_OPS][CUSCI_MAX_NDIM];
  for (int i = 0; i < nin; i++) {
    if (ops[i].scalar)
      memset(st_in[i], 0, sizeof st_in[i]);
    else
      broadcast_strides(ops[i].arr, nd, shape, st_in[i]);
  }
  if (given) {
    CUSCI_TRY(cusci_check_out(ctx, fn, &given, nd, shape, rs->result, CUSCI_CASTING_SAME_KIND));
    bool direct = given->dtype == rs->result;
    /* In place is fine when each input element is read at the address its
     * output is written; any other overlap goes through a temporary. */
    for (int i = 0; direct && i < nin; i++) {
      const cusci_array *a = ops[i].src->array;
      if (!a || ops[i].tmp || a->storage != given->storage)
        continue;
      direct = a->data == given->data && memcmp(st_in[i], given->strides, (size_t)nd * sizeof(int64_t)) == 0;
    }
    if (direct)
      target = given;
  }
  if (!target)
    CUSCI_TRY(cusci__array_new(ctx, fn, nd, shape, rs->result, &target));

  cusci_status st = CUSCI_OK;
  if (rs->special != SPECIAL_NONE) {
    /* The identities: a copy of the input, or a constant. */
    if (rs->special == SPECIAL_COPY && !ops[0].scalar) {
      st = cusci__copy_into(ctx, fn, target, ops[0].arr);
    } else {
      unsigned char one = rs->special == SPECIAL_TRUE, val[16];
      if (rs->special == SPECIAL_COPY)
        convert1(target->dtype, rs->loop, val, ops[0].val);
      else
        convert1(target->dtype, CUSCI_BOOL, val, &one);
      cusci_array *t = target;
      st = cusci_array_full(ctx, nd, shape, target->dtype, val, &t);
    }
  } else if (target->size > 0) {
    cusci_loop loop;
    const int64_t *strides[CUSCI_LOOP_MAX_OPS] = {target->strides, st_in[0], st_in[1], st_in[2]};
    cusci_loop_init(&loop, nd, shape, nin + 1, strides);
    char *base[CUSCI_LOOP_MAX_OPS] = {target->data};
    const void *vals[3] = {NULL, NULL, NULL};
    int mode = 0;
    for (int i = 0; i < nin; i++) {
      base[i + 1] = ops[i].scalar ? (char *)ops[i].val : ops[i].arr->data;
      if (ops[i].scalar) {
        vals[i] = ops[i].val;
        mode |= 1 << i;
      }
    }
    int loop_size = (int)cusci__itemsize[rs->loop];
    if (ctx->device < 0) {
      int sizes[CUSCI_LOOP_MAX_OPS] = {(int)cusci__itemsize[rs->result], loop_size, loop_size, loop_size};
      cusci__row_fn row = NULL;
      const void *arg = NULL;
      switch (fam) {
      case FAM_BINARY: row = cusci__ufunc2_row(kop, rs->loop); break;
      case FAM_UNARY: row = cusci__ufunc1_row(kop, rs->loop); break;
      case FAM_WHERE:
        row = cusci__where_row;
        sizes[1] = 1;
        arg = &loop_size;
        break;
      case FAM_CLIP: row = cusci__clip_row(rs->loop); break;
      }
      if (row)
        cusci__host_walk(&loop, base, sizes, row, arg);
      else
        st = cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "no loop for %s", cusci_dtype_name(rs->loop));
    } else {
      st = cusci__gpu_use(ctx, fn);
      void *ptrs[CUSCI_LOOP_MAX_OPS];
      for (int i = 0; i <= nin; i++)
        ptrs[i] = (i > 0 && ops[i - 1].scalar) ? NULL : base[i];
      int err = 0;
      if (st == CUSCI_OK) {
        switch (fam) {
        case FAM_BINARY: err = cusci__launch_ufunc2(ctx->stream, kop, rs->loop, &loop, ptrs, vals, mode); break;
        case FAM_UNARY: err = cusci__launch_ufunc1(ctx->stream, kop, rs->loop, &loop, ptrs); break;
        case FAM_WHERE: err = cusci__launch_where(ctx->stream, loop_size, &loop, ptrs, vals, mode); break;
        case FAM_CLIP: err = cusci__launch_clip(ctx->stream, rs->loop, &loop, ptrs, vals, mode); break;
        }
        st = cusci_ctx_gpu_status(ctx, fn, NULL, err);
      }
    }
  }
  if (st == CUSCI_OK && given && target != given)
    st = cusci__copy_into(ctx, fn, given, target);
  if (target != given)
    cusci_array_release(st == CUSCI_OK && !given ? NULL : target);
  if (st == CUSCI_OK && !given)
    *out = target;
  return st;
}

/* A ufunc whose operands are all scalars: computed on the host into a 0-d
 * array there, then filled into the result on the context's device, so
 * that the inputs need no device memory. */
static cusci_status run_scalars(cusci_ctx *ctx, const char *fn, int fam, int kop, const resolved *rs, int nin,
                                operand *ops, cusci_array **out)
{
  if (ctx->device < 0)
    return run(ctx, fn, fam, kop, rs, nin, ops, 0, NULL, out);
  if (*out)
    CUSCI_TRY(cusci_check_out(ctx, fn, out, 0, NULL, rs->result, CUSCI_CASTING_SAME_KIND));
  cusci_ctx *host;
  if (cusci_ctx_create(CUSCI_DEVICE_HOST, &host) != CUSCI_OK)
    CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host context: %s", cusci_ctx_create_error());
  cusci_array *h = NULL;
  cusci_status st = run(host, fn, fam, kop, rs, nin, ops, 0, NULL, &h);
  if (st != CUSCI_OK) {
    cusci_ctx_fail(ctx, st, fn, "on the host: %s", cusci_ctx_last_error(host));
  } else {
    unsigned char val[16];
    cusci_dtype to = *out ? (*out)->dtype : h->dtype;
    convert1(to, h->dtype, val, h->data);
    st = cusci_array_full(ctx, 0, NULL, to, val, out);
  }
  cusci_array_release(h);
  cusci_ctx_destroy(host);
  return st;
}

static cusci_status execute(cusci_ctx *ctx, const char *fn, int fam, int kop, const resolved *rs, int nin,
                            operand *ops, cusci_array **out)
{
  cusci_status st = CUSCI_OK;
  for (int i = 0; st == CUSCI_OK && i < nin; i++)
    st = operand_convert(ctx, fn, (fam == FAM_WHERE && i == 0) ? CUSCI_BOOL : rs->loop, &ops[i]);
  int nd = 0;
  int64_t shape[CUSCI_MAX_NDIM];
  if (st == CUSCI_OK)
    st = broadcast(ctx, fn, nin, ops, &nd, shape);
  bool all_scalar = true;
  for (int i = 0; i < nin; i++)
    all_scalar = all_scalar && ops[i].scalar;
  if (st == CUSCI_OK)
    st = all_scalar ? run_scalars(ctx, fn, fam, kop, rs, nin, ops, out)
                    : run(ctx, fn, fam, kop, rs, nin, ops, nd, shape, out);
  operands_release(nin, ops);
  return st;
}

/* ------------------------------------------------------------ the API */

static cusci_status binary(cusci_ctx *ctx, const char *fn, cusci_ufunc f, const cusci_operand *x1,
                           const cusci_operand *x2, cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, out);
  if ((unsigned)f >= CUSCI_N_UFUNCS || info[f].nin != 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "ufunc %d is not a binary ufunc", (int)f);
  CUSCI_TRY(operand_check(ctx, fn, "x1", x1));
  CUSCI_TRY(operand_check(ctx, fn, "x2", x2));
  const cusci_operand *pair[2] = {x1, x2};
  resolved rs;
  CUSCI_TRY(resolve(ctx, fn, f, common_dtype_ex(2, pair, info[f].rule == RULE_FLOAT), &rs));
  if (info[f].swap) {
    pair[0] = x2;
    pair[1] = x1;
  }
  operand ops[2];
  CUSCI_TRY(operand_init(ctx, fn, info[f].swap ? "x2" : "x1", pair[0], rs.loop, &ops[0]));
  CUSCI_TRY(operand_init(ctx, fn, info[f].swap ? "x1" : "x2", pair[1], rs.loop, &ops[1]));
  return execute(ctx, fn, FAM_BINARY, info[f].kop, &rs, 2, ops, out);
}

static cusci_status unary(cusci_ctx *ctx, const char *fn, cusci_ufunc f, const cusci_operand *x, cusci_array **out)
{
  CUSCI_ENTRY(ctx, fn, out);
  if ((unsigned)f >= CUSCI_N_UFUNCS || info[f].nin != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "ufunc %d is not a unary ufunc", (int)f);
  CUSCI_TRY(operand_check(ctx, fn, "x", x));
  resolved rs;
  CUSCI_TRY(resolve(ctx, fn, f, common_dtype(1, &x), &rs));
  operand op;
  /* The identities copy an array from its own dtype. */
  bool as_is = rs.special == SPECIAL_COPY && x->array;
  CUSCI_TRY(operand_init(ctx, fn, "x", x, as_is ? x->array->dtype : rs.loop, &op));
  return execute(ctx, fn, FAM_UNARY, info[f].kop, &rs, 1, &op, out);
}

cusci_status cusci_ufunc_binary(cusci_ctx *ctx, cusci_ufunc f, cusci_operand x1, cusci_operand x2, cusci_array **out)
{
  return binary(ctx, __func__, f, &x1, &x2, out);
}

cusci_status cusci_ufunc_unary(cusci_ctx *ctx, cusci_ufunc f, cusci_operand x, cusci_array **out)
{
  return unary(ctx, __func__, f, &x, out);
}

#define DEF_1_(NAME, name)                                                            \
  cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *x, cusci_array **out)  \
  {                                                                                   \
    cusci_operand a = cusci_operand_array(x);                                         \
    if (!x && ctx)                                                                    \
      CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "x is NULL");                          \
    return unary(ctx, __func__, CUSCI_UFUNC_##NAME, &a, out);                         \
  }
#define DEF_2_(NAME, name)                                                                                   \
  cusci_status cusci_##name(cusci_ctx *ctx, const cusci_array *x1, const cusci_array *x2, cusci_array **out) \
  {                                                                                                          \
    cusci_operand a = cusci_operand_array(x1), b = cusci_operand_array(x2);                                  \
    if ((!x1 || !x2) && ctx)                                                                                 \
      CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "%s is NULL", x1 ? "x2" : "x1");                              \
    return binary(ctx, __func__, CUSCI_UFUNC_##NAME, &a, &b, out);                                           \
  }
#define DEF_(NAME, name, nin) DEF_##nin##_(NAME, name)
CUSCI_UFUNC_MAP(DEF_)

cusci_status cusci_where(cusci_ctx *ctx, const cusci_array *condition, cusci_operand x, cusci_operand y,
                         cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, __func__, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "condition", condition));
  CUSCI_TRY(operand_check(ctx, fn, "x", &x));
  CUSCI_TRY(operand_check(ctx, fn, "y", &y));
  const cusci_operand *xy[2] = {&x, &y};
  resolved rs = {common_dtype(2, xy), CUSCI_BOOL, SPECIAL_NONE};
  rs.result = rs.loop;
  cusci_operand c = cusci_operand_array(condition);
  operand ops[3];
  CUSCI_TRY(operand_init(ctx, fn, "condition", &c, CUSCI_BOOL, &ops[0]));
  CUSCI_TRY(operand_init(ctx, fn, "x", &x, rs.loop, &ops[1]));
  CUSCI_TRY(operand_init(ctx, fn, "y", &y, rs.loop, &ops[2]));
  return execute(ctx, fn, FAM_WHERE, 0, &rs, 3, ops, out);
}

cusci_status cusci_clip(cusci_ctx *ctx, const cusci_array *a, cusci_operand a_min, cusci_operand a_max,
                        cusci_array **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, __func__, out);
  CUSCI_TRY(cusci_check_array(ctx, fn, "a", a));
  bool no_min = !a_min.array && a_min.kind == CUSCI_SCALAR_NONE;
  bool no_max = !a_max.array && a_max.kind == CUSCI_SCALAR_NONE;
  if (no_min && no_max)
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "a_min and a_max are both None");
  cusci_operand x = cusci_operand_array(a);
  if (no_min)
    return binary(ctx, fn, CUSCI_UFUNC_MINIMUM, &x, &a_max, out);
  if (no_max)
    return binary(ctx, fn, CUSCI_UFUNC_MAXIMUM, &x, &a_min, out);
  CUSCI_TRY(operand_check(ctx, fn, "a_min", &a_min));
  CUSCI_TRY(operand_check(ctx, fn, "a_max", &a_max));
  const cusci_operand *three[3] = {&x, &a_min, &a_max};
  resolved rs = {common_dtype(3, three), CUSCI_BOOL, SPECIAL_NONE};
  rs.result = rs.loop;
  operand ops[3];
  CUSCI_TRY(operand_init(ctx, fn, "a", &x, rs.loop, &ops[0]));
  CUSCI_TRY(operand_init(ctx, fn, "a_min", &a_min, rs.loop, &ops[1]));
  CUSCI_TRY(operand_init(ctx, fn, "a_max", &a_max, rs.loop, &ops[2]));
  return execute(ctx, fn, FAM_CLIP, 0, &rs, 3, ops, out);
}
