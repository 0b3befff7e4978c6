/*
 * cusci/core.h: contexts, arrays, dtypes and errors.
 *
 * This header includes no CUDA header: a C program compiles against cusci
 * with a plain C compiler. Streams cross the API as `void *` (cudaStream_t).
 *
 * Conventions shared by every cusci function:
 *  - Every function that can fail returns a cusci_status; CUSCI_OK is 0.
 *    cusci_ctx_last_error() then holds a message naming the function and
 *    the offending argument.
 *  - Outputs come back through the last argument, `cusci_array **out`. If
 *    *out is NULL the function allocates a new array; otherwise it writes
 *    into *out after checking its shape, dtype and device. A failing call
 *    leaves *out as it was and allocates nothing.
 *  - Every array argument must live on the context's device (the host, or
 *    one GPU); an array elsewhere is CUSCI_ERR_DEVICE, never a silent copy.
 *  - Shapes are int64_t, strides are counted in elements (as DLPack), and
 *    arrays have at most CUSCI_MAX_NDIM dimensions.
 */
#ifndef CUSCI_CORE_H
#define CUSCI_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cusci/version.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CUSCI_BUILDING) && defined(__GNUC__)
#define CUSCI_API __attribute__((visibility("default")))
#else
#define CUSCI_API
#endif

#define CUSCI_MAX_NDIM 32

/* ---------------------------------------------------------------- status */

/*
 * One table makes the status enum, its names and its sentences.
 * X(NAME, value, sentence)
 */
#define CUSCI_STATUS_MAP(X)                                                   \
  X(OK, 0, "The call succeeded.")                                            \
  X(ERR_NULL_POINTER, 1, "A required pointer argument was NULL.")            \
  X(ERR_INVALID_ARGUMENT, 2, "An argument has a value the function does not accept.") \
  X(ERR_NDIM, 3, "An array has a number of dimensions the function does not accept.") \
  X(ERR_SHAPE, 4, "An array has a shape the function does not accept.")      \
  X(ERR_BROADCAST, 5, "Array shapes cannot be broadcast together.")          \
  X(ERR_OVERFLOW, 6, "A size or index overflows the integer type that must hold it.") \
  X(ERR_DTYPE, 7, "A dtype is unknown or not accepted by the function.")     \
  X(ERR_CAST, 8, "A value cannot be cast to the requested dtype under the casting rule.") \
  X(ERR_AXIS, 9, "An axis is out of range or repeated.")                     \
  X(ERR_DEVICE, 10, "An array lives on a different device than the context.") \
  X(ERR_BUFFER_TOO_SMALL, 11, "A caller's buffer is too small for the data.") \
  X(ERR_OUT_OF_MEMORY, 12, "Memory could not be allocated.")                 \
  X(ERR_NO_DEVICE, 13, "No usable CUDA device, or the CUDA driver failed.")  \
  X(ERR_CUDA, 14, "A CUDA runtime or library call failed.")                  \
  X(ERR_NOT_SUPPORTED, 15, "The operation is not supported on this device or build.") \
  X(ERR_VALUE, 16, "A numeric value is out of the accepted domain.")         \
  X(ERR_LINALG, 17, "A linear algebra routine failed (singular or not positive definite matrix, or no convergence).") \
  X(ERR_FORMAT, 18, "A file or buffer is not in the expected format.")       \
  X(ERR_IO, 19, "Reading or writing a file failed.")                         \
  X(ERR_COMPILE, 20, "Run-time compilation of a kernel failed.")             \
  X(ERR_INTERNAL, 21, "An internal invariant was violated (a bug in cusci).") \
  X(ERR_DEVICE_FAULT, 22, "The GPU faulted (an illegal memory access, say); its CUDA context is lost until the process restarts.")

typedef enum cusci_status {
#define CUSCI_STATUS_ENUM_(name, value, text) CUSCI_##name = value,
  CUSCI_STATUS_MAP(CUSCI_STATUS_ENUM_)
#undef CUSCI_STATUS_ENUM_
} cusci_status;

/* "CUSCI_ERR_SHAPE"; "CUSCI_UNKNOWN_STATUS" for a value outside the enum. */
CUSCI_API const char *cusci_status_name(cusci_status st);
/* One sentence describing the status. */
CUSCI_API const char *cusci_status_string(cusci_status st);

