/*
 * librandom/generator.c: generators: create, destroy, state, advance, spawn.
 */
#include "librandom/internal.h"

#include <stdlib.h>
#include <string.h>

#include "reference/random/philox.h"

cusci_status cusci_random_generator_create(cusci_ctx *ctx, cusci_bitgen kind, uint64_t seed, cusci_random_generator **out)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, fn, out);
  if ((int)kind < CUSCI_BITGEN_PHILOX || (int)kind > CUSCI_BITGEN_SCRAMBLED_SOBOL32)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "kind = %d is not a cusci_bitgen", (int)kind);
  cusci_random_generator *g = calloc(1, sizeof *g);
  if (!g)
    return cusci_ctx_fail(ctx, CUSCI_ERR_OUT_OF_MEMORY, fn, "no memory for a generator");
  g->kind = kind;
  g->seed = seed;
  g->key = seed;
  g->device = CUSCI_DEVICE_HOST;
  if (kind != CUSCI_BITGEN_PHILOX) {
    cusci_status st = cusci__rcurand_create(ctx, fn, g);
    if (st != CUSCI_OK) {
      free(g);
      return st;
    }
  }
  *out = g;
  return CUSCI_OK;
}

void cusci_random_generator_destroy(cusci_random_generator *g)
{
  if (!g)
    return;
  if (g->curand)
    cusci__rcurand_destroy(g);
  free(g);
}

cusci_bitgen cusci_random_generator_kind(const cusci_random_generator *g)
{
  return g ? g->kind : CUSCI_BITGEN_PHILOX;
}

/* The blob: "CUSCIRNG", version 1, kind, seed, key, counter, spawned; all
 * little endian. */
static const char magic[8] = {'C', 'U', 'S', 'C', 'I', 'R', 'N', 'G'};

static void put64(unsigned char *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

cusci_status cusci_random_generator_get_state(cusci_ctx *ctx, cusci_random_generator *g, void *buf, size_t len)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, fn, g, buf);
  if (len < CUSCI_RANDOM_STATE_BYTES)
    return cusci_ctx_fail(ctx, CUSCI_ERR_BUFFER_TOO_SMALL, fn, "len = %zu, a state needs %d bytes", len,
                          CUSCI_RANDOM_STATE_BYTES);
  unsigned char *p = buf;
  memcpy(p, magic, 8);
  put64(p + 8, (uint64_t)1 | ((uint64_t)g->kind << 32));
  put64(p + 16, g->seed);
  put64(p + 24, g->key);
  put64(p + 32, g->ctr);
  put64(p + 40, g->spawned);
  /* A cuRAND engine's own position may differ from the recorded one (its
   * offset counts values its own way): the next call seeks to the recorded
   * one, where a restored generator starts too. */
  if (g->curand && g->kind != CUSCI_BITGEN_MTGP32 && g->kind != CUSCI_BITGEN_MT19937)
    g->reseek = true;
  return CUSCI_OK;
}

cusci_status cusci_random_generator_set_state(cusci_ctx *ctx, cusci_random_generator *g, const void *buf, size_t len)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, fn, g, buf);
  if (len < CUSCI_RANDOM_STATE_BYTES)
    return cusci_ctx_fail(ctx, CUSCI_ERR_BUFFER_TOO_SMALL, fn, "len = %zu, a state has %d bytes", len,
                          CUSCI_RANDOM_STATE_BYTES);
  const unsigned char *p = buf;
  uint64_t vk = get64(p + 8);
  if (memcmp(p, magic, 8) != 0 || (uint32_t)vk != 1)
    return cusci_ctx_fail(ctx, CUSCI_ERR_FORMAT, fn, "buf is not a version 1 cusci generator state");
  if ((vk >> 32) != (uint64_t)g->kind)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "the state is of bit generator %d, g is of %d",
                          (int)(vk >> 32), (int)g->kind);
  cusci_random_generator saved = *g;
  g->seed = get64(p + 16);
  g->key = get64(p + 24);
  g->ctr = get64(p + 32);
  g->spawned = get64(p + 40);
  if (g->curand) {
    cusci_status st = cusci__rcurand_seek(ctx, fn, g);
    if (st != CUSCI_OK) {
      *g = saved;
      return st;
    }
  }
  return CUSCI_OK;
}

cusci_status cusci_random_generator_advance(cusci_ctx *ctx, cusci_random_generator *g, uint64_t delta)
{
  const char *fn = __func__;
  CUSCI_ENTRY(ctx, fn, g);
  uint64_t old = g->ctr;
  g->ctr += delta;
  if (g->curand) {
    cusci_status st = cusci__rcurand_seek(ctx, fn, g);
    if (st != CUSCI_OK) {
      g->ctr = old;
      return st;
    }
  }
  return CUSCI_OK;
}

/* A child's key: the Philox block at a counter that no call reaches
 * (words 2-3 all ones), numbered by the spawn count, under the parent's key. */
static uint64_t derive(uint64_t key, uint64_t n)
{
  uint32_t ctr[4] = {(uint32_t)n, (uint32_t)(n >> 32), 0xffffffffu, 0xffffffffu};
  uint32_t k[2] = {(uint32_t)key, (uint32_t)(key >> 32)};
  uint32_t o[4];
  cusci__philox4x32_10(ctr, k, o);
  return (uint64_t)o[0] | ((uint64_t)o[1] << 32);
}

cusci_status cusci_random_generator_spawn(cusci_ctx *ctx, cusci_random_generator *g, int n, cusci_random_generator **children)
{
  const char *fn = __func__;
  CUSCI_ENTRY_CTX(ctx, fn);
  if (!g || (!children && n > 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_NULL_POINTER, fn, "%s is NULL", g ? "children" : "g");
  if (n < 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_INVALID_ARGUMENT, fn, "n = %d is negative", n);
  for (int i = 0; i < n; i++) {
    uint64_t id = g->spawned + (uint64_t)i;
    uint64_t seed = g->kind == CUSCI_BITGEN_PHILOX ? g->seed : derive(g->seed, id);
    cusci_status st = cusci_random_generator_create(ctx, g->kind, seed, &children[i]);
    if (st != CUSCI_OK) {
      for (int k = 0; k < i; k++) {
        cusci_random_generator_destroy(children[k]);
        children[k] = NULL;
      }
      return st;
    }
    children[i]->key = derive(g->key, id);
  }
  g->spawned += (uint64_t)n;
  return CUSCI_OK;
}
