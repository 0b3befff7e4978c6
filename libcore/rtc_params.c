/*
 * libcore/rtc_params.c: CuPy's parameter lists ("T x, raw float32 y"),
 * type binding, and what generated kernels share.
 */
#include "libcore/rtc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ strings */

static void grow(cusci__rtc_str *b, size_t extra)
{
  if (b->failed || b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 1024;
  while (cap < b->len + extra + 1)
    cap *= 2;
  char *s = realloc(b->s, cap);
  if (!s) {
    b->failed = true;
    return;
  }
  b->s = s;
  b->cap = cap;
}

void cusci__rtc_puts(cusci__rtc_str *b, const char *s)
{
  size_t n = strlen(s);
  grow(b, n);
  if (b->failed)
    return;
  memcpy(b->s + b->len, s, n + 1);
  b->len += n;
}

void cusci__rtc_printf(cusci__rtc_str *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->failed = true;
    return;
  }
  grow(b, (size_t)n);
  if (b->failed)
    return;
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

/* -------------------------------------------------------------- types */

const char *cusci__rtc_ctype(cusci_dtype dt)
{
  static const char *const names[CUSCI_N_DTYPES] = {
    "bool", "signed char", "short", "int", "long long", "unsigned char", "unsigned short", "unsigned int",
    "unsigned long long", "float16", "float", "double", "complex<float>", "complex<double>",
  };
  return cusci_dtype_valid(dt) ? names[dt] : "void";
}

static bool dtype_by_name(const char *s, cusci_dtype *dt)
{
  for (int i = 0; i < CUSCI_N_DTYPES; i++)
    if (strcmp(s, cusci_dtype_name((cusci_dtype)i)) == 0) {
      *dt = (cusci_dtype)i;
      return true;
    }
  return false;
}

bool cusci__rtc_is_identifier(const char *s)
{
  if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
    return false;
  for (s++; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_'))
      return false;
  return true;
}

/* Names the generated code uses itself. */
static bool reserved(const char *s)
{
  return strcmp(s, "i") == 0 || strcmp(s, "_ind") == 0 || strncmp(s, "_cusci", 6) == 0 ||
         strncmp(s, "_in", 3) == 0 || strncmp(s, "_out", 4) == 0;
}

/* ---------------------------------------------------- parameter lists */

static cusci_status parse_one(cusci_ctx *ctx, const char *fn, const char *which, const char *item, bool allow_raw,
                              cusci__rtc_param *p)
{
  char buf[256];
  char *tok[8];
  int nt = 0;
  size_t n = strlen(item);
  if (n >= sizeof buf)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "%s: parameter \"%.40s...\" is too long", which, item);
  memcpy(buf, item, n + 1);
  for (char *s = strtok(buf, " \t\r\n"); s; s = strtok(NULL, " \t\r\n")) {
    if (nt == 8)
      return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "%s: syntax error in \"%s\"", which, item);
    tok[nt++] = s;
  }
  if (nt < 2)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn,
                          "%s: syntax error in \"%s\": expected \"[raw] TYPE NAME\"", which, item);
  memset(p, 0, sizeof *p);
  for (int k = 0; k < nt - 2; k++) {
    if (strcmp(tok[k], "raw") == 0 && allow_raw)
      p->raw = true;
    else
      return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "%s: unknown keyword \"%s\" in \"%s\"", which,
                            tok[k], item);
  }
  const char *type = tok[nt - 2], *name = tok[nt - 1];
  if (strlen(type) == 1 && isalpha((unsigned char)type[0])) {
    p->placeholder = true;
    p->letter = type[0];
  } else if (!dtype_by_name(type, &p->dtype)) {
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn,
                          "%s: type \"%s\" of %s is neither a dtype name (\"float32\") nor a one-letter placeholder",
                          which, type, name);
  }
  if (!cusci__rtc_is_identifier(name) || strlen(name) >= sizeof p->name)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "%s: \"%s\" is not a valid parameter name", which,
                          name);
  if (reserved(name))
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn,
                          "%s: the name \"%s\" is reserved for the generated code", which, name);
  strcpy(p->name, name);
  return CUSCI_OK;
}

