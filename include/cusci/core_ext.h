/*
 * cusci/core_ext.h: what a module (cusci's own or a user's) builds on.
 *
 * These functions give a module the core's argument checks, its error path
 * and its output convention, so that every module reports errors and
 * handles `out` the same way. A plain C header, like core.h.
 */
#ifndef CUSCI_CORE_EXT_H
#define CUSCI_CORE_EXT_H

#include <stdarg.h>

#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define CUSCI_PRINTF_(f, a) __attribute__((format(printf, f, a)))
#else
#define CUSCI_PRINTF_(f, a)
#endif

/* Evaluate a status expression and return it from the enclosing function
 * (which returns a cusci_status) when it is not CUSCI_OK: the one error
 * path of a module's C and CUDA code. */
#define CUSCI_TRY(expr)                  \
  do {                                   \
    cusci_status cusci_try_st_ = (expr); \
    if (cusci_try_st_ != CUSCI_OK)       \
      return cusci_try_st_;              \
  } while (0)

/*
 * Record a failure on ctx: the message becomes "fn: <formatted text>" and is
 * returned by cusci_ctx_last_error(). Returns `st`, so that a check reads
 * `return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a is %s", ...);`.
 * ctx may be NULL (nothing is recorded).
 */
CUSCI_API cusci_status cusci_ctx_fail(cusci_ctx *ctx, cusci_status st, const char *fn, const char *fmt, ...) CUSCI_PRINTF_(4, 5);
CUSCI_API cusci_status cusci_ctx_vfail(cusci_ctx *ctx, cusci_status st, const char *fn, const char *fmt, va_list ap);

/*
 * The entry check of a public function, in one line:
 *
 *   CUSCI_ENTRY(ctx, fn, a, out);   // ctx, then each pointer argument
 *   CUSCI_ENTRY_CTX(ctx, fn);       // a function with no pointer to check
 *
 * returns from the enclosing function when ctx is NULL
 * (CUSCI_ERR_NULL_POINTER, nothing recorded), when ctx's GPU has faulted
 * (CUSCI_ERR_DEVICE_FAULT), or when one of the pointers is NULL
 * (CUSCI_ERR_NULL_POINTER, "fn: out is NULL" for the first, named as
 * written). The pointers are checked in order. C only (a compound literal
 * holds them).
 */
#define CUSCI_ENTRY(ctx, fn, ...)                                                                                      \
  CUSCI_TRY(cusci_check_entry((ctx), (fn), #__VA_ARGS__, (const void *const[]){__VA_ARGS__},                           \
                              sizeof((const void *const[]){__VA_ARGS__}) / sizeof(const void *)))
#define CUSCI_ENTRY_CTX(ctx, fn) CUSCI_TRY(cusci_check_entry((ctx), (fn), "", NULL, 0))
/* What CUSCI_ENTRY calls: n pointers ptrs, named by the comma-separated
 * list `names`. */
CUSCI_API cusci_status cusci_check_entry(cusci_ctx *ctx, const char *fn, const char *names, const void *const *ptrs, size_t n);

/*
 * Check an array argument named `name` of function `fn`: not NULL, and on
 * the context's device. Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER or
 * CUSCI_ERR_DEVICE, with the message recorded on ctx.
 */
CUSCI_API cusci_status cusci_check_array(cusci_ctx *ctx, const char *fn, const char *name, const cusci_array *a);

/*
 * Check a shape argument: ndim in 0..32, shape non-NULL when ndim > 0, no
 * negative extent, and a size that fits int64_t and, in bytes of
 * `itemsize`, size_t. Returns CUSCI_OK, CUSCI_ERR_NDIM, CUSCI_ERR_NULL_POINTER,
 * CUSCI_ERR_SHAPE or CUSCI_ERR_OVERFLOW.
 */
CUSCI_API cusci_status cusci_check_shape(cusci_ctx *ctx, const char *fn, const char *name, int ndim, const int64_t *shape, size_t itemsize);

/* Check that `dt` is one of the 14 dtypes: CUSCI_OK or CUSCI_ERR_DTYPE. */
CUSCI_API cusci_status cusci_check_dtype(cusci_ctx *ctx, const char *fn, const char *name, cusci_dtype dt);

