/*
 * libcore/rtc.c: CuPy's RawModule and RawKernel: compile (through the
 * caches), load lazily on the first GPU that asks, launch with arrays and
 * scalars as arguments.
 */
#include "libcore/rtc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference/core/reference.h"

struct cusci_raw_module {
  atomic_int refs;
  int arch;
  bool arch_given; /* the options name the architecture: no arch check */
  unsigned char *image;
  size_t len;
  pthread_mutex_t lock;
  void *lib; /* cudaLibrary_t, loaded on the first get_kernel */
};

struct cusci_raw_kernel {
  cusci_raw_module *m;
  void *kernel; /* cudaKernel_t */
};

/* ------------------------------------------------------------ options */

cusci_status cusci__rtc_check_opts(cusci_ctx *ctx, const char *fn, const cusci_kernel_opts *opts, int *arch)
{
  static const cusci_kernel_opts none;
  if (!opts)
    opts = &none;
  if (opts->n_options < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "opts->n_options is %d", opts->n_options);
  if (opts->n_options > 0 && !opts->options)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "opts->options is NULL with %d options",
                          opts->n_options);
  for (int i = 0; i < opts->n_options; i++)
    if (!opts->options[i])
      return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "opts->options[%d] is NULL", i);
  if (opts->arch < 0 || opts->arch > 10000)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn,
                          "opts->arch is %d, expected a compute capability such as 90, or 0", opts->arch);
  if (opts->arch > 0) {
    *arch = opts->arch;
    return CUSCI_OK;
  }
  if (ctx->device < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn,
                          "users' kernels run on a GPU, and this is a host context (opts->arch compiles without one)");
  return cusci__rtc_device_arch(ctx, fn, arch);
}

static bool names_arch(int nopt, const char *const *opts)
{
  for (int i = 0; i < nopt; i++)
    if (strncmp(opts[i], "-arch", 5) == 0 || strncmp(opts[i], "--gpu-architecture", 18) == 0)
      return true;
  return false;
}

/* --------------------------------------------------------- RawModule */

cusci_status cusci__rtc_module_new(cusci_ctx *ctx, const char *fn, const char *code, int nopt,
                                   const char *const *opts, int arch, cusci_raw_module **out)
{
  cusci_raw_module *m = calloc(1, sizeof *m);
  if (!m)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a module");
  cusci_status st = cusci__rtc_get_code(ctx, fn, code, nopt, opts, arch, &m->image, &m->len);
  if (st != CUSCI_OK) {
    free(m);
    return st;
  }
  atomic_init(&m->refs, 1);
  m->arch = arch;
  m->arch_given = names_arch(nopt, opts);
  pthread_mutex_init(&m->lock, NULL);
  *out = m;
  return CUSCI_OK;
}

cusci_status cusci_raw_module_create(cusci_ctx *ctx, const char *code, const cusci_kernel_opts *opts,
                                     cusci_raw_module **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, __func__, code);
  if (!out)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "out is NULL");
  int arch = 0;
  CUSCI_TRY(cusci__rtc_check_opts(ctx, fn, opts, &arch));
  return cusci__rtc_module_new(ctx, fn, code, opts ? opts->n_options : 0, opts ? opts->options : NULL, arch, out);
}

static void module_unref(cusci_raw_module *m)
{
  if (!m || atomic_fetch_sub(&m->refs, 1) != 1)
    return;
  cusci__rtc_unload(m->lib);
  pthread_mutex_destroy(&m->lock);
  free(m->image);
  free(m);
}

void cusci_raw_module_destroy(cusci_raw_module *m)
{
  module_unref(m);
}

int cusci_raw_module_arch(const cusci_raw_module *m)
{
  return m ? m->arch : 0;
}

cusci_status cusci__rtc_module_kernel(cusci_ctx *ctx, const char *fn, cusci_raw_module *m, const char *name,
                                      void **kernel)
{
  if (ctx->device < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_NOT_SUPPORTED, fn, "users' kernels run on a GPU, and this is a host context");
  if (!m->arch_given) {
    int arch = 0;
    CUSCI_TRY(cusci__rtc_device_arch(ctx, fn, &arch));
    if (arch != m->arch)
      return cusci_ctx_fail(ctx, CUSCI_ERR_DEVICE, fn, "the module is compiled for sm_%d, the context's GPU is sm_%d",
                            m->arch, arch);
  }
  cusci_status st = CUSCI_OK;
  pthread_mutex_lock(&m->lock);
  if (!m->lib)
    st = cusci__rtc_load(ctx, fn, m->image, &m->lib);
  pthread_mutex_unlock(&m->lock);
  if (st != CUSCI_OK)
    return st;
  return cusci__rtc_get_kernel(ctx, fn, m->lib, name, kernel);
}