cusci_status cusci__rtc_parse_params(cusci_ctx *ctx, const char *fn, const char *which, const char *list,
                                     bool allow_raw, cusci__rtc_params *out)
{
  out->n = 0;
  if (!list)
    return CUSCI_OK;
  const char *s = list;
  while (isspace((unsigned char)*s))
    s++;
  if (!*s)
    return CUSCI_OK;
  for (;;) {
    const char *end = strchr(s, ',');
    size_t n = end ? (size_t)(end - s) : strlen(s);
    char item[256];
    if (n >= sizeof item)
      return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "%s: a parameter is too long", which);
    memcpy(item, s, n);
    item[n] = '\0';
    if (out->n == CUSCI__RTC_MAX_PARAMS)
      return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "%s: more than %d parameters", which,
                            CUSCI__RTC_MAX_PARAMS);
    CUSCI_TRY(parse_one(ctx, fn, which, item, allow_raw, &out->p[out->n]));
    for (int k = 0; k < out->n; k++)
      if (strcmp(out->p[k].name, out->p[out->n].name) == 0)
        return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "%s: the name \"%s\" is used twice", which,
                              out->p[k].name);
    out->n++;
    if (!end)
      return CUSCI_OK;
    s = end + 1;
  }
}

/* ------------------------------------------------------------- binding */

static const char *letter_str(char c, char *buf)
{
  buf[0] = c;
  buf[1] = '\0';
  return buf;
}

/* Bind or check one parameter against a dtype from an array or typed scalar. */
static cusci_status bind_one(cusci_ctx *ctx, const char *fn, const char *what, const cusci__rtc_param *p,
                             cusci_dtype dt, cusci__rtc_binding *b)
{
  char l[2];
  if (!p->placeholder) {
    if (dt != p->dtype)
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "%s %s is declared %s, and is given %s", what, p->name,
                            cusci_dtype_name(p->dtype), cusci_dtype_name(dt));
    return CUSCI_OK;
  }
  int *t = &b->t[(unsigned char)p->letter];
  if (*t >= 0 && *t != (int)dt)
    return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "%s %s is given %s, but its type %s is already %s", what,
                          p->name, cusci_dtype_name(dt), letter_str(p->letter, l), cusci_dtype_name((cusci_dtype)*t));
  *t = (int)dt;
  return CUSCI_OK;
}

cusci_status cusci__rtc_bind(cusci_ctx *ctx, const char *fn, const cusci__rtc_params *in, const cusci_operand *args,
                             const cusci__rtc_params *outp, cusci_array *const *outs, cusci__rtc_binding *b,
                             cusci_dtype *in_dt, cusci_dtype *out_dt)
{
  for (int c = 0; c < 128; c++)
    b->t[c] = -1;
  for (int i = 0; i < in->n; i++) {
    const cusci__rtc_param *p = &in->p[i];
    const cusci_operand *o = &args[i];
    if (o->array) {
      CUSCI_TRY(cusci_check_array(ctx, fn, p->name, o->array));
      CUSCI_TRY(bind_one(ctx, fn, "input", p, o->array->dtype, b));
    } else if (p->raw) {
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "input %s is raw, and is given a scalar", p->name);
    } else if (o->kind == CUSCI_SCALAR_TYPED) {
      CUSCI_TRY(cusci_check_dtype(ctx, fn, p->name, o->dtype));
      CUSCI_TRY(bind_one(ctx, fn, "input", p, o->dtype, b));
    } else if (o->kind < CUSCI_SCALAR_INT || o->kind > CUSCI_SCALAR_COMPLEX) {
      return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "input %s is neither an array nor a scalar", p->name);
    }
  }
  for (int j = 0; outs && j < outp->n; j++) {
    if (!outs[j])
      continue;
    CUSCI_TRY(cusci_check_array(ctx, fn, outp->p[j].name, outs[j]));
    CUSCI_TRY(bind_one(ctx, fn, "output", &outp->p[j], outs[j]->dtype, b));
  }
  /* Python scalars bind only what nothing else binds, as NumPy's defaults. */
  static const cusci_dtype python[4] = {CUSCI_BOOL, CUSCI_INT64, CUSCI_FLOAT64, CUSCI_COMPLEX128};
  for (int i = 0; i < in->n; i++) {
    const cusci__rtc_param *p = &in->p[i];
    const cusci_operand *o = &args[i];
    if (!o->array && o->kind != CUSCI_SCALAR_TYPED && p->placeholder && b->t[(unsigned char)p->letter] < 0)
      b->t[(unsigned char)p->letter] = (int)python[o->kind];
  }
  char l[2];
  for (int i = 0; i < in->n; i++)
    in_dt[i] = in->p[i].placeholder ? (cusci_dtype)b->t[(unsigned char)in->p[i].letter] : in->p[i].dtype;
  for (int j = 0; j < outp->n; j++) {
    const cusci__rtc_param *p = &outp->p[j];
    if (p->placeholder && b->t[(unsigned char)p->letter] < 0)
      return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn,
                            "cannot determine the type of output %s: no input binds %s; give the output array",
                            p->name, letter_str(p->letter, l));
    out_dt[j] = p->placeholder ? (cusci_dtype)b->t[(unsigned char)p->letter] : p->dtype;
  }
  return CUSCI_OK;
}

