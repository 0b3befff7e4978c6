/*
 * cusci/kernel.h: users' own kernels, compiled at run time (CuPy's
 * RawModule, RawKernel, ElementwiseKernel and ReductionKernel).
 *
 * CUDA C++ source is compiled by NVRTC for the compute capability of the
 * context's GPU (`-arch=sm_XY`, unless the options name an architecture)
 * and loaded through the CUDA runtime. Compiled code is cached:
 *  - in memory, for the whole process (thread safe);
 *  - on disk, in the directory named by the environment variable
 *    CUSCI_CACHE_DIR, by default $XDG_CACHE_HOME/cusci or
 *    $HOME/.cache/cusci. A file is keyed by a hash of the source, the
 *    options, NVRTC's version and the architecture; it holds a header with
 *    the full key and a checksum, and one that does not match (corrupt,
 *    truncated, of another key) is ignored and rewritten. Files are written
 *    to a temporary name in the same directory and renamed, so a reader
 *    never sees half a file. A cache directory that cannot be written only
 *    costs the compile next time.
 *
 * A compile error is CUSCI_ERR_COMPILE with NVRTC's log in the context's
 * message. Launching needs a GPU: on a host context, and in a build
 * without CUDA or NVRTC, launches and calls are CUSCI_ERR_NOT_SUPPORTED.
 * Kernel objects are not tied to a context: one compiled for one GPU's
 * architecture is compiled again, once, for another. They may be used from
 * several threads.
 */
#ifndef CUSCI_KERNEL_H
#define CUSCI_KERNEL_H

#include <cusci/compute.h>
#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Options shared by the kernel objects; the zero value (or NULL) is CuPy's
 * default.
 */
typedef struct cusci_kernel_opts {
  int n_options;               /* entries of options */
  const char *const *options;  /* NVRTC options, e.g. "-DN=4", "--use_fast_math" */
  int arch;                    /* compute capability as 90 (9.0); 0: the context's GPU */
  const char *preamble;        /* Elementwise/ReductionKernel: code before the kernel */
  const char *loop_prep;       /* ElementwiseKernel: code before the element loop */
  const char *after_loop;      /* ElementwiseKernel: code after the element loop */
  const char *reduce_type;     /* ReductionKernel: the accumulator's type (a dtype name
                                  or a placeholder); NULL: the output's type */
} cusci_kernel_opts;

/* ------------------------------------------------------------ RawModule */

typedef struct cusci_raw_module cusci_raw_module;
typedef struct cusci_raw_kernel cusci_raw_kernel;

/*
 * cupy.RawModule(code=code, options=options): compile CUDA C++ `code`
 * (NUL-terminated, host memory) for opts->arch, or the context's GPU when
 * that is 0. Kernels to be found by name must be `extern "C"`.
 * On a host context an explicit opts->arch compiles (no GPU is needed to
 * compile); getting a kernel then needs a GPU context.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT
 * (n_options < 0, a NULL option, arch < 0), CUSCI_ERR_COMPILE (NVRTC's log
 * in the message), CUSCI_ERR_NOT_SUPPORTED (a host context with arch 0, a
 * build without CUDA or NVRTC), CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_raw_module_create(cusci_ctx *ctx, const char *code, const cusci_kernel_opts *opts,
                                               cusci_raw_module **out);
/* Destroy a module; its kernels stay usable until they are destroyed too.
 * NULL: no-op. */
CUSCI_API void cusci_raw_module_destroy(cusci_raw_module *m);
/* The compute capability the module was compiled for (90 for 9.0). */
CUSCI_API int cusci_raw_module_arch(const cusci_raw_module *m);
/*
 * RawModule.get_function(name): the kernel `name` of m, loaded on the
 * context's GPU, as a new kernel object (destroy it after use).
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT (no
 * kernel of that name), CUSCI_ERR_DEVICE (the context's GPU is of another
 * architecture than the module's), CUSCI_ERR_NOT_SUPPORTED (a host
 * context), CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_raw_module_get_kernel(cusci_ctx *ctx, cusci_raw_module *m, const char *name,
                                                   cusci_raw_kernel **out);

/* ------------------------------------------------------------ RawKernel */

/*
 * cupy.RawKernel(code, name, options): compile `code` for the context's
 * GPU and take its `extern "C"` kernel `name`. Returns the statuses of
 * cusci_raw_module_create and cusci_raw_module_get_kernel.
 */
CUSCI_API cusci_status cusci_raw_kernel_create(cusci_ctx *ctx, const char *code, const char *name,
                                               const cusci_kernel_opts *opts, cusci_raw_kernel **out);
/* NULL: no-op. */
CUSCI_API void cusci_raw_kernel_destroy(cusci_raw_kernel *k);

