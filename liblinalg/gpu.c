/*
 * liblinalg/gpu.c: what the API layer keeps and does around a call of the
 * CUDA backend (kernels/linalg/launch.h): the context's cuBLAS and
 * cuSOLVER handles, bound to its stream; the call's scratch, measured by
 * the launcher's size query and taken from the pool; and its status words,
 * zeroed before and read back after, with one wait.
 *
 * The status words of a call: info[0..batch) per matrix, then the
 * non-finite flag, then (8-byte aligned) the summary word: the first
 * failing matrix and its info (note_failure in kernels/linalg/common.cuh).
 * They are read back with one synchronisation: only the flag and the
 * summary when the kernels keep the summary themselves (`summarized`: the
 * small-matrix kernels) or when a summarizing kernel can make it (more
 * than 16 matrices), else every word.
 *
 * A summarized call needs no words of its own, no memset and no copy back
 * (each a few microseconds), unless its check is deferred: the kernels
 * gather the first failure and the flag in the context's mailbox, and the
 * last block to finish copies them to the mapped reply and stamps it with
 * the call's epoch (post_outcome); the read polls the stamp.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/core_ext.h>
#include <cusci/linalg.h>

#include "liblinalg/internal.h"

/* ------------------------------------------------------------ the context's state */

typedef struct la_state {
  void *blas, *solver, *params;
  /* The small-matrix kernels' mailbox (made on first use, zero between
   * calls), its reply in mapped host memory, and the last call's epoch. */
  cusci_array *mailbox;
  void *reply, *reply_dev;
  unsigned epoch;
} la_state;

static char state_key; /* its address keys the state on the context */

static void state_destroy(void *p)
{
  la_state *s = p;
  cusci_array_release(s->mailbox);
  cusci__launch_la_reply_free(s->reply);
  cusci__launch_la_handles_free(s->blas, s->solver, s->params);
  free(s);
}

/* The context's handles, made on first use, bound to its stream. */
static cusci_status get_state(cusci_ctx *ctx, const char *fn, la_state **out)
{
  CUSCI_TRY(cusci_ctx_use_device(ctx, fn));
  la_state *s = cusci_ctx_ext_get(ctx, &state_key);
  const char *what = NULL;
  if (!s) {
    s = calloc(1, sizeof *s);
    if (!s)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no memory for the linalg handles");
    int code = cusci__launch_la_handles(&s->blas, &s->solver, &s->params, &what);
    if (code) {
      free(s);
      return cusci_ctx_gpu_status(ctx, fn, what, code);
    }
    cusci_status st = cusci_ctx_ext_set(ctx, &state_key, s, state_destroy);
    if (st != CUSCI_OK) {
      state_destroy(s);
      return st;
    }
  }
  int code = cusci__launch_la_bind(s->blas, s->solver, cusci_ctx_stream(ctx), cusci__la_math_mode(ctx) == 1, &what);
  if (code)
    return cusci_ctx_gpu_status(ctx, fn, what, code);
  *out = s;
  return CUSCI_OK;
}

/* The mailbox and reply, made once (the mailbox zeroed on the stream). */
static cusci_status mailbox_ready(cusci_ctx *ctx, const char *fn, la_state *s)
{
  if (s->mailbox)
    return CUSCI_OK;
  if (!s->reply) {
    int code = cusci__launch_la_reply(&s->reply, &s->reply_dev);
    if (code)
      return cusci_ctx_gpu_status(ctx, fn, "cudaHostAlloc", code);
  }
  int64_t n = (int64_t)sizeof(cusci__la_mailbox);
  CUSCI_TRY(cusci_array_zeros(ctx, 1, &n, CUSCI_UINT8, &s->mailbox));
  return CUSCI_OK;
}

/* ------------------------------------------------------------ a call */

static size_t summary_at(int64_t batch) { return (sizeof(int) * (size_t)(batch + 1) + 7) / 8 * 8; }
static size_t words_bytes(int64_t batch) { return summary_at(batch) + sizeof(unsigned long long); }

