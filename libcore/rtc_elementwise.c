/*
 * libcore/rtc_elementwise.c: CuPy's ElementwiseKernel.
 *
 * A call binds the parameters' types from its arguments, broadcasts the
 * non-raw arrays, and runs one generated kernel, compiled once per dtype
 * signature (and per scalar-or-array shape of the arguments) and
 * architecture. The generated kernel walks the flat C-order index `i` of
 * the broadcast shape with a grid-stride loop; when every operand is
 * contiguous it indexes directly, otherwise it splits `i` over the merged
 * axes.
 */
#include "libcore/rtc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cusci_elementwise_kernel {
  cusci__rtc_params in, out;
  char *operation, *name, *preamble, *loop_prep, *after_loop;
  int nopt;
  char **options;
  int arch; /* opts->arch */
  pthread_mutex_t lock;
  cusci__rtc_variant *variants;
};

void cusci_elementwise_kernel_destroy(cusci_elementwise_kernel *k)
{
  if (!k)
    return;
  cusci__rtc_variants_free(k->variants);
  pthread_mutex_destroy(&k->lock);
  cusci__rtc_free_options(k->nopt, k->options);
  free(k->operation);
  free(k->name);
  free(k->preamble);
  free(k->loop_prep);
  free(k->after_loop);
  free(k);
}

cusci_status cusci_elementwise_kernel_create(cusci_ctx *ctx, const char *in_params, const char *out_params,
                                             const char *operation, const char *name,
                                             const cusci_kernel_opts *opts, cusci_elementwise_kernel **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY_CTX(ctx, fn);
  if (!operation || !out)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "%s is NULL", !operation ? "operation" : "out");
  CUSCI_TRY(cusci__rtc_check_static_opts(ctx, fn, opts));
  if (!name)
    name = "kernel";
  if (!cusci__rtc_is_identifier(name))
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "name \"%s\" is not a C identifier", name);
  if (cusci__rtc_blank(operation))
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "operation is empty");
  cusci_elementwise_kernel *k = calloc(1, sizeof *k);
  if (!k)
    CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host memory for a kernel");
  pthread_mutex_init(&k->lock, NULL);
  cusci_status st = cusci__rtc_parse_params(ctx, fn, "in_params", in_params, true, &k->in);
  if (st == CUSCI_OK)
    st = cusci__rtc_parse_params(ctx, fn, "out_params", out_params, true, &k->out);
  if (st == CUSCI_OK && k->out.n == 0)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "out_params has no parameter");
  for (int i = 0; st == CUSCI_OK && i < k->in.n; i++)
    for (int j = 0; j < k->out.n; j++)
      if (strcmp(k->in.p[i].name, k->out.p[j].name) == 0) {
        st = cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "the name \"%s\" is both an input and an output",
                            k->in.p[i].name);
        break;
      }
  if (st == CUSCI_OK) {
    bool failed = false;
    k->operation = cusci__rtc_strdup(operation, &failed);
    k->name = cusci__rtc_strdup(name, &failed);
    if (opts) {
      k->preamble = cusci__rtc_strdup(opts->preamble, &failed);
      k->loop_prep = cusci__rtc_strdup(opts->loop_prep, &failed);
      k->after_loop = cusci__rtc_strdup(opts->after_loop, &failed);
      k->arch = opts->arch;
    }
    if (!cusci__rtc_copy_options(opts, &k->nopt, &k->options) || failed)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the kernel's text");
  }
  if (st != CUSCI_OK) {
    cusci_elementwise_kernel_destroy(k);
    return st;
  }
  *out = k;
  return CUSCI_OK;
}

int cusci_elementwise_kernel_nin(const cusci_elementwise_kernel *k)
{
  return k ? k->in.n : 0;
}

int cusci_elementwise_kernel_nout(const cusci_elementwise_kernel *k)
{
  return k ? k->out.n : 0;
}

/* --------------------------------------------------------- the source */

enum { SIG_SCALAR = 0x100, SIG_RAW = 0x200 };