/*
 * kernel(grid, block, args, shared_mem=shared_mem): launch on the
 * context's stream. grid and block are 3 extents each (host memory;
 * NULL: 1, 1, 1). Each argument is an operand (cusci/compute.h): an array
 * passes its data pointer (the address of its first element; the kernel
 * indexes it with the array's own strides); a scalar passes by value with
 * its C type, CuPy's way: cusci_operand_int as long long,
 * cusci_operand_float as double, cusci_operand_complex as two doubles,
 * cusci_operand_scalar(dtype, v) as that dtype (bool as bool, float16 as
 * its 16 bits). The kernel's parameters must match: the call cannot check
 * them, as CUDA cannot.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT
 * (nargs < 0, a zero extent, shared_mem beyond what the GPU allows),
 * CUSCI_ERR_DEVICE, CUSCI_ERR_DTYPE, CUSCI_ERR_NOT_SUPPORTED (a host
 * context), CUSCI_ERR_CUDA (the launch failed).
 */
CUSCI_API cusci_status cusci_raw_kernel_launch(cusci_ctx *ctx, cusci_raw_kernel *k, const unsigned grid[3],
                                               const unsigned block[3], size_t shared_mem, int nargs,
                                               const cusci_operand *args);

/* ---------------------------------------------------- ElementwiseKernel */

typedef struct cusci_elementwise_kernel cusci_elementwise_kernel;

/*
 * cupy.ElementwiseKernel(in_params, out_params, operation, name, ...).
 * Parameter lists are CuPy's: comma-separated "[raw] TYPE NAME", where TYPE
 * is a NumPy dtype name ("float32") or a one-letter type placeholder ("T")
 * bound by the arguments at each call. `operation` is C++ code run for
 * each element index `i`, in which each non-raw parameter names its
 * element (inputs read-only, outputs assignable), and a raw parameter is
 * the whole array, indexed by a flat C-order index. `name` is the
 * kernel's name (NULL: "kernel"). opts: preamble, loop_prep, after_loop,
 * options, arch. Only the lists are checked here: no compile happens until
 * a call meets a new dtype signature, so creation works on a host context.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT (a
 * malformed parameter list: a missing type or name, an unknown keyword, a
 * name used twice or reserved, an empty operation; a name that is not an
 * identifier), CUSCI_ERR_DTYPE (a type that is neither a dtype name nor one
 * letter), CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_elementwise_kernel_create(cusci_ctx *ctx, const char *in_params, const char *out_params,
                                                       const char *operation, const char *name,
                                                       const cusci_kernel_opts *opts,
                                                       cusci_elementwise_kernel **out);
/* NULL: no-op. */
CUSCI_API void cusci_elementwise_kernel_destroy(cusci_elementwise_kernel *k);
/* Number of input and output parameters. */
CUSCI_API int cusci_elementwise_kernel_nin(const cusci_elementwise_kernel *k);
CUSCI_API int cusci_elementwise_kernel_nout(const cusci_elementwise_kernel *k);

/*
 * kernel(*in, *out): `in` holds nin operands (arrays or scalars), `out`
 * nout array pointers, each NULL (allocated: the broadcast shape, the
 * dtype its type names) or given (written; of the broadcast shape and
 * exactly its type). Non-raw arrays broadcast together (outputs too, which
 * must have the broadcast shape); raw arrays do not. Types: a dtype-named
 * array parameter takes exactly that dtype; a placeholder is bound by the
 * first array or typed scalar given for it, and every other array of that
 * placeholder must match; Python scalars (cusci_operand_int, ...) take the
 * type of their parameter, or bind an unbound placeholder to int64,
 * float64 or complex128. One variant is compiled per dtype signature and
 * architecture, and kept. On success each out[j] that was NULL holds a new
 * array. A failing call leaves out as it was.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT
 * (nin or nout not the kernel's), CUSCI_ERR_DEVICE, CUSCI_ERR_DTYPE (an
 * array of another dtype than its parameter's, a placeholder bound two
 * ways, an output type nothing binds, a raw parameter given a scalar),
 * CUSCI_ERR_BROADCAST, CUSCI_ERR_SHAPE (a given output of another shape,
 * or no array to take the shape from), CUSCI_ERR_OVERFLOW (a Python int
 * out of range of its type), CUSCI_ERR_COMPILE, CUSCI_ERR_NOT_SUPPORTED (a
 * host context), CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_elementwise_kernel_call(cusci_ctx *ctx, cusci_elementwise_kernel *k, int nin,
                                                     const cusci_operand *in, int nout, cusci_array **out);
/*
 * The CUDA C++ source that cusci_elementwise_kernel_call would compile for
 * these arguments (all checks done, nothing compiled or launched; works on
 * a host context). *source is malloc'ed: release it with free().
 * Returns the statuses of the call but CUSCI_ERR_COMPILE,
 * CUSCI_ERR_NOT_SUPPORTED and CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_elementwise_kernel_source(cusci_ctx *ctx, cusci_elementwise_kernel *k, int nin,
                                                       const cusci_operand *in, int nout, cusci_array *const *out,
                                                       char **source);

/* ------------------------------------------------------ ReductionKernel */

