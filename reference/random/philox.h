/*
 * reference/random/philox.h: the Philox4x32-10 counter-based generator and
 * the per-element streams built on it, for the host (C11) and the GPU
 * (CUDA C++) alike, so that both produce the same bits.
 *
 * Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as
 * easy as 1, 2, 3", SC 2011): a 128-bit counter and a 64-bit key give four
 * 32-bit words after ten rounds of two 32x32->64 multiplications, with the
 * key bumped by the Weyl constants between rounds. The same function as
 * Random123's philox4x32 and cuRAND's Philox4_32_10.
 *
 * How cusci lays out a call: a call that makes n elements takes the counter
 * range [ctr, ctr + blocks) of the generator in counter words 0-1 (the low
 * 64 bits). Group g of the call owns the counter value ctr + g, and words
 * 2-3 (the high 64 bits) number the blocks of that group's own stream,
 * 0, 1, 2, ... A group is one element for most distributions that may
 * reject, or a few elements made from one block (four float32 or two
 * float64 uniforms or normals, two float32 gammas), whose lanes go on to
 * streams of their own when they need more. So every value depends on the
 * key and its index alone, never on the launch shape or the thread that
 * makes it.
 */
#ifndef CUSCI_REFERENCE_RANDOM_PHILOX_H
#define CUSCI_REFERENCE_RANDOM_PHILOX_H

#include <stdint.h>

#ifndef CUSCI_HD
#include <cusci/kit/dtypes.h> /* CUSCI_HD */
#endif

#define CUSCI__PHILOX_M0 UINT32_C(0xD2511F53)
#define CUSCI__PHILOX_M1 UINT32_C(0xCD9E8D57)
#define CUSCI__PHILOX_W0 UINT32_C(0x9E3779B9)
#define CUSCI__PHILOX_W1 UINT32_C(0xBB67AE85)

/* One Philox4x32 round on c under the round key (k0, k1). */
CUSCI_HD void cusci__philox_round(uint32_t c[4], uint32_t k0, uint32_t k1)
{
#ifdef __CUDA_ARCH__ /* 32-bit high and low products: no 64-bit multiply */
  uint32_t hi0 = __umulhi(CUSCI__PHILOX_M0, c[0]), lo0 = CUSCI__PHILOX_M0 * c[0];
  uint32_t hi1 = __umulhi(CUSCI__PHILOX_M1, c[2]), lo1 = CUSCI__PHILOX_M1 * c[2];
#else
  uint64_t p0 = (uint64_t)CUSCI__PHILOX_M0 * c[0];
  uint64_t p1 = (uint64_t)CUSCI__PHILOX_M1 * c[2];
  uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
  uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
#endif
  c[0] = hi1 ^ c[1] ^ k0;
  c[1] = lo1;
  c[2] = hi0 ^ c[3] ^ k1;
  c[3] = lo0;
}

/* One Philox4x32-10 block: ctr[4] under key[2] into out[4]. */
CUSCI_HD void cusci__philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
  uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
  uint32_t k0 = key[0], k1 = key[1];
  for (int r = 0; r < 10; r++) {
    if (r > 0) {
      k0 += CUSCI__PHILOX_W0;
      k1 += CUSCI__PHILOX_W1;
    }
    cusci__philox_round(c, k0, k1);
  }
  out[0] = c[0];
  out[1] = c[1];
  out[2] = c[2];
  out[3] = c[3];
}

/*
 * Philox's round keys for one key, key + r (W0, W1) for r = 0..9. A GPU
 * kernel takes them by value, so that its rounds read them from the
 * constant bank instead of adding them up in registers each time.
 */
typedef struct cusci__philox_rk {
  uint32_t k[20];
} cusci__philox_rk;

CUSCI_HD cusci__philox_rk cusci__philox_round_keys(uint64_t key)
{
  cusci__philox_rk rk;
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  for (int r = 0; r < 10; r++) {
    rk.k[2 * r] = k0;
    rk.k[2 * r + 1] = k1;
    k0 += CUSCI__PHILOX_W0;
    k1 += CUSCI__PHILOX_W1;
  }
  return rk;
}

/* cusci__philox4x32_10 with the round keys made beforehand: the same bits. */
CUSCI_HD void cusci__philox4x32_10_rk(const uint32_t ctr[4], const cusci__philox_rk *rk, uint32_t out[4])
{
  uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
#ifdef __CUDACC__
#pragma unroll
#endif
  for (int r = 0; r < 10; r++)
    cusci__philox_round(c, rk->k[2 * r], rk->k[2 * r + 1]);
  out[0] = c[0];
  out[1] = c[1];
  out[2] = c[2];
  out[3] = c[3];
}

/*
 * The stream of one group: the blocks at counter (lo, j) for j = 0, 1, ...,
 * read a 32-bit word at a time. A 64-bit draw takes two words, starting a
 * new block when fewer than two are left, so draws never straddle blocks.
 */
typedef struct cusci__rstream {
  uint32_t key[2];
  uint64_t lo; /* counter words 0-1 */
  uint64_t j;  /* counter words 2-3: the next block */
  uint32_t buf[4];
  int used;    /* words of buf consumed; 4 means empty */
} cusci__rstream;

CUSCI_HD void cusci__rstream_init(cusci__rstream *s, uint64_t key, uint64_t lo)
{
  s->key[0] = (uint32_t)key;
  s->key[1] = (uint32_t)(key >> 32);
  s->lo = lo;
  s->j = 0;
  s->used = 4;
}

CUSCI_HD void cusci__rstream_refill(cusci__rstream *s)
{
  uint32_t ctr[4];
  ctr[0] = (uint32_t)s->lo;
  ctr[1] = (uint32_t)(s->lo >> 32);
  ctr[2] = (uint32_t)s->j;
  ctr[3] = (uint32_t)(s->j >> 32);
  cusci__philox4x32_10(ctr, s->key, s->buf);
  s->j++;
  s->used = 0;
}

/* buf[i] by selection rather than indexing, so that a GPU keeps buf in
 * registers instead of local memory. */
CUSCI_HD uint32_t cusci__rbuf(const cusci__rstream *s, int i)
{
  return i == 0 ? s->buf[0] : i == 1 ? s->buf[1] : i == 2 ? s->buf[2] : s->buf[3];
}

CUSCI_HD uint32_t cusci__next_u32(cusci__rstream *s)
{
  if (s->used >= 4)
    cusci__rstream_refill(s);
  return cusci__rbuf(s, s->used++);
}

CUSCI_HD uint64_t cusci__next_u64(cusci__rstream *s)
{
  if (s->used > 2)
    cusci__rstream_refill(s);
  uint64_t lo, hi;
  if (s->used == 0) {
    lo = s->buf[0];
    hi = s->buf[1];
  } else if (s->used == 1) {
    lo = s->buf[1];
    hi = s->buf[2];
  } else {
    lo = s->buf[2];
    hi = s->buf[3];
  }
  s->used += 2;
  return lo | (hi << 32);
}

/* Uniform on [0, 1) from the top 53 bits of a 64-bit word (NumPy's). */
CUSCI_HD double cusci__u64_to_double(uint64_t x)
{
  return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform on [0, 1) from the top 24 bits of a 32-bit word: every float32
 * of the form k * 2^-24. */
CUSCI_HD float cusci__u32_to_float(uint32_t x)
{
  return (float)(x >> 8) * (1.0f / 16777216.0f);
}

CUSCI_HD double cusci__next_double(cusci__rstream *s)
{
  return cusci__u64_to_double(cusci__next_u64(s));
}

#endif /* CUSCI_REFERENCE_RANDOM_PHILOX_H */