/* ---------------------------------------------------------- broadcast */

cusci_status cusci__rtc_broadcast(cusci_ctx *ctx, const char *fn, int n, const cusci_array *const *arrays, int *ndim,
                                  int64_t *shape)
{
  int nd = 0;
  for (int i = 0; i < n; i++)
    if (arrays[i] && arrays[i]->ndim > nd)
      nd = arrays[i]->ndim;
  for (int d = 0; d < nd; d++)
    shape[d] = 1;
  int first = -1;
  for (int i = 0; i < n; i++) {
    const cusci_array *a = arrays[i];
    if (!a)
      continue;
    for (int j = 0; j < a->ndim; j++) {
      int d = nd - a->ndim + j;
      int64_t e = a->shape[j];
      if (e == 1)
        continue;
      if (shape[d] == 1) {
        shape[d] = e;
      } else if (shape[d] != e) {
        char s1[256], s2[256];
        return cusci_ctx_fail(ctx, CUSCI_ERR_BROADCAST, fn, "shapes %s and %s do not broadcast",
                              cusci_shape_str(arrays[first]->ndim, arrays[first]->shape, s1, sizeof s1),
                              cusci_shape_str(a->ndim, a->shape, s2, sizeof s2));
      }
    }
    if (first < 0)
      first = i;
  }
  *ndim = nd;
  return CUSCI_OK;
}

/* --------------------------------------------------------------- merge */

int cusci__rtc_merge(int ndim, const int64_t *shape, int nops, int64_t (*st)[CUSCI_MAX_NDIM], int64_t *oshape,
                     int64_t (*ost)[CUSCI_MAX_NDIM])
{
  int n = 0;
  for (int d = 0; d < ndim; d++) {
    if (shape[d] == 1)
      continue;
    bool merge = n > 0;
    for (int k = 0; merge && k < nops; k++)
      merge = st[k][d] * shape[d] == ost[k][n - 1];
    if (merge) {
      oshape[n - 1] *= shape[d];
      for (int k = 0; k < nops; k++)
        ost[k][n - 1] = st[k][d];
      continue;
    }
    oshape[n] = shape[d];
    for (int k = 0; k < nops; k++)
      ost[k][n] = st[k][d];
    n++;
  }
  return n;
}

void cusci__rtc_bstrides(const cusci_array *a, int nd, const int64_t *shape, int64_t *strides)
{
  for (int d = 0; d < nd; d++) {
    int j = d - (nd - a->ndim);
    strides[d] = (j < 0 || (a->shape[j] == 1 && shape[d] != 1)) ? 0 : a->strides[j];
  }
}

/* ------------------------------------------------------------ prelude */

/*
 * float16 computes in float, as NumPy's loops do, and converts with the
 * PTX instructions, so that generated code needs no header (NVRTC has no
 * include path). complex<T> holds (real, imag) as NumPy's complex types.
 * _cusci_arr is a strided operand, _cusci_raw a whole array indexed in C
 * order, _cusci_shape the loop's shape (CuPy's _ind: _ind.size()).
 */
