/*
 * tests/core-vmm.c: the device pool over other upstreams. First
 * cudaMallocAsync and managed memory through cusci_pool_set_allocator; then
 * large requests in one range of virtual addresses (CUDA's VMM): arrays in
 * it hold their values, memory freed between arrays in use goes back to the
 * device, and the whole GPU path (astype, copies, views) works on it. Skips
 * without a GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/testkit.h"

int main(void)
{
  cusci_ctx *gpu = tk_gpu_ctx_or_skip();
  cusci_pool *p = cusci_ctx_pool(gpu);

  /* Other upstream allocators: arrays made and checked through each. */
  static const cusci_allocator_kind kinds[] = {CUSCI_ALLOCATOR_CUDA_MALLOC_ASYNC, CUSCI_ALLOCATOR_CUDA_MANAGED,
                                               CUSCI_ALLOCATOR_CUDA_MALLOC};
  static const char *const kind_names[] = {"cudaMallocAsync", "managed memory", "cudaMalloc again"};
  for (int k = 0; k < 3; k++) {
    cusci_allocator up;
    cusci_array *x = NULL, *y = NULL;
    int64_t n = (3 << 20) + 5;
    int good = cusci_allocator_builtin(kinds[k], 0, &up) == CUSCI_OK && cusci_pool_set_allocator(p, &up) == CUSCI_OK &&
               cusci_array_arange(gpu, 0, (double)n, 1, CUSCI_FLOAT64, &x) == CUSCI_OK &&
               cusci_array_astype(gpu, x, CUSCI_INT32, true, &y) == CUSCI_OK;
    int32_t last = 0;
    cusci_array *tail = NULL;
    good = good && cusci_array_slice(gpu, y, (const int64_t[]){-1}, NULL, NULL, &tail) == CUSCI_OK &&
           cusci_array_to_host(gpu, tail, &last, sizeof last) == CUSCI_OK && last == (int32_t)(n - 1);
    cusci_array_release(tail);
    cusci_array_release(x);
    cusci_array_release(y);
    cusci_ctx_synchronize(gpu);
    ok(good, "the device pool over %s (%s)", kind_names[k], good ? "ok" : cusci_ctx_last_error(gpu));
  }
  cusci_allocator bad;
  ok(cusci_allocator_builtin((cusci_allocator_kind)99, 0, &bad) == CUSCI_ERR_INVALID_ARGUMENT &&
         cusci_allocator_builtin(CUSCI_ALLOCATOR_HOST, 0, NULL) == CUSCI_ERR_NULL_POINTER,
     "an unknown allocator kind or a NULL out is refused");

  cusci_vmm_ops ops;
  cusci_status st = cusci_vmm_builtin(0, &ops);
  if (st == CUSCI_ERR_NOT_SUPPORTED) {
    cusci_ctx_destroy(gpu);
    skip_all("the driver has no virtual memory management");
  }
  size_t total_mem = 0;
  cusci_device_memory(0, NULL, &total_mem);
  ok(st == CUSCI_OK && ops.granule >= 512, "CUDA's VMM ops for GPU 0 (granule %zu bytes)", ops.granule);
  ok(cusci_pool_set_vmm(p, &ops, 2 * total_mem) == CUSCI_OK, "the device pool serves large requests from VMM");

  /* Three arrays of 64, 96 and 32 MiB, filled with known values. */
  int64_t n[3] = {16 << 20, 24 << 20, 8 << 20};
  cusci_array *a[3] = {NULL};
  float *host = malloc((size_t)n[1] * sizeof *host), *back = malloc((size_t)n[1] * sizeof *back);
  int good = 1;
  for (int k = 0; k < 3; k++) {
    for (int64_t i = 0; i < n[k]; i++)
      host[i] = (float)(i % 1000003) * 0.5f + (float)k;
    good &= cusci_array_from_host(gpu, host, 1, &n[k], CUSCI_FLOAT32, &a[k]) == CUSCI_OK;
  }
  ok(good, "three large arrays in the range");
  ok((char *)cusci_array_data(a[1]) == (char *)cusci_array_data(a[0]) + (64u << 20),
     "they lie one after the other: the range grows in place");
  size_t held = cusci_pool_total_bytes(p), used = cusci_pool_used_bytes(p);
  cusci_array_release(a[1]);
  cusci_ctx_synchronize(gpu);
  cusci_pool_free_all_blocks(p);
  size_t held2 = cusci_pool_total_bytes(p);
  ok(held - held2 >= (96u << 20) - 2 * ops.granule && cusci_pool_used_bytes(p) == used - (96u << 20),
     "the 96 MiB freed between two arrays in use went back to the device (held %zu -> %zu MiB)", held >> 20,
     held2 >> 20);
  for (int k = 0; k < 3; k += 2) {
    int64_t i0 = n[k] - 1;
    cusci_array_to_host(gpu, a[k], back, (size_t)n[k] * sizeof *back);
    good = back[0] == (float)k && back[i0] == (float)(i0 % 1000003) * 0.5f + (float)k;
    ok(good, "array %d keeps its values", k);
  }
  /* The hole is mapped again for a new array, and the GPU path works on it. */
  cusci_array *c = NULL, *d = NULL, *t = NULL;
  good = cusci_array_arange(gpu, 0, (double)n[1], 1, CUSCI_FLOAT64, &c) == CUSCI_OK &&
         cusci_array_astype(gpu, c, CUSCI_FLOAT32, true, &d) == CUSCI_OK &&
         cusci_array_reshape(gpu, d, 2, (const int64_t[]){4096, -1}, &t) == CUSCI_OK;
  cusci_array *tt = NULL, *tc = NULL;
  good = good && cusci_array_transpose(gpu, t, NULL, &tt) == CUSCI_OK && cusci_array_copy(gpu, tt, &tc) == CUSCI_OK;
  float corner[2];
  cusci_array *row = NULL;
  good = good && cusci_array_slice(gpu, tc, (const int64_t[]){1, 0}, (const int64_t[]){2, 2}, NULL, &row) == CUSCI_OK &&
         cusci_array_to_host(gpu, row, corner, sizeof corner) == CUSCI_OK;
  int64_t cols = n[1] / 4096;
  ok(good && corner[0] == 1.0f && corner[1] == (float)cols + 1.0f, "arange, astype, transpose and copy in mapped memory");
  cusci_array_release(row);
  cusci_array_release(tc);
  cusci_array_release(tt);
  cusci_array_release(t);
  cusci_array_release(d);
  cusci_array_release(c);
  cusci_array_release(a[0]);
  cusci_array_release(a[2]);
  cusci_ctx_synchronize(gpu);
  ok(cusci_pool_set_vmm(p, NULL, 0) == CUSCI_OK, "back to the upstream allocator once nothing is in use");
  free(host);
  free(back);
  cusci_ctx_destroy(gpu);
  return done_testing();
}
