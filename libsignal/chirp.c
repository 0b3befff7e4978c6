/*
 * libsignal/chirp.c: scipy.signal's waveforms of a time array (chirp,
 * sweep_poly, gausspulse, sawtooth, square), where t is, by the core's
 * ufuncs in SciPy's order of operations, in float64 (SciPy 1.17's
 * result for any real t).
 */
#include "libsignal/internal.h"

#include <math.h>
#include <string.h>

#include <cusci/compute.h>
#include <cusci/signal.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* A chain of ufuncs: the first failure stops it; the temporaries are
 * released together. */
enum { WAVE_MAX = 24 };
typedef struct wave {
  cusci_ctx *ctx;
  cusci_status st;
  int n;
  cusci_array *tmp[WAVE_MAX];
} wave;

static cusci_array *keep(wave *w, cusci_array *a)
{
  if (w->st == CUSCI_OK && w->n == WAVE_MAX)
    w->st = CUSCI_ERR_INTERNAL;
  if (w->st == CUSCI_OK)
    w->tmp[w->n++] = a;
  else
    cusci_array_release(a);
  return w->st == CUSCI_OK ? a : NULL;
}

static cusci_array *op2(wave *w, cusci_ufunc f, cusci_operand a, cusci_operand b)
{
  cusci_array *r = NULL;
  if (w->st == CUSCI_OK)
    w->st = cusci_ufunc_binary(w->ctx, f, a, b, &r);
  return keep(w, r);
}

static cusci_array *op1(wave *w, cusci_ufunc f, const cusci_array *a)
{
  cusci_array *r = NULL;
  if (w->st == CUSCI_OK)
    w->st = cusci_ufunc_unary(w->ctx, f, cusci_operand_array(a), &r);
  return keep(w, r);
}

#define A(a) cusci_operand_array(a)
#define F(v) cusci_operand_float(v)

/* The chain's start: t checked (real) and as float64. */
static cusci_array *wave_t(wave *w, cusci_ctx *ctx, const char *fn, const cusci_array *t)
{
  memset(w, 0, sizeof *w);
  w->ctx = ctx;
  w->st = cusci_check_array(ctx, fn, "t", t);
  if (w->st == CUSCI_OK && cusci_dtype_kind(cusci_array_dtype(t)) == 'c')
    w->st = cusci_ctx_fail(ctx, CUSCI_ERR_DTYPE, fn, "t must be real, not %s", cusci_dtype_name(cusci_array_dtype(t)));
  cusci_array *r = NULL;
  if (w->st == CUSCI_OK)
    w->st = cusci_array_astype(ctx, (cusci_array *)t, CUSCI_FLOAT64, false, &r);
  return keep(w, r);
}

/* The chain's end: r (one of its temporaries) given out, the rest released. */
static cusci_status wave_end(wave *w, const char *fn, cusci_array *r, cusci_array **out)
{
  cusci_status st = w->st;
  for (int i = 0; i < w->n; i++)
    if (w->tmp[i] != r || st != CUSCI_OK)
      cusci_array_release(w->tmp[i]);
  if (st == CUSCI_OK)
    st = cusci_give_out(w->ctx, fn, r, out);
  return st;
}