/* ---------------------------------------------------------------- dtypes */

/* X(NAME, numpy name, itemsize in bytes, kind character) */
#define CUSCI_DTYPE_MAP(X)        \
  X(BOOL, "bool", 1, 'b')         \
  X(INT8, "int8", 1, 'i')         \
  X(INT16, "int16", 2, 'i')       \
  X(INT32, "int32", 4, 'i')       \
  X(INT64, "int64", 8, 'i')       \
  X(UINT8, "uint8", 1, 'u')       \
  X(UINT16, "uint16", 2, 'u')     \
  X(UINT32, "uint32", 4, 'u')     \
  X(UINT64, "uint64", 8, 'u')     \
  X(FLOAT16, "float16", 2, 'f')   \
  X(FLOAT32, "float32", 4, 'f')   \
  X(FLOAT64, "float64", 8, 'f')   \
  X(COMPLEX64, "complex64", 8, 'c') \
  X(COMPLEX128, "complex128", 16, 'c')

/* The enum, CUSCI_BOOL = 0 to CUSCI_COMPLEX128 = 13, from the table. */
typedef enum cusci_dtype {
#define CUSCI_DTYPE_ENUM_(name, np, size, kind) CUSCI_##name,
  CUSCI_DTYPE_MAP(CUSCI_DTYPE_ENUM_)
#undef CUSCI_DTYPE_ENUM_
} cusci_dtype;

/* The number of dtypes (14), counted from the table: a constant
 * expression, for array sizes and #if. */
#define CUSCI_DTYPE_ONE_(name, np, size, kind) +1
#define CUSCI_N_DTYPES (0 CUSCI_DTYPE_MAP(CUSCI_DTYPE_ONE_))

/* Lists of dtypes and their C types, for dispatch: see <cusci/kit/dtypes.h>. */

/* NumPy's casting levels (numpy.can_cast's `casting`); 0 is its default. */
typedef enum cusci_casting {
  CUSCI_CASTING_SAFE = 0,
  CUSCI_CASTING_NO,
  CUSCI_CASTING_EQUIV,
  CUSCI_CASTING_SAME_KIND,
  CUSCI_CASTING_UNSAFE
} cusci_casting;

/* True when `dt` is one of the 14 dtypes above. */
CUSCI_API bool cusci_dtype_valid(cusci_dtype dt);
/* NumPy's name ("float32"); "invalid" for a value outside the enum. */
CUSCI_API const char *cusci_dtype_name(cusci_dtype dt);
/* Bytes per element; 0 for a value outside the enum. */
CUSCI_API size_t cusci_dtype_itemsize(cusci_dtype dt);
/* NumPy's kind character: 'b', 'i', 'u', 'f' or 'c'; 0 when invalid. */
CUSCI_API char cusci_dtype_kind(cusci_dtype dt);

/*
 * numpy.result_type over n dtypes (NumPy 2 promotion; for arrays, where
 * value-based casting never applies). n >= 1.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT
 * (n < 1) or CUSCI_ERR_DTYPE (a value outside the enum).
 */
CUSCI_API cusci_status cusci_result_type(int n, const cusci_dtype *dtypes, cusci_dtype *out);
/* numpy.promote_types(a, b); CUSCI_ERR_DTYPE for a value outside the enum. */
CUSCI_API cusci_status cusci_promote_types(cusci_dtype a, cusci_dtype b, cusci_dtype *out);
/* numpy.can_cast(from, to, casting); false for any invalid argument. */
CUSCI_API bool cusci_can_cast(cusci_dtype from, cusci_dtype to, cusci_casting casting);

/* --------------------------------------------------------------- version */

/* "MAJOR.MINOR.PATCH" of the library that is linked (not of the header). */
CUSCI_API const char *cusci_version(void);
/* MAJOR * 10000 + MINOR * 100 + PATCH of the library that is linked. */
CUSCI_API int cusci_version_number(void);

/* --------------------------------------------------------------- devices */

#define CUSCI_DEVICE_HOST (-1)
#define CUSCI_DEVICE_DEFAULT (-2)

/* Number of usable CUDA devices; 0 (and CUSCI_OK) where there are none or
 * the build has no CUDA. Returns CUSCI_ERR_NULL_POINTER for count NULL. */
