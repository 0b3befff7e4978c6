/*
 * libcore/rtc_reduction.c: CuPy's ReductionKernel.
 *
 * The broadcast shape of the inputs splits into kept axes (one output
 * element each) and reduced axes. The generated kernel gives each output
 * element one block (a grid-stride loop over outputs) and, when there are
 * too few outputs to fill the GPU, several blocks along grid.y, each over
 * a slice of the reduced elements: every thread maps and reduces its
 * elements, the block combines its threads in shared memory (a tree of
 * reduce_expr), and then either writes the output through post_map_expr
 * or leaves a partial value that a second kernel (<name>_final) combines.
 */
#include "libcore/rtc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 256

struct cusci_reduction_kernel {
  cusci__rtc_params in, out;
  char *map_expr, *reduce_expr, *post_map_expr, *identity, *name, *preamble, *reduce_type;
  int nopt;
  char **options;
  int arch;
  pthread_mutex_t lock;
  cusci__rtc_variant *variants;
};

/* Host images of the generated _cusci_rarr and _cusci_red. */
typedef struct rarr {
  void *p;
  int64_t ks[CUSCI_MAX_NDIM], rs[CUSCI_MAX_NDIM];
} rarr;
typedef struct red {
  int64_t nout, nred;
  int nkeep, nredd;
  int64_t kshape[CUSCI_MAX_NDIM], rshape[CUSCI_MAX_NDIM];
} red;

static const char red_prelude[] =
  "template <class T> struct _cusci_rarr { T *p; long long ks[_CUSCI_MAXD]; long long rs[_CUSCI_MAXD]; };\n"
  "struct _cusci_red { long long nout, nred; int nkeep, nredd; long long kshape[_CUSCI_MAXD]; long long "
  "rshape[_CUSCI_MAXD]; };\n";

void cusci_reduction_kernel_destroy(cusci_reduction_kernel *k)
{
  if (!k)
    return;
  cusci__rtc_variants_free(k->variants);
  pthread_mutex_destroy(&k->lock);
  cusci__rtc_free_options(k->nopt, k->options);
  free(k->map_expr);
  free(k->reduce_expr);
  free(k->post_map_expr);
  free(k->identity);
  free(k->name);
  free(k->preamble);
  free(k->reduce_type);
  free(k);
}

cusci_status cusci_reduction_kernel_create(cusci_ctx *ctx, const char *in_params, const char *out_params,
                                           const char *map_expr, const char *reduce_expr,
                                           const char *post_map_expr, const char *identity, const char *name,
                                           const cusci_kernel_opts *opts, cusci_reduction_kernel **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, __func__, map_expr, reduce_expr, out);
  CUSCI_TRY(cusci__rtc_check_static_opts(ctx, fn, opts));
  if (!name)
    name = "kernel";
  if (!cusci__rtc_is_identifier(name) || strlen(name) > 200)
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "name \"%s\" is not a C identifier", name);
  if (cusci__rtc_blank(map_expr) || cusci__rtc_blank(reduce_expr) || (identity && cusci__rtc_blank(identity)))
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "%s is empty",
                cusci__rtc_blank(map_expr) ? "map_expr" : cusci__rtc_blank(reduce_expr) ? "reduce_expr" : "identity");
  cusci_reduction_kernel *k = calloc(1, sizeof *k);
  if (!k)
    CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host memory for a kernel");
  pthread_mutex_init(&k->lock, NULL);
  cusci_status st = cusci__rtc_parse_params(ctx, fn, "in_params", in_params, false, &k->in);
  if (st == CUSCI_OK)
    st = cusci__rtc_parse_params(ctx, fn, "out_params", out_params, false, &k->out);
  if (st == CUSCI_OK && k->out.n != 1)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "out_params has %d parameters, expected one", k->out.n);
  if (st == CUSCI_OK && (strcmp(k->out.p[0].name, "a") == 0 || strcmp(k->out.p[0].name, "b") == 0))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn,
                        "the output may not be named \"%s\": a and b are the reduced values", k->out.p[0].name);
  for (int i = 0; st == CUSCI_OK && i < k->in.n; i++)
    if (strcmp(k->in.p[i].name, k->out.p[0].name) == 0)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "the name \"%s\" is both an input and an output",
                          k->in.p[i].name);
  const char *rt = opts ? opts->reduce_type : NULL;
  if (st == CUSCI_OK && rt) {
    /* A dtype name or a placeholder letter, as a parameter's type. */
    bool ok = strlen(rt) == 1 && ((rt[0] >= 'A' && rt[0] <= 'Z') || (rt[0] >= 'a' && rt[0] <= 'z'));
    for (int d = 0; !ok && d < CUSCI_N_DTYPES; d++)
      ok = strcmp(rt, cusci_dtype_name((cusci_dtype)d)) == 0;
    if (!ok)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "reduce_type \"%.40s\" is neither a dtype name nor a placeholder",
                          rt);
  }
  if (st == CUSCI_OK) {
    bool failed = false;
    char post[128];
    if (!post_map_expr) {
      snprintf(post, sizeof post, "%s = a", k->out.p[0].name);
      post_map_expr = post;
    }
    k->map_expr = cusci__rtc_strdup(map_expr, &failed);
    k->reduce_expr = cusci__rtc_strdup(reduce_expr, &failed);
    k->post_map_expr = cusci__rtc_strdup(post_map_expr, &failed);
    k->identity = cusci__rtc_strdup(identity, &failed);
    k->name = cusci__rtc_strdup(name, &failed);
    k->reduce_type = cusci__rtc_strdup(rt, &failed);
    if (opts) {
      k->preamble = cusci__rtc_strdup(opts->preamble, &failed);
      k->arch = opts->arch;
    }
    if (!cusci__rtc_copy_options(opts, &k->nopt, &k->options) || failed)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the kernel's text");
  }
  if (st != CUSCI_OK) {
    cusci_reduction_kernel_destroy(k);
    return st;
  }
  *out = k;
  return CUSCI_OK;
}