cusci_status cusci_signal_chirp(cusci_ctx *ctx, const cusci_array *t, double f0, double t1, double f1, const cusci_signal_chirp_opts *opts,
                                cusci_array **y)
{
  static const char fn[] = "cusci_signal_chirp";
  CUSCI_ENTRY(ctx, fn, t, y);
  static const cusci_signal_chirp_opts none = { 0 };
  const cusci_signal_chirp_opts *o = opts ? opts : &none;
  if ((unsigned)o->method > CUSCI_SIGNAL_CHIRP_HYPERBOLIC)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "method %d is not one of linear, quadratic, logarithmic and hyperbolic", (int)o->method);
  if (!isfinite(f0) || !isfinite(f1) || !isfinite(t1) || !isfinite(o->phi))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "f0 %g, t1 %g, f1 %g and phi %g must be finite", f0, t1, f1, o->phi);
  if (o->method == CUSCI_SIGNAL_CHIRP_LOGARITHMIC && f0 * f1 <= 0)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a logarithmic chirp needs f0 %g and f1 %g nonzero and of one sign", f0, f1);
  if (o->method == CUSCI_SIGNAL_CHIRP_HYPERBOLIC && (f0 == 0 || f1 == 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "a hyperbolic chirp needs f0 %g and f1 %g nonzero", f0, f1);
  /* t1 divides every sweep but a logarithmic or hyperbolic one at one frequency */
  const bool steady = f0 == f1 && (o->method == CUSCI_SIGNAL_CHIRP_LOGARITHMIC || o->method == CUSCI_SIGNAL_CHIRP_HYPERBOLIC);
  if (t1 == 0 && !steady)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "t1 must not be 0: the sweep reaches f1 at t1");
  wave w;
  cusci_array *x = wave_t(&w, ctx, fn, t), *ph = NULL;
  const double twopi = 2 * M_PI;
  switch (o->method) {
  case CUSCI_SIGNAL_CHIRP_LINEAR: {
    /* 2 pi (f0 t + 0.5 beta t t) */
    const double beta = (f1 - f0) / t1;
    cusci_array *q = op2(&w, CUSCI_UFUNC_MULTIPLY, A(op2(&w, CUSCI_UFUNC_MULTIPLY, F(0.5 * beta), A(x))), A(x));
    ph = op2(&w, CUSCI_UFUNC_MULTIPLY, F(twopi), A(op2(&w, CUSCI_UFUNC_ADD, A(op2(&w, CUSCI_UFUNC_MULTIPLY, F(f0), A(x))), A(q))));
    break;
  }
  case CUSCI_SIGNAL_CHIRP_QUADRATIC: {
    const double beta = (f1 - f0) / (t1 * t1);
    cusci_array *c, *lin;
    if (!o->vertex_at_t1) { /* 2 pi (f0 t + beta t^3 / 3) */
      c = op2(&w, CUSCI_UFUNC_POWER, A(x), F(3));
      lin = op2(&w, CUSCI_UFUNC_MULTIPLY, F(f0), A(x));
    } else { /* 2 pi (f1 t + beta ((t1 - t)^3 - t1^3) / 3) */
      c = op2(&w, CUSCI_UFUNC_SUBTRACT, A(op2(&w, CUSCI_UFUNC_POWER, A(op2(&w, CUSCI_UFUNC_SUBTRACT, F(t1), A(x))), F(3))), F(pow(t1, 3)));
      lin = op2(&w, CUSCI_UFUNC_MULTIPLY, F(f1), A(x));
    }
    cusci_array *q = op2(&w, CUSCI_UFUNC_DIVIDE, A(op2(&w, CUSCI_UFUNC_MULTIPLY, F(beta), A(c))), F(3));
    ph = op2(&w, CUSCI_UFUNC_MULTIPLY, F(twopi), A(op2(&w, CUSCI_UFUNC_ADD, A(lin), A(q))));
    break;
  }
  case CUSCI_SIGNAL_CHIRP_LOGARITHMIC:
    if (f0 == f1) {
      ph = op2(&w, CUSCI_UFUNC_MULTIPLY, F(twopi * f0), A(x));
    } else { /* 2 pi beta f0 ((f1 / f0)^(t / t1) - 1) */
      const double beta = t1 / log(f1 / f0);
      cusci_array *p = op2(&w, CUSCI_UFUNC_POWER, F(f1 / f0), A(op2(&w, CUSCI_UFUNC_DIVIDE, A(x), F(t1))));
      ph = op2(&w, CUSCI_UFUNC_MULTIPLY, F(twopi * beta * f0), A(op2(&w, CUSCI_UFUNC_SUBTRACT, A(p), F(1.0))));
    }
    break;
  default:
    if (f0 == f1) {
      ph = op2(&w, CUSCI_UFUNC_MULTIPLY, F(twopi * f0), A(x));
    } else { /* 2 pi (-sing f0) log|1 - t / sing| */
      const double sing = -f1 * t1 / (f0 - f1);
      cusci_array *l = op1(&w, CUSCI_UFUNC_LOG, op1(&w, CUSCI_UFUNC_ABS, op2(&w, CUSCI_UFUNC_SUBTRACT, F(1), A(op2(&w, CUSCI_UFUNC_DIVIDE, A(x), F(sing))))));
      ph = op2(&w, CUSCI_UFUNC_MULTIPLY, F(twopi * (-sing * f0)), A(l));
    }
    break;
  }
  ph = op2(&w, CUSCI_UFUNC_ADD, A(ph), F(o->phi * (M_PI / 180)));
  cusci_array *r;
  if (o->complex_out) /* exp(1j phase) */
    r = op1(&w, CUSCI_UFUNC_EXP, op2(&w, CUSCI_UFUNC_MULTIPLY, cusci_operand_complex(0, 1), A(ph)));
  else
    r = op1(&w, CUSCI_UFUNC_COS, ph);
  return wave_end(&w, fn, r, y);
}