CUSCI_API cusci_status cusci_device_count(int *count);
/* The device's name, NUL-terminated and truncated to fit `len`.
 * Returns CUSCI_ERR_NO_DEVICE for an ordinal that is not a usable GPU. */
CUSCI_API cusci_status cusci_device_name(int device, char *name, size_t len);
/* Free and total device memory in bytes (either pointer may be NULL). */
CUSCI_API cusci_status cusci_device_memory(int device, size_t *free_bytes, size_t *total_bytes);
/* Compute capability, e.g. 9.0 for an H100/H200. */
CUSCI_API cusci_status cusci_device_compute_capability(int device, int *major, int *minor);

/* -------------------------------------------------------------- contexts */

/*
 * A context is one device (a GPU or the host) and one stream. One thread
 * uses a context at a time; make one per thread or per stream. Arrays may
 * outlive the context that made them.
 */
typedef struct cusci_ctx cusci_ctx;

/*
 * Create a context on `device`: CUSCI_DEVICE_HOST, a GPU ordinal, or
 * CUSCI_DEVICE_DEFAULT (GPU 0 when one is usable, else the host; the
 * environment variable CUSCI_DEVICE = "host" or "cuda:N" overrides it).
 * A GPU context owns a non-blocking stream.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT
 * (a negative ordinal other than the two constants, or a malformed
 * CUSCI_DEVICE), CUSCI_ERR_NO_DEVICE (no such GPU, a host-only build, or
 * the driver failed: cusci_ctx_create_error() gives the driver's message),
 * CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_ctx_create(int device, cusci_ctx **ctx);
/* Destroy a context (waits for its stream). NULL: no-op. */
CUSCI_API void cusci_ctx_destroy(cusci_ctx *ctx);
/* The message of the last failed cusci_ctx_create in this thread ("" if none),
 * since a context that could not be made cannot hold it. */
CUSCI_API const char *cusci_ctx_create_error(void);
/* CUSCI_DEVICE_HOST or a GPU ordinal; CUSCI_DEVICE_HOST for NULL. */
CUSCI_API int cusci_ctx_device(const cusci_ctx *ctx);
/* Wait for all work queued on the context's stream. Errors raised
 * asynchronously on the device surface here. */
CUSCI_API cusci_status cusci_ctx_synchronize(cusci_ctx *ctx);
/* The message of the last failure on this context; "" when none. */
CUSCI_API const char *cusci_ctx_last_error(const cusci_ctx *ctx);
/* Forget the last error message. */
CUSCI_API void cusci_ctx_clear_error(cusci_ctx *ctx);
/*
 * Adopt a caller's stream (a cudaStream_t as void *) for all later work on
 * this context; NULL returns to the context's own stream. The caller keeps
 * ownership and must keep the stream alive while the context uses it.
 * Leaving a caller's stream synchronises it (so that memory freed on it can
 * serve every stream). Arrays are freed in the order of the stream they
 * were made on: an array used on another stream must not be released until
 * that stream has finished with it. On a host context only NULL is
 * accepted (CUSCI_ERR_NOT_SUPPORTED).
 */
CUSCI_API cusci_status cusci_ctx_set_stream(cusci_ctx *ctx, void *stream);
/* The stream work is queued on (cudaStream_t as void *); NULL on the host. */
CUSCI_API void *cusci_ctx_stream(const cusci_ctx *ctx);

/* Events: points in a context's stream, for ordering and timing. On a host
 * context, where work is synchronous, an event holds a clock reading. */
typedef struct cusci_event cusci_event;
CUSCI_API cusci_status cusci_event_create(cusci_ctx *ctx, cusci_event **ev);
CUSCI_API void cusci_event_destroy(cusci_event *ev);
/* Record ev at the current point of ctx's stream. */
CUSCI_API cusci_status cusci_event_record(cusci_ctx *ctx, cusci_event *ev);
/* Make ctx's stream wait until ev has completed (no host blocking). */
CUSCI_API cusci_status cusci_event_wait(cusci_ctx *ctx, cusci_event *ev);
/* Block the host until ev has completed. */
CUSCI_API cusci_status cusci_event_synchronize(cusci_ctx *ctx, cusci_event *ev);
/* Milliseconds between two recorded events of the same device. */
CUSCI_API cusci_status cusci_event_elapsed_ms(cusci_ctx *ctx, cusci_event *start, cusci_event *end, float *ms);

