/*
 * tests/core-fault-gpu.c: after a device fault. A user's kernel writes to
 * an address no allocation holds, which destroys the GPU's CUDA context
 * for the process; the call that sees the fault, every later call on that
 * context and on another context of the same GPU, and a new context on it
 * must return CUSCI_ERR_DEVICE_FAULT with a message naming the original
 * error and saying that the process must restart, while the host backend
 * goes on working. Faults on purpose, so make check-sanitize leaves it out.
 * Prints "1..0 # SKIP no CUDA device" where there is none (or no NVRTC).
 */
#include "tests/testkit.h"

#include <string.h>

static const char *const wild =
    "extern \"C\" __global__ void wild(float *p, long long off)\n"
    "{\n"
    "  p[off + threadIdx.x] = 1.0f;\n"
    "}\n";

/* The message must name the first error and ask for a restart. */
static int names_fault(cusci_ctx *ctx)
{
  const char *m = cusci_ctx_last_error(ctx);
  return strstr(m, "cudaErrorIllegalAddress") && strstr(m, "restart");
}

int main(void)
{
  cusci_ctx *gpu = tk_gpu_ctx_or_skip(), *other = NULL, *host = tk_host_ctx();
  if (cusci_ctx_create(0, &other) != CUSCI_OK) {
    printf("Bail out! no second context: %s\n", cusci_ctx_create_error());
    return 1;
  }
  cusci_raw_kernel *k = NULL;
  cusci_status st = cusci_raw_kernel_create(gpu, wild, "wild", NULL, &k);
  if (st == CUSCI_ERR_NOT_SUPPORTED)
    skip_all("no NVRTC in this build");
  int64_t n = 256;
  cusci_array *x = NULL, *y = NULL, *z = NULL;
  cusci_event *e0 = NULL, *e1 = NULL;
  ok(st == CUSCI_OK && cusci_array_zeros(gpu, 1, &n, CUSCI_FLOAT32, &x) == CUSCI_OK && cusci_event_create(gpu, &e0) == CUSCI_OK &&
         cusci_event_create(gpu, &e1) == CUSCI_OK && cusci_event_record(gpu, e0) == CUSCI_OK,
     "before the fault: a kernel, an array and events (%s)", cusci_ctx_last_error(gpu));

  /* 2^40 floats past the array: no allocation is there. */
  const cusci_operand args[2] = {cusci_operand_array(x), cusci_operand_int(INT64_C(1) << 40)};
  cusci_status sl = cusci_raw_kernel_launch(gpu, k, (const unsigned[3]){1, 1, 1}, (const unsigned[3]){32, 1, 1}, 0, 2, args);
  cusci_status ss = cusci_ctx_synchronize(gpu);
  ok(sl == CUSCI_OK && ss == CUSCI_ERR_DEVICE_FAULT && names_fault(gpu),
     "the synchronisation that sees the fault: CUSCI_ERR_DEVICE_FAULT (%s)", cusci_ctx_last_error(gpu));
  diag("%s", cusci_ctx_last_error(gpu));

  /* Every later call on the device says the same. */
  float ms = 0;
  st = cusci_array_zeros(gpu, 1, &n, CUSCI_FLOAT32, &y);
  ok(st == CUSCI_ERR_DEVICE_FAULT && y == NULL && names_fault(gpu), "an allocation after it: CUSCI_ERR_DEVICE_FAULT (%s)",
     cusci_ctx_last_error(gpu));
  ok(cusci_event_record(gpu, e1) == CUSCI_ERR_DEVICE_FAULT && names_fault(gpu), "an event record: CUSCI_ERR_DEVICE_FAULT");
  ok(cusci_event_elapsed_ms(gpu, e0, e1, &ms) == CUSCI_ERR_DEVICE_FAULT && names_fault(gpu),
     "an event timing: CUSCI_ERR_DEVICE_FAULT, not a complaint about the event (%s)", cusci_ctx_last_error(gpu));
  ok(cusci_add(gpu, x, x, &z) == CUSCI_ERR_DEVICE_FAULT && z == NULL && names_fault(gpu), "a ufunc: CUSCI_ERR_DEVICE_FAULT");
  float buf[256];
  ok(cusci_array_to_host(gpu, x, buf, sizeof buf) == CUSCI_ERR_DEVICE_FAULT && names_fault(gpu), "a copy to the host: CUSCI_ERR_DEVICE_FAULT");
  ok(cusci_ctx_synchronize(gpu) == CUSCI_ERR_DEVICE_FAULT && names_fault(gpu), "another synchronisation: CUSCI_ERR_DEVICE_FAULT");
  ok(cusci_array_zeros(other, 1, &n, CUSCI_FLOAT64, &y) == CUSCI_ERR_DEVICE_FAULT && names_fault(other),
     "another context of the same GPU: CUSCI_ERR_DEVICE_FAULT (%s)", cusci_ctx_last_error(other));
  cusci_ctx *fresh = NULL;
  st = cusci_ctx_create(0, &fresh);
  ok(st == CUSCI_ERR_DEVICE_FAULT && fresh == NULL && strstr(cusci_ctx_create_error(), "cudaErrorIllegalAddress"),
     "a new context on the GPU: CUSCI_ERR_DEVICE_FAULT (%s)", cusci_ctx_create_error());
  ok(strcmp(cusci_status_name(CUSCI_ERR_DEVICE_FAULT), "CUSCI_ERR_DEVICE_FAULT") == 0 &&
         strstr(cusci_status_string(CUSCI_ERR_DEVICE_FAULT), "restarts"),
     "the status has a name and a sentence");

  /* The host backend is untouched. */
  cusci_array *h = NULL;
  ok(cusci_array_ones(host, 1, &n, CUSCI_FLOAT64, &h) == CUSCI_OK, "the host backend still works");
  cusci_array_release(h);

  /* Teardown after a fault frees what it can and does not hang. */
  cusci_array_release(x);
  cusci_event_destroy(e0);
  cusci_event_destroy(e1);
  cusci_raw_kernel_destroy(k);
  cusci_ctx_destroy(other);
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
