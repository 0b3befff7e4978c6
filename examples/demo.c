/*
 * examples/demo.c: arrays, dtypes and transfers, on the GPU when there is
 * one, else on the host. Run it with `make demo`.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cusci/cusci.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cusci_status st_ = (call);                                                               \
    if (st_ != CUSCI_OK) {                                                                   \
      fprintf(stderr, "%s failed: %s\n  %s\n", #call, cusci_status_name(st_),                \
              cusci_ctx_last_error(ctx));                                                    \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

int main(void)
{
  cusci_ctx *ctx = NULL;
  if (cusci_ctx_create(CUSCI_DEVICE_DEFAULT, &ctx) != CUSCI_OK) {
    fprintf(stderr, "no context: %s\n", cusci_ctx_create_error());
    return 1;
  }
  int dev = cusci_ctx_device(ctx);
  printf("cusci %s\n", cusci_version());
  if (dev >= 0) {
    char name[256];
    int major = 0, minor = 0;
    size_t free_b = 0, total_b = 0;
    cusci_device_name(dev, name, sizeof name);
    cusci_device_compute_capability(dev, &major, &minor);
    cusci_device_memory(dev, &free_b, &total_b);
    printf("device: GPU %d, %s (compute %d.%d, %.1f of %.1f GiB free)\n", dev, name, major, minor,
           free_b / 1073741824.0, total_b / 1073741824.0);
  } else {
    printf("device: the host (no usable GPU; set CUSCI_DEVICE=cuda:0 to insist)\n");
  }

  /* A 3x4 float64 array from host memory, and its transpose as a view. */
  double host[12];
  for (int i = 0; i < 12; i++)
    host[i] = 0.25 * i - 1.0;
  int64_t shape[2] = {3, 4};
  cusci_array *a = NULL, *t = NULL, *f16 = NULL, *i8 = NULL, *back = NULL;
  CHECK(cusci_array_from_host(ctx, host, 2, shape, CUSCI_FLOAT64, &a));
  CHECK(cusci_array_transpose(ctx, a, NULL, &t));
  printf("a: %s %lldx%lld, a.T strides (%lld, %lld) elements\n", cusci_dtype_name(cusci_array_dtype(a)),
         (long long)cusci_array_shape(a)[0], (long long)cusci_array_shape(a)[1],
         (long long)cusci_array_strides(t)[0], (long long)cusci_array_strides(t)[1]);

  /* Conversions run on the device, from any view. */
  CHECK(cusci_array_astype(ctx, t, CUSCI_FLOAT16, true, &f16));
  CHECK(cusci_array_astype(ctx, t, CUSCI_INT8, true, &i8));
  CHECK(cusci_array_astype(ctx, f16, CUSCI_FLOAT64, true, &back));
  double tb[12];
  signed char ib[12];
  CHECK(cusci_array_to_host(ctx, back, tb, sizeof tb));
  CHECK(cusci_array_to_host(ctx, i8, ib, sizeof ib));
  printf("a.T as float16 -> float64 and as int8 (truncated toward zero):\n");
  for (int r = 0; r < 4; r++) {
    printf("  ");
    for (int c = 0; c < 3; c++)
      printf("%7.3f ", tb[r * 3 + c]);
    printf("   ");
    for (int c = 0; c < 3; c++)
      printf("%3d ", ib[r * 3 + c]);
    printf("\n");
  }

  cusci_dtype r;
  cusci_dtype pair[2] = {CUSCI_INT16, CUSCI_FLOAT16};
  cusci_result_type(2, pair, &r);
  printf("result_type(int16, float16) = %s; can_cast(int64, float64, safe) = %s\n", cusci_dtype_name(r),
         cusci_can_cast(CUSCI_INT64, CUSCI_FLOAT64, CUSCI_CASTING_SAFE) ? "true" : "false");

  cusci_array_release(a);
  cusci_array_release(t);
  cusci_array_release(f16);
  cusci_array_release(i8);
  cusci_array_release(back);
  cusci_ctx_destroy(ctx);
  return 0;
}