/* --------------------------------------------------------- the source */

enum { SIG_SCALAR = 0x100 };

typedef struct prepared {
  cusci_dtype in_dt[CUSCI__RTC_MAX_PARAMS], out_dt[1], rt;
  cusci_dtype sig[CUSCI__RTC_MAX_PARAMS + 2];
  cusci__rtc_binding bind;
  int nd;
  int64_t shape[CUSCI_MAX_NDIM];
  bool reduced[CUSCI_MAX_NDIM];
  int out_nd;
  int64_t out_shape[CUSCI_MAX_NDIM];
  bool keepdims;
} prepared;

static void typedefs(cusci__rtc_str *b, const cusci_reduction_kernel *k, const prepared *pr)
{
  bool done[128] = {false};
  for (int c = 0; c < 128; c++) {
    if (pr->bind.t[c] < 0 || done[c])
      continue;
    done[c] = true;
    cusci__rtc_printf(b, "  typedef %s %c;\n", cusci__rtc_ctype((cusci_dtype)pr->bind.t[c]), (char)c);
  }
}

/* Combine value `v` into accumulator `acc` (flag `have`, or NULL with an identity). */
static void combine(cusci__rtc_str *b, const cusci_reduction_kernel *k, const char *acc, const char *v,
                    const char *have, const char *vhave, const char *indent)
{
  if (have) {
    cusci__rtc_printf(b, "%sif (%s) {\n", indent, vhave ? vhave : "true");
    cusci__rtc_printf(b, "%s  if (%s) { _cusci_rt a = %s, b = %s; %s = (_cusci_rt)(%s); }\n", indent, have, acc, v, acc,
                      k->reduce_expr);
    cusci__rtc_printf(b, "%s  else { %s = %s; %s = true; }\n%s}\n", indent, acc, v, have, indent);
  } else {
    cusci__rtc_printf(b, "%s{ _cusci_rt a = %s, b = %s; %s = (_cusci_rt)(%s); }\n", indent, acc, v, acc, k->reduce_expr);
  }
}

/* The block's tree over _sv (and _sh when there is no identity), then
 * thread 0 runs `tail`. */