/* typedef lines for every placeholder the parameters use. */
static void typedefs(cusci__rtc_str *b, const cusci__rtc_params *in, const cusci__rtc_params *out,
                     const cusci__rtc_binding *bind)
{
  bool done[128] = {false};
  const cusci__rtc_params *lists[2] = {in, out};
  for (int l = 0; l < 2; l++)
    for (int i = 0; i < lists[l]->n; i++) {
      const cusci__rtc_param *p = &lists[l]->p[i];
      int c = (unsigned char)p->letter;
      if (!p->placeholder || done[c] || bind->t[c] < 0)
        continue;
      done[c] = true;
      cusci__rtc_printf(b, "  typedef %s %c;\n", cusci__rtc_ctype((cusci_dtype)bind->t[c]), p->letter);
    }
}

static char *generate(const cusci_elementwise_kernel *k, const cusci_dtype *sig, const cusci__rtc_binding *bind)
{
  cusci__rtc_str b = {0};
  cusci__rtc_puts(&b, cusci__rtc_prelude);
  if (k->preamble) {
    cusci__rtc_puts(&b, k->preamble);
    cusci__rtc_puts(&b, "\n");
  }
  cusci__rtc_printf(&b, "extern \"C\" __global__ void %s(", k->name);
  int nin = k->in.n, nout = k->out.n;
  for (int i = 0; i < nin; i++) {
    const cusci__rtc_param *p = &k->in.p[i];
    const char *ct = cusci__rtc_ctype((cusci_dtype)(sig[i] & 0xff));
    if (sig[i] & SIG_RAW)
      cusci__rtc_printf(&b, "const _cusci_raw<%s> %s, ", ct, p->name);
    else if (sig[i] & SIG_SCALAR)
      cusci__rtc_printf(&b, "const %s %s, ", ct, p->name);
    else
      cusci__rtc_printf(&b, "const _cusci_arr<%s> _in%d, ", ct, i);
  }
  for (int j = 0; j < nout; j++) {
    const char *ct = cusci__rtc_ctype((cusci_dtype)(sig[nin + j] & 0xff));
    if (k->out.p[j].raw)
      cusci__rtc_printf(&b, "const _cusci_raw<%s> %s, ", ct, k->out.p[j].name);
    else
      cusci__rtc_printf(&b, "const _cusci_arr<%s> _out%d, ", ct, j);
  }
  cusci__rtc_puts(&b, "const _cusci_shape _ind)\n{\n");
  typedefs(&b, &k->in, &k->out, bind);
  if (k->loop_prep)
    cusci__rtc_printf(&b, "  %s\n", k->loop_prep);
  /* The strided operands, in order: non-raw array inputs, then non-raw outputs. */
  int na = 0;
  for (int i = 0; i < nin; i++)
    na += !(sig[i] & (SIG_RAW | SIG_SCALAR));
  for (int j = 0; j < nout; j++)
    na += !k->out.p[j].raw;
  cusci__rtc_puts(&b, "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < _ind.n;"
                      " i += (long long)blockDim.x * gridDim.x) {\n");
  if (na > 0) {
    cusci__rtc_printf(&b, "    long long _cusci_o[%d];\n", na);
    cusci__rtc_printf(&b, "    if (_ind.contig) {\n      for (int _k = 0; _k < %d; _k++) _cusci_o[_k] = i;\n", na);
    /* One strided axis needs no division. */
    cusci__rtc_puts(&b, "    } else if (_ind.ndim == 1) {\n");
    {
      int a = 0;
      for (int i = 0; i < nin; i++)
        if (!(sig[i] & (SIG_RAW | SIG_SCALAR)))
          cusci__rtc_printf(&b, "      _cusci_o[%d] = i * _in%d.st[0];\n", a++, i);
      for (int j = 0; j < nout; j++)
        if (!k->out.p[j].raw)
          cusci__rtc_printf(&b, "      _cusci_o[%d] = i * _out%d.st[0];\n", a++, j);
    }
    cusci__rtc_printf(&b, "    } else {\n      for (int _k = 0; _k < %d; _k++) _cusci_o[_k] = 0;\n", na);
    cusci__rtc_puts(&b, "      long long _r = i;\n"
                        "      for (int _d = _ind.ndim - 1; _d >= 0; _d--) {\n"
                        "        long long _q = _r / _ind.shape[_d], _x = _r - _q * _ind.shape[_d];\n"
                        "        _r = _q;\n");
    int a = 0;
    for (int i = 0; i < nin; i++)
      if (!(sig[i] & (SIG_RAW | SIG_SCALAR)))
        cusci__rtc_printf(&b, "        _cusci_o[%d] += _x * _in%d.st[_d];\n", a++, i);
    for (int j = 0; j < nout; j++)
      if (!k->out.p[j].raw)
        cusci__rtc_printf(&b, "        _cusci_o[%d] += _x * _out%d.st[_d];\n", a++, j);
    cusci__rtc_puts(&b, "      }\n    }\n");
    a = 0;
    for (int i = 0; i < nin; i++)
      if (!(sig[i] & (SIG_RAW | SIG_SCALAR))) {
        const char *ct = cusci__rtc_ctype((cusci_dtype)(sig[i] & 0xff));
        const cusci__rtc_param *p = &k->in.p[i];
        char t[2] = {p->letter, 0};
        cusci__rtc_printf(&b, "    const %s %s = _in%d.p[_cusci_o[%d]];\n", p->placeholder ? t : ct, p->name, i, a++);
      }
    for (int j = 0; j < nout; j++)
      if (!k->out.p[j].raw) {
        const char *ct = cusci__rtc_ctype((cusci_dtype)(sig[nin + j] & 0xff));
        const cusci__rtc_param *p = &k->out.p[j];
        char t[2] = {p->letter, 0};
        cusci__rtc_printf(&b, "    %s &%s = _out%d.p[_cusci_o[%d]];\n", p->placeholder ? t : ct, p->name, j, a++);
      }
  }
  cusci__rtc_printf(&b, "    %s;\n  }\n", k->operation);
  if (k->after_loop)
    cusci__rtc_printf(&b, "  %s\n", k->after_loop);
  cusci__rtc_puts(&b, "}\n");
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

/* --------------------------------------------------------------- calls */

typedef struct prepared {
  cusci_dtype in_dt[CUSCI__RTC_MAX_PARAMS], out_dt[CUSCI__RTC_MAX_PARAMS];
  cusci_dtype sig[2 * CUSCI__RTC_MAX_PARAMS];
  cusci__rtc_binding bind;
  int nd;
  int64_t shape[CUSCI_MAX_NDIM];
} prepared;

/* Everything a call checks, up to the dtype signature and the shape. */
static cusci_status prepare(cusci_ctx *ctx, const char *fn, cusci_elementwise_kernel *k, int nin,
                            const cusci_operand *in, int nout, cusci_array *const *out, prepared *pr)
{
  CUSCI_ENTRY(ctx, fn, k);
  if (nin != k->in.n || nout != k->out.n)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn,
                          "the kernel takes %d inputs and %d outputs, and is given %d and %d", k->in.n, k->out.n,
                          nin, nout);
  if ((nin > 0 && !in) || !out)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "%s is NULL", !out ? "out" : "in");
  CUSCI_TRY(cusci__rtc_bind(ctx, fn, &k->in, in, &k->out, out, &pr->bind, pr->in_dt, pr->out_dt));
  const cusci_array *arrays[2 * CUSCI__RTC_MAX_PARAMS];
  int n = 0;
  for (int i = 0; i < nin; i++) {
    pr->sig[i] = pr->in_dt[i];
    if (!in[i].array)
      pr->sig[i] |= SIG_SCALAR;
    else if (k->in.p[i].raw)
      pr->sig[i] |= SIG_RAW;
    else
      arrays[n++] = in[i].array;
  }
  for (int j = 0; j < nout; j++) {
    pr->sig[nin + j] = pr->out_dt[j];
    if (k->out.p[j].raw && !out[j])
      return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "output %s is raw and must be given",
                            k->out.p[j].name);
    if (out[j] && !k->out.p[j].raw)
      arrays[n++] = out[j];
  }
  if (n == 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "no non-raw array argument to take the shape from");
  CUSCI_TRY(cusci__rtc_broadcast(ctx, fn, n, arrays, &pr->nd, pr->shape));
  for (int j = 0; j < nout; j++) {
    const cusci_array *o = out[j];
    if (!o || k->out.p[j].raw)
      continue;
    bool same = o->ndim == pr->nd;
    for (int d = 0; same && d < pr->nd; d++)
      same = o->shape[d] == pr->shape[d];
    if (!same) {
      char s1[256], s2[256];
      return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "output %s has shape %s, the broadcast shape is %s",
                            k->out.p[j].name, cusci_shape_str(o->ndim, o->shape, s1, sizeof s1),
                            cusci_shape_str(pr->nd, pr->shape, s2, sizeof s2));
    }
  }
  /* Python ints must fit the type they take. */
  for (int i = 0; i < nin; i++)
    if (!in[i].array) {
      unsigned char v[16];
      CUSCI_TRY(cusci__scalar_as(ctx, fn, k->in.p[i].name, &in[i], pr->in_dt[i], v));
    }
  return CUSCI_OK;
}

