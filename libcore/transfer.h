/*
 * libcore/transfer.h: host <-> GPU copies, staged through pinned buffers
 * when the host side is pageable.
 */
#ifndef CUSCI_LIBCORE_TRANSFER_H
#define CUSCI_LIBCORE_TRANSFER_H

#include "libcore/internal.h"

/* Copy n bytes on ctx's stream. With `wait`, return once the copy is done;
 * without, the copy may still be queued (pinned or small buffers only:
 * staged copies always finish before returning). */
cusci_status cusci__h2d(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n, bool wait);
cusci_status cusci__d2h(cusci_ctx *ctx, const char *fn, void *dst, const void *src, size_t n, bool wait);
/* memcpy spread over worker threads for large buffers. */
void cusci__parallel_memcpy(void *dst, const void *src, size_t n);

#endif