cusci_status cusci__la_call_begin(cusci_ctx *ctx, const char *fn, int64_t batch, unsigned flags, cusci__la_call *c)
{
  memset(c, 0, sizeof *c);
  c->batch = batch;
  c->flags = flags;
  la_state *s = NULL;
  CUSCI_TRY(get_state(ctx, fn, &s));
  c->state = s;
  c->g.stream = cusci_ctx_stream(ctx);
  c->g.blas = s->blas;
  c->g.solver = s->solver;
  c->g.params = s->params;
  c->g.tf32 = cusci__la_math_mode(ctx) == 1;
  if (!(flags & CUSCI__LA_WORDS))
    return CUSCI_OK;
  c->summarized = (flags & CUSCI__LA_SUMMARIZED) && batch < (INT64_C(1) << 32);
  if (c->summarized && batch > 0 && !cusci__la_deferred(ctx)) {
    CUSCI_TRY(mailbox_ready(ctx, fn, s));
    cusci__la_mailbox *mb = cusci_array_data(s->mailbox);
    c->mail = true;
    c->epoch = ++s->epoch;
    c->g.flag = &mb->flag;
    c->g.first = &mb->first;
    c->g.post = (cusci__la_post){ mb, s->reply_dev, c->epoch };
    return CUSCI_OK;
  }
  /* Every word, the info words of a summarized call too: det and slogdet
   * write none of them, and a deferred check copies them all. */
  int64_t n = (int64_t)words_bytes(batch);
  CUSCI_TRY(cusci_array_zeros(ctx, 1, &n, CUSCI_UINT8, &c->words));
  char *w = cusci_array_data(c->words);
  c->g.info = (int *)w;
  c->g.flag = (int *)w + batch;
  c->g.first = c->summarized ? (unsigned long long *)(w + summary_at(batch)) : NULL;
  return CUSCI_OK;
}

cusci_status cusci__la_call_code(cusci_ctx *ctx, const char *fn, cusci__la_call *c, int code)
{
  return code ? cusci_ctx_gpu_status(ctx, fn, c->g.what, code) : CUSCI_OK;
}

cusci_status cusci__la_call_scratch(cusci_ctx *ctx, const char *fn, cusci__la_call *c)
{
  cusci__la_gpu *g = &c->g;
  if (g->dev_used) {
    int64_t n = (int64_t)g->dev_used;
    CUSCI_TRY(cusci_array_empty(ctx, 1, &n, CUSCI_UINT8, &c->dev));
    g->dev = cusci_array_data(c->dev);
  }
  if (g->host_used) {
    g->host = malloc(g->host_used);
    if (!g->host)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %zu bytes of solver workspace", g->host_used);
  }
  g->dev_bytes = g->dev_used;
  g->host_bytes = g->host_used;
  g->dev_used = g->host_used = 0;
  g->plan = false;
  return CUSCI_OK;
}

static void unpack(unsigned long long key, cusci__la_fail *fail)
{
  *fail = key ? (cusci__la_fail){ (int64_t)(~key >> 32), (int)(uint32_t)~key } : (cusci__la_fail){ 0, 0 };
}

/* Poll the reply's stamp (the stream between polls: a kernel that never
 * posts is an error, not a hang), then read it. */
static cusci_status read_reply(cusci_ctx *ctx, const char *fn, cusci__la_call *c, cusci__la_fail *fail, bool *nonfinite)
{
  la_state *s = c->state;
  volatile cusci__la_reply *r = s->reply;
  c->posted = true;
  while (r->epoch != c->epoch) {
    for (int i = 0; i < 1024 && r->epoch != c->epoch; i++)
      ;
    if (r->epoch == c->epoch)
      break;
    int code = cusci__launch_la_query(c->g.stream);
    if (code == 1)
      continue;
    if (code)
      return cusci_ctx_gpu_status(ctx, fn, "waiting for the small-matrix kernel", code);
    if (r->epoch != c->epoch)
      return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "the small-matrix kernel posted no outcome");
  }
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  const unsigned long long key = r->first;
  if (nonfinite)
    *nonfinite = r->flag != 0;
  if (fail)
    unpack(key, fail);
  return CUSCI_OK;
}