cusci_status cusci_signal_sweep_poly(cusci_ctx *ctx, const cusci_array *t, int ncoef, const double *poly, double phi, cusci_array **y)
{
  static const char fn[] = "cusci_signal_sweep_poly";
  CUSCI_ENTRY(ctx, fn, t, y);
  if (ncoef < 1 || !poly)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "poly needs at least one coefficient (%d given)", ncoef);
  if (ncoef > WAVE_MAX - 6)
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "poly of %d coefficients: at most %d here", ncoef, WAVE_MAX - 6);
  for (int i = 0; i < ncoef; i++)
    if (!isfinite(poly[i]))
      return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "poly[%d] = %g is not finite", i, poly[i]);
  wave w;
  cusci_array *x = wave_t(&w, ctx, fn, t);
  /* numpy.polyval of polyint(poly) (poly[i] / (ncoef - i), then 0): Horner
   * from zeros, y = y x + p, as NumPy's loop */
  cusci_array *v = op2(&w, CUSCI_UFUNC_MULTIPLY, A(x), F(0));
  for (int i = 0; i <= ncoef; i++) {
    const double c = i < ncoef ? poly[i] / (double)(ncoef - i) : 0;
    v = op2(&w, CUSCI_UFUNC_ADD, A(op2(&w, CUSCI_UFUNC_MULTIPLY, A(v), A(x))), F(c));
  }
  cusci_array *ph = op2(&w, CUSCI_UFUNC_MULTIPLY, F(2 * M_PI), A(v));
  cusci_array *r = op1(&w, CUSCI_UFUNC_COS, op2(&w, CUSCI_UFUNC_ADD, A(ph), F(phi * (M_PI / 180))));
  return wave_end(&w, fn, r, y);
}

cusci_status cusci_signal_gausspulse_cutoff(cusci_ctx *ctx, double fc, double bw, double bwr, double tpr, double *cutoff)
{
  static const char fn[] = "cusci_signal_gausspulse_cutoff";
  CUSCI_ENTRY(ctx, fn, cutoff);
  if (!(fc >= 0) || !isfinite(fc))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "center frequency fc %g must be >= 0 and finite", fc);
  if (!(bw > 0) || !isfinite(bw))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "fractional bandwidth bw %g must be > 0", bw);
  if (!(bwr < 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "reference level for bandwidth bwr %g must be < 0 dB", bwr);
  if (!(tpr < 0))
    return cusci_ctx_fail(ctx, CUSCI_ERR_VALUE, fn, "reference level for time cutoff tpr %g must be < 0 dB", tpr);
  const double ref = pow(10.0, bwr / 20.0), a = -(M_PI * fc * bw) * (M_PI * fc * bw) / (4.0 * log(ref));
  *cutoff = sqrt(-log(pow(10.0, tpr / 20.0)) / a);
  return CUSCI_OK;
}

