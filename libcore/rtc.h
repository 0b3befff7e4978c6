/*
 * libcore/rtc.h: what the files of users' own kernels share (rtc*.c).
 */
#ifndef CUSCI_LIBCORE_RTC_H
#define CUSCI_LIBCORE_RTC_H

#include "libcore/internal.h"

#include <pthread.h>

#include <cusci/kernel.h>

/* ------------------------------------------------- rtc_cuda.c: NVRTC + runtime */

/* NVRTC's version; CUSCI_ERR_NOT_SUPPORTED in a build without it. */
cusci_status cusci__rtc_nvrtc_version(int *major, int *minor);
/* Compile with NVRTC: a cubin (or NUL-terminated PTX when the options ask
 * for a virtual architecture) in *image (malloc'ed). `arch_opt` is the
 * architecture option added to the user's, or NULL. */
cusci_status cusci__rtc_nvrtc_compile(cusci_ctx *ctx, const char *fn, const char *code, int nopt,
                                      const char *const *opts, const char *arch_opt, unsigned char **image,
                                      size_t *len);
/* The compute capability of ctx's GPU as 90. */
cusci_status cusci__rtc_device_arch(cusci_ctx *ctx, const char *fn, int *arch);
/* cudaLibraryLoadData / cudaLibraryUnload / cudaLibraryGetKernel. */
cusci_status cusci__rtc_load(cusci_ctx *ctx, const char *fn, const void *image, void **lib);
void cusci__rtc_unload(void *lib);
cusci_status cusci__rtc_get_kernel(cusci_ctx *ctx, const char *fn, void *lib, const char *name, void **kernel);
/* cudaLaunchKernel on ctx's stream, with the larger dynamic shared memory
 * allowed when shared_mem asks for more than the default 48 KiB. */
cusci_status cusci__rtc_launch(cusci_ctx *ctx, const char *fn, void *kernel, const unsigned grid[3],
                               const unsigned block[3], size_t shared_mem, void **args);
/* The number of multiprocessors of ctx's GPU (at least 1). */
int cusci__rtc_sm_count(cusci_ctx *ctx);

/* ----------------------------------------------------- rtc_cache.c: the caches */

/* 128-bit FNV-1a of a buffer: two 64-bit hashes from different offsets. */
void cusci__rtc_hash128(const void *buf, size_t len, uint64_t out[2]);
/*
 * The code of (code, options, arch): from the memory cache, a valid disk
 * file, or NVRTC (then stored in both). *image is malloc'ed.
 */
cusci_status cusci__rtc_get_code(cusci_ctx *ctx, const char *fn, const char *code, int nopt,
                                 const char *const *opts, int arch, unsigned char **image, size_t *len);

/* ------------------------------------------------------- rtc.c: raw modules */

/* Check opts' options (n >= 0, none NULL) and arch; resolve the arch to
 * compile for. Does not fail on a host context when opts->arch is given. */
cusci_status cusci__rtc_check_opts(cusci_ctx *ctx, const char *fn, const cusci_kernel_opts *opts, int *arch);
/* A module compiled for `arch` (already resolved). */
cusci_status cusci__rtc_module_new(cusci_ctx *ctx, const char *fn, const char *code, int nopt,
                                   const char *const *opts, int arch, cusci_raw_module **out);
/* The kernel `name` of m on ctx's GPU (no new object: the handle). */
cusci_status cusci__rtc_module_kernel(cusci_ctx *ctx, const char *fn, cusci_raw_module *m, const char *name,
                                      void **kernel);

/* ------------------------------------------------- rtc_params.c: parameter lists */

#define CUSCI__RTC_MAX_PARAMS 64

typedef struct cusci__rtc_param {
  char name[64];
  bool raw;
  bool placeholder; /* type is the one letter `letter` */
  char letter;
  cusci_dtype dtype; /* when not a placeholder */
} cusci__rtc_param;

typedef struct cusci__rtc_params {
  int n;
  cusci__rtc_param p[CUSCI__RTC_MAX_PARAMS];
} cusci__rtc_params;

/* Parse a CuPy parameter list ("T x, raw float32 y"); an empty or NULL
 * list has no parameters. `which` names the list in messages. */
cusci_status cusci__rtc_parse_params(cusci_ctx *ctx, const char *fn, const char *which, const char *list,
                                     bool allow_raw, cusci__rtc_params *out);
/* True when s is a C identifier. */
bool cusci__rtc_is_identifier(const char *s);
/* The C++ type of a dtype in generated code. */
const char *cusci__rtc_ctype(cusci_dtype dt);