static void tree(cusci__rtc_str *b, const cusci_reduction_kernel *k, bool flags)
{
  cusci__rtc_puts(b, "    _sv[threadIdx.x] = _acc;\n");
  if (flags)
    cusci__rtc_puts(b, "    _sh[threadIdx.x] = _have;\n");
  cusci__rtc_puts(b, "    __syncthreads();\n"
                     "    for (unsigned _s = blockDim.x / 2; _s > 0; _s >>= 1) {\n"
                     "      if (threadIdx.x < _s) {\n"
                     "        _cusci_rt _x = _sv[threadIdx.x], _y = _sv[threadIdx.x + _s];\n");
  if (flags) {
    cusci__rtc_puts(b, "        bool _hx = _sh[threadIdx.x];\n");
    combine(b, k, "_x", "_y", "_hx", "_sh[threadIdx.x + _s]", "        ");
    cusci__rtc_puts(b, "        _sh[threadIdx.x] = _hx;\n");
  } else {
    combine(b, k, "_x", "_y", NULL, NULL, "        ");
  }
  cusci__rtc_puts(b, "        _sv[threadIdx.x] = _x;\n"
                     "      }\n"
                     "      __syncthreads();\n"
                     "    }\n");
}

static void post(cusci__rtc_str *b, const cusci_reduction_kernel *k, const prepared *pr, const char *off)
{
  const cusci__rtc_param *p = &k->out.p[0];
  char t[2] = {p->letter, 0};
  cusci__rtc_printf(b, "      { _cusci_rt a = _sv[0]; %s &%s = _out0.p[%s]; %s; }\n",
                    p->placeholder ? t : cusci__rtc_ctype(pr->out_dt[0]), p->name, off, k->post_map_expr);
}

/* Offsets of the kept axes: _ko[0..na-1] for array inputs, _ko[na] the output. */
static void keep_offsets(cusci__rtc_str *b, int na, const int *arr_index, bool with_inputs)
{
  cusci__rtc_printf(b, "    long long _ko[%d];\n    for (int _k = 0; _k <= %d; _k++) _ko[_k] = 0;\n", na + 1, na);
  cusci__rtc_puts(b, "    {\n      long long _r = _o;\n"
                     "      for (int _d = _r_.nkeep - 1; _d >= 0; _d--) {\n"
                     "        long long _q = _r / _r_.kshape[_d], _x = _r - _q * _r_.kshape[_d];\n"
                     "        _r = _q;\n");
  for (int a = 0; with_inputs && a < na; a++)
    cusci__rtc_printf(b, "        _ko[%d] += _x * _in%d.ks[_d];\n", a, arr_index[a]);
  cusci__rtc_printf(b, "        _ko[%d] += _x * _out0.ks[_d];\n      }\n    }\n", na);
}

