/*
 * libcore/pool.h: the pools libcore keeps (one per GPU, one for the host,
 * one for pinned host memory) and what pool.c offers inside libcore.
 */
#ifndef CUSCI_LIBCORE_POOL_H
#define CUSCI_LIBCORE_POOL_H

#include "libcore/internal.h"

/* Which device a pool serves (for limit fractions); -3 for pinned memory. */
#define CUSCI__DEVICE_PINNED (-3)
void cusci__pool_set_device(cusci_pool *p, int device);
int cusci__pool_device(const cusci_pool *p);

/* The shared pool of a device (created on first use), or of the host.
 * NULL when it cannot be made (message in err). */
cusci_pool *cusci__device_pool(int device, char *err, size_t len);

/* CUSCI_POOL: 1 for caching (unset, "", "on" or "1"), 0 for none ("off"
 * or "0"), -1 for any other value. */
int cusci__pool_env(void);

/* Parse CUSCI_MEMORY_LIMIT-style text: bytes with an optional K/M/G/T
 * suffix (powers of 1024), or a percentage of `whole`. 0 on error. */
size_t cusci__parse_limit(const char *text, size_t whole, bool *valid);

#endif
