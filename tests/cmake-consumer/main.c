/* The CMake consumer (see CMakeLists.txt): normals from Philox on the host
   when the installation has the random module, a core call alone when it
   has not; cusci/cusci.h must compile either way. */
#include <stdio.h>
#include <cusci/cusci.h>

int main(void)
{
  cusci_ctx *ctx;
  if (cusci_ctx_create(CUSCI_DEVICE_HOST, &ctx) != CUSCI_OK) {
    fprintf(stderr, "%s\n", cusci_ctx_create_error());
    return 1;
  }
  cusci_status st = CUSCI_OK;
#if CUSCI_HAVE_RANDOM
  int64_t n = 4;
  double x[4];
  cusci_random_generator *g = NULL;
  cusci_array *a = NULL;
  st = cusci_random_generator_create(ctx, CUSCI_BITGEN_PHILOX, 20260101, &g);
  if (st == CUSCI_OK) st = cusci_random_standard_normal(ctx, g, 1, &n, CUSCI_FLOAT64, &a);
  if (st == CUSCI_OK) st = cusci_array_to_host(ctx, a, x, sizeof x);
  if (st == CUSCI_OK)
    printf("cusci %s, random: %.6f %.6f %.6f %.6f\n", cusci_version(), x[0], x[1], x[2], x[3]);
  cusci_array_release(a);
  cusci_random_generator_destroy(g);
#else
  printf("cusci %s, without random\n", cusci_version());
#endif
  if (st != CUSCI_OK)
    fprintf(stderr, "%s: %s\n", cusci_status_name(st), cusci_ctx_last_error(ctx));
  cusci_ctx_destroy(ctx);
  return st != CUSCI_OK;
}