static char *generate(const cusci_reduction_kernel *k, const prepared *pr)
{
  int nin = k->in.n;
  bool flags = k->identity == NULL;
  int arr_index[CUSCI__RTC_MAX_PARAMS] = {0}, na = 0;
  for (int i = 0; i < nin; i++)
    if (!(pr->sig[i] & SIG_SCALAR))
      arr_index[na++] = i;
  cusci__rtc_str b = {0};
  cusci__rtc_puts(&b, cusci__rtc_prelude);
  cusci__rtc_puts(&b, red_prelude);
  if (k->preamble) {
    cusci__rtc_puts(&b, k->preamble);
    cusci__rtc_puts(&b, "\n");
  }
  const char *outct = cusci__rtc_ctype(pr->out_dt[0]);
  cusci__rtc_printf(&b, "typedef %s _cusci_rt;\n", cusci__rtc_ctype(pr->rt));

  /* Pass 1. */
  cusci__rtc_printf(&b, "extern \"C\" __global__ void %s(", k->name);
  for (int i = 0; i < nin; i++) {
    const char *ct = cusci__rtc_ctype((cusci_dtype)(pr->sig[i] & 0xff));
    if (pr->sig[i] & SIG_SCALAR)
      cusci__rtc_printf(&b, "const %s %s, ", ct, k->in.p[i].name);
    else
      cusci__rtc_printf(&b, "const _cusci_rarr<%s> _in%d, ", ct, i);
  }
  cusci__rtc_printf(&b, "const _cusci_rarr<%s> _out0, const _cusci_red _r_, _cusci_rt *_part)\n{\n", outct);
  typedefs(&b, k, pr);
  cusci__rtc_puts(&b, "  extern __shared__ __align__(16) unsigned char _cusci_smem[];\n"
                      "  _cusci_rt *_sv = (_cusci_rt *)_cusci_smem;\n");
  if (flags)
    cusci__rtc_puts(&b, "  bool *_sh = (bool *)(_sv + blockDim.x);\n");
  cusci__rtc_puts(&b, "  for (long long _o = blockIdx.x; _o < _r_.nout; _o += gridDim.x) {\n");
  keep_offsets(&b, na, arr_index, true);
  if (flags)
    cusci__rtc_puts(&b, "    bool _have = false;\n    _cusci_rt _acc;\n");
  else
    cusci__rtc_printf(&b, "    _cusci_rt _acc = (_cusci_rt)(%s);\n", k->identity);
  cusci__rtc_puts(&b, "    for (long long _j = (long long)blockIdx.y * blockDim.x + threadIdx.x; _j < _r_.nred;"
                      " _j += (long long)blockDim.x * gridDim.y) {\n");
  if (na > 0) {
    cusci__rtc_printf(&b, "      long long _ro[%d];\n      for (int _k = 0; _k < %d; _k++) _ro[_k] = _ko[_k];\n", na, na);
    /* One reduced axis (the common case after merging) needs no division. */
    cusci__rtc_puts(&b, "      if (_r_.nredd == 1) {\n");
    for (int a = 0; a < na; a++)
      cusci__rtc_printf(&b, "        _ro[%d] += _j * _in%d.rs[0];\n", a, arr_index[a]);
    cusci__rtc_puts(&b, "      } else {\n"
                        "        long long _r = _j;\n"
                        "        for (int _d = _r_.nredd - 1; _d >= 0; _d--) {\n"
                        "          long long _q = _r / _r_.rshape[_d], _x = _r - _q * _r_.rshape[_d];\n"
                        "          _r = _q;\n");
    for (int a = 0; a < na; a++)
      cusci__rtc_printf(&b, "          _ro[%d] += _x * _in%d.rs[_d];\n", a, arr_index[a]);
    cusci__rtc_puts(&b, "        }\n      }\n");
    for (int a = 0; a < na; a++) {
      const cusci__rtc_param *p = &k->in.p[arr_index[a]];
      char t[2] = {p->letter, 0};
      cusci__rtc_printf(&b, "      const %s %s = _in%d.p[_ro[%d]];\n",
                        p->placeholder ? t : cusci__rtc_ctype(pr->in_dt[arr_index[a]]), p->name, arr_index[a], a);
    }
  }
  cusci__rtc_printf(&b, "      _cusci_rt _v = (_cusci_rt)(%s);\n", k->map_expr);
  combine(&b, k, "_acc", "_v", flags ? "_have" : NULL, NULL, "      ");
  cusci__rtc_puts(&b, "    }\n");
  tree(&b, k, flags);
  cusci__rtc_puts(&b, "    if (threadIdx.x == 0) {\n      if (gridDim.y == 1) {\n");
  char off[32];
  snprintf(off, sizeof off, "_ko[%d]", na);
  post(&b, k, pr, off);
  cusci__rtc_puts(&b, "      } else {\n        _part[_o * gridDim.y + blockIdx.y] = _sv[0];\n      }\n    }\n"
                      "    __syncthreads();\n  }\n}\n");

  /* Pass 2: the partial values of each output. Every partial holds at
   * least one element, so the flags here only mark threads without one. */
  cusci__rtc_printf(&b, "extern \"C\" __global__ void %s_final(const _cusci_rarr<%s> _out0, const _cusci_red _r_,"
                        " const _cusci_rt *_part, int _nsplit)\n{\n", k->name, outct);
  typedefs(&b, k, pr);
  cusci__rtc_puts(&b, "  extern __shared__ __align__(16) unsigned char _cusci_smem[];\n"
                      "  _cusci_rt *_sv = (_cusci_rt *)_cusci_smem;\n"
                      "  bool *_sh = (bool *)(_sv + blockDim.x);\n"
                      "  for (long long _o = blockIdx.x; _o < _r_.nout; _o += gridDim.x) {\n");
  keep_offsets(&b, 0, arr_index, false);
  cusci__rtc_puts(&b, "    bool _have = false;\n    _cusci_rt _acc;\n"
                      "    for (int _s = threadIdx.x; _s < _nsplit; _s += blockDim.x) {\n"
                      "      _cusci_rt _v = _part[_o * _nsplit + _s];\n");
  combine(&b, k, "_acc", "_v", "_have", NULL, "      ");
  cusci__rtc_puts(&b, "    }\n");
  tree(&b, k, true);
  cusci__rtc_puts(&b, "    if (threadIdx.x == 0) {\n");
  post(&b, k, pr, "_ko[0]");
  cusci__rtc_puts(&b, "    }\n    __syncthreads();\n  }\n}\n");
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

/* --------------------------------------------------------------- calls */

static cusci_status prepare(cusci_ctx *ctx, const char *fn, cusci_reduction_kernel *k, int nin,
                            const cusci_operand *in, const cusci_reduce_opts *opts, cusci_array *given,
                            prepared *pr)
{
  CUSCI_ENTRY(ctx, fn, k);
  if (nin != k->in.n)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "the kernel takes %d inputs, and is given %d",
                          k->in.n, nin);
  if (nin > 0 && !in)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "in is NULL");
  cusci_array *outs[1] = {given};
  CUSCI_TRY(cusci__rtc_bind(ctx, fn, &k->in, in, &k->out, outs, &pr->bind, pr->in_dt, pr->out_dt));
  pr->rt = pr->out_dt[0];
  if (k->reduce_type) {
    if (strlen(k->reduce_type) == 1) {
      int t = pr->bind.t[(unsigned char)k->reduce_type[0]];
      if (t < 0)
        return cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "reduce_type %s is bound by no argument", k->reduce_type);
      pr->rt = (cusci_dtype)t;
    } else {
      for (int d = 0; d < CUSCI_N_DTYPES; d++)
        if (strcmp(k->reduce_type, cusci_dtype_name((cusci_dtype)d)) == 0)
          pr->rt = (cusci_dtype)d;
    }
  }
  const cusci_array *arrays[CUSCI__RTC_MAX_PARAMS];
  int n = 0;
  for (int i = 0; i < nin; i++) {
    pr->sig[i] = pr->in_dt[i];
    if (!in[i].array)
      pr->sig[i] |= SIG_SCALAR;
    else
      arrays[n++] = in[i].array;
  }
  pr->sig[nin] = pr->out_dt[0];
  pr->sig[nin + 1] = pr->rt;
  CUSCI_TRY(cusci__rtc_broadcast(ctx, fn, n, arrays, &pr->nd, pr->shape));
  int naxes = opts ? opts->naxes : 0;
  pr->keepdims = opts && opts->keepdims;
  if (naxes < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "opts->naxes is %d", naxes);
  if (naxes > 0 && !opts->axes)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "opts->axes is NULL with %d axes", naxes);
  for (int d = 0; d < pr->nd; d++)
    pr->reduced[d] = naxes == 0;
  for (int j = 0; j < naxes; j++) {
    int a = opts->axes[j];
    if (a < -pr->nd || a >= pr->nd)
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is out of range for %d dimensions", a, pr->nd);
    if (a < 0)
      a += pr->nd;
    if (pr->reduced[a])
      return cusci_ctx_fail(ctx, CUSCI_ERR_AXIS, fn, "axis %d is repeated", opts->axes[j]);
    pr->reduced[a] = true;
  }
  pr->out_nd = 0;
  for (int d = 0; d < pr->nd; d++) {
    if (!pr->reduced[d])
      pr->out_shape[pr->out_nd++] = pr->shape[d];
    else if (pr->keepdims)
      pr->out_shape[pr->out_nd++] = 1;
  }
  if (given) {
    bool same = given->ndim == pr->out_nd;
    for (int d = 0; same && d < pr->out_nd; d++)
      same = given->shape[d] == pr->out_shape[d];
    if (!same) {
      char s1[256], s2[256];
      return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "*out has shape %s, the result %s",
                            cusci_shape_str(given->ndim, given->shape, s1, sizeof s1),
                            cusci_shape_str(pr->out_nd, pr->out_shape, s2, sizeof s2));
    }
  }
  int64_t nred = 1, nout = 1;
  for (int d = 0; d < pr->nd; d++) {
    if (pr->reduced[d])
      nred *= pr->shape[d];
    else
      nout *= pr->shape[d];
  }
  if (nred == 0 && nout > 0 && !k->identity)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the reduction is over no elements and the kernel has no identity");
  for (int i = 0; i < nin; i++)
    if (!in[i].array) {
      unsigned char v[16];
      CUSCI_TRY(cusci__scalar_as(ctx, fn, k->in.p[i].name, &in[i], pr->in_dt[i], v));
    }
  return CUSCI_OK;
}