cusci_status cusci_signal_gausspulse(cusci_ctx *ctx, const cusci_array *t, double fc, double bw, double bwr, cusci_array **yi, cusci_array **yq,
                                     cusci_array **yenv)
{
  static const char fn[] = "cusci_signal_gausspulse";
  CUSCI_ENTRY(ctx, fn, t, yi);
  double cut;
  CUSCI_TRY(cusci_signal_gausspulse_cutoff(ctx, fc, bw, bwr, -60, &cut));
  const double ref = pow(10.0, bwr / 20.0), a = -pow(M_PI * fc * bw, 2) / (4.0 * log(ref));
  wave w;
  cusci_array *x = wave_t(&w, ctx, fn, t);
  /* yenv = exp(-a t t), yI = yenv cos(2 pi fc t), yQ = yenv sin(2 pi fc t) */
  cusci_array *env = op1(&w, CUSCI_UFUNC_EXP, op2(&w, CUSCI_UFUNC_MULTIPLY, A(op2(&w, CUSCI_UFUNC_MULTIPLY, F(-a), A(x))), A(x)));
  cusci_array *arg = op2(&w, CUSCI_UFUNC_MULTIPLY, F(2 * M_PI * fc), A(x));
  cusci_array *i = op2(&w, CUSCI_UFUNC_MULTIPLY, A(env), A(op1(&w, CUSCI_UFUNC_COS, arg)));
  cusci_array *q = yq ? op2(&w, CUSCI_UFUNC_MULTIPLY, A(env), A(op1(&w, CUSCI_UFUNC_SIN, arg))) : NULL;
  /* three results: keep q and env out of the release */
  cusci_status st = w.st;
  for (int k = 0; k < w.n; k++)
    if (st != CUSCI_OK || (w.tmp[k] != i && w.tmp[k] != q && !(yenv && w.tmp[k] == env)))
      cusci_array_release(w.tmp[k]);
  if (st != CUSCI_OK)
    return st;
  st = cusci_give_out(ctx, fn, i, yi);
  if (yq)
    st = st == CUSCI_OK ? cusci_give_out(ctx, fn, q, yq) : (cusci_array_release(q), st);
  if (yenv)
    st = st == CUSCI_OK ? cusci_give_out(ctx, fn, env, yenv) : (cusci_array_release(env), st);
  return st;
}

/* sawtooth (square 0) or square (1) of width or duty w in [0, 1] (else NaN). */
static cusci_status periodic(cusci_ctx *ctx, const char *fn, const cusci_array *t, double wd, int sq, cusci_array **y)
{
  wave w;
  cusci_array *x = wave_t(&w, ctx, fn, t);
  cusci_array *r;
  if (!(wd >= 0 && wd <= 1)) {
    r = op2(&w, CUSCI_UFUNC_ADD, A(op2(&w, CUSCI_UFUNC_MULTIPLY, A(x), F(0))), F(NAN));
    return wave_end(&w, fn, r, y);
  }
  cusci_array *tmod = op2(&w, CUSCI_UFUNC_MOD, A(x), F(2 * M_PI));
  cusci_array *first = op2(&w, CUSCI_UFUNC_LESS, A(tmod), F(wd * 2 * M_PI));
  if (sq) {
    r = NULL;
    if (w.st == CUSCI_OK)
      w.st = cusci_where(ctx, first, F(1), F(-1), &r);
    r = keep(&w, r);
    /* float64 as SciPy's (where of two weak scalars gives float64 too) */
  } else {
    const double sw = wd == 0 ? 1 : wd, s1 = wd == 1 ? 1 : 1 - wd;
    cusci_array *up = op2(&w, CUSCI_UFUNC_DIVIDE, A(op2(&w, CUSCI_UFUNC_SUBTRACT, A(tmod), F(M_PI * sw))), F(M_PI * sw));
    cusci_array *down = op2(&w, CUSCI_UFUNC_DIVIDE, A(op2(&w, CUSCI_UFUNC_SUBTRACT, F(M_PI * (wd + 1)), A(tmod))), F(M_PI * s1));
    r = NULL;
    if (w.st == CUSCI_OK)
      w.st = cusci_where(ctx, first, A(up), A(down), &r);
    r = keep(&w, r);
  }
  return wave_end(&w, fn, r, y);
}

cusci_status cusci_signal_sawtooth(cusci_ctx *ctx, const cusci_array *t, double width, cusci_array **y)
{
  static const char fn[] = "cusci_signal_sawtooth";
  CUSCI_ENTRY(ctx, fn, t, y);
  return periodic(ctx, fn, t, width, 0, y);
}

cusci_status cusci_signal_square(cusci_ctx *ctx, const cusci_array *t, double duty, cusci_array **y)
{
  static const char fn[] = "cusci_signal_square";
  CUSCI_ENTRY(ctx, fn, t, y);
  return periodic(ctx, fn, t, duty, 1, y);
}