/* ---------------------------------------------------------------- arrays */

/*
 * An array: up to 32 dimensions, int64_t shape, strides in elements, a
 * dtype, a device, and a reference-counted storage block shared by views.
 * Storage returns to its allocator when the last view is released.
 */
typedef struct cusci_array cusci_array;

/*
 * New C-ordered array, uninitialised (empty), zero-filled (zeros), one-filled
 * (ones), or filled with `*value` (full; `value` points to one element of
 * `dtype` in host memory). ndim may be 0 (a scalar array).
 * Each returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_NDIM (ndim < 0 or
 * > 32), CUSCI_ERR_SHAPE (a negative extent), CUSCI_ERR_OVERFLOW (the size
 * or byte count overflows int64_t or size_t), CUSCI_ERR_DTYPE,
 * CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA, and, when *out is given,
 * CUSCI_ERR_SHAPE / CUSCI_ERR_DTYPE / CUSCI_ERR_DEVICE if it does not match.
 */
CUSCI_API cusci_status cusci_array_empty(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_array_zeros(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_array_ones(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_array_full(cusci_ctx *ctx, int ndim, const int64_t *shape, cusci_dtype dtype, const void *value, cusci_array **out);

/*
 * numpy.arange(start, stop, step, dtype): ceil((stop - start) / step)
 * elements start + i * step. For an integer dtype the values are computed in
 * int64 when start and step are integral, as NumPy does. step must be
 * nonzero and all three finite (CUSCI_ERR_VALUE).
 */
CUSCI_API cusci_status cusci_array_arange(cusci_ctx *ctx, double start, double stop, double step, cusci_dtype dtype, cusci_array **out);
/*
 * numpy.linspace(start, stop, num, endpoint, dtype): start + i * delta with
 * delta = (stop - start) / (num - endpoint), the last element exactly stop
 * when endpoint; an integer dtype truncates as numpy.linspace(...).astype.
 */
CUSCI_API cusci_status cusci_array_linspace(cusci_ctx *ctx, double start, double stop, int64_t num, bool endpoint, cusci_dtype dtype, cusci_array **out);
/* numpy.eye(n, m, k, dtype): ones on the k-th diagonal of an n x m array.
 * m < 0 means m = n. */
CUSCI_API cusci_status cusci_array_eye(cusci_ctx *ctx, int64_t n, int64_t m, int64_t k, cusci_dtype dtype, cusci_array **out);

/*
 * Copy `ndim`/`shape` elements of `dtype` in C order from host memory `src`
 * into a new array on the context's device. `src` may be reused as soon as
 * the call returns. `src` may be NULL only when the size is 0.
 */
CUSCI_API cusci_status cusci_array_from_host(cusci_ctx *ctx, const void *src, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/*
 * Copy `a` in C order into host memory `dst` of `dst_bytes` bytes; returns
 * when dst is filled. CUSCI_ERR_BUFFER_TOO_SMALL when dst_bytes < nbytes(a).
 */
CUSCI_API cusci_status cusci_array_to_host(cusci_ctx *ctx, const cusci_array *a, void *dst, size_t dst_bytes);

/*
 * numpy's a.astype(dtype, copy=copy). With copy false and the same dtype,
 * *out = a itself, retained (when *out is NULL). Covers all 196 dtype pairs
 * from any strided view. Rules: float to int truncates toward zero; complex
 * to real keeps the real part; float16 rounds to nearest even; to bool is
 * x != 0. Where NumPy's result is undefined, cusci defines it the same on
 * the host and the GPU: NaN becomes 0 and a float beyond the range of the
 * integer dtype saturates to its minimum or maximum (so -1.5 to uint8 is 0).
 * Integer to narrower integer wraps modulo 2^bits, as NumPy.
 */
CUSCI_API cusci_status cusci_array_astype(cusci_ctx *ctx, cusci_array *a, cusci_dtype dtype, bool copy, cusci_array **out);

/*
 * An array over memory the caller owns: `data` on the context's device (a
 * host pointer on a host context, a device pointer on a GPU context),
 * `ndim`/`shape`, `strides` in elements (NULL: C order; negative and zero
 * strides allowed), `dtype`; `data` must be a multiple of the dtype's item
 * size (16 bytes for complex128), as kernels load elements whole. cusci
 * never frees the memory: it must outlive the array and every view of it.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE,
 * CUSCI_ERR_OVERFLOW, CUSCI_ERR_DTYPE, CUSCI_ERR_VALUE (data not so
 * aligned), CUSCI_ERR_DEVICE (a GPU context given memory the GPU cannot
 * reach as its own, or a host context given device memory),
 * CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_array_wrap(cusci_ctx *ctx, void *data, int ndim, const int64_t *shape, const int64_t *strides, cusci_dtype dtype, cusci_array **out);

/* New reference to `a` (returns `a`; NULL for NULL). */
CUSCI_API cusci_array *cusci_array_retain(cusci_array *a);
/* Drop a reference; the last one frees the array. NULL: no-op. */
CUSCI_API void cusci_array_release(cusci_array *a);

/* Accessors. For NULL they return 0 / NULL / CUSCI_DEVICE_HOST. */
CUSCI_API int cusci_array_ndim(const cusci_array *a);
CUSCI_API const int64_t *cusci_array_shape(const cusci_array *a);
CUSCI_API const int64_t *cusci_array_strides(const cusci_array *a); /* in elements */
CUSCI_API cusci_dtype cusci_array_dtype(const cusci_array *a);
CUSCI_API int64_t cusci_array_size(const cusci_array *a);
CUSCI_API size_t cusci_array_nbytes(const cusci_array *a); /* size * itemsize */
CUSCI_API int cusci_array_device(const cusci_array *a);
CUSCI_API void *cusci_array_data(const cusci_array *a); /* address of the first element */
/* True when the elements lie in C order without gaps. */
CUSCI_API bool cusci_array_is_c_contiguous(const cusci_array *a);

/* ----------------------------------------------------------------- views */
/*
 * The functions below return views that share `a`'s storage when they can.
 * If *out is given, the view's values are copied into it instead (its shape
 * and dtype must match) and no view is kept.
 */

/* A new C-contiguous copy of `a` (numpy.copy). */
CUSCI_API cusci_status cusci_array_copy(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);
/*
 * numpy.reshape in C order: a view when the strides allow, else a copy. One
 * extent may be -1 (inferred). CUSCI_ERR_SHAPE when the sizes differ.
 */
CUSCI_API cusci_status cusci_array_reshape(cusci_ctx *ctx, cusci_array *a, int ndim, const int64_t *shape, cusci_array **out);
/* numpy.transpose: axes is a permutation of 0..ndim-1 (negative counts from
 * the end); NULL reverses the axes. CUSCI_ERR_AXIS for a bad permutation. */
CUSCI_API cusci_status cusci_array_transpose(cusci_ctx *ctx, cusci_array *a, const int *axes, cusci_array **out);

/* Stands for Python's None in cusci_array_slice's start and stop. */
#define CUSCI_SLICE_NONE INT64_MIN
/*
 * a[start0:stop0:step0, start1:stop1:step1, ...] with Python's rules
 * (negative indices count from the end, out-of-range bounds clip, negative
 * steps walk backwards). Each of start, stop, step is an array of ndim(a)
 * values or NULL (all None; steps 1). CUSCI_SLICE_NONE is None. A zero step
 * is CUSCI_ERR_VALUE.
 */
CUSCI_API cusci_status cusci_array_slice(cusci_ctx *ctx, cusci_array *a, const int64_t *start, const int64_t *stop, const int64_t *step, cusci_array **out);
/* numpy.squeeze: remove the given axes (each of extent 1, CUSCI_ERR_SHAPE
 * otherwise), or all axes of extent 1 when axes is NULL. */
CUSCI_API cusci_status cusci_array_squeeze(cusci_ctx *ctx, cusci_array *a, int naxes, const int *axes, cusci_array **out);
/* numpy.expand_dims: insert an axis of extent 1 at `axis` (in -ndim-1..ndim). */
CUSCI_API cusci_status cusci_array_expand_dims(cusci_ctx *ctx, cusci_array *a, int axis, cusci_array **out);
/*
 * numpy.broadcast_to: a view with the given shape, stride 0 on the broadcast
 * axes. Like NumPy's, it must be treated as read-only: writing through it
 * writes each storage element many times. CUSCI_ERR_BROADCAST if `a` does
 * not broadcast to `shape`.
 */
CUSCI_API cusci_status cusci_array_broadcast_to(cusci_ctx *ctx, cusci_array *a, int ndim, const int64_t *shape, cusci_array **out);
/* numpy.ascontiguousarray: `a` itself (retained) when already C-contiguous,
 * else a C-contiguous copy. */
CUSCI_API cusci_status cusci_array_ascontiguousarray(cusci_ctx *ctx, cusci_array *a, cusci_array **out);

/* ------------------------------------------------------------------ pool */

/*
 * A memory pool: one per GPU, shared by every context on it, and one for
 * the host backend, with the same logic (requests rounded up to 512 bytes,
 * best-fit reuse of cached blocks, blocks split from larger chunks and merged
 * with free neighbours when freed). Device memory is stream-ordered: a block
 * freed on stream S is reused at once by S, and by another stream only after
 * an event recorded on S at the free has completed. Thread safe.
 *
 * Stats: used = bytes in blocks handed out; total = bytes held from the
 * upstream allocator; free = total - used; n_free_blocks = cached blocks.
 * The limit caps total: a request that would exceed it first gives back the
 * cached chunks, then fails with CUSCI_ERR_OUT_OF_MEMORY. The environment
 * variable CUSCI_MEMORY_LIMIT sets a pool's initial limit, in bytes ("8G",
 * "512M", "1073741824") or as a percentage of the device's memory ("50%").
 */
typedef struct cusci_pool cusci_pool;

/* The pool of the context's device (the host pool on a host context). */
CUSCI_API cusci_pool *cusci_ctx_pool(cusci_ctx *ctx);
CUSCI_API size_t cusci_pool_used_bytes(const cusci_pool *p);
CUSCI_API size_t cusci_pool_total_bytes(const cusci_pool *p);
CUSCI_API size_t cusci_pool_free_bytes(const cusci_pool *p); /* total - used */
CUSCI_API size_t cusci_pool_n_free_blocks(const cusci_pool *p);
/* Give every chunk with nothing in use back to the upstream allocator. */
CUSCI_API cusci_status cusci_pool_free_all_blocks(cusci_pool *p);
/* Cap the bytes the pool holds; 0: no limit. CUSCI_ERR_NULL_POINTER for NULL. */
CUSCI_API cusci_status cusci_pool_set_limit(cusci_pool *p, size_t bytes);
CUSCI_API size_t cusci_pool_get_limit(const cusci_pool *p);
/* The limit as a fraction (0, 1] of the device's memory (of physical memory
 * for the host pool). CUSCI_ERR_VALUE outside (0, 1]. */
CUSCI_API cusci_status cusci_pool_set_limit_fraction(cusci_pool *p, double fraction);
/*
 * Caching on (the default) or off. Without caching every allocation is its
 * own upstream allocation (cudaMalloc on a GPU) of exactly the bytes asked,
 * given back as soon as it is freed: slow, but a memory checker
 * (compute-sanitizer, AddressSanitizer, valgrind) then sees every access
 * past an array's end, which a cached chunk would hide. The environment
 * variable CUSCI_POOL=off makes every pool start without caching. Only
 * while the pool has nothing in use (CUSCI_ERR_INVALID_ARGUMENT otherwise);
 * CUSCI_ERR_NULL_POINTER for NULL.
 */
CUSCI_API cusci_status cusci_pool_set_caching(cusci_pool *p, bool caching);
/* Whether p caches (false for NULL). */
CUSCI_API bool cusci_pool_caching(const cusci_pool *p);
/* The message of the last failure of a pool function on p ("" if none). */
CUSCI_API const char *cusci_pool_last_error(const cusci_pool *p);

/*
 * Pinned (page-locked) host memory from a cached pool, for fast transfers.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_OUT_OF_MEMORY or
 * CUSCI_ERR_NO_DEVICE (a build or machine without CUDA). Freeing NULL is a
 * no-op; memory must not be in use by queued copies when freed.
 */
CUSCI_API cusci_status cusci_host_alloc_pinned(size_t bytes, void **ptr);
CUSCI_API void cusci_host_free_pinned(void *ptr);
/* The pinned pool itself, for its stats and limit (NULL without CUDA). */
CUSCI_API cusci_pool *cusci_pinned_pool(void);

/*
 * Copy `a`, which may live on any device or the host (the one function
 * that takes an array from elsewhere), to the context's device: a new
 * C-contiguous array, or into *out. Between GPUs it is a peer copy; a
 * strided `a` is first gathered on its own device. The work that made `a`
 * must have finished (synchronise its context first). Synchronous.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_SHAPE/DTYPE/DEVICE
 * for a mismatched *out, CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_array_to_device(cusci_ctx *ctx, const cusci_array *a, cusci_array **out);

/*
 * Asynchronous transfers on the context's stream. The call returns once the
 * copy is queued. Until the context's stream has passed this point
 * (cusci_ctx_synchronize, or cusci_event_synchronize on an event recorded
 * after the call), `src` must stay unchanged and `dst` must be neither read
 * nor written. Memory from cusci_host_alloc_pinned (or cudaHostAlloc) is
 * copied directly and the call returns at once. Plain (pageable) host
 * memory above 1 MiB is staged through pinned buffers, and that staging
 * finishes before the call returns. On a host context they are the
 * synchronous calls. Statuses as
 * cusci_array_from_host and cusci_array_to_host.
 */
CUSCI_API cusci_status cusci_array_from_host_async(cusci_ctx *ctx, const void *src, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_array_to_host_async(cusci_ctx *ctx, const cusci_array *a, void *dst, size_t dst_bytes);

/* ------------------------------------------------------------------ .npy */

/*
 * numpy.load / numpy.save for one array in the .npy format (versions 1.0,
 * 2.0 and 3.0 read; 1.0 written, 2.0 when the header needs it). All 14
 * dtypes, C and Fortran order, either byte order (swapped on load). The
 * array is made on the context's device.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_IO (cannot open,
 * read or write; errno's text in the message), CUSCI_ERR_FORMAT (not a
 * .npy file, a header that lies, an object or structured dtype, a file
 * shorter than its header says), CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_npy_load(cusci_ctx *ctx, const char *path, cusci_array **out);
CUSCI_API cusci_status cusci_npy_save(cusci_ctx *ctx, const char *path, const cusci_array *a);
/* The same from and to memory: a .npy image of `len` bytes. */
CUSCI_API cusci_status cusci_npy_load_buffer(cusci_ctx *ctx, const void *buf, size_t len, cusci_array **out);

/* ------------------------------------------------------------------ .npz */

/*
 * numpy.load / numpy.savez for .npz archives: a zip of .npy entries, stored
 * or deflated (deflated entries need zlib, CUSCI_ERR_NOT_SUPPORTED without
 * it). The arrays are made on the context's device; names are numpy.load's
 * (the entry name without ".npy"). Returns the statuses of cusci_npy_load,
 * with CUSCI_ERR_FORMAT for a damaged archive or a failed CRC-32 check.
 */
typedef struct cusci_npz cusci_npz;
CUSCI_API cusci_status cusci_npz_load(cusci_ctx *ctx, const char *path, cusci_npz **out);
CUSCI_API cusci_status cusci_npz_load_buffer(cusci_ctx *ctx, const void *buf, size_t len, cusci_npz **out);
CUSCI_API int cusci_npz_count(const cusci_npz *z);
/* The i-th entry's name and array (borrowed: retain to keep it past
 * cusci_npz_free); NULL when i is out of range. */
CUSCI_API const char *cusci_npz_name(const cusci_npz *z, int i);
CUSCI_API cusci_array *cusci_npz_array(const cusci_npz *z, int i);
/* The array named `name` (borrowed), or NULL. */
CUSCI_API cusci_array *cusci_npz_get(const cusci_npz *z, const char *name);
CUSCI_API void cusci_npz_free(cusci_npz *z);
/*
 * numpy.savez (compress false) or numpy.savez_compressed (true): n arrays
 * under distinct names (1 to 250 characters). Entries and the archive must
 * stay below 4 GiB (CUSCI_ERR_NOT_SUPPORTED). Returns CUSCI_OK,
 * CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT, CUSCI_ERR_DEVICE,
 * CUSCI_ERR_NOT_SUPPORTED, CUSCI_ERR_IO, CUSCI_ERR_OUT_OF_MEMORY.
 */
CUSCI_API cusci_status cusci_npz_save(cusci_ctx *ctx, const char *path, int n, const char *const *names, const cusci_array *const *arrays, bool compress);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_CORE_H */