const char cusci__rtc_prelude[] =
  "#define _CUSCI_MAXD 32\n"
  "struct float16 {\n"
  "  unsigned short x;\n"
  "  __device__ float16() {}\n"
  "  __device__ float16(float f) { asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(x) : \"f\"(f)); }\n"
  "  __device__ float16(double d) { asm(\"cvt.rn.f16.f64 %0, %1;\" : \"=h\"(x) : \"d\"(d)); }\n"
  "  template <class U> __device__ float16(U v) { float f = (float)v; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(x) : \"f\"(f)); }\n"
  "  __device__ operator float() const { float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(x)); return f; }\n"
  "};\n"
  "template <class T> struct complex {\n"
  "  T re, im;\n"
  "  __device__ complex() {}\n"
  "  __device__ complex(T r, T i = T(0)) : re(r), im(i) {}\n"
  "  template <class U> __device__ complex(const complex<U> &o) : re((T)o.re), im((T)o.im) {}\n"
  "  __device__ T real() const { return re; }\n"
  "  __device__ T imag() const { return im; }\n"
  "};\n"
  "#define _CUSCI_C template <class T> __device__ inline\n"
  "_CUSCI_C complex<T> operator+(complex<T> a, complex<T> b) { return complex<T>(a.re + b.re, a.im + b.im); }\n"
  "_CUSCI_C complex<T> operator-(complex<T> a, complex<T> b) { return complex<T>(a.re - b.re, a.im - b.im); }\n"
  "_CUSCI_C complex<T> operator*(complex<T> a, complex<T> b) { return complex<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }\n"
  "_CUSCI_C complex<T> operator/(complex<T> a, complex<T> b) {\n"
  "  T d = b.re * b.re + b.im * b.im;\n"
  "  return complex<T>((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);\n"
  "}\n"
  "_CUSCI_C complex<T> operator-(complex<T> a) { return complex<T>(-a.re, -a.im); }\n"
  "_CUSCI_C complex<T> operator+(complex<T> a, T b) { return complex<T>(a.re + b, a.im); }\n"
  "_CUSCI_C complex<T> operator+(T a, complex<T> b) { return complex<T>(a + b.re, b.im); }\n"
  "_CUSCI_C complex<T> operator-(complex<T> a, T b) { return complex<T>(a.re - b, a.im); }\n"
  "_CUSCI_C complex<T> operator-(T a, complex<T> b) { return complex<T>(a - b.re, -b.im); }\n"
  "_CUSCI_C complex<T> operator*(complex<T> a, T b) { return complex<T>(a.re * b, a.im * b); }\n"
  "_CUSCI_C complex<T> operator*(T a, complex<T> b) { return complex<T>(a * b.re, a * b.im); }\n"
  "_CUSCI_C complex<T> operator/(complex<T> a, T b) { return complex<T>(a.re / b, a.im / b); }\n"
  "_CUSCI_C bool operator==(complex<T> a, complex<T> b) { return a.re == b.re && a.im == b.im; }\n"
  "_CUSCI_C bool operator!=(complex<T> a, complex<T> b) { return !(a == b); }\n"
  "_CUSCI_C T real(complex<T> a) { return a.re; }\n"
  "_CUSCI_C T imag(complex<T> a) { return a.im; }\n"
  "_CUSCI_C complex<T> conj(complex<T> a) { return complex<T>(a.re, -a.im); }\n"
  "_CUSCI_C T norm(complex<T> a) { return a.re * a.re + a.im * a.im; }\n"
  "_CUSCI_C T abs(complex<T> a) { return hypot(a.re, a.im); }\n"
  "#undef _CUSCI_C\n"
  "template <class T> struct _cusci_arr { T *p; long long st[_CUSCI_MAXD]; };\n"
  "template <class T> struct _cusci_raw {\n"
  "  T *p; long long n; int ndim; int contig; long long shape[_CUSCI_MAXD]; long long st[_CUSCI_MAXD];\n"
  "  __device__ long long size() const { return n; }\n"
  "  __device__ T &operator[](long long k) const {\n"
  "    if (contig) return p[k];\n"
  "    long long off = 0;\n"
  "    for (int d = ndim - 1; d >= 0; d--) { long long q = k / shape[d]; off += (k - q * shape[d]) * st[d]; k = q; }\n"
  "    return p[off];\n"
  "  }\n"
  "};\n"
  "struct _cusci_shape {\n"
  "  long long n; int ndim; int contig; long long shape[_CUSCI_MAXD];\n"
  "  __device__ long long size() const { return n; }\n"
  "};\n";

void cusci__rtc_raw_arg(const cusci_array *a, cusci__rtc_rawarr *r)
{
  memset(r, 0, sizeof *r);
  r->p = cusci_array_data(a);
  r->n = a->size;
  r->ndim = a->ndim;
  r->contig = cusci_array_is_c_contiguous(a);
  for (int d = 0; d < a->ndim; d++) {
    r->shape[d] = a->shape[d];
    r->st[d] = a->strides[d];
  }
}
