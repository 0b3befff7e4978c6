/*
 * reference/random/dists.h: numpy.random's distributions, one group of
 * elements at a time, for the host and the GPU alike (C11 and CUDA C++).
 *
 * Group g of a call reads only the Philox stream at counter (ctr + g, j)
 * (see philox.h), so the values depend on the key, the counter and the
 * element's index alone. A group is G elements: G = 4 (float32) or 2
 * (float64) for the distributions made from one uniform or one normal per
 * element without rejection, 2 for float32 gamma (two 32-bit words per
 * element), and 1 for the rest. A packed lane that must reject (normals,
 * integers, float32 gamma) continues on its own stream
 * (ctr + g, (lane + 1) 2^32 + m).
 *
 * All arithmetic is double and goes through rmath.h, so both sides round
 * alike; float32 results are the double results rounded once.
 */
#ifndef CUSCI_REFERENCE_RANDOM_DISTS_H
#define CUSCI_REFERENCE_RANDOM_DISTS_H

#include <stdint.h>

#include "reference/random/philox.h"
#include "reference/random/rmath.h"
#include "reference/random/ziggurat.h"

/* The distributions: X(NAME, kind) with kind R (real) or I (int64). */
#define CUSCI__RDISTS(X)                                                       \
  X(RANDOM, R) X(UNIFORM, R) X(STANDARD_NORMAL, R) X(NORMAL, R)               \
  X(LOGNORMAL, R) X(STANDARD_EXPONENTIAL, R) X(EXPONENTIAL, R)                \
  X(LAPLACE, R) X(LOGISTIC, R) X(GUMBEL, R) X(RAYLEIGH, R) X(WEIBULL, R)      \
  X(PARETO, R) X(POWER, R) X(TRIANGULAR, R) X(STANDARD_CAUCHY, R)             \
  X(STANDARD_GAMMA, R) X(GAMMA, R) X(BETA, R) X(CHISQUARE, R)                 \
  X(NONCENTRAL_CHISQUARE, R) X(F, R) X(NONCENTRAL_F, R) X(STANDARD_T, R)      \
  X(WALD, R) X(VONMISES, R)                                                   \
  X(INTEGERS, I) X(POISSON, I) X(BINOMIAL, I) X(NEGATIVE_BINOMIAL, I)         \
  X(GEOMETRIC, I) X(LOGSERIES, I) X(ZIPF, I) X(HYPERGEOMETRIC, I)

#define CUSCI__RDIST_ENUM_(NAME, K) CUSCI__RD_##NAME,
enum { CUSCI__RDISTS(CUSCI__RDIST_ENUM_) CUSCI__RD_COUNT };
#undef CUSCI__RDIST_ENUM_

/*
 * A call's parameters, already checked. a, b, c: the distribution's
 * parameters in NumPy's order (low/high, loc/scale, shape/scale, ...);
 * for integers, lo is `low` and range = high - low (inclusive), n for
 * binomial's n.
 */
#define CUSCI__RPOIS_TAB 32

/* PTRS's constants for one lam >= 10 (see cusci__rptrs_init) */
typedef struct cusci__rptrs {
  double lam, loglam, a, b, invalpha, vr, loginvalpha;
} cusci__rptrs;

/* binomial's constants for one (n, p) (see cusci__rbinom_init) */
#define CUSCI__RBINOM_TAB 129

typedef struct cusci__rbinom {
  int64_t n, fixed;   /* fixed: the value when kind is 0 */
  int kind, flip;     /* kind: 0 no draw, 1 inversion, 2 BTPE; flip: p > 1/2 */
  double p, q;        /* p': min(p, 1 - p), and 1 - p' */
  int64_t tlo, thi;   /* the table's first and last x (none when thi < tlo) */
  /* inversion: q'^n, and the x past which the search restarts */
  double qn;
  int64_t bound;
  /* BTPE's step 0 */
  int64_t m;
  double dn, fm, dm, npq, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4;
} cusci__rbinom;

typedef struct cusci__rparams {
  double a, b, c;
  int64_t lo, n;
  uint64_t range;
  /* poisson with lam < 10: F(0..CUSCI__RPOIS_TAB-1) and the last mass,
   * made once per call by cusci__rpoisson_table */
  double pois_cdf[CUSCI__RPOIS_TAB];
  double pois_last;
  /* poisson with lam >= 10: made once per call by cusci__rptrs_init */
  cusci__rptrs ptrs;
  /* binomial: made once per call by cusci__rbinom_init and
   * cusci__rbinom_table */
  cusci__rbinom binom;
  double binom_tab[CUSCI__RBINOM_TAB];
} cusci__rparams;

/* Elements per group (see above). */
CUSCI_HD int cusci__rgroup_size(int dist, int f32, const cusci__rparams *p)
{
  switch (dist) {
  case CUSCI__RD_RANDOM: case CUSCI__RD_UNIFORM: case CUSCI__RD_STANDARD_NORMAL:
  case CUSCI__RD_NORMAL: case CUSCI__RD_LOGNORMAL: case CUSCI__RD_STANDARD_EXPONENTIAL:
  case CUSCI__RD_EXPONENTIAL: case CUSCI__RD_LAPLACE: case CUSCI__RD_LOGISTIC:
  case CUSCI__RD_GUMBEL: case CUSCI__RD_RAYLEIGH: case CUSCI__RD_WEIBULL:
  case CUSCI__RD_PARETO: case CUSCI__RD_POWER: case CUSCI__RD_TRIANGULAR:
    return f32 ? 4 : 2;
  case CUSCI__RD_INTEGERS:
    return p->range <= UINT64_C(0xffffffff) ? 4 : 2;
  case CUSCI__RD_POISSON:
    return p->a < 10.0 ? 2 : 1;
  case CUSCI__RD_STANDARD_GAMMA: case CUSCI__RD_GAMMA:
    return f32 ? 2 : 1;
  default:
    return 1;
  }
}

/* ------------------------------------------------------------ uniforms */

/* The four words of the group's first block as uniforms: f32 takes one
 * 32-bit word each, f64 one 64-bit pair each. closed: [0, 1) as
 * numpy.random's; open: the midpoints (k + 1/2) 2^-b, in (0, 1), for
 * transforms that take a logarithm. */
CUSCI_HD int cusci__runiforms(cusci__rstream *s, int f32, int open, double u[4])
{
  cusci__rstream_refill(s);
  if (f32) {
    for (int i = 0; i < 4; i++)
      u[i] = open ? ((double)(s->buf[i] >> 8) + 0.5) * (1.0 / 16777216.0)
                  : (double)cusci__u32_to_float(s->buf[i]);
    return 4;
  }
  for (int i = 0; i < 2; i++) {
    uint64_t x = (uint64_t)s->buf[2 * i] | ((uint64_t)s->buf[2 * i + 1] << 32);
    u[i] = open ? ((double)(x >> 11) + 0.5) * (1.0 / 9007199254740992.0) : cusci__u64_to_double(x);
  }
  s->used = 4;
  return 2;
}

/*
 * Standard normals by the ziggurat method (Marsaglia and Tsang, "The
 * ziggurat method for generating random variables", J. Stat. Software
 * 5(8), 2000) with 256 layers; reference/random/ziggurat.h has the tables
 * and how they are made. float64 takes one 64-bit draw: 8 bits of layer,
 * a sign bit and 52 bits of position; float32 one 32-bit draw with 23
 * bits of position. About 99% of draws land inside a layer's rectangle
 * and cost one multiplication; the rest take the wedge test or the tail
 * (Marsaglia's, 1964) with more draws from the same stream.
 */