/* Bytes [from, to) of the words, after the stream's work. */
static cusci_status copy_back(cusci_ctx *ctx, const char *fn, cusci__la_call *c, size_t from, size_t to, void *dst)
{
  cusci_array *v = NULL;
  const int64_t start = (int64_t)from, stop = (int64_t)to;
  cusci_status st = cusci_array_slice(ctx, c->words, &start, &stop, NULL, &v);
  if (st == CUSCI_OK)
    st = cusci_array_to_host(ctx, v, dst, to - from);
  cusci_array_release(v);
  if (st != CUSCI_OK)
    return cusci_ctx_fail(ctx, st, fn, "reading the solver's info: %s", cusci_ctx_last_error(ctx));
  return CUSCI_OK;
}

static cusci_status read_words(cusci_ctx *ctx, const char *fn, cusci__la_call *c, cusci__la_fail *fail, bool *nonfinite)
{
  int64_t batch = c->batch;
  if (c->mail)
    return read_reply(ctx, fn, c, fail, nonfinite);
  if (nonfinite)
    *nonfinite = false;
  if (fail)
    *fail = (cusci__la_fail){ 0, 0 };
  if (cusci__la_deferred(ctx)) /* no wait: the words stay for cusci_linalg_check */
    return cusci__la_defer(ctx, fn, c->words, batch, fail != NULL);
  if (c->summarized || (batch > 16 && batch < (INT64_C(1) << 32))) {
    /* The first failure and the flag, found on the device, come back in
     * the words' tail instead of batch + 1 words. */
    size_t from = sizeof(int) * (size_t)batch, at = summary_at(batch);
    unsigned char tail[32];
    if (!c->summarized && fail) {
      int code = cusci__launch_la_summarize(c->g.stream, c->g.info, batch, (unsigned long long *)((char *)cusci_array_data(c->words) + at));
      if (code)
        return cusci_ctx_gpu_status(ctx, fn, "summarizing the solver's info", code);
    }
    CUSCI_TRY(copy_back(ctx, fn, c, from, words_bytes(batch), tail));
    int flag;
    unsigned long long key;
    memcpy(&flag, tail, sizeof flag);
    memcpy(&key, tail + (at - from), sizeof key);
    if (nonfinite)
      *nonfinite = flag != 0;
    if (fail)
      unpack(key, fail);
  } else {
    int few[17], *h = batch < 17 ? few : malloc(sizeof(int) * (size_t)(batch + 1));
    if (!h)
      return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no host memory for %lld info words", (long long)batch + 1);
    cusci_status st = copy_back(ctx, fn, c, 0, sizeof(int) * (size_t)(batch + 1), h);
    if (st == CUSCI_OK && nonfinite)
      *nonfinite = h[batch] != 0;
    for (int64_t i = 0; st == CUSCI_OK && fail && i < batch; i++)
      if (h[i] != 0) {
        *fail = (cusci__la_fail){ i, h[i] };
        break;
      }
    if (h != few)
      free(h);
    CUSCI_TRY(st);
  }
  if (fail && fail->info < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INTERNAL, fn, "cuSOLVER rejected argument %lld", (long long)-fail->info);
  return CUSCI_OK;
}

cusci_status cusci__la_call_end(cusci_ctx *ctx, const char *fn, cusci__la_call *c, cusci_status st, cusci__la_fail *fail, bool *nonfinite)
{
  if (st == CUSCI_OK && (c->flags & CUSCI__LA_WORDS))
    st = read_words(ctx, fn, c, fail, nonfinite);
  /* A call that failed before its kernel posted leaves the mailbox zero. */
  if (c->mail && !c->posted)
    cusci__launch_la_zero(c->g.stream, cusci_array_data(c->state->mailbox), sizeof(cusci__la_mailbox));
  /* cuSOLVER reads its host workspace as the work runs: it goes only
   * after the stream (a no-op wait when the words were read). */
  if (c->g.host) {
    cusci_status sync = cusci_ctx_synchronize(ctx);
    if (st == CUSCI_OK)
      st = sync;
  }
  cusci_array_release(c->words);
  cusci_array_release(c->dev);
  free(c->g.host);
  return st;
}