typedef struct cusci_reduction_kernel cusci_reduction_kernel;

/*
 * cupy.ReductionKernel(in_params, out_params, map_expr, reduce_expr,
 * post_map_expr, identity, name, reduce_type, preamble, options).
 * in_params and out_params as ElementwiseKernel's, without raw; exactly
 * one output. map_expr maps the inputs' elements (by their names) to a
 * value of the reduce type; reduce_expr combines two such values `a` and
 * `b`; post_map_expr (NULL: "<out> = a") writes the output from the
 * reduced value `a`; identity is the reduce type's starting value (NULL:
 * none, so that reducing nothing is an error). reduce_type in opts (NULL:
 * the output's type). Checked as ElementwiseKernel's lists.
 */
CUSCI_API cusci_status cusci_reduction_kernel_create(cusci_ctx *ctx, const char *in_params, const char *out_params,
                                                     const char *map_expr, const char *reduce_expr,
                                                     const char *post_map_expr, const char *identity,
                                                     const char *name, const cusci_kernel_opts *opts,
                                                     cusci_reduction_kernel **out);
/* NULL: no-op. */
CUSCI_API void cusci_reduction_kernel_destroy(cusci_reduction_kernel *k);

/*
 * kernel(*in, axis=axes, keepdims=keepdims, out=out): the inputs broadcast
 * together; the reduction runs over opts' axes of the broadcast shape (opts
 * NULL or naxes 0: all axes), the output has the remaining axes (reduced
 * ones kept with extent 1 under keepdims). *out as in core.h: NULL
 * allocates, otherwise it must have the result's shape and exactly the
 * output's type. Types bind as in cusci_elementwise_kernel_call; the output
 * placeholder must be bound by an input or by a given *out.
 * Returns the statuses of cusci_elementwise_kernel_call, and CUSCI_ERR_AXIS
 * (an axis out of range or repeated) and CUSCI_ERR_VALUE (an empty
 * reduction without identity).
 */
CUSCI_API cusci_status cusci_reduction_kernel_call(cusci_ctx *ctx, cusci_reduction_kernel *k, int nin,
                                                   const cusci_operand *in, const cusci_reduce_opts *opts,
                                                   cusci_array **out);
/* The source the call would compile, as cusci_elementwise_kernel_source. */
CUSCI_API cusci_status cusci_reduction_kernel_source(cusci_ctx *ctx, cusci_reduction_kernel *k, int nin,
                                                     const cusci_operand *in, const cusci_reduce_opts *opts,
                                                     cusci_array *const *out, char **source);

/* ---------------------------------------------------------------- cache */

/* What the compiled-code cache has done in this process. */
typedef struct cusci_kernel_cache_stats {
  uint64_t compiles;      /* NVRTC compilations that succeeded */
  uint64_t memory_hits;   /* code found in the process's memory */
  uint64_t disk_hits;     /* code read from a valid cache file */
  uint64_t disk_writes;   /* cache files written */
  uint64_t disk_rejects;  /* cache files found corrupt, truncated or of another key */
} cusci_kernel_cache_stats;

/* The counts so far. Returns CUSCI_OK or CUSCI_ERR_NULL_POINTER. */
CUSCI_API cusci_status cusci_kernel_cache_get_stats(cusci_kernel_cache_stats *out);
/* Forget the code cached in memory (files on disk stay). Kernel objects
 * already made keep their code. */
CUSCI_API void cusci_kernel_cache_clear_memory(void);
/*
 * The cache directory in use (CUSCI_CACHE_DIR, else $XDG_CACHE_HOME/cusci,
 * else $HOME/.cache/cusci), NUL-terminated into buf.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_BUFFER_TOO_SMALL or
 * CUSCI_ERR_NOT_SUPPORTED (no variable names a directory).
 */
CUSCI_API cusci_status cusci_kernel_cache_dir(char *buf, size_t len);
/*
 * The file name (without directory) under which code for this source,
 * these options and this architecture is cached by the NVRTC that is
 * linked. Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER,
 * CUSCI_ERR_INVALID_ARGUMENT, CUSCI_ERR_BUFFER_TOO_SMALL or
 * CUSCI_ERR_NOT_SUPPORTED (no NVRTC).
 */
CUSCI_API cusci_status cusci_kernel_cache_file(const char *code, int n_options, const char *const *options, int arch,
                                               char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_KERNEL_H */