cusci_status cusci_reduction_kernel_source(cusci_ctx *ctx, cusci_reduction_kernel *k, int nin,
                                           const cusci_operand *in, const cusci_reduce_opts *opts,
                                           cusci_array *const *out, char **source)
{
  const char *fn = __func__;
  prepared pr;
  CUSCI_TRY(prepare(ctx, fn, k, nin, in, opts, out ? *out : NULL, &pr));
  if (!source)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "source is NULL");
  char *s = generate(k, &pr);
  if (!s)
    CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host memory for the source");
  *source = s;
  return CUSCI_OK;
}

cusci_status cusci_reduction_kernel_call(cusci_ctx *ctx, cusci_reduction_kernel *k, int nin,
                                         const cusci_operand *in, const cusci_reduce_opts *opts,
                                         cusci_array **out)
{
  const char *fn = __func__;
  if (ctx && !out)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "out is NULL");
  prepared pr;
  CUSCI_TRY(prepare(ctx, fn, k, nin, in, opts, out ? *out : NULL, &pr));
  cusci_kernel_opts o = {.arch = k->arch};
  int arch = 0;
  CUSCI_TRY(cusci__rtc_check_opts(ctx, fn, &o, &arch));
  if (ctx->device < 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_NOT_SUPPORTED, "users' kernels run on a GPU, and this is a host context");

  void *kernels[2] = {NULL, NULL};
  int nsig = nin + 2;
  pthread_mutex_lock(&k->lock);
  for (cusci__rtc_variant *v = k->variants; v; v = v->next)
    if (v->arch == arch && v->n == nsig && memcmp(v->sig, pr.sig, (size_t)nsig * sizeof *pr.sig) == 0) {
      kernels[0] = v->kernel[0];
      kernels[1] = v->kernel[1];
      break;
    }
  pthread_mutex_unlock(&k->lock);
  if (!kernels[0]) {
    char *src = generate(k, &pr);
    char final_name[256];
    snprintf(final_name, sizeof final_name, "%s_final", k->name);
    if (!src)
      CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host memory for the source");
    const char *names[2] = {k->name, final_name};
    cusci_status st = cusci__rtc_variant_get(ctx, fn, &k->lock, &k->variants, arch, nsig, pr.sig, src, k->nopt,
                                             (const char *const *)k->options, 2, names, kernels);
    free(src);
    CUSCI_TRY(st);
  }

  cusci_array *res = NULL;
  CUSCI_TRY(cusci_prepare_out(ctx, fn, out, pr.out_nd, pr.out_shape, pr.out_dt[0], &res));

  /* Strides: array inputs and the output over kept axes, inputs over reduced ones. */
  int na = 0, arr_index[CUSCI__RTC_MAX_PARAMS];
  for (int i = 0; i < nin; i++)
    if (in[i].array)
      arr_index[na++] = i;
  int64_t (*bst)[CUSCI_MAX_NDIM] = malloc(sizeof *bst * (size_t)(na + 1));
  int64_t (*kst)[CUSCI_MAX_NDIM] = malloc(sizeof *kst * (size_t)(na + 1));
  int64_t (*rst)[CUSCI_MAX_NDIM] = malloc(sizeof *rst * (size_t)(na + 1));
  int64_t (*mst)[CUSCI_MAX_NDIM] = malloc(sizeof *mst * (size_t)(na + 1));
  rarr *args = calloc((size_t)(na + 1), sizeof *args);
  red *r = calloc(1, sizeof *r);
  void **ptrs = malloc(sizeof *ptrs * (size_t)(nin + 4));
  unsigned char (*scal)[16] = malloc(16 * (size_t)(nin + 1));
  cusci_array *part = NULL;
  cusci_status st = CUSCI_OK;
  if (!bst || !kst || !rst || !mst || !args || !r || !ptrs || !scal)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the arguments");
  if (st == CUSCI_OK && res->size > 0) {
    for (int a = 0; a < na; a++)
      cusci__rtc_bstrides(in[arr_index[a]].array, pr.nd, pr.shape, bst[a]);
    int64_t kshape[CUSCI_MAX_NDIM], rshape[CUSCI_MAX_NDIM];
    int nk = 0, nr = 0, od = 0;
    for (int d = 0; d < pr.nd; d++) {
      if (pr.reduced[d]) {
        rshape[nr] = pr.shape[d];
        for (int a = 0; a < na; a++)
          rst[a][nr] = bst[a][d];
        nr++;
        if (pr.keepdims)
          od++;
      } else {
        kshape[nk] = pr.shape[d];
        for (int a = 0; a < na; a++)
          kst[a][nk] = bst[a][d];
        kst[na][nk] = res->strides[od++];
        nk++;
      }
    }
    r->nkeep = cusci__rtc_merge(nk, kshape, na + 1, kst, r->kshape, mst);
    for (int a = 0; a <= na; a++)
      memcpy(args[a].ks, mst[a], sizeof args[a].ks);
    r->nredd = cusci__rtc_merge(nr, rshape, na, rst, r->rshape, mst);
    for (int a = 0; a < na; a++)
      memcpy(args[a].rs, mst[a], sizeof args[a].rs);
    r->nout = 1;
    for (int d = 0; d < r->nkeep; d++)
      r->nout *= r->kshape[d];
    r->nred = 1;
    for (int d = 0; d < r->nredd; d++)
      r->nred *= r->rshape[d];
    for (int d = 0; d < nr; d++)
      if (rshape[d] == 0)
        r->nred = 0;

    /* Blocks along y when the outputs alone do not fill the GPU; each
     * slice keeps at least BLOCK elements so that its thread 0 has one. */
    int64_t target = (int64_t)cusci__rtc_sm_count(ctx) * 8;
    int64_t nsplit = 1;
    if (r->nout < target && r->nred >= 2 * 2048) {
      nsplit = (target + r->nout - 1) / r->nout;
      if (nsplit > r->nred / 2048)
        nsplit = r->nred / 2048;
      if (nsplit > 65535)
        nsplit = 65535;
      if (nsplit < 1)
        nsplit = 1;
    }
    size_t rsize = cusci_dtype_itemsize(pr.rt);
    size_t shmem = (BLOCK * (rsize + 1) + 15) / 16 * 16;
    if (nsplit > 1) {
      int64_t np = r->nout * nsplit;
      st = cusci__array_new(ctx, fn, 1, &np, pr.rt, &part);
    }
    for (int a = 0; a < na; a++)
      args[a].p = cusci_array_data(in[arr_index[a]].array);
    args[na].p = cusci_array_data(res);
    int a = 0;
    for (int i = 0; st == CUSCI_OK && i < nin; i++) {
      if (in[i].array) {
        ptrs[i] = &args[a++];
      } else {
        st = cusci__scalar_as(ctx, fn, k->in.p[i].name, &in[i], pr.in_dt[i], scal[i]);
        ptrs[i] = scal[i];
      }
    }
    void *partp = part ? cusci_array_data(part) : NULL;
    ptrs[nin] = &args[na];
    ptrs[nin + 1] = r;
    ptrs[nin + 2] = &partp;
    int64_t gx = r->nout < (1 << 20) ? r->nout : (1 << 20);
    unsigned grid[3] = {(unsigned)gx, (unsigned)nsplit, 1}, block[3] = {BLOCK, 1, 1};
    if (st == CUSCI_OK)
      st = cusci__rtc_launch(ctx, fn, kernels[0], grid, block, shmem, ptrs);
    if (st == CUSCI_OK && nsplit > 1) {
      int ns = (int)nsplit;
      void *p2[4] = {&args[na], r, &partp, &ns};
      unsigned g2[3] = {(unsigned)gx, 1, 1};
      st = cusci__rtc_launch(ctx, fn, kernels[1], g2, block, shmem, p2);
    }
  }
  cusci_array_release(part);
  free(bst);
  free(kst);
  free(rst);
  free(mst);
  free(args);
  free(r);
  free(ptrs);
  free(scal);
  if (st == CUSCI_OK) {
    *out = res;
  } else if (res != *out) {
    cusci_array_release(res);
  }
  return st;
}