#ifdef __CUDACC__
static __device__ const uint64_t cusci__zigd_k64[256] = {CUSCI__ZIG_K64};
static __device__ const double cusci__zigd_w64[256] = {CUSCI__ZIG_W64};
static __device__ const uint32_t cusci__zigd_k32[256] = {CUSCI__ZIG_K32};
static __device__ const float cusci__zigd_w32[256] = {CUSCI__ZIG_W32};
static __device__ const double cusci__zigd_f[257] = {CUSCI__ZIG_F};
#endif
static const uint64_t cusci__zigh_k64[256] = {CUSCI__ZIG_K64};
static const double cusci__zigh_w64[256] = {CUSCI__ZIG_W64};
static const uint32_t cusci__zigh_k32[256] = {CUSCI__ZIG_K32};
static const float cusci__zigh_w32[256] = {CUSCI__ZIG_W32};
static const double cusci__zigh_f[257] = {CUSCI__ZIG_F};
#ifdef __CUDA_ARCH__
#define CUSCI__ZIG(t) cusci__zigd_##t
#else
#define CUSCI__ZIG(t) cusci__zigh_##t
#endif

CUSCI_HD double cusci__rstream_uopen(cusci__rstream *s)
{
  return ((double)(cusci__next_u64(s) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* The slow part of a draw that missed layer i's rectangle at x (sign
 * applied by the caller): 1 and *x replaced by the tail's value, or 1 when
 * the wedge test accepts x, or 0 for a new draw. */
CUSCI_HD int cusci__rzig_slow(cusci__rstream *s, int i, double *x)
{
  if (i == 0) {
    double xx, yy;
    do {
      xx = -cusci__rlog(cusci__rstream_uopen(s)) * CUSCI__ZIG_INV_R;
      yy = -cusci__rlog(cusci__rstream_uopen(s));
    } while (yy + yy < xx * xx);
    *x = CUSCI__ZIG_R + xx;
    return 1;
  }
  double f0 = CUSCI__ZIG(f)[i], f1 = CUSCI__ZIG(f)[i + 1];
  double y = f0 + cusci__next_double(s) * (f1 - f0);
  return y < cusci__rexp(-0.5 * *x * *x);
}

/* The ziggurat's common path for the draw v of a layer (v's low 8 bits)
 * with bound k and width w: *x, signed by bit 8, and 1 when v lands in the
 * layer's rectangle. */
CUSCI_HD int cusci__rzig32_in(uint32_t v, uint32_t k, float w, float *x)
{
  uint32_t m = v >> 9;
  float a = (float)m * w;
  *x = (v >> 8) & 1 ? -a : a;
  return m < k;
}
CUSCI_HD int cusci__rzig64_in(uint64_t v, uint64_t k, double w, double *x)
{
  uint64_t m = v >> 12;
  double a = (double)m * w;
  *x = (v >> 8) & 1 ? -a : a;
  return m < k;
}

/* A normal from the 64-bit draw w, further draws from s. */
CUSCI_HD double cusci__rzig64(uint64_t w, cusci__rstream *s)
{
  for (;;) {
    int i = (int)(w & 0xff), neg = (int)(w >> 8) & 1;
    double x;
    if (cusci__rzig64_in(w, CUSCI__ZIG(k64)[i], CUSCI__ZIG(w64)[i], &x))
      return x;
    x = neg ? -x : x; /* the slow part takes |x| */
    if (cusci__rzig_slow(s, i, &x))
      return neg ? -x : x;
    w = cusci__next_u64(s);
  }
}

/* A normal from the 32-bit draw w, further draws from s; the slow part is
 * computed in double and rounded once. */
CUSCI_HD float cusci__rzig32(uint32_t w, cusci__rstream *s)
{
  for (;;) {
    int i = (int)(w & 0xff), neg = (int)(w >> 8) & 1;
    float x;
    if (cusci__rzig32_in(w, CUSCI__ZIG(k32)[i], CUSCI__ZIG(w32)[i], &x))
      return x;
    double xd = neg ? -(double)x : (double)x; /* the slow part takes |x| */
    if (cusci__rzig_slow(s, i, &xd)) {
      x = (float)xd;
      return neg ? -x : x;
    }
    w = cusci__next_u32(s);
  }
}

#ifdef __CUDACC__
#define CUSCI__UNROLL _Pragma("unroll")
#define CUSCI__NOINLINE static __host__ __device__ __noinline__
#else
#define CUSCI__UNROLL
#define CUSCI__NOINLINE static
#endif

/* A lane of a group whose word w of the group's block missed its layer's
 * rectangle: it continues on its own stream, the group's counter with
 * blocks from (lane + 1) 2^32. Out of line on the GPU, so that the common
 * path stays small and in registers. */
CUSCI__NOINLINE double cusci__rzig_lane(uint32_t k0, uint32_t k1, uint64_t lo, int lane, uint64_t w, int f32)
{
  cusci__rstream own;
  cusci__rstream_init(&own, (uint64_t)k0 | ((uint64_t)k1 << 32), lo);
  own.j = (uint64_t)(lane + 1) << 32;
  return f32 ? (double)cusci__rzig32((uint32_t)w, &own) : cusci__rzig64(w, &own);
}

/* Lane i of the group's block (refilled in s) by the ziggurat's common
 * path: 1 and *z when the draw lands in its layer's rectangle; 0 when it
 * does not, and *w is the draw to give cusci__rzig_lane. */
CUSCI_HD int cusci__rzig_fast(const cusci__rstream *s, int f32, int i, double *z, uint64_t *w)
{
  if (f32) {
    uint32_t v = cusci__rbuf(s, i);
    float x;
    int in = cusci__rzig32_in(v, CUSCI__ZIG(k32)[v & 0xff], CUSCI__ZIG(w32)[v & 0xff], &x);
    *w = v;
    *z = (double)x;
    return in;
  }
  uint64_t v = (uint64_t)cusci__rbuf(s, 2 * i) | ((uint64_t)cusci__rbuf(s, 2 * i + 1) << 32);
  *w = v;
  return cusci__rzig64_in(v, CUSCI__ZIG(k64)[v & 0xff], CUSCI__ZIG(w64)[v & 0xff], z);
}

/* The group's normals: f32, one per 32-bit word of the block (four);
 * f64, one per 64-bit pair (two). */
CUSCI_HD int cusci__rnormals(cusci__rstream *s, int f32, double z[4])
{
  cusci__rstream_refill(s);
  s->used = 4;
  int g = f32 ? 4 : 2;
  CUSCI__UNROLL
  for (int i = 0; i < 4; i++) {
    uint64_t w;
    if (i < g && !cusci__rzig_fast(s, f32, i, &z[i], &w))
      z[i] = cusci__rzig_lane(s->key[0], s->key[1], s->lo, i, w, f32);
  }
  return g;
}

/* What the group normals become: loc + scale z, and exp of it for
 * lognormal (the standard normal takes loc 0 and scale 1 exactly). */
CUSCI_HD double cusci__rnormal_out(int dist, const cusci__rparams *p, double z)
{
  if (dist == CUSCI__RD_STANDARD_NORMAL)
    return z;
  double x = p->a + p->b * z;
  return dist == CUSCI__RD_LOGNORMAL ? cusci__rexp(x) : x;
}

/* --------------------------------------------------- one-element streams */

/* A stream that hands out values one at a time. */
typedef struct cusci__rsampler {
  cusci__rstream s;
} cusci__rsampler;

CUSCI_HD double cusci__ruopen(cusci__rsampler *r)
{
  return ((double)(cusci__next_u64(&r->s) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

CUSCI_HD double cusci__ru(cusci__rsampler *r)
{
  return cusci__next_double(&r->s);
}

CUSCI_HD double cusci__rnorm(cusci__rsampler *r)
{
  return cusci__rzig64(cusci__next_u64(&r->s), &r->s);
}

/* float32 twins: a uniform from one 32-bit word, normals in float. */
CUSCI_HD float cusci__ruf(cusci__rsampler *r)
{
  return cusci__u32_to_float(cusci__next_u32(&r->s));
}

CUSCI_HD float cusci__rnormf(cusci__rsampler *r)
{
  return cusci__rzig32(cusci__next_u32(&r->s), &r->s);
}

CUSCI_HD double cusci__rexpo(cusci__rsampler *r)
{
  return -cusci__rlog(cusci__ruopen(r));
}

/* Marsaglia and Tsang's d = shape - 1/3 and c = 1/sqrt(9d) for shape >= 1,
 * as the samplers below use them: in float for float32 outputs (then
 * exact in double), else in double. */
CUSCI_HD void cusci__rgamma_dc(int f32, double shape, double *d, double *c)
{
  if (f32) {
    float df = (float)(shape - 1.0 / 3.0);
    *d = (double)df;
    *c = (double)(1.0f / sqrtf(9.0f * df));
    return;
  }
  *d = shape - 1.0 / 3.0;
  *c = 1.0 / cusci__rsqrt(9.0 * *d);
}

/*
 * Standard gamma by Marsaglia and Tsang, "A simple method for generating
 * gamma variables", ACM TOMS 26(3), 2000: for shape >= 1, d = shape - 1/3,
 * c = 1/sqrt(9d), v = (1 + c x)^3 with x normal, accepted when
 * log u < x^2/2 + d (1 - v + log v); for shape < 1, their boost
 * gamma(shape) = gamma(shape + 1) u^(1/shape).
 *
 * Two squeezes decide most tries without the logarithms. Theirs,
 * u < 1 - 0.0331 x^4, and a second one that holds in real arithmetic
 * (so it changes no decision but at rounding's edge): with t = c x,
 * x^2/2 = 4.5 d t^2, and log(1 + t) >= t - t^2/2 + t^3/3 - t^4/4 for
 * t >= 0 (the difference has derivative t^4 / (1 + t) and is 0 at 0), with
 * t^5 / (5 (1 - b)) more for -b <= t < 0, the right side is at least
 * d t^4 (k min(t, 0) - 3/4), k = 6/5 down to t = -1/2 and 12/5 down to
 * -3/4; and log u <= u - 1. For shape 2 the first squeeze takes 91.7% of
 * tries, both 97.3%, the logarithms 98.2%.
 */
CUSCI_HD int cusci__rgamma_v(double x, double c, double *t, double *v)
{
  *t = c * x;
  double w = 1.0 + *t;
  *v = w * w * w;
  return w > 0.0;
}
CUSCI_HD int cusci__rgamma_squeeze2(double t, double u, double d)
{
  double t2 = t * t, k = t < -0.5 ? 2.4 : 1.2, m = t < 0.0 ? t : 0.0;
  return (t >= -0.75) & (u - 1.0 < d * (t2 * t2) * (k * m - 0.75));
}
CUSCI_HD int cusci__rgamma_squeezed(double x, double t, double u, double d)
{
  double x2 = x * x;
  return (u < 1.0 - 0.0331 * x2 * x2) | cusci__rgamma_squeeze2(t, u, d);
}

/* The float twins, for float32 outputs. (Both squeezes are computed
 * whole, without branches, for the GPU's sake: a branch per test costs a
 * warp more than the arithmetic.) */
CUSCI_HD int cusci__rgammaf_v(float x, float c, float *t, float *v)
{
  *t = c * x;
  float w = 1.0f + *t;
  *v = w * w * w;
  return w > 0.0f;
}
CUSCI_HD int cusci__rgammaf_squeeze2(float t, float u, float d)
{
  float t2 = t * t, k = t < -0.5f ? 2.4f : 1.2f, m = t < 0.0f ? t : 0.0f;
  return (t >= -0.75f) & (u - 1.0f < d * (t2 * t2) * (k * m - 0.75f));
}
CUSCI_HD int cusci__rgammaf_squeezed(float x, float t, float u, float d)
{
  float x2 = x * x;
  return (u < 1.0f - 0.0331f * x2 * x2) | cusci__rgammaf_squeeze2(t, u, d);
}

CUSCI_HD double cusci__rgamma(cusci__rsampler *r, double shape)
{
  if (shape == 0.0)
    return 0.0;
  double boost = 1.0;
  if (shape < 1.0) {
    boost = cusci__rpow(cusci__ruopen(r), 1.0 / shape);
    shape += 1.0;
  }
  double d, c;
  cusci__rgamma_dc(0, shape, &d, &c);
  for (;;) {
    double x, t, v;
    do
      x = cusci__rnorm(r);
    while (!cusci__rgamma_v(x, c, &t, &v));
    double u = cusci__ru(r);
    if (cusci__rgamma_squeezed(x, t, u, d) || cusci__rlog(u) < 0.5 * (x * x) + d * (1.0 - v + cusci__rlog(v)))
      return boost * (d * v);
  }
}

/* Marsaglia-Tsang as above in float arithmetic, for float32 outputs (the
 * boost for shape < 1 in double). */
CUSCI_HD double cusci__rgammaf(cusci__rsampler *r, double shape)
{
  if (shape == 0.0)
    return 0.0;
  double boost = 1.0;
  if (shape < 1.0) {
    boost = cusci__rpow(cusci__ruopen(r), 1.0 / shape);
    shape += 1.0;
  }
  double dd, cd;
  cusci__rgamma_dc(1, shape, &dd, &cd);
  float d = (float)dd, c = (float)cd;
  for (;;) {
    float x, t, v;
    do
      x = cusci__rnormf(r);
    while (!cusci__rgammaf_v(x, c, &t, &v));
    float u = cusci__ruf(r);
    if (cusci__rgammaf_squeezed(x, t, u, d) || cusci__rlogf(u) < 0.5f * (x * x) + d * (1.0f - v + cusci__rlogf(v)))
      return boost * (double)(d * v);
  }
}

/*
 * float32 gamma packs two elements in a group: element i's stream is the
 * block's words 2i and 2i + 1 (its first normal's draw and the first
 * uniform, when the normal needs no more), then its own blocks
 * (lo, (i + 1) 2^32 + m). w0, w1: those two words of the group's first block.
 */
CUSCI_HD void cusci__rgammaf_stream(cusci__rsampler *r, uint64_t key, uint64_t lo, int i, uint32_t w0, uint32_t w1)
{
  cusci__rstream_init(&r->s, key, lo);
  r->s.j = (uint64_t)(i + 1) << 32;
  r->s.buf[2] = w0;
  r->s.buf[3] = w1;
  r->s.used = 2;
}

/*
 * The common path of the first try of cusci__rgammaf / cusci__rgamma for
 * shape >= 1, when the first normal x came from its first draw by the
 * ziggurat's common path and u is the uniform the sampler draws next:
 * 1 and *out (what the sampler returns) when the second squeeze accepts;
 * 0 when the sampler must run (*out is then d v all the same). Any of the
 * sampler's accepting tests would serve (it returns d v whichever
 * accepts); the second squeeze alone implies v > 0 (t >= -3/4) and, from
 * shape 3/2 on, accepts whatever the first does too (for shape 1, 7.3% of
 * tries go on to the sampler against 6.0% with both). d and c from
 * cusci__rgamma_dc.
 */
CUSCI_HD int cusci__rgammaf_fast(float x, float u, float d, float c, float *out)
{
  float t, v;
  (void)cusci__rgammaf_v(x, c, &t, &v);
  *out = d * v;
  return cusci__rgammaf_squeeze2(t, u, d);
}
CUSCI_HD int cusci__rgamma_fast(double x, double u, double d, double c, double *out)
{
  double t, v;
  (void)cusci__rgamma_v(x, c, &t, &v);
  *out = d * v;
  return cusci__rgamma_squeeze2(t, u, d);
}

/* Poisson for lam < 10 from one uniform, by inversion with sequential
 * search (Devroye, "Non-Uniform Random Variate Generation", 1986, X.3.3):
 * the smallest k with u < F(k), the mass by p(k) = p(k-1) lam / k. The
 * first CUSCI__RPOIS_TAB values of F are made once per call, here. */
CUSCI_HD void cusci__rpoisson_table(cusci__rparams *pp)
{
  double lam = pp->a, p = cusci__rexp(-lam), F = p;
  pp->pois_cdf[0] = F;
  for (int k = 1; k < CUSCI__RPOIS_TAB; k++) {
    p = p * lam / (double)k;
    F += p;
    pp->pois_cdf[k] = F;
  }
  pp->pois_last = p;
}

/* The search, through the table: compares only, with the recurrence
 * taking over past its end (never beyond k = 1000). Unrolled on the GPU,
 * so that the table is read from the kernel's parameters at fixed
 * offsets. */
CUSCI_HD int64_t cusci__rpoisson_inv_tab(const cusci__rparams *pp, double u)
{
  CUSCI__UNROLL
  for (int k = 0; k < CUSCI__RPOIS_TAB; k++)
    if (u < pp->pois_cdf[k])
      return k;
  double lam = pp->a, p = pp->pois_last, F = pp->pois_cdf[CUSCI__RPOIS_TAB - 1];
  int64_t k = CUSCI__RPOIS_TAB - 1;
  while (u >= F && k < 1000) {
    k++;
    p = p * lam / (double)k;
    F += p;
  }
  return k;
}

/* PTRS, the transformed rejection with squeeze of Hoermann, "The
 * transformed rejection method for generating Poisson random variables",
 * Insurance: Math. Econ. 12, 1993: its constants for lam >= 10, made once
 * per call for a scalar lam. */
CUSCI_HD void cusci__rptrs_init(cusci__rptrs *c, double lam)
{
  double slam = cusci__rsqrt(lam);
  c->lam = lam;
  c->loglam = cusci__rlog(lam);
  c->b = 0.931 + 2.53 * slam;
  c->a = -0.059 + 0.02483 * c->b;
  c->invalpha = 1.1239 + 1.1328 / (c->b - 3.4);
  c->vr = 0.9277 - 3.6224 / (c->b - 2.0);
  c->loginvalpha = cusci__rlog(c->invalpha);
}

/* One try of PTRS: 1 and the value in *out when it is accepted, 0 for
 * another. */
CUSCI_HD int cusci__rptrs_try(cusci__rsampler *r, const cusci__rptrs *c, int64_t *out)
{
  double u = cusci__ru(r) - 0.5;
  double v = cusci__ru(r);
  double us = 0.5 - fabs(u);
  double kd = floor((2.0 * c->a / us + c->b) * u + c->lam + 0.43);
  if (us >= 0.07 && v <= c->vr) {
    *out = (int64_t)kd;
    return 1;
  }
  if (kd < 0 || (us < 0.013 && v > us))
    return 0;
  if (cusci__rlog(v) + c->loginvalpha - cusci__rlog(c->a / (us * us) + c->b) <=
      -c->lam + kd * c->loglam - cusci__rlgamma(kd + 1.0)) {
    *out = (int64_t)kd;
    return 1;
  }
  return 0;
}

CUSCI_HD int64_t cusci__rptrs_draw(cusci__rsampler *r, const cusci__rptrs *c)
{
  int64_t k;
  while (!cusci__rptrs_try(r, c, &k))
    ;
  return k;
}

/* Poisson: for lam < 10 the multiplication method (Knuth, TAOCP vol. 2,
 * 3.4.1, algorithm Q); above, PTRS. */
CUSCI_HD int64_t cusci__rpoisson(cusci__rsampler *r, double lam)
{
  if (lam == 0.0)
    return 0;
  if (lam < 10.0) {
    double enlam = cusci__rexp(-lam), prod = 1.0;
    int64_t x = 0;
    for (;;) {
      prod *= cusci__ru(r);
      if (prod > enlam)
        x++;
      else
        return x;
    }
  }
  cusci__rptrs c;
  cusci__rptrs_init(&c, lam);
  return cusci__rptrs_draw(r, &c);
}

/*
 * Binomial(n, p). With p' = min(p, 1 - p): inversion for n p' <= 30,
 * BTPE above; for p > 1/2 the draw x for p' gives n - x. What the
 * samplers compute before their first draw is in cusci__rbinom, made once
 * per call for a scalar (n, p) (cusci__rbinom_init), with a table of the
 * values their inner loops would make one division at a time
 * (cusci__rbinom_table); the samplers take a value from the table where it
 * has one and make it by the same loop where it does not, so the draws are
 * the same with or without it.
 */
CUSCI_HD void cusci__rbinom_init(cusci__rbinom *b, int64_t n, double p)
{
  b->n = n;
  b->tlo = 1;
  b->thi = 0;
  b->kind = 0;
  b->flip = 0;
  if (n == 0 || p == 0.0) {
    b->fixed = 0;
    return;
  }
  if (p == 1.0) {
    b->fixed = n;
    return;
  }
  b->flip = p > 0.5;
  double pp = p <= 0.5 ? p : 1.0 - p, q = 1.0 - pp;
  b->p = pp;
  b->q = q;
  double dn = (double)n;
  if (pp * dn <= 30.0) { /* restarts past np + 10 sd, as NumPy */
    b->kind = 1;
    b->qn = cusci__rexp(dn * cusci__rlog1p(-pp));
    double np = dn * pp;
    double bd = np + 10.0 * cusci__rsqrt(np * q + 1.0);
    b->bound = bd < dn ? (int64_t)bd : n;
    return;
  }
  b->kind = 2;
  b->dn = dn;
  b->fm = dn * pp + pp;
  b->m = (int64_t)floor(b->fm);
  b->dm = (double)b->m;
  b->npq = dn * pp * q;
  b->p1 = floor(2.195 * cusci__rsqrt(b->npq) - 4.6 * q) + 0.5;
  b->xm = b->dm + 0.5;
  b->xl = b->xm - b->p1;
  b->xr = b->xm + b->p1;
  b->c = 0.134 + 20.5 / (15.3 + b->dm);
  double al = (b->fm - b->xl) / (b->fm - b->xl * pp);
  b->laml = al * (1.0 + al / 2.0);
  double ar = (b->xr - b->fm) / (b->xr * q);
  b->lamr = ar * (1.0 + ar / 2.0);
  b->p2 = b->p1 * (1.0 + 2.0 * b->c);
  b->p3 = b->p2 + b->c / b->laml;
  b->p4 = b->p3 + b->c / b->lamr;
}

/* Inversion's mass at x from the mass px at x - 1. */
CUSCI_HD double cusci__rbinom_next(const cusci__rbinom *b, int64_t x, double px)
{
  return ((double)(b->n - x + 1) * b->p * px) / ((double)x * b->q);
}

/* BTPE's f(y) / f(m) by the recurrence of the paper's step 5.1, one
 * factor at a time from the mode. */
CUSCI_HD double cusci__rbinom_ratio(const cusci__rbinom *b, int64_t y)
{
  double s = b->p / b->q, a = s * (b->dn + 1.0), f = 1.0;
  if (b->m < y)
    for (int64_t i = b->m + 1; i <= y; i++)
      f *= a / (double)i - s;
  else if (b->m > y)
    for (int64_t i = y + 1; i <= b->m; i++)
      f /= a / (double)i - s;
  return f;
}

/* The table (at most CUSCI__RBINOM_TAB values): inversion's masses at
 * 0..bound (bound <= 85 for n p' <= 30), BTPE's ratios at the values
 * within 64 of the mode (20 when n p q is large). */
CUSCI_HD void cusci__rbinom_table(cusci__rbinom *b, double *tab)
{
  if (b->kind == 1) {
    b->tlo = 0;
    b->thi = b->bound < CUSCI__RBINOM_TAB - 1 ? b->bound : CUSCI__RBINOM_TAB - 1;
    tab[0] = b->qn;
    for (int64_t x = 1; x <= b->thi; x++)
      tab[x] = cusci__rbinom_next(b, x, tab[x - 1]);
  } else if (b->kind == 2) {
    /* the explicit evaluation takes |y - m| <= 20 and |y - m| >= n p q / 2 - 1:
     * when the second starts past the table, the first is all it needs */
    int64_t h = (CUSCI__RBINOM_TAB - 1) / 2;
    if (b->npq / 2.0 - 1.0 > (double)h)
      h = 20;
    b->tlo = b->m > h ? b->m - h : 0;
    b->thi = b->m + h < b->n ? b->m + h : b->n;
    /* below the mode each ratio is its own chain of divisions; above,
     * the chain for y is the one for y - 1 and one more factor */
    for (int64_t y = b->tlo; y <= b->thi && y <= b->m; y++)
      tab[y - b->tlo] = cusci__rbinom_ratio(b, y);
    double s = b->p / b->q, a = s * (b->dn + 1.0);
    for (int64_t y = b->m + 1; y <= b->thi; y++)
      tab[y - b->tlo] = tab[y - 1 - b->tlo] * (a / (double)y - s);
  }
}

/* Inversion by sequential search from 0 (Devroye, "Non-Uniform Random
 * Variate Generation", 1986, X.4). */
CUSCI_HD int64_t cusci__rbinom_inv(cusci__rsampler *r, const cusci__rbinom *b, const double *tab)
{
  int64_t x = 0;
  double px = b->qn, u = cusci__ru(r);
  while (u > px) {
    x++;
    if (x > b->bound) {
      x = 0;
      px = b->qn;
      u = cusci__ru(r);
    } else {
      u -= px;
      px = x <= b->thi ? tab[x] : cusci__rbinom_next(b, x, px);
    }
  }
  return x;
}

/*
 * BTPE (Kachitvichyanukul and Schmeiser, "Binomial random variate
 * generation", CACM 31(2), 1988): a triangle, two parallelograms and two
 * exponential tails majorize the mass function; acceptance by explicit
 * evaluation near the mode, else by the squeeze and Stirling's formula
 * (steps 1 to 5.3 of the paper). One try: 1 and the value in *out when
 * it is accepted, 0 for another.
 */
CUSCI_HD int cusci__rbinom_btpe_try(cusci__rsampler *r, const cusci__rbinom *b, const double *tab, int64_t *out)
{
  double dn = b->dn, p = b->p, q = b->q, npq = b->npq, dm = b->dm, xm = b->xm;
  double p1 = b->p1, c = b->c;
  int64_t m = b->m;
  double u = cusci__ru(r) * b->p4, v = cusci__ru(r);
  int64_t y;
  if (u <= p1) { /* triangle: accept at once */
    *out = (int64_t)floor(xm - p1 * v + u);
    return 1;
  } else if (u <= b->p2) { /* parallelograms */
    double x = b->xl + (u - p1) / c;
    v = v * c + 1.0 - fabs(dm - x + 0.5) / p1;
    if (v > 1.0)
      return 0;
    y = (int64_t)floor(x);
  } else if (u <= b->p3) { /* left tail */
    if (v == 0.0)
      return 0;
    double yd = floor(b->xl + cusci__rlog(v) / b->laml);
    if (yd < 0)
      return 0;
    y = (int64_t)yd;
    v = v * (u - b->p2) * b->laml;
  } else { /* right tail */
    if (v == 0.0)
      return 0;
    double yd = floor(b->xr - cusci__rlog(v) / b->lamr);
    if (yd > dn)
      return 0;
    y = (int64_t)yd;
    v = v * (u - b->p3) * b->lamr;
  }
  *out = y;
  int64_t k = y > m ? y - m : m - y;
  if (k <= 20 || (double)k >= npq / 2.0 - 1.0) {
    /* explicit evaluation of f(y) / f(m) */
    double f = y >= b->tlo && y <= b->thi ? tab[y - b->tlo] : cusci__rbinom_ratio(b, y);
    return !(v > f);
  }
  /* squeeze on log v, then the bound from Stirling's formula */
  double dk = (double)k, dy = (double)y;
  double rho = (dk / npq) * ((dk * (dk / 3.0 + 0.625) + 0.16666666666666666) / npq + 0.5);
  double t = -dk * dk / (2.0 * npq);
  double A = cusci__rlog(v);
  if (A < t - rho)
    return 1;
  if (A > t + rho)
    return 0;
  double x1 = dy + 1.0, f1 = dm + 1.0, z = dn + 1.0 - dm, w = dn - dy + 1.0;
  double x2 = x1 * x1, f2 = f1 * f1, z2 = z * z, w2 = w * w;
  double bound = xm * cusci__rlog(f1 / x1) + (dn - dm + 0.5) * cusci__rlog(z / w) +
                 (dy - dm) * cusci__rlog(w * p / (x1 * q)) +
                 (13680. - (462. - (132. - (99. - 140. / f2) / f2) / f2) / f2) / f1 / 166320. +
                 (13680. - (462. - (132. - (99. - 140. / z2) / z2) / z2) / z2) / z / 166320. +
                 (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x1 / 166320. +
                 (13680. - (462. - (132. - (99. - 140. / w2) / w2) / w2) / w2) / w / 166320.;
  return !(A > bound);
}

CUSCI_HD int64_t cusci__rbinom_btpe(cusci__rsampler *r, const cusci__rbinom *b, const double *tab)
{
  int64_t y;
  while (!cusci__rbinom_btpe_try(r, b, tab, &y))
    ;
  return y;
}

/* A draw for the constants b, with tab from cusci__rbinom_table (or NULL
 * when b has no table). */
CUSCI_HD int64_t cusci__rbinom_draw(cusci__rsampler *r, const cusci__rbinom *b, const double *tab)
{
  if (b->kind == 0)
    return b->fixed;
  int64_t x = b->kind == 1 ? cusci__rbinom_inv(r, b, tab) : cusci__rbinom_btpe(r, b, tab);
  return b->flip ? b->n - x : x;
}

/* A draw for (n, p) made here, without a table. */
CUSCI_HD int64_t cusci__rbinomial(cusci__rsampler *r, int64_t n, double p)
{
  cusci__rbinom b;
  cusci__rbinom_init(&b, n, p);
  return cusci__rbinom_draw(r, &b, (const double *)0);
}

/* log of the binomial coefficient (a choose b), 0 <= b <= a. */
CUSCI_HD double cusci__rlchoose(double a, double b)
{
  return cusci__rlgamma(a + 1.0) - cusci__rlgamma(b + 1.0) - cusci__rlgamma(a - b + 1.0);
}

/*
 * Hypergeometric: good items among `n` drawn without replacement from
 * `good` good and `bad` bad ones, by inversion with the chop-down search
 * from the mode (Kemp, "Efficient generation of logarithmically distributed
 * pseudo-random variables", Appl. Statist. 30, 1981, and Devroye, 1986,
 * III.2): the mass at the mode from log-binomial coefficients, its
 * neighbours by the ratio f(k+1)/f(k) = (good-k)(n-k) / ((k+1)(bad-n+k+1)),
 * taken alternately below and above the mode. Expected steps grow as the
 * standard deviation.
 */
CUSCI_HD int64_t cusci__rhypergeometric(cusci__rsampler *r, int64_t good, int64_t bad, int64_t n)
{
  double G = (double)good, B = (double)bad, N = G + B, dn = (double)n;
  int64_t lo = n - bad > 0 ? n - bad : 0, hi = n < good ? n : good;
  if (lo == hi)
    return lo;
  int64_t m = (int64_t)floor((dn + 1.0) * (G + 1.0) / (N + 2.0));
  if (m < lo)
    m = lo;
  if (m > hi)
    m = hi;
  double dm = (double)m;
  double pm = cusci__rexp(cusci__rlchoose(G, dm) + cusci__rlchoose(B, dn - dm) - cusci__rlchoose(N, dn));
  for (;;) {
    double u = cusci__ru(r);
    u -= pm;
    if (u <= 0)
      return m;
    double pl = pm, pu = pm;
    int64_t kl = m, ku = m;
    while (kl > lo || ku < hi) {
      if (kl > lo) { /* f(kl - 1) = f(kl) kl (bad - n + kl) / ((good - kl + 1)(n - kl + 1)) */
        double k = (double)kl;
        pl = pl * (k * (B - dn + k)) / ((G - k + 1.0) * (dn - k + 1.0));
        kl--;
        u -= pl;
        if (u <= 0)
          return kl;
      }
      if (ku < hi) {
        double k = (double)ku;
        pu = pu * ((G - k) * (dn - k)) / ((k + 1.0) * (B - dn + k + 1.0));
        ku++;
        u -= pu;
        if (u <= 0)
          return ku;
      }
    }
    /* rounding left a sliver of mass: draw again */
  }
}

/* 64 x 64 -> high 64 bits, from 32-bit halves (the same on both sides). */
CUSCI_HD uint64_t cusci__rmulhi64(uint64_t a, uint64_t b)
{
  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/*
 * An unbiased integer in [0, range] (range inclusive) by Lemire's
 * multiply-and-reject method ("Fast random integer generation in an
 * interval", ACM TOMACS 29(1), 2019). `first` is the lane's first draw;
 * rejected draws are replaced from the lane's own stream, at counter
 * (lo, (lane + 1) 2^32 + m), made only when needed.
 */
CUSCI_HD uint64_t cusci__rbounded(uint64_t first, uint64_t range, uint64_t key, uint64_t lo, int lane)
{
  if (range == UINT64_MAX)
    return first;
  cusci__rstream own;
  if (range <= UINT64_C(0xffffffff)) {
    uint64_t sz = range + 1;
    uint64_t x = (uint32_t)first;
    uint64_t m = x * sz;
    if ((uint32_t)m < sz) {
      uint32_t t = (uint32_t)((UINT64_C(0x100000000) - sz) % sz);
      if ((uint32_t)m < t) {
        cusci__rstream_init(&own, key, lo);
        own.j = (uint64_t)(lane + 1) << 32;
        while ((uint32_t)m < t) {
          x = cusci__next_u32(&own);
          m = x * sz;
        }
      }
    }
    return m >> 32;
  }
  uint64_t sz = range + 1;
  uint64_t x = first;
  uint64_t l = x * sz;
  if (l < sz) {
    uint64_t t = (0 - sz) % sz;
    if (l < t) {
      cusci__rstream_init(&own, key, lo);
      own.j = (uint64_t)(lane + 1) << 32;
      while (l < t) {
        x = cusci__next_u64(&own);
        l = x * sz;
      }
    }
  }
  return cusci__rmulhi64(x, sz);
}

/* ----------------------------------------------------------- the groups */

/* float32 gamma's group at counter lo: its first g elements (g <= 2) with
 * shapes a[i] (and scales b[i] for GAMMA). */
CUSCI_HD void cusci__rgammaf_group(int dist, const double a[2], const double b[2], int g, uint64_t key, uint64_t lo,
                                   double *out)
{
  cusci__rstream s;
  cusci__rstream_init(&s, key, lo);
  cusci__rstream_refill(&s);
  for (int i = 0; i < g; i++) {
    cusci__rsampler e;
    cusci__rgammaf_stream(&e, key, lo, i, i ? s.buf[2] : s.buf[0], i ? s.buf[3] : s.buf[1]);
    double x = cusci__rgammaf(&e, a[i]);
    out[i] = dist == CUSCI__RD_GAMMA ? b[i] * x : x;
  }
}

/*
 * Group g's real values: out[0..G). The formulas are NumPy's, with the
 * uniforms of the group's block (open where a logarithm follows).
 */
CUSCI_HD void cusci__rgroup_real(int dist, const cusci__rparams *p, uint64_t key, uint64_t lo, int f32, double *out)
{
  cusci__rsampler r;
  cusci__rstream_init(&r.s, key, lo);
  double u[4];
  int g = 0;
  switch (dist) {
  case CUSCI__RD_RANDOM:
    g = cusci__runiforms(&r.s, f32, 0, out);
    return;
  case CUSCI__RD_UNIFORM: /* low + (high - low) u */
    g = cusci__runiforms(&r.s, f32, 0, u);
    for (int i = 0; i < g; i++)
      out[i] = p->a + (p->b - p->a) * u[i];
    return;
  case CUSCI__RD_STANDARD_NORMAL:
  case CUSCI__RD_NORMAL:
  case CUSCI__RD_LOGNORMAL:
    g = cusci__rnormals(&r.s, f32, u);
    for (int i = 0; i < g; i++)
      out[i] = cusci__rnormal_out(dist, p, u[i]);
    return;
  default:
    break;
  }
  if (dist <= CUSCI__RD_TRIANGULAR) { /* one open uniform per element */
    g = cusci__runiforms(&r.s, f32, 1, u);
    for (int i = 0; i < g; i++) {
      double v = u[i], x;
      switch (dist) {
      case CUSCI__RD_STANDARD_EXPONENTIAL: x = -cusci__rlog(v); break;
      case CUSCI__RD_EXPONENTIAL: x = p->a * -cusci__rlog(v); break;
      case CUSCI__RD_LAPLACE: /* inverse CDF */
        x = v >= 0.5 ? p->a - p->b * cusci__rlog(2.0 - v - v) : p->a + p->b * cusci__rlog(v + v);
        break;
      case CUSCI__RD_LOGISTIC: x = p->a + p->b * cusci__rlog(v / (1.0 - v)); break;
      case CUSCI__RD_GUMBEL: x = p->a - p->b * cusci__rlog(-cusci__rlog(v)); break;
      case CUSCI__RD_RAYLEIGH: x = p->a * cusci__rsqrt(-2.0 * cusci__rlog(v)); break;
      case CUSCI__RD_WEIBULL: x = p->a == 0.0 ? 0.0 : cusci__rpow(-cusci__rlog(v), 1.0 / p->a); break;
      case CUSCI__RD_PARETO: /* Lomax: exp(E / a) - 1 */
        x = cusci__rexp(-cusci__rlog(v) / p->a) - 1.0;
        break;
      case CUSCI__RD_POWER: x = cusci__rpow(v, 1.0 / p->a); break;
      default: { /* TRIANGULAR: inverse CDF */
        double left = p->a, mode = p->b, right = p->c, base = right - left;
        x = v <= (mode - left) / base ? left + cusci__rsqrt(v * (mode - left) * base)
                                      : right - cusci__rsqrt((1.0 - v) * (right - mode) * base);
      }
      }
      out[i] = x;
    }
    return;
  }
  if (f32 && (dist == CUSCI__RD_STANDARD_GAMMA || dist == CUSCI__RD_GAMMA)) {
    double a[2] = {p->a, p->a}, b[2] = {p->b, p->b};
    cusci__rgammaf_group(dist, a, b, 2, key, lo, out);
    return;
  }
  double x = 0;
  switch (dist) {
  case CUSCI__RD_STANDARD_CAUCHY: { /* ratio of two normals */
    double n1 = cusci__rnorm(&r), n2 = cusci__rnorm(&r);
    x = n1 / n2;
    break;
  }
  case CUSCI__RD_STANDARD_GAMMA: x = cusci__rgamma(&r, p->a); break; /* float32: above */
  case CUSCI__RD_GAMMA: x = p->b * cusci__rgamma(&r, p->a); break;
  case CUSCI__RD_BETA: {
    if (p->a <= 1.0 && p->b <= 1.0) {
      /* Joehnk, "Erzeugung von betaverteilten und gammaverteilten
       * Zufallszahlen", Metrika 8, 1964, with logs against underflow */
      for (;;) {
        double uu = cusci__ruopen(&r), vv = cusci__ruopen(&r);
        double lx = cusci__rlog(uu) / p->a, ly = cusci__rlog(vv) / p->b;
        double xx = cusci__rexp(lx), yy = cusci__rexp(ly);
        if (xx + yy <= 1.0) {
          if (xx + yy > 0) {
            x = xx / (xx + yy);
          } else {
            double lm = lx > ly ? lx : ly;
            lx -= lm;
            ly -= lm;
            x = cusci__rexp(lx - cusci__rlog(cusci__rexp(lx) + cusci__rexp(ly)));
          }
          break;
        }
      }
    } else { /* ratio of gammas */
      double ga = cusci__rgamma(&r, p->a), gb = cusci__rgamma(&r, p->b);
      x = ga / (ga + gb);
    }
    break;
  }
  case CUSCI__RD_CHISQUARE: x = 2.0 * cusci__rgamma(&r, p->a / 2.0); break;
  case CUSCI__RD_NONCENTRAL_CHISQUARE:
  case CUSCI__RD_NONCENTRAL_F: {
    /* chi2(df - 1) + (z + sqrt(nonc))^2 for df > 1, else the Poisson
     * mixture chi2(df + 2 N), N ~ Poisson(nonc / 2) */
    double df = p->a, nonc = p->b, c2;
    if (nonc == 0.0) {
      c2 = 2.0 * cusci__rgamma(&r, df / 2.0);
    } else if (df > 1.0) {
      double c = 2.0 * cusci__rgamma(&r, (df - 1.0) / 2.0);
      double z = cusci__rnorm(&r) + cusci__rsqrt(nonc);
      c2 = c + z * z;
    } else {
      int64_t i = cusci__rpoisson(&r, nonc / 2.0);
      c2 = 2.0 * cusci__rgamma(&r, (df + 2.0 * (double)i) / 2.0);
    }
    if (dist == CUSCI__RD_NONCENTRAL_CHISQUARE) {
      x = c2;
    } else { /* (a, b, c) = (dfnum, nonc, dfden) */
      double dfden = p->c;
      x = (c2 * dfden) / (2.0 * cusci__rgamma(&r, dfden / 2.0) * df);
    }
    break;
  }
  case CUSCI__RD_F: {
    double c1 = 2.0 * cusci__rgamma(&r, p->a / 2.0);
    double c2 = 2.0 * cusci__rgamma(&r, p->b / 2.0);
    x = (c1 * p->b) / (c2 * p->a);
    break;
  }
  case CUSCI__RD_STANDARD_T: { /* z sqrt(df / 2) / sqrt(gamma(df / 2)) */
    double z = cusci__rnorm(&r);
    double g2 = cusci__rgamma(&r, p->a / 2.0);
    x = cusci__rsqrt(p->a / 2.0) * z / cusci__rsqrt(g2);
    break;
  }
  case CUSCI__RD_VONMISES: {
    /* Best and Fisher, "Efficient simulation of the von Mises
     * distribution", Appl. Statist. 28, 1979, as NumPy; the result is
     * wrapped to [-pi, pi]. (a, b) = (mu, kappa). */
    double mu = p->a, kappa = p->b, res = 0;
    if (kappa < 1e-8) {
      res = CUSCI__PI * (2.0 * cusci__ru(&r) - 1.0);
      x = res;
      break;
    }
    double sv;
    if (kappa < 1e-5) {
      sv = 1.0 / kappa + kappa;
    } else if (kappa <= 1e6) {
      double rr = 1.0 + cusci__rsqrt(1.0 + 4.0 * kappa * kappa);
      double rho = (rr - cusci__rsqrt(2.0 * rr)) / (2.0 * kappa);
      sv = (1.0 + rho * rho) / (2.0 * rho);
    } else { /* the wrapped normal limit */
      res = mu + cusci__rsqrt(1.0 / kappa) * cusci__rnorm(&r);
      sv = 0;
    }
    if (kappa <= 1e6) {
      double W;
      for (;;) {
        double U = cusci__ru(&r);
        double Z = cusci__rcos_pi(U);
        W = (1.0 + sv * Z) / (sv + Z);
        double Y = kappa * (sv - W);
        double V = cusci__ru(&r);
        if (Y * (2.0 - Y) - V >= 0 || (V > 0 && cusci__rlog(Y / V) + 1.0 - Y >= 0))
          break;
      }
      res = cusci__racos(W);
      if (cusci__ru(&r) < 0.5)
        res = -res;
      res += mu;
    }
    int neg = res < 0;
    double mod = fmod(fabs(res) + CUSCI__PI, 2.0 * CUSCI__PI) - CUSCI__PI;
    x = neg ? -mod : mod;
    break;
  }
  case CUSCI__RD_WALD: {
    /* Michael, Schucany and Haas, "Generating random variates using
     * transformations with multiple roots", Am. Statist. 30, 1976 */
    double mean = p->a, scale = p->b;
    double y = cusci__rnorm(&r);
    y = mean * y * y;
    double xx = mean + (mean / (2.0 * scale)) * (y - cusci__rsqrt(4.0 * scale * y + y * y));
    x = cusci__ru(&r) <= mean / (mean + xx) ? xx : mean * mean / xx;
    break;
  }
  default:
    break;
  }
  out[0] = x;
}

/* Group g's integer values: out[0..G), G = cusci__rgroup_size(dist, 0, p)
 * (passed in, so that a kernel that knows it unrolls the lanes). */
CUSCI_HD void cusci__rgroup_int(int dist, const cusci__rparams *p, uint64_t key, uint64_t lo, int G, int64_t *out)
{
  cusci__rsampler r;
  cusci__rstream_init(&r.s, key, lo);
  switch (dist) {
  case CUSCI__RD_INTEGERS: {
    cusci__rstream_refill(&r.s);
    int wide = G == 2;
    for (int i = 0; i < G; i++) {
      uint64_t first = wide ? (uint64_t)r.s.buf[2 * i] | ((uint64_t)r.s.buf[2 * i + 1] << 32) : r.s.buf[i];
      out[i] = (int64_t)((uint64_t)p->lo + cusci__rbounded(first, p->range, key, lo, i));
    }
    return;
  }
  case CUSCI__RD_POISSON:
    if (G == 2) { /* lam < 10: two lanes, a 53-bit uniform each */
      cusci__rstream_refill(&r.s);
      for (int i = 0; i < 2; i++) {
        uint64_t x = (uint64_t)r.s.buf[2 * i] | ((uint64_t)r.s.buf[2 * i + 1] << 32);
        out[i] = cusci__rpoisson_inv_tab(p, cusci__u64_to_double(x));
      }
      return;
    }
    out[0] = cusci__rptrs_draw(&r, &p->ptrs); /* lam >= 10 */
    return;
  case CUSCI__RD_BINOMIAL:
    out[0] = cusci__rbinom_draw(&r, &p->binom, p->binom_tab);
    return;
  case CUSCI__RD_NEGATIVE_BINOMIAL: { /* Poisson(Gamma(n, (1 - p) / p)) */
    double y = cusci__rgamma(&r, p->a) * ((1.0 - p->b) / p->b);
    out[0] = cusci__rpoisson(&r, y);
    return;
  }
  case CUSCI__RD_GEOMETRIC: { /* inversion: ceil(log(1 - u) / log(1 - p)) */
    if (p->a == 1.0) {
      out[0] = 1;
      return;
    }
    double x = ceil(cusci__rlog(cusci__ruopen(&r)) / cusci__rlog1p(-p->a));
    out[0] = x < 9.2e18 ? (int64_t)x : INT64_MAX;
    return;
  }
  case CUSCI__RD_LOGSERIES: {
    /* Kemp's second accelerated generator, LK (Kemp, "Efficient generation
     * of logarithmically distributed pseudo-random variables", Appl.
     * Statist. 30, 1981) */
    double pr = p->a, lr = cusci__rlog1p(-pr);
    for (;;) {
      double v = cusci__ru(&r);
      if (v >= pr) {
        out[0] = 1;
        return;
      }
      double u = cusci__ru(&r);
      double q = 1.0 - cusci__rexp(lr * u);
      if (v <= q * q) {
        double x = floor(1.0 + cusci__rlog(v) / cusci__rlog(q));
        if (x < 1.0 || v == 0.0)
          continue;
        out[0] = x < 9.2e18 ? (int64_t)x : INT64_MAX;
        return;
      }
      out[0] = v >= q ? 1 : 2;
      return;
    }
  }
  case CUSCI__RD_HYPERGEOMETRIC:
    out[0] = cusci__rhypergeometric(&r, p->lo, (int64_t)p->range, p->n);
    return;
  case CUSCI__RD_ZIPF: {
    /* Devroye, "Non-Uniform Random Variate Generation", 1986, X.6.1:
     * rejection from floor(u^(-1/(a-1))); values beyond int64 are rejected */
    double am1 = p->a - 1.0, b = cusci__rpow(2.0, am1);
    for (;;) {
      double u = 1.0 - cusci__ru(&r), v = cusci__ru(&r);
      double x = floor(cusci__rpow(u, -1.0 / am1));
      if (x > 9.2e18 || x < 1.0)
        continue;
      double t = cusci__rpow(1.0 + 1.0 / x, am1);
      if (v * x * (t - 1.0) / (b - 1.0) <= t / b) {
        out[0] = (int64_t)x;
        return;
      }
    }
  }
  default:
    out[0] = 0;
  }
}

/* ---------------------------------------------- per-element parameters */

/*
 * Group g with parameters per element (arrays broadcast to the output,
 * element k = k0 + i): the same uniforms, normals and samplers as the scalar
 * call, so a call whose arrays hold one value everywhere gives the scalar
 * call's values. dist: UNIFORM, NORMAL, LOGNORMAL, EXPONENTIAL (packed),
 * GAMMA, BETA (one element). pb may be NULL for one-parameter dists.
 */
CUSCI_HD void cusci__rgroup_real_arr(int dist, const double *pa, const double *pb, uint64_t key, uint64_t lo, int f32,
                                     int64_t k0, int64_t n, double *out)
{
  cusci__rstream s;
  cusci__rstream_init(&s, key, lo);
  double u[4];
  int g;
  switch (dist) {
  case CUSCI__RD_UNIFORM:
    g = cusci__runiforms(&s, f32, 0, u);
    for (int i = 0; i < g && k0 + i < n; i++)
      out[i] = pa[k0 + i] + (pb[k0 + i] - pa[k0 + i]) * u[i];
    return;
  case CUSCI__RD_NORMAL:
  case CUSCI__RD_LOGNORMAL:
    g = cusci__rnormals(&s, f32, u);
    for (int i = 0; i < g && k0 + i < n; i++) {
      out[i] = pa[k0 + i] + pb[k0 + i] * u[i];
      if (dist == CUSCI__RD_LOGNORMAL)
        out[i] = cusci__rexp(out[i]);
    }
    return;
  case CUSCI__RD_EXPONENTIAL:
    g = cusci__runiforms(&s, f32, 1, u);
    for (int i = 0; i < g && k0 + i < n; i++)
      out[i] = pa[k0 + i] * -cusci__rlog(u[i]);
    return;
  default: { /* GAMMA (two elements for float32), BETA: one element */
    if (f32 && dist == CUSCI__RD_GAMMA) {
      int m = n - k0 < 2 ? 1 : 2;
      double a[2] = {pa[k0], pa[k0 + m - 1]}, b[2] = {pb[k0], pb[k0 + m - 1]};
      cusci__rgammaf_group(dist, a, b, m, key, lo, out);
      return;
    }
    cusci__rparams p;
    p.a = pa[k0];
    p.b = pb ? pb[k0] : 0.0;
    p.c = 0.0;
    p.lo = 0;
    p.n = 0;
    p.range = 0;
    cusci__rgroup_real(dist, &p, key, lo, f32, out);
  }
  }
}

/* Element k of POISSON (lam = pa[k]) or BINOMIAL (n = pn[k], p = pa[k]),
 * one element per group (lam < 10 by the multiplication method here, not
 * the packed inversion of a scalar call). */
CUSCI_HD int64_t cusci__rint_arr(int dist, const double *pa, const int64_t *pn, uint64_t key, uint64_t lo, int64_t k)
{
  cusci__rsampler r;
  cusci__rstream_init(&r.s, key, lo);
  if (dist == CUSCI__RD_POISSON)
    return cusci__rpoisson(&r, pa[k]);
  return cusci__rbinomial(&r, pn ? pn[k] : 0, pa[k]);
}

#endif /* CUSCI_REFERENCE_RANDOM_DISTS_H */