cusci_status cusci_raw_module_get_kernel(cusci_ctx *ctx, cusci_raw_module *m, const char *name,
                                         cusci_raw_kernel **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, __func__, m, name, out);
  void *kernel = NULL;
  CUSCI_TRY(cusci__rtc_module_kernel(ctx, fn, m, name, &kernel));
  cusci_raw_kernel *k = malloc(sizeof *k);
  if (!k)
    CUSCI__FAIL(ctx, CUSCI_ERR_OUT_OF_MEMORY, "no host memory for a kernel");
  atomic_fetch_add(&m->refs, 1);
  k->m = m;
  k->kernel = kernel;
  *out = k;
  return CUSCI_OK;
}

/* --------------------------------------------------------- RawKernel */

cusci_status cusci_raw_kernel_create(cusci_ctx *ctx, const char *code, const char *name,
                                     const cusci_kernel_opts *opts, cusci_raw_kernel **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, __func__, code, name, out);
  int arch = 0;
  CUSCI_TRY(cusci__rtc_check_opts(ctx, fn, opts, &arch));
  if (ctx->device < 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_NOT_SUPPORTED, "users' kernels run on a GPU, and this is a host context");
  cusci_raw_module *m = NULL;
  CUSCI_TRY(cusci__rtc_module_new(ctx, fn, code, opts ? opts->n_options : 0, opts ? opts->options : NULL, arch, &m));
  void *kernel = NULL;
  cusci_status st = cusci__rtc_module_kernel(ctx, fn, m, name, &kernel);
  cusci_raw_kernel *k = st == CUSCI_OK ? malloc(sizeof *k) : NULL;
  if (st == CUSCI_OK && !k)
    st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a kernel");
  if (st != CUSCI_OK) {
    module_unref(m);
    return st;
  }
  k->m = m; /* the kernel holds the module's one reference */
  k->kernel = kernel;
  *out = k;
  return CUSCI_OK;
}

void cusci_raw_kernel_destroy(cusci_raw_kernel *k)
{
  if (!k)
    return;
  module_unref(k->m);
  free(k);
}

/* ------------------------------------------------------- arguments */

cusci_status cusci_raw_kernel_launch(cusci_ctx *ctx, cusci_raw_kernel *k, const unsigned grid[3],
                                     const unsigned block[3], size_t shared_mem, int nargs,
                                     const cusci_operand *args)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, __func__, k);
  if (nargs < 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "nargs is %d", nargs);
  if (nargs > 0 && !args)
    CUSCI__FAIL(ctx, CUSCI_ERR_NULL_POINTER, "args is NULL with %d arguments", nargs);
  static const unsigned ones[3] = {1, 1, 1};
  const unsigned *g = grid ? grid : ones, *b = block ? block : ones;
  for (int d = 0; d < 3; d++)
    if (g[d] == 0 || b[d] == 0)
      CUSCI__FAIL(ctx, CUSCI_ERR_INVALID_ARGUMENT, "%s[%d] is 0", g[d] == 0 ? "grid" : "block", d);
  if (ctx->device < 0)
    CUSCI__FAIL(ctx, CUSCI_ERR_NOT_SUPPORTED, "users' kernels run on a GPU, and this is a host context");
  /* Each argument's value in a 16-byte slot; CUDA copies them at launch. */
  unsigned char (*vals)[16] = malloc((size_t)(nargs ? nargs : 1) * 16);
  void **ptrs = malloc((size_t)(nargs ? nargs : 1) * sizeof *ptrs);
  cusci_status st = vals && ptrs ? CUSCI_OK : cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory");
  for (int i = 0; st == CUSCI_OK && i < nargs; i++) {
    char name[32];
    snprintf(name, sizeof name, "args[%d]", i);
    const cusci_operand *o = &args[i];
    ptrs[i] = vals[i];
    if (o->array) {
      st = cusci_check_array(ctx, fn, name, o->array);
      void *p = cusci_array_data(o->array);
      memcpy(vals[i], &p, sizeof p);
    } else {
      static const cusci_dtype python[4] = {CUSCI_BOOL, CUSCI_INT64, CUSCI_FLOAT64, CUSCI_COMPLEX128};
      cusci_dtype dt = o->kind == CUSCI_SCALAR_TYPED ? o->dtype
                       : (o->kind >= CUSCI_SCALAR_INT && o->kind <= CUSCI_SCALAR_COMPLEX) ? python[o->kind]
                                                                                          : CUSCI_BOOL;
      st = cusci__scalar_as(ctx, fn, name, o, dt, vals[i]);
    }
  }
  if (st == CUSCI_OK)
    st = cusci__rtc_launch(ctx, fn, k->kernel, g, b, shared_mem, ptrs);
  free(vals);
  free(ptrs);
  return st;
}