/*
 * The output convention, for every module. A function that takes
 * `cusci_array **out` makes a new result when *out is NULL, and otherwise
 * writes into *out, which must be on the context's device and of the
 * result's shape; these three calls are the whole convention.
 *
 * cusci_check_out checks a given *out before any work, so that a mismatch
 * costs nothing: CUSCI_OK when *out is NULL; else its device, its shape
 * (CUSCI_ERR_SHAPE, "*out has shape 3x4, expected 12") and its dtype, which
 * must be `dtype` under CUSCI_CASTING_NO (CUSCI_ERR_DTYPE) or able to take
 * it under `casting` (CUSCI_ERR_CAST). `out` NULL: CUSCI_ERR_NULL_POINTER.
 */
CUSCI_API cusci_status cusci_check_out(cusci_ctx *ctx, const char *fn, cusci_array *const *out, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_casting casting);

/*
 * Hand a finished result to the caller and take its reference: *out = res
 * when *out is NULL; otherwise res's values go into *out (cast to its
 * dtype; nothing to do when res is *out or a view of exactly its
 * elements) and res is released. A function whose work can still fail
 * after it has begun (a factorization that finds a singular matrix)
 * computes into its own array and gives it only on success, so that a
 * failing call leaves *out as it was.
 */
CUSCI_API cusci_status cusci_give_out(cusci_ctx *ctx, const char *fn, cusci_array *res, cusci_array **out);

/*
 * The output convention in one call. `out` must not be NULL. If *out is
 * NULL, a new uninitialised array of (ndim, shape, dtype) is made and
 * returned through *result; otherwise *out is checked (device, shape,
 * dtype) and *result = *out, not retained. Either way *out is not changed:
 * the caller stores *result in *out once all its work has succeeded, and on
 * failure releases *result if it differs from *out. Returns CUSCI_OK,
 * CUSCI_ERR_NULL_POINTER, CUSCI_ERR_DEVICE, CUSCI_ERR_SHAPE, CUSCI_ERR_DTYPE
 * or what cusci_array_empty returns.
 */
CUSCI_API cusci_status cusci_prepare_out(cusci_ctx *ctx, const char *fn, cusci_array **out, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **result);

/*
 * Workspace under the plan/execute convention (cuFFT's and cuSPARSE's): a
 * plan says how many bytes its execution needs (a size query), and the
 * execute call takes a workspace (device memory of ctx's device, or host
 * memory on a host context) of at least that many bytes, or NULL for the
 * pool. This takes it: with ws not NULL, *ptr = ws when ws_bytes >= need
 * (CUSCI_ERR_BUFFER_TOO_SMALL naming both otherwise) and *held = NULL;
 * with ws NULL, `need` bytes from ctx's pool, *held the array that owns
 * them (release it once the work is queued: the pool orders reuse by
 * stream). Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER,
 * CUSCI_ERR_BUFFER_TOO_SMALL, CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_workspace_take(cusci_ctx *ctx, const char *fn, void *ws, size_t ws_bytes, size_t need, void **ptr,
                                            cusci_array **held);

/*
 * Make the context's GPU current for the calling thread before a module
 * calls the CUDA runtime or a vendor library itself. A no-op (CUSCI_OK) on a
 * host context. Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER or CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_ctx_use_device(cusci_ctx *ctx, const char *fn);

/* ------------------------------------------------------ the backend contract */

/*
 * A module's CUDA code (kernels/X/ in cusci) is reached through launchers:
 * C-linkage functions that take a stream, arguments the API layer has
 * already checked, and the scratch they are given (a pointer and its
 * bytes; a size query says how much), and return 0 or the code of what
 * failed, tagged with its library by CUSCI_GPU_CODE. A launcher never sees
 * a cusci_ctx, never allocates and never writes a message: the API layer
 * owns the context, the handles, the pool, synchronisation and messages,
 * and turns a launcher's code into a status with cusci_ctx_gpu_status.
 * docs/modules.md shows the whole shape.
 */
typedef enum cusci_gpu_lib {
  CUSCI_GPU_CUDA = 0, /* a cudaError_t, which needs no tag */
  CUSCI_GPU_CUBLAS,   /* a cublasStatus_t */
  CUSCI_GPU_CUSOLVER, /* a cusolverStatus_t */
  CUSCI_GPU_CUFFT,    /* a cufftResult */
  CUSCI_GPU_CUSPARSE, /* a cusparseStatus_t */
  CUSCI_GPU_CURAND,   /* a curandStatus_t */
  CUSCI_GPU_CUDSS,    /* a cudssStatus_t */
  CUSCI_GPU_NO_CUDA = 127 /* the stand-in of a launcher in a build without CUDA */
} cusci_gpu_lib;