cusci_status cusci_elementwise_kernel_source(cusci_ctx *ctx, cusci_elementwise_kernel *k, int nin,
                                             const cusci_operand *in, int nout, cusci_array *const *out,
                                             char **source)
{
  const char *fn = __func__;
  prepared pr;
  CUSCI_TRY(prepare(ctx, fn, k, nin, in, nout, out, &pr));
  if (!source)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "source is NULL");
  char *s = generate(k, pr.sig, &pr.bind);
  if (!s)
    CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host memory for the source");
  *source = s;
  return CUSCI_OK;
}

cusci_status cusci_elementwise_kernel_call(cusci_ctx *ctx, cusci_elementwise_kernel *k, int nin,
                                           const cusci_operand *in, int nout, cusci_array **out)
{
  const char *fn = __func__;
  prepared pr;
  CUSCI_TRY(prepare(ctx, fn, k, nin, in, nout, out, &pr));
  cusci_kernel_opts o = {.arch = k->arch};
  int arch = 0;
  CUSCI_TRY(cusci__rtc_check_opts(ctx, fn, &o, &arch));
  if (ctx->device < 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_NOT_SUPPORTED, "users' kernels run on a GPU, and this is a host context");

  void *kernel = NULL;
  {
    pthread_mutex_lock(&k->lock);
    cusci__rtc_variant *v = k->variants;
    for (; v; v = v->next)
      if (v->arch == arch && v->n == nin + nout && memcmp(v->sig, pr.sig, (size_t)(nin + nout) * sizeof *pr.sig) == 0)
        break;
    if (v)
      kernel = v->kernel[0];
    pthread_mutex_unlock(&k->lock);
  }
  if (!kernel) {
    char *src = generate(k, pr.sig, &pr.bind);
    if (!src)
      CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host memory for the source");
    const char *names[1] = {k->name};
    cusci_status st = cusci__rtc_variant_get(ctx, fn, &k->lock, &k->variants, arch, nin + nout, pr.sig, src,
                                             k->nopt, (const char *const *)k->options, 1, names, &kernel);
    free(src);
    CUSCI_TRY(st);
  }

  /* Outputs. */
  cusci_array *res[CUSCI__RTC_MAX_PARAMS] = {NULL};
  cusci_status st = CUSCI_OK;
  for (int j = 0; st == CUSCI_OK && j < nout; j++) {
    if (k->out.p[j].raw)
      res[j] = out[j]; /* given, of any shape */
    else
      st = cusci_prepare_out(ctx, fn, &out[j], pr.nd, pr.shape, pr.out_dt[j], &res[j]);
  }

  /* Arguments. */
  int64_t size = 1;
  for (int d = 0; d < pr.nd; d++)
    size *= pr.shape[d];
  int na = 0, nargs = nin + nout + 1;
  int64_t (*st_in)[CUSCI_MAX_NDIM] = malloc(sizeof *st_in * (size_t)(nin + nout));
  int64_t (*st_m)[CUSCI_MAX_NDIM] = malloc(sizeof *st_m * (size_t)(nin + nout));
  void **ptrs = malloc(sizeof *ptrs * (size_t)nargs);
  cusci__rtc_rawarr *slots = malloc(sizeof *slots * (size_t)nargs); /* big enough for every kind */
  if (st == CUSCI_OK && (!st_in || !st_m || !ptrs || !slots))
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for the arguments");
  if (st == CUSCI_OK && size > 0) {
    for (int i = 0; i < nin; i++)
      if (!(pr.sig[i] & (SIG_RAW | SIG_SCALAR)))
        cusci__rtc_bstrides(in[i].array, pr.nd, pr.shape, st_in[na++]);
    for (int j = 0; j < nout; j++)
      if (!k->out.p[j].raw)
        cusci__rtc_bstrides(res[j], pr.nd, pr.shape, st_in[na++]);
    cusci__rtc_shape *sh = (cusci__rtc_shape *)&slots[nargs - 1];
    memset(sh, 0, sizeof *sh);
    sh->n = size;
    sh->ndim = cusci__rtc_merge(pr.nd, pr.shape, na, st_in, sh->shape, st_m);
    if (sh->ndim == 0) {
      sh->ndim = 1;
      sh->shape[0] = size;
      for (int a = 0; a < na; a++)
        st_m[a][0] = 1;
    }
    sh->contig = sh->ndim == 1;
    for (int a = 0; a < na; a++)
      sh->contig = sh->contig && st_m[a][0] == 1;
    int a = 0;
    for (int i = 0; st == CUSCI_OK && i < nin; i++) {
      void *slot = &slots[i];
      memset(slot, 0, sizeof slots[i]);
      if (pr.sig[i] & SIG_SCALAR) {
        st = cusci__scalar_as(ctx, fn, k->in.p[i].name, &in[i], pr.in_dt[i], slot);
      } else if (pr.sig[i] & SIG_RAW) {
        cusci__rtc_raw_arg(in[i].array, slot);
      } else {
        cusci__rtc_arr *r = slot;
        r->p = cusci_array_data(in[i].array);
        memcpy(r->st, st_m[a++], sizeof r->st);
      }
      ptrs[i] = slot;
    }
    for (int j = 0; j < nout; j++) {
      void *slot = &slots[nin + j];
      memset(slot, 0, sizeof slots[nin + j]);
      if (k->out.p[j].raw) {
        cusci__rtc_raw_arg(res[j], slot);
      } else {
        cusci__rtc_arr *r = slot;
        r->p = cusci_array_data(res[j]);
        memcpy(r->st, st_m[a++], sizeof r->st);
      }
      ptrs[nin + j] = slot;
    }
    ptrs[nargs - 1] = sh;
    if (st == CUSCI_OK) {
      int64_t blocks = (size + 255) / 256, cap = (int64_t)cusci__rtc_sm_count(ctx) * 16;
      unsigned grid[3] = {(unsigned)(blocks < cap ? blocks : cap), 1, 1}, block[3] = {256, 1, 1};
      st = cusci__rtc_launch(ctx, fn, kernel, grid, block, 0, ptrs);
    }
  }
  free(st_in);
  free(st_m);
  free(ptrs);
  free(slots);
  for (int j = 0; j < nout; j++) {
    if (st == CUSCI_OK && !out[j])
      out[j] = res[j];
    else if (res[j] && res[j] != out[j])
      cusci_array_release(res[j]);
  }
  return st;
}
