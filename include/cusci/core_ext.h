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

/*
 * Record a failure on ctx: the message becomes "fn: <formatted text>" and is
 * returned by cusci_ctx_last_error(). Returns `st`, so that a check reads
 * `return cusci_ctx_fail(ctx, CUSCI_ERR_SHAPE, fn, "a is %s", ...);`.
 * ctx may be NULL (nothing is recorded).
 */
CUSCI_API cusci_status cusci_ctx_fail(cusci_ctx *ctx, cusci_status st, const char *fn, const char *fmt, ...) CUSCI_PRINTF_(4, 5);
CUSCI_API cusci_status cusci_ctx_vfail(cusci_ctx *ctx, cusci_status st, const char *fn, const char *fmt, va_list ap);

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
 * Make the context's GPU current for the calling thread before a module
 * calls the CUDA runtime or a vendor library itself. A no-op (CUSCI_OK) on a
 * host context. Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER or CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_ctx_use_device(cusci_ctx *ctx, const char *fn);

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

/* Format a shape as "3x4" (or "()" for ndim 0) into buf; returns buf. */
CUSCI_API const char *cusci_shape_str(int ndim, const int64_t *shape, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_CORE_EXT_H */