/* A launcher's return value for `code` of library `lib` (0 stays 0). */
#define CUSCI_GPU_CODE(lib, code) ((code) == 0 ? 0 : (int)(((unsigned)(lib) << 24) | ((unsigned)(code) & 0xffffffu)))
#define CUSCI_GPU_CODE_LIB(c) ((cusci_gpu_lib)(((unsigned)(c) >> 24) & 0x7fu))
#define CUSCI_GPU_CODE_VALUE(c) ((int)((unsigned)(c) & 0xffffffu))

/*
 * The status of a launcher's code, with the message recorded on ctx as
 * "fn: <what> failed: <the library's name for the code>": CUSCI_OK for 0;
 * CUSCI_ERR_OUT_OF_MEMORY for an allocation failure; CUSCI_ERR_DEVICE_FAULT
 * for a fault that destroyed the device's CUDA context (an illegal
 * address, say, raised by this launch or an earlier one), after which
 * every cusci call on that device returns it; CUSCI_ERR_NO_DEVICE for the
 * stand-in of a build without CUDA; CUSCI_ERR_CUDA for the rest. `what`
 * names the failing call (NULL: "a kernel launch").
 */
CUSCI_API cusci_status cusci_ctx_gpu_status(cusci_ctx *ctx, const char *fn, const char *what, int code);

/*
 * Declare a launcher: `CUSCI_LAUNCHER(int mymod_launch_x(void *stream, ...))`
 * in the module's launch header. In a build without CUDA (CUSCI_HAVE_CUDA
 * undefined outside nvcc) the same line defines a stand-in that returns
 * CUSCI_GPU_NO_CUDA's code, so that the API layer calls launchers with no
 * #ifdef: they are reached only for GPU contexts, which such a build never
 * makes. Launchers and size queries return int. The choice is made where
 * this header is first included, so a module's config.h (which defines
 * CUSCI_HAVE_CUDA) must come before it; CUSCI_LAUNCHERS_ARE_REAL says which
 * was made, for a launch header to check.
 */
#if defined(CUSCI_HAVE_CUDA) || defined(__CUDACC__)
#define CUSCI_LAUNCHER(decl) decl;
#define CUSCI_LAUNCHERS_ARE_REAL 1
#else
#define CUSCI_LAUNCHER(decl) \
  static inline decl { return CUSCI_GPU_CODE(CUSCI_GPU_NO_CUDA, 1); }
#endif

/*
 * Per-context state of a module (vendor handles, plan caches, device copies
 * of coefficients), found by `key`: an address the module owns, such as that
 * of a static variable. ext_get returns NULL when none is set. ext_set
 * stores `state` (replacing and destroying an earlier one under the same
 * key); cusci_ctx_destroy waits for the stream, then calls destroy(state)
 * for each, the last set first, with the context's device current.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER or CUSCI_ERR_OUT_OF_MEMORY.
 */
typedef void (*cusci_ext_destroy_fn)(void *state);
CUSCI_API void *cusci_ctx_ext_get(const cusci_ctx *ctx, const void *key);
CUSCI_API cusci_status cusci_ctx_ext_set(cusci_ctx *ctx, const void *key, void *state, cusci_ext_destroy_fn destroy);

/*
 * Pools with an upstream allocator of one's own, and the upstream of the
 * built-in pools. alloc returns NULL when it has no memory; `stream` is the
 * stream the memory will first be used on (for stream-ordered allocators
 * such as cudaMallocAsync), NULL on the host.
 */
typedef struct cusci_allocator {
  void *(*alloc)(void *user, size_t bytes, void *stream);
  void (*free)(void *user, void *ptr, size_t bytes, void *stream);
  void *user;
} cusci_allocator;

/*
 * How a pool orders reuse across streams: record an event on a stream,
 * ask whether it has completed, wait for it, destroy it. A pool without
 * events (host memory) reuses every freed block at once.
 */
typedef struct cusci_stream_events {
  void *(*record)(void *user, void *stream); /* NULL on failure */
  int (*done)(void *user, void *event);      /* nonzero once completed */
  void (*wait)(void *user, void *event);     /* block the host until completed */
  void (*destroy)(void *user, void *event);
  void *user;
} cusci_stream_events;

