/*
 * tests/signal-design-gpu.c: filter design and windows on a GPU context:
 * every SciPy fixture against SciPy and against the host bit for bit (the
 * design runs on the host; the results are uploaded to the device).
 * Prints "1..0 # SKIP no CUDA device" where there is none.
 */
#include "tests/signal-design-suite.h"

int main(void)
{
  cusci_ctx *gpu = tk_gpu_ctx_or_skip(), *host = tk_host_ctx();
  sd_fixtures(gpu, host);
  sd_chain(gpu);
  cusci_ctx_destroy(gpu);
  cusci_ctx_destroy(host);
  return done_testing();
}
