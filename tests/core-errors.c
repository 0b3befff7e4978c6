/*
 * tests/core-errors.c: every error status of the core's entry points, with
 * a message naming the function and the argument, and *out untouched.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "tests/testkit.h"

static cusci_ctx *ctx;
static int n_freed;

static void count_free(void *p)
{
  free(p);
  n_freed++;
}

/* The call returned `want`, and the context's message names `fn` and
 * contains `word`. */
#define FAILS(call, want, fn, word)                                                                  \
  do {                                                                                               \
    cusci_ctx_clear_error(ctx);                                                                      \
    cusci_status st_ = (call);                                                                       \
    const char *m_ = cusci_ctx_last_error(ctx);                                                      \
    int good_ = st_ == (want) && strstr(m_, fn) == m_ && strstr(m_, word) != NULL;                   \
    ok(good_, "%s -> %s", #call, cusci_status_name(want));                                           \
    if (!good_)                                                                                      \
      diag("got %s, message \"%s\"", cusci_status_name(st_), m_);                                    \
  } while (0)

/* A module's function with the kit's entry check. */
static cusci_status three(cusci_ctx *c, const void *a, const cusci_array *b, cusci_array **out)
{
  CUSCI_ENTRY(c, "three", a, (const void *)(b ? b : NULL), out);
  return CUSCI_OK;
}

static cusci_status none(cusci_ctx *c)
{
  CUSCI_ENTRY_CTX(c, "none");
  return CUSCI_OK;
}

int main(void)
{
  ctx = tk_host_ctx();
  int64_t shape[2] = {3, 4};
  cusci_array *out = NULL;
  cusci_array *sentinel = (cusci_array *)&shape; /* never dereferenced: calls must fail before */

  /* CUSCI_ENTRY: the first NULL pointer named as written. */
  cusci_array *o2 = NULL;
  ok(three(NULL, shape, sentinel, &o2) == CUSCI_ERR_NULL_POINTER && none(NULL) == CUSCI_ERR_NULL_POINTER,
     "CUSCI_ENTRY: a NULL ctx -> CUSCI_ERR_NULL_POINTER");
  ok(three(ctx, NULL, NULL, &o2) == CUSCI_ERR_NULL_POINTER && !strcmp(cusci_ctx_last_error(ctx), "three: a is NULL"),
     "CUSCI_ENTRY names the first NULL argument (%s)", cusci_ctx_last_error(ctx));
  ok(three(ctx, shape, NULL, &o2) == CUSCI_ERR_NULL_POINTER &&
         !strcmp(cusci_ctx_last_error(ctx), "three: (const void *)(b ? b : NULL) is NULL"),
     "an argument written with parentheses is named whole (%s)", cusci_ctx_last_error(ctx));
  ok(three(ctx, shape, sentinel, NULL) == CUSCI_ERR_NULL_POINTER && !strcmp(cusci_ctx_last_error(ctx), "three: out is NULL"),
     "the last argument too (%s)", cusci_ctx_last_error(ctx));
  ok(three(ctx, shape, sentinel, &o2) == CUSCI_OK && none(ctx) == CUSCI_OK, "and none NULL passes");
  cusci_ctx_clear_error(ctx);

  /* cusci_ctx_gpu_status: a launcher's code as a status and a message. */
  cusci_status gs = cusci_ctx_gpu_status(ctx, "exec", "cusolverDnXgetrf", CUSCI_GPU_CODE(CUSCI_GPU_CUSOLVER, 2));
  if (gs == CUSCI_ERR_NO_DEVICE) { /* a build without CUDA */
    ok(strstr(cusci_ctx_last_error(ctx), "no CUDA backend") != NULL, "without CUDA a code says so (%s)", cusci_ctx_last_error(ctx));
    skip(2, "no CUDA in this build");
  } else {
    ok(gs == CUSCI_ERR_OUT_OF_MEMORY && strstr(cusci_ctx_last_error(ctx), "exec: cusolverDnXgetrf failed: CUSOLVER_STATUS_ALLOC_FAILED"),
       "a cuSOLVER allocation failure: CUSCI_ERR_OUT_OF_MEMORY, named (%s)", cusci_ctx_last_error(ctx));
    ok(cusci_ctx_gpu_status(ctx, "exec", NULL, CUSCI_GPU_CODE(CUSCI_GPU_CUBLAS, 7)) == CUSCI_ERR_CUDA &&
           strstr(cusci_ctx_last_error(ctx), "exec: a kernel launch failed: CUBLAS_STATUS_INVALID_VALUE (7)"),
       "a cuBLAS code: CUSCI_ERR_CUDA, named (%s)", cusci_ctx_last_error(ctx));
    ok(cusci_ctx_gpu_status(ctx, "exec", "cufftExecC2C", CUSCI_GPU_CODE(CUSCI_GPU_CUFFT, 4242)) == CUSCI_ERR_CUDA &&
           strstr(cusci_ctx_last_error(ctx), "a status this build of cusci does not know (4242)"),
       "an unknown code is said to be unknown (%s)", cusci_ctx_last_error(ctx));
  }
  ok(cusci_ctx_gpu_status(ctx, "exec", NULL, 0) == CUSCI_OK && CUSCI_GPU_CODE(CUSCI_GPU_CUFFT, 0) == 0,
     "code 0 is CUSCI_OK, tagged or not");
  cusci_ctx_clear_error(ctx);

  /* cusci_workspace_take: the caller's workspace, or the pool's. */
  char ws[64];
  void *wp = NULL;
  cusci_array *held = sentinel;
  ok(cusci_workspace_take(ctx, "plan_exec", ws, sizeof ws, 48, &wp, &held) == CUSCI_OK && wp == ws && held == NULL,
     "a workspace large enough is used as given");
  ok(cusci_workspace_take(ctx, "plan_exec", ws, sizeof ws, 100, &wp, &held) == CUSCI_ERR_BUFFER_TOO_SMALL &&
         strstr(cusci_ctx_last_error(ctx), "plan_exec: the workspace has 64 bytes, the work needs 100"),
     "a workspace too small: CUSCI_ERR_BUFFER_TOO_SMALL (%s)", cusci_ctx_last_error(ctx));
  ok(cusci_workspace_take(ctx, "plan_exec", NULL, 0, 1000, &wp, &held) == CUSCI_OK && held &&
         cusci_array_nbytes(held) == 1000 && wp == cusci_array_data(held),
     "no workspace: the pool's, held by an array");
  cusci_array_release(held);
  ok(cusci_workspace_take(ctx, "plan_exec", NULL, 0, 8, NULL, &held) == CUSCI_ERR_NULL_POINTER, "ptr NULL -> CUSCI_ERR_NULL_POINTER");
  cusci_ctx_clear_error(ctx);

  /* Contexts. */
  cusci_ctx *c2 = NULL;
  ok(cusci_ctx_create(CUSCI_DEVICE_HOST, NULL) == CUSCI_ERR_NULL_POINTER &&
         strstr(cusci_ctx_create_error(), "ctx is NULL"),
     "ctx_create(NULL) -> CUSCI_ERR_NULL_POINTER");
  ok(cusci_ctx_create(-7, &c2) == CUSCI_ERR_INVALID_ARGUMENT && c2 == NULL, "ctx_create(-7) -> CUSCI_ERR_INVALID_ARGUMENT");
  int ngpu = 0;
  cusci_device_count(&ngpu);
  ok(cusci_ctx_create(ngpu + 3, &c2) == CUSCI_ERR_NO_DEVICE && c2 == NULL &&
         strstr(cusci_ctx_create_error(), "cannot use GPU"),
     "ctx_create on a missing GPU -> CUSCI_ERR_NO_DEVICE (%s)", cusci_ctx_create_error());
  setenv("CUSCI_DEVICE", "tpu:3", 1);
  ok(cusci_ctx_create(CUSCI_DEVICE_DEFAULT, &c2) == CUSCI_ERR_INVALID_ARGUMENT && strstr(cusci_ctx_create_error(), "tpu:3"),
     "a malformed CUSCI_DEVICE -> CUSCI_ERR_INVALID_ARGUMENT");
  setenv("CUSCI_DEVICE", "host", 1);
  ok(cusci_ctx_create(CUSCI_DEVICE_DEFAULT, &c2) == CUSCI_OK && cusci_ctx_device(c2) == CUSCI_DEVICE_HOST,
     "CUSCI_DEVICE=host gives a host context");
  cusci_ctx_destroy(c2);
  unsetenv("CUSCI_DEVICE");
  cusci_ctx_destroy(NULL);
  ok(cusci_ctx_synchronize(NULL) == CUSCI_ERR_NULL_POINTER, "synchronize(NULL) -> CUSCI_ERR_NULL_POINTER");
  ok(!strcmp(cusci_ctx_last_error(ctx), "") && !strcmp(cusci_ctx_last_error(NULL), ""), "no error is \"\"");
  FAILS(cusci_ctx_set_stream(ctx, (void *)shape), CUSCI_ERR_NOT_SUPPORTED, "cusci_ctx_set_stream", "host");
  cusci_event *ev = NULL, *ev2 = NULL;
  cusci_event_create(ctx, &ev);
  cusci_event_create(ctx, &ev2);
  float ms;
  FAILS(cusci_event_wait(ctx, ev), CUSCI_ERR_INVALID_ARGUMENT, "cusci_event_wait", "never recorded");
  FAILS(cusci_event_record(ctx, NULL), CUSCI_ERR_NULL_POINTER, "cusci_event_record", "NULL");
  cusci_event_record(ctx, ev);
  cusci_event_record(ctx, ev2);
  ok(cusci_event_elapsed_ms(ctx, ev, ev2, &ms) == CUSCI_OK && ms >= 0, "host events time");
  FAILS(cusci_event_elapsed_ms(ctx, ev, ev2, NULL), CUSCI_ERR_NULL_POINTER, "cusci_event_elapsed_ms", "ms");
  cusci_event_destroy(ev);
  cusci_event_destroy(ev2);
  cusci_event_destroy(NULL);

  /* Creation: every argument. */
  ok(cusci_array_empty(NULL, 2, shape, CUSCI_FLOAT32, &out) == CUSCI_ERR_NULL_POINTER && out == NULL,
     "empty(ctx NULL) -> CUSCI_ERR_NULL_POINTER");
  FAILS(cusci_array_empty(ctx, 2, shape, CUSCI_FLOAT32, NULL), CUSCI_ERR_NULL_POINTER, "cusci_array_empty", "out");
  FAILS(cusci_array_empty(ctx, -1, shape, CUSCI_FLOAT32, &out), CUSCI_ERR_NDIM, "cusci_array_empty", "ndim is -1");
  FAILS(cusci_array_empty(ctx, 33, shape, CUSCI_FLOAT32, &out), CUSCI_ERR_NDIM, "cusci_array_empty", "ndim is 33");
  FAILS(cusci_array_zeros(ctx, 2, NULL, CUSCI_FLOAT32, &out), CUSCI_ERR_NULL_POINTER, "cusci_array_zeros", "shape");
  FAILS(cusci_array_ones(ctx, 2, (const int64_t[]){3, -4}, CUSCI_FLOAT32, &out), CUSCI_ERR_SHAPE, "cusci_array_ones",
        "shape[1] is -4");
  FAILS(cusci_array_empty(ctx, 3, (const int64_t[]){1LL << 40, 1LL << 40, 1LL << 40}, CUSCI_INT8, &out),
        CUSCI_ERR_OVERFLOW, "cusci_array_empty", "2^63");
  FAILS(cusci_array_empty(ctx, 2, (const int64_t[]){1LL << 31, 1LL << 31}, CUSCI_COMPLEX128, &out), CUSCI_ERR_OVERFLOW,
        "cusci_array_empty", "bytes");
  /* As NumPy: a zero extent does not excuse the others from overflowing. */
  FAILS(cusci_array_empty(ctx, 3, (const int64_t[]){0, 1LL << 40, 1LL << 40}, CUSCI_INT8, &out), CUSCI_ERR_OVERFLOW,
        "cusci_array_empty", "2^63");
  FAILS(cusci_array_empty(ctx, 2, shape, (cusci_dtype)14, &out), CUSCI_ERR_DTYPE, "cusci_array_empty", "dtype is 14");
  FAILS(cusci_array_full(ctx, 2, shape, CUSCI_FLOAT32, NULL, &out), CUSCI_ERR_NULL_POINTER, "cusci_array_full", "value");
  FAILS(cusci_array_arange(ctx, 0, 10, 0, CUSCI_FLOAT32, &out), CUSCI_ERR_VALUE, "cusci_array_arange", "step is 0");
  FAILS(cusci_array_arange(ctx, 0, 1.0 / 0.0, 1, CUSCI_FLOAT32, &out), CUSCI_ERR_VALUE, "cusci_array_arange", "finite");
  FAILS(cusci_array_arange(ctx, 0, 3, 1, CUSCI_BOOL, &out), CUSCI_ERR_DTYPE, "cusci_array_arange", "bool");
  FAILS(cusci_array_arange(ctx, 0, 1e300, 1e-300, CUSCI_FLOAT64, &out), CUSCI_ERR_OVERFLOW, "cusci_array_arange",
        "too many");
  FAILS(cusci_array_linspace(ctx, 0, 1, -3, true, CUSCI_FLOAT64, &out), CUSCI_ERR_VALUE, "cusci_array_linspace", "num");
  FAILS(cusci_array_eye(ctx, -2, 3, 0, CUSCI_FLOAT64, &out), CUSCI_ERR_SHAPE, "cusci_array_zeros", "-2");
  FAILS(cusci_array_from_host(ctx, NULL, 2, shape, CUSCI_FLOAT32, &out), CUSCI_ERR_NULL_POINTER, "cusci_array_from_host",
        "src");
  ok(out == NULL, "failed calls left *out NULL");

  /* The out convention: a given out of the wrong shape or dtype. */
  cusci_array *a = NULL, *given = NULL, *keep;
  cusci_array_arange(ctx, 0, 12, 1, CUSCI_FLOAT32, &a);
  cusci_array_zeros(ctx, 2, shape, CUSCI_FLOAT32, &given);
  keep = given;
  FAILS(cusci_array_astype(ctx, a, CUSCI_FLOAT32, true, &given), CUSCI_ERR_SHAPE, "cusci_array_astype",
        "*out has shape 3x4, expected 12");
  cusci_array *g64 = NULL, *k64;
  cusci_array_zeros(ctx, 1, (const int64_t[]){12}, CUSCI_FLOAT64, &g64);
  k64 = g64;
  FAILS(cusci_array_astype(ctx, a, CUSCI_FLOAT32, true, &g64), CUSCI_ERR_DTYPE, "cusci_array_astype",
        "*out has dtype float64, expected float32");
  FAILS(cusci_array_zeros(ctx, 1, (const int64_t[]){5}, CUSCI_FLOAT32, &given), CUSCI_ERR_SHAPE, "cusci_array_zeros",
        "*out");
  ok(given == keep && g64 == k64, "a failing call leaves a given *out as it was");
  /* The convention's own calls, which every module uses. */
  cusci_array *none = NULL, *i32 = NULL;
  const int64_t twelve = 12;
  FAILS(cusci_check_out(ctx, "mod_fn", NULL, 1, &twelve, CUSCI_FLOAT32, CUSCI_CASTING_NO), CUSCI_ERR_NULL_POINTER, "mod_fn",
        "out is NULL");
  ok(cusci_check_out(ctx, "mod_fn", &none, 1, &twelve, CUSCI_FLOAT32, CUSCI_CASTING_NO) == CUSCI_OK,
     "cusci_check_out: *out NULL is fine");
  ok(cusci_check_out(ctx, "mod_fn", &g64, 1, &twelve, CUSCI_FLOAT32, CUSCI_CASTING_SAME_KIND) == CUSCI_OK,
     "cusci_check_out: float32 goes into a float64 *out under same_kind");
  FAILS(cusci_check_out(ctx, "mod_fn", &g64, 1, &twelve, CUSCI_FLOAT32, CUSCI_CASTING_NO), CUSCI_ERR_DTYPE, "mod_fn",
        "*out has dtype float64, expected float32");
  FAILS(cusci_check_out(ctx, "mod_fn", &given, 1, &twelve, CUSCI_FLOAT32, CUSCI_CASTING_SAME_KIND), CUSCI_ERR_SHAPE, "mod_fn",
        "*out has shape 3x4, expected 12");
  cusci_array_zeros(ctx, 1, &twelve, CUSCI_INT32, &i32);
  FAILS(cusci_check_out(ctx, "mod_fn", &i32, 1, &twelve, CUSCI_FLOAT32, CUSCI_CASTING_SAME_KIND), CUSCI_ERR_CAST, "mod_fn",
        "the result (float32) cannot be cast to *out's int32 under same_kind");
  /* cusci_give_out: into NULL it hands the result over; into a given out
   * it copies (casting) and releases the result. */
  cusci_array *res = NULL;
  cusci_array_arange(ctx, 0, 12, 1, CUSCI_FLOAT32, &res);
  cusci_array *r2 = cusci_array_retain(res);
  ok(cusci_give_out(ctx, "mod_fn", r2, &none) == CUSCI_OK && none == res, "cusci_give_out into NULL: *out is the result");
  double got[12];
  ok(cusci_give_out(ctx, "mod_fn", res, &g64) == CUSCI_OK && g64 == k64 &&
         cusci_array_to_host(ctx, g64, got, sizeof got) == CUSCI_OK && got[0] == 0 && got[11] == 11,
     "cusci_give_out into a float64 *out: the values, cast");
  cusci_array_release(none);
  cusci_array_release(i32);
  FAILS(cusci_array_astype(ctx, a, (cusci_dtype)-3, true, &out), CUSCI_ERR_DTYPE, "cusci_array_astype", "dtype");
  FAILS(cusci_array_astype(ctx, NULL, CUSCI_INT8, true, &out), CUSCI_ERR_NULL_POINTER, "cusci_array_astype", "a is NULL");

  /* Transfers. */
  float buf[12];
  FAILS(cusci_array_to_host(ctx, a, buf, sizeof buf - 1), CUSCI_ERR_BUFFER_TOO_SMALL, "cusci_array_to_host",
        "dst_bytes is 47, the array needs 48");
  FAILS(cusci_array_to_host(ctx, a, NULL, 48), CUSCI_ERR_NULL_POINTER, "cusci_array_to_host", "dst");
  FAILS(cusci_array_to_host(ctx, NULL, buf, 48), CUSCI_ERR_NULL_POINTER, "cusci_array_to_host", "a is NULL");

  cusci_array *cp = NULL;
  ok(cusci_array_to_device(ctx, a, &cp) == CUSCI_OK && cp != a && cusci_array_size(cp) == 12,
     "to_device on the array's own device copies");
  cusci_array_release(cp);
  FAILS(cusci_array_to_device(ctx, NULL, &out), CUSCI_ERR_NULL_POINTER, "cusci_array_to_device", "a is NULL");

  FAILS(cusci_array_wrap(ctx, NULL, 2, shape, NULL, CUSCI_FLOAT32, &out), CUSCI_ERR_NULL_POINTER, "cusci_array_wrap",
        "data");
  FAILS(cusci_array_wrap(ctx, buf, 2, shape, NULL, (cusci_dtype)20, &out), CUSCI_ERR_DTYPE, "cusci_array_wrap", "dtype");
  FAILS(cusci_array_wrap(ctx, buf, -1, shape, NULL, CUSCI_FLOAT32, &out), CUSCI_ERR_NDIM, "cusci_array_wrap", "ndim");
  FAILS(cusci_array_wrap(ctx, (char *)buf + 2, 2, shape, NULL, CUSCI_FLOAT32, &out), CUSCI_ERR_VALUE, "cusci_array_wrap",
        "is not aligned to 4 bytes, the size of a float32 element");
  char *at8 = (char *)buf + (16 - (uintptr_t)buf % 16) % 16 + 8; /* 8 bytes past a 16-byte boundary */
  FAILS(cusci_array_wrap(ctx, at8, 1, (const int64_t[]){1}, NULL, CUSCI_COMPLEX128, &out), CUSCI_ERR_VALUE, "cusci_array_wrap",
        "16 bytes");
  out = NULL;
  ok(cusci_array_wrap(ctx, (char *)buf + 2, 1, (const int64_t[]){0}, NULL, CUSCI_FLOAT32, &out) == CUSCI_OK && cusci_array_size(out) == 0,
     "cusci_array_wrap: an empty array's data need not be aligned");
  cusci_array_release(out);
  out = NULL;

  /* Views. */
  cusci_array *m = NULL;
  cusci_array_reshape(ctx, a, 2, shape, &m);
  FAILS(cusci_array_transpose(ctx, m, (const int[]){0, 0}, &out), CUSCI_ERR_AXIS, "cusci_array_transpose", "repeats");
  FAILS(cusci_array_transpose(ctx, m, (const int[]){0, 2}, &out), CUSCI_ERR_AXIS, "cusci_array_transpose",
        "out of range");
  FAILS(cusci_array_reshape(ctx, a, 2, (const int64_t[]){5, -1}, &out), CUSCI_ERR_SHAPE, "cusci_array_reshape", "-1");
  FAILS(cusci_array_reshape(ctx, a, 2, (const int64_t[]){5, 3}, &out), CUSCI_ERR_SHAPE, "cusci_array_reshape",
        "into shape 5x3");
  FAILS(cusci_array_reshape(ctx, a, 2, (const int64_t[]){-1, -1}, &out), CUSCI_ERR_SHAPE, "cusci_array_reshape",
        "more than one -1");
  FAILS(cusci_array_reshape(ctx, a, 40, shape, &out), CUSCI_ERR_NDIM, "cusci_array_reshape", "ndim");
  FAILS(cusci_array_slice(ctx, m, NULL, NULL, (const int64_t[]){1, 0}, &out), CUSCI_ERR_VALUE, "cusci_array_slice",
        "step[1] is 0");
  FAILS(cusci_array_squeeze(ctx, m, 1, (const int[]){1}, &out), CUSCI_ERR_SHAPE, "cusci_array_squeeze", "extent 4");
  FAILS(cusci_array_squeeze(ctx, m, 1, (const int[]){5}, &out), CUSCI_ERR_AXIS, "cusci_array_squeeze", "out of range");
  FAILS(cusci_array_expand_dims(ctx, m, 4, &out), CUSCI_ERR_AXIS, "cusci_array_expand_dims", "axis is 4");
  FAILS(cusci_array_broadcast_to(ctx, m, 2, (const int64_t[]){3, 5}, &out), CUSCI_ERR_BROADCAST,
        "cusci_array_broadcast_to", "3x4 to 3x5");
  FAILS(cusci_array_broadcast_to(ctx, m, 1, (const int64_t[]){4}, &out), CUSCI_ERR_BROADCAST,
        "cusci_array_broadcast_to", "shorter");
  FAILS(cusci_array_copy(ctx, m, NULL), CUSCI_ERR_NULL_POINTER, "cusci_array_copy", "out");
  /* 32 dimensions are fine; a 33rd is not. */
  cusci_array *deep = NULL, *deeper = NULL;
  int64_t ones[32];
  for (int i = 0; i < 32; i++)
    ones[i] = 1;
  ok(cusci_array_zeros(ctx, 32, ones, CUSCI_INT8, &deep) == CUSCI_OK, "a 32-d array is made");
  FAILS(cusci_array_expand_dims(ctx, deep, 0, &deeper), CUSCI_ERR_NDIM, "cusci_array_expand_dims", "33");
  ok(out == NULL && deeper == NULL, "failed views left *out NULL");

  /* Accessors take NULL. */
  ok(cusci_array_ndim(NULL) == 0 && cusci_array_shape(NULL) == NULL && cusci_array_size(NULL) == 0 &&
         cusci_array_data(NULL) == NULL && cusci_array_retain(NULL) == NULL,
     "accessors accept NULL");
  cusci_array_release(NULL);

  /* Shared checks of core_ext.h. */
  ok(cusci_check_array(ctx, "f", "x", sentinel == NULL ? sentinel : NULL) == CUSCI_ERR_NULL_POINTER &&
         !strcmp(cusci_ctx_last_error(ctx), "f: x is NULL"),
     "cusci_check_array names the function and the argument");

  /* Module state hangs off the context and goes with it. */
  static int key_a, key_b;
  static int destroyed;
  cusci_ctx *c3 = tk_host_ctx();
  int *sa = malloc(sizeof *sa), *sb = malloc(sizeof *sb);
  ok(cusci_ctx_ext_get(c3, &key_a) == NULL, "no module state at first");
  ok(cusci_ctx_ext_set(c3, &key_a, sa, count_free) == CUSCI_OK && cusci_ctx_ext_set(c3, &key_b, sb, count_free) == CUSCI_OK &&
         cusci_ctx_ext_get(c3, &key_a) == sa && cusci_ctx_ext_get(c3, &key_b) == sb,
     "module state is found by its key");
  FAILS(cusci_ctx_ext_set(ctx, NULL, sa, NULL), CUSCI_ERR_NULL_POINTER, "cusci_ctx_ext_set", "key");
  cusci_ctx_destroy(c3);
  destroyed = n_freed;
  is_int(destroyed, 2, "destroying the context destroys its module state");
  ok(cusci_ctx_use_device(ctx, "f") == CUSCI_OK, "use_device on a host context is a no-op");

  cusci_array_release(deep);
  cusci_array_release(m);
  cusci_array_release(given);
  cusci_array_release(g64);
  cusci_array_release(a);
  cusci_ctx_destroy(ctx);
  return done_testing();
}