typedef enum cusci_allocator_kind {
  CUSCI_ALLOCATOR_CUDA_MALLOC = 0, /* cudaMalloc, the default of a GPU pool */
  CUSCI_ALLOCATOR_CUDA_MALLOC_ASYNC, /* cudaMallocAsync on the stream of first use */
  CUSCI_ALLOCATOR_CUDA_MANAGED,    /* cudaMallocManaged */
  CUSCI_ALLOCATOR_HOST,            /* aligned host memory, the host pool's */
  CUSCI_ALLOCATOR_PINNED           /* cudaHostAlloc, the pinned pool's */
} cusci_allocator_kind;

/* A built-in allocator for `device` (ignored for the host kinds).
 * CUSCI_ERR_NO_DEVICE for a CUDA kind in a build without CUDA. */
CUSCI_API cusci_status cusci_allocator_builtin(cusci_allocator_kind kind, int device, cusci_allocator *out);

/*
 * A pool of one's own over `upstream` (copied), with `events` (NULL: every
 * freed block is reusable at once). `caching` false makes every free give
 * the memory back at once (no pool). Returns CUSCI_OK,
 * CUSCI_ERR_NULL_POINTER or CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_pool_create(const cusci_allocator *upstream, const cusci_stream_events *events, bool caching, cusci_pool **out);
/* Destroy a pool made by cusci_pool_create; every block must be freed. */
CUSCI_API void cusci_pool_destroy(cusci_pool *p);
/*
 * Take `bytes` (rounded up to 512) for use on `stream`; *ptr is aligned to
 * 512 bytes. Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER or
 * CUSCI_ERR_OUT_OF_MEMORY (with asked, used, held and limit in
 * cusci_pool_last_error). bytes == 0 gives a 512-byte block.
 */
CUSCI_API cusci_status cusci_pool_malloc(cusci_pool *p, size_t bytes, void *stream, void **ptr);
/* Return a block taken from p, last used on `stream`. NULL: no-op. */
CUSCI_API void cusci_pool_free(cusci_pool *p, void *ptr, void *stream);
/*
 * Replace the upstream allocator of a pool (a built-in one too); NULL keeps
 * the current allocator and turns caching off. Only while the pool holds no
 * memory: CUSCI_ERR_INVALID_ARGUMENT otherwise.
 */
CUSCI_API cusci_status cusci_pool_set_allocator(cusci_pool *p, const cusci_allocator *upstream);
/*
 * Streams a pool may see: a stream that is no longer registered is taken
 * to be finished, so blocks last used on it are reusable by any stream.
 * Contexts register their streams; call these for streams of your own.
 */
CUSCI_API void cusci_pool_stream_acquire(cusci_pool *p, void *stream);
CUSCI_API void cusci_pool_stream_release(cusci_pool *p, void *stream);

/*
 * Virtual memory behind a pool's large requests (above 1 MiB): one range of
 * addresses reserved once, in which granules of physical memory are mapped
 * as blocks need them and unmapped when they lie wholly inside free space,
 * so that memory freed in the middle of the range goes back to the device
 * and the range grows in place. total_bytes then counts mapped granules.
 */
typedef struct cusci_vmm_ops {
  size_t granule;                                   /* bytes per mapping, a multiple of 512 */
  void *(*reserve)(void *user, size_t bytes);       /* addresses; NULL on failure */
  void (*unreserve)(void *user, void *va, size_t bytes);
  void *(*map)(void *user, void *va, size_t bytes); /* back [va, va+bytes): a handle, NULL on failure */
  void (*unmap)(void *user, void *va, size_t bytes, void *handle);
  void *user;
} cusci_vmm_ops;

/*
 * Serve p's large requests from `ops` with `reserve_bytes` of addresses
 * (NULL: back to the upstream allocator). Only while nothing is in use.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER or CUSCI_ERR_INVALID_ARGUMENT.
 */
CUSCI_API cusci_status cusci_pool_set_vmm(cusci_pool *p, const cusci_vmm_ops *ops, size_t reserve_bytes);
/*
 * CUDA's virtual memory management (cuMemAddressReserve, cuMemCreate,
 * cuMemMap) for `device`, reached through the runtime's driver entry points.
 * Returns CUSCI_OK, CUSCI_ERR_NO_DEVICE or CUSCI_ERR_NOT_SUPPORTED (a driver
 * without it).
 */
CUSCI_API cusci_status cusci_vmm_builtin(int device, cusci_vmm_ops *out);

/* Format a shape as "3x4" (or "()" for ndim 0) into buf; returns buf. */
CUSCI_API const char *cusci_shape_str(int ndim, const int64_t *shape, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_CORE_EXT_H */
