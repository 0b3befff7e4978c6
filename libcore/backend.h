/*
 * libcore/backend.h: the CUDA runtime as libcore uses it.
 *
 * Every call to the CUDA runtime lives in backend_cuda.c. In a build
 * without CUDA the same functions exist and report CUSCI_ERR_NO_DEVICE, so
 * the rest of libcore compiles once for both builds.
 */
#ifndef CUSCI_LIBCORE_BACKEND_H
#define CUSCI_LIBCORE_BACKEND_H

#include "libcore/internal.h"

/* Device queries; `err` receives the driver's message on failure. */
cusci_status cusci__gpu_count(int *count, char *err, size_t len);
cusci_status cusci__gpu_props(int device, char *name, size_t name_len, int *major, int *minor, char *err, size_t len);
cusci_status cusci__gpu_memory(int device, size_t *free_bytes, size_t *total_bytes, char *err, size_t len);

/* Make the current thread use `device` and create a non-blocking stream. */
cusci_status cusci__gpu_ctx_init(int device, void **stream, char *err, size_t len);
void cusci__gpu_ctx_fini(int device, void *stream);
/* Make `ctx`'s device current for this thread; CUSCI_ERR_DEVICE_FAULT
 * when the device has faulted. */
cusci_status cusci__gpu_use(cusci_ctx *ctx, const char *fn);
/* CUSCI_ERR_DEVICE_FAULT, with the first fault's message, when ctx's
 * device has faulted; else CUSCI_OK (always on the host). */
cusci_status cusci__gpu_fault_check(cusci_ctx *ctx, const char *fn);


/* Copies queued on ctx's stream; *_sync variants wait for them. */
cusci_status cusci__gpu_memcpy_h2d(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n);
cusci_status cusci__gpu_memcpy_d2h(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n);
cusci_status cusci__gpu_memcpy_d2d(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n);
cusci_status cusci__gpu_memset(cusci_ctx *ctx, const char *fn, void *dst, int byte, size_t n);
cusci_status cusci__gpu_sync(cusci_ctx *ctx, const char *fn);
/* Wait for a stream, errors ignored (teardown paths). */
void cusci__gpu_stream_sync(void *stream);

/* CUDA events for a pool's stream order on `device`. */
cusci_status cusci__gpu_stream_events(int device, cusci_stream_events *out);

/*
 * Between devices. gather: the elements of a strided array on GPU `device`
 * into a new block of `pool` (contiguous, C order), waiting for the copy.
 * d2h_from: device `device` to host, synchronous. peer: from GPU src_device
 * to ctx's GPU on ctx's stream, waiting for the copy.
 */
cusci_status cusci__gpu_gather(cusci_ctx *ctx, const char *fn, int device, cusci_pool *pool, const cusci_loop *loop,
                               cusci_dtype dtype, const void *src, size_t n, void **out);
cusci_status cusci__gpu_d2h_from(cusci_ctx *ctx, const char *fn, int device, void *dst, const void *src, size_t n);
cusci_status cusci__gpu_memcpy_peer(cusci_ctx *ctx, const char *fn, void *dst, const void *src, int src_device, size_t n);

/* The GPU whose memory ptr is (device or managed), or CUSCI_DEVICE_HOST. */
int cusci__gpu_pointer_device(const void *ptr);

/* True when ptr is page-locked host memory the GPU can copy directly. */
bool cusci__gpu_is_pinned(const void *ptr);

/* Events. */
cusci_status cusci__gpu_event_create(cusci_ctx *ctx, const char *fn, void **ev);
void cusci__gpu_event_destroy(int device, void *ev);
cusci_status cusci__gpu_event_record(cusci_ctx *ctx, const char *fn, void *ev);
cusci_status cusci__gpu_event_wait(cusci_ctx *ctx, const char *fn, void *ev);
cusci_status cusci__gpu_event_sync(cusci_ctx *ctx, const char *fn, void *ev);
/* The same on a stream other than ctx's (ctx's device current). */
cusci_status cusci__gpu_event_record_on(cusci_ctx *ctx, const char *fn, void *ev, void *stream);
cusci_status cusci__gpu_event_wait_on(cusci_ctx *ctx, const char *fn, void *ev, void *stream);
cusci_status cusci__gpu_event_elapsed(cusci_ctx *ctx, const char *fn, void *start, void *end, float *ms);

#endif