/* ---------------------------------------------------------- variants */

char *cusci__rtc_strdup(const char *s, bool *failed)
{
  if (!s)
    return NULL;
  char *d = malloc(strlen(s) + 1);
  if (!d)
    *failed = true;
  else
    strcpy(d, s);
  return d;
}

bool cusci__rtc_blank(const char *s)
{
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
    s++;
  return *s == '\0';
}

cusci_status cusci__rtc_check_static_opts(cusci_ctx *ctx, const char *fn, const cusci_kernel_opts *opts)
{
  cusci_kernel_opts o = opts ? *opts : (cusci_kernel_opts){0};
  if (o.arch == 0)
    o.arch = 1; /* only checked here, not used */
  int arch;
  return cusci__rtc_check_opts(ctx, fn, &o, &arch);
}

bool cusci__rtc_copy_options(const cusci_kernel_opts *opts, int *nopt, char ***options)
{
  *nopt = 0;
  *options = NULL;
  if (!opts || opts->n_options == 0)
    return true;
  char **o = calloc((size_t)opts->n_options, sizeof *o);
  if (!o)
    return false;
  bool failed = false;
  for (int i = 0; i < opts->n_options; i++)
    o[i] = cusci__rtc_strdup(opts->options[i], &failed);
  *options = o;
  *nopt = opts->n_options;
  return !failed;
}

void cusci__rtc_free_options(int nopt, char **options)
{
  for (int i = 0; i < nopt; i++)
    free(options[i]);
  free(options);
}

cusci_status cusci__rtc_variant_get(cusci_ctx *ctx, const char *fn, pthread_mutex_t *lock, cusci__rtc_variant **list,
                                    int arch, int n, const cusci_dtype *sig, const char *source, int nopt,
                                    const char *const *opts, int nnames, const char *const *names, void **kernels)
{
  pthread_mutex_lock(lock);
  cusci__rtc_variant *v = *list;
  for (; v; v = v->next)
    if (v->arch == arch && v->n == n && memcmp(v->sig, sig, (size_t)n * sizeof *sig) == 0)
      break;
  cusci_status st = CUSCI_OK;
  if (!v) {
    /* Compiled under the lock, so that threads meeting the same new
     * signature compile it once. */
    v = calloc(1, sizeof *v);
    if (!v)
      st = cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for a kernel variant");
    if (st == CUSCI_OK)
      st = cusci__rtc_module_new(ctx, fn, source, nopt, opts, arch, &v->module);
    for (int j = 0; st == CUSCI_OK && j < nnames; j++)
      st = cusci__rtc_module_kernel(ctx, fn, v->module, names[j], &v->kernel[j]);
    if (st != CUSCI_OK) {
      if (v)
        cusci_raw_module_destroy(v->module);
      free(v);
      pthread_mutex_unlock(lock);
      return st;
    }
    v->arch = arch;
    v->n = n;
    memcpy(v->sig, sig, (size_t)n * sizeof *sig);
    v->next = *list;
    *list = v;
  }
  for (int j = 0; j < nnames; j++)
    kernels[j] = v->kernel[j];
  pthread_mutex_unlock(lock);
  return CUSCI_OK;
}

void cusci__rtc_variants_free(cusci__rtc_variant *list)
{
  while (list) {
    cusci__rtc_variant *next = list->next;
    cusci_raw_module_destroy(list->module);
    free(list);
    list = next;
  }
}