/* The dtype bound to each placeholder letter ('A'..'z'), or -1. */
typedef struct cusci__rtc_binding {
  int t[128];
} cusci__rtc_binding;

/*
 * Bind types: inputs (operands) then given outputs. in_dt/out_dt receive
 * each parameter's dtype. Outputs not given and of an unbound placeholder
 * are CUSCI_ERR_DTYPE.
 */
cusci_status cusci__rtc_bind(cusci_ctx *ctx, const char *fn, const cusci__rtc_params *in, const cusci_operand *args,
                             const cusci__rtc_params *outp, cusci_array *const *outs, cusci__rtc_binding *b,
                             cusci_dtype *in_dt, cusci_dtype *out_dt);

/* A growing string; on allocation failure `failed` is set and later
 * appends do nothing. */
typedef struct cusci__rtc_str {
  char *s;
  size_t len, cap;
  bool failed;
} cusci__rtc_str;
void cusci__rtc_puts(cusci__rtc_str *b, const char *s);
void cusci__rtc_printf(cusci__rtc_str *b, const char *fmt, ...) CUSCI_PRINTF_(2, 3);

/* The code every generated kernel starts with: float16 and complex types,
 * the strided operand, the loop's shape. */
extern const char cusci__rtc_prelude[];

/* The broadcast shape of the non-raw array operands among nargs (and of
 * given outputs), as ufuncs broadcast. */
cusci_status cusci__rtc_broadcast(cusci_ctx *ctx, const char *fn, int n, const cusci_array *const *arrays, int *ndim,
                                  int64_t *shape);

/* Merge neighbouring axes contiguous in all nops operands and drop extents
 * of 1, as cusci_loop_init for any number of operands; returns the new
 * ndim (0 when every extent is 1). */
int cusci__rtc_merge(int ndim, const int64_t *shape, int nops, int64_t (*st)[CUSCI_MAX_NDIM], int64_t *oshape,
                     int64_t (*ost)[CUSCI_MAX_NDIM]);
/* Element strides of `a` read as the broadcast shape (0 on broadcast axes). */
void cusci__rtc_bstrides(const cusci_array *a, int nd, const int64_t *shape, int64_t *strides);

/* Host images of the generated code's argument structs. */
typedef struct cusci__rtc_arr {
  void *p;
  int64_t st[CUSCI_MAX_NDIM];
} cusci__rtc_arr;
typedef struct cusci__rtc_rawarr {
  void *p;
  int64_t n;
  int ndim, contig;
  int64_t shape[CUSCI_MAX_NDIM], st[CUSCI_MAX_NDIM];
} cusci__rtc_rawarr;
typedef struct cusci__rtc_shape {
  int64_t n;
  int ndim, contig;
  int64_t shape[CUSCI_MAX_NDIM];
} cusci__rtc_shape;

/* A raw array argument. */
void cusci__rtc_raw_arg(const cusci_array *a, cusci__rtc_rawarr *r);

/* A variant: one compiled module for a dtype signature and architecture. */
typedef struct cusci__rtc_variant {
  int arch;
  int n;
  cusci_dtype sig[2 * CUSCI__RTC_MAX_PARAMS + 1];
  cusci_raw_module *module;
  void *kernel[2];
  struct cusci__rtc_variant *next;
} cusci__rtc_variant;

/*
 * The kernels `names` (nnames <= 2) of the variant (arch, sig) in *list,
 * compiling `source` on the first call (list guarded by lock).
 */
cusci_status cusci__rtc_variant_get(cusci_ctx *ctx, const char *fn, pthread_mutex_t *lock, cusci__rtc_variant **list,
                                    int arch, int n, const cusci_dtype *sig, const char *source, int nopt,
                                    const char *const *opts, int nnames, const char *const *names, void **kernels);
void cusci__rtc_variants_free(cusci__rtc_variant *list);
/* A malloc'ed copy of s (NULL stays NULL); *failed set on no memory. */
char *cusci__rtc_strdup(const char *s, bool *failed);
/* Whether s holds white space alone. */
bool cusci__rtc_blank(const char *s);
/* The checks of a kernel's opts that need no device (the arch is resolved
 * at each call): what ElementwiseKernel and ReductionKernel check when
 * they are made. */
cusci_status cusci__rtc_check_static_opts(cusci_ctx *ctx, const char *fn, const cusci_kernel_opts *opts);
/* A kernel's own copy of opts' NVRTC options (none for NULL opts); false
 * on no memory, with what was copied in *nopt, *options for
 * cusci__rtc_free_options. */
bool cusci__rtc_copy_options(const cusci_kernel_opts *opts, int *nopt, char ***options);
void cusci__rtc_free_options(int nopt, char **options);

#endif
