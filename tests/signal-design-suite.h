/*
 * tests/signal-design-suite.h: SciPy's fixtures of the filter design and
 * windows (tests/fixtures/fixtures_signal_design.py) on a context, shared
 * by tests/signal-design.c (the host) and tests/signal-design-gpu.c (the
 * GPU, whose results must equal the host's bit for bit: the design runs
 * on the host either way).
 */
#ifndef CUSCI_TESTS_SIGNAL_DESIGN_SUITE_H
#define CUSCI_TESTS_SIGNAL_DESIGN_SUITE_H

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cusci/core.h>
#include <cusci/signal.h>

#include "tests/tap.h"
#include "tests/testkit.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Relative error of got against want (both any float/complex dtype):
 * max |got - want| / max |want| (absolute when want is all zeros); INFINITY
 * when the shapes differ or a copy fails. */
static double sd_err(cusci_ctx *cg, const cusci_array *got, cusci_ctx *cw, const cusci_array *want)
{
  if (!got || !want || cusci_array_size(got) != cusci_array_size(want))
    return INFINITY;
  const int64_t n = cusci_array_size(got);
  cusci_array *g = NULL, *w = NULL;
  double e = INFINITY;
  if (cusci_array_astype(cg, (cusci_array *)got, CUSCI_COMPLEX128, true, &g) == CUSCI_OK &&
      cusci_array_astype(cw, (cusci_array *)want, CUSCI_COMPLEX128, true, &w) == CUSCI_OK) {
    double complex *hg = tk_to_host(cg, g), *hw = tk_to_host(cw, w);
    if (hg && hw) {
      double d = 0, m = 0;
      for (int64_t i = 0; i < n; i++) {
        d = fmax(d, cabs(hg[i] - hw[i]));
        m = fmax(m, cabs(hw[i]));
      }
      e = m > 0 ? d / m : d;
      if (isnan(e))
        e = INFINITY;
    }
    free(hg), free(hw);
  }
  cusci_array_release(g), cusci_array_release(w);
  return e;
}

static bool sd_same_shape(const cusci_array *a, const cusci_array *b)
{
  if (!a || !b || cusci_array_ndim(a) != cusci_array_ndim(b))
    return false;
  for (int i = 0; i < cusci_array_ndim(a); i++)
    if (cusci_array_shape(a)[i] != cusci_array_shape(b)[i])
      return false;
  return true;
}

static cusci_array *sd_load(cusci_ctx *ctx, const char *name, const char *part)
{
  char n[192];
  snprintf(n, sizeof n, "%s_%s", name, part);
  return tk_fixture(ctx, "signal_design", n, false);
}

/* Parse "%lf %lf ..." into v (at most max); the count. */
static int sd_numbers(const char *s, double *v, int max)
{
  int n = 0;
  char *end;
  while (n < max) {
    const double x = strtod(s, &end);
    if (end == s)
      break;
    v[n++] = x, s = end;
  }
  return n;
}

/* The gain k of a fixture (NAN when it is missing). */
static void sd_gain(cusci_ctx *ctx, const char *name, double *k)
{
  cusci_array *a = sd_load(ctx, name, "k");
  double *h = a ? tk_to_host(ctx, a) : NULL;
  *k = h ? h[0] : NAN;
  free(h), cusci_array_release(a);
}

/* One design in its family's three outputs (got[0] sos, [1] b, [2] a,
 * [3] z, [4] p, *k) and iirfilter's sos (got[5]); CUSCI_ERR_INTERNAL
 * where iirfilter's ba or zpk differ from the family's. */
static cusci_status sd_design(cusci_ctx *ctx, cusci_signal_iir_type ft, int N, int nwn, const double *W, double rp, double rs, cusci_signal_btype bt,
                              const cusci_signal_iir_opts *o, cusci_array **got, double *k)
{
  cusci_status st;
  switch (ft) {
  case CUSCI_SIGNAL_BUTTER:
    st = cusci_signal_butter_sos(ctx, N, nwn, W, bt, o, &got[0]);
    if (st == CUSCI_OK)
      st = cusci_signal_butter_ba(ctx, N, nwn, W, bt, o, &got[1], &got[2]);
    if (st == CUSCI_OK)
      st = cusci_signal_butter_zpk(ctx, N, nwn, W, bt, o, &got[3], &got[4], k);
    break;
  case CUSCI_SIGNAL_CHEBY1:
    st = cusci_signal_cheby1_sos(ctx, N, rp, nwn, W, bt, o, &got[0]);
    if (st == CUSCI_OK)
      st = cusci_signal_cheby1_ba(ctx, N, rp, nwn, W, bt, o, &got[1], &got[2]);
    if (st == CUSCI_OK)
      st = cusci_signal_cheby1_zpk(ctx, N, rp, nwn, W, bt, o, &got[3], &got[4], k);
    break;
  case CUSCI_SIGNAL_CHEBY2:
    st = cusci_signal_cheby2_sos(ctx, N, rs, nwn, W, bt, o, &got[0]);
    if (st == CUSCI_OK)
      st = cusci_signal_cheby2_ba(ctx, N, rs, nwn, W, bt, o, &got[1], &got[2]);
    if (st == CUSCI_OK)
      st = cusci_signal_cheby2_zpk(ctx, N, rs, nwn, W, bt, o, &got[3], &got[4], k);
    break;
  case CUSCI_SIGNAL_ELLIP:
    st = cusci_signal_ellip_sos(ctx, N, rp, rs, nwn, W, bt, o, &got[0]);
    if (st == CUSCI_OK)
      st = cusci_signal_ellip_ba(ctx, N, rp, rs, nwn, W, bt, o, &got[1], &got[2]);
    if (st == CUSCI_OK)
      st = cusci_signal_ellip_zpk(ctx, N, rp, rs, nwn, W, bt, o, &got[3], &got[4], k);
    break;
  default: {
    const cusci_signal_bessel_norm norm = (cusci_signal_bessel_norm)(ft - CUSCI_SIGNAL_BESSEL_PHASE);
    st = cusci_signal_bessel_sos(ctx, N, nwn, W, bt, norm, o, &got[0]);
    if (st == CUSCI_OK)
      st = cusci_signal_bessel_ba(ctx, N, nwn, W, bt, norm, o, &got[1], &got[2]);
    if (st == CUSCI_OK)
      st = cusci_signal_bessel_zpk(ctx, N, nwn, W, bt, norm, o, &got[3], &got[4], k);
  }
  }
  if (st == CUSCI_OK)
    st = cusci_signal_iirfilter_sos(ctx, N, nwn, W, rp, rs, bt, ft, o, &got[5]);
  /* iirfilter's other two forms: the family's bit for bit. */
  cusci_array *fb = NULL, *fa = NULL, *fz = NULL, *fp = NULL;
  double fk = 0;
  if (st == CUSCI_OK)
    st = cusci_signal_iirfilter_ba(ctx, N, nwn, W, rp, rs, bt, ft, o, &fb, &fa);
  if (st == CUSCI_OK)
    st = cusci_signal_iirfilter_zpk(ctx, N, nwn, W, rp, rs, bt, ft, o, &fz, &fp, &fk);
  if (st == CUSCI_OK && !(fk == *k && sd_err(ctx, fb, ctx, got[1]) == 0 && sd_err(ctx, fa, ctx, got[2]) == 0 && sd_err(ctx, fz, ctx, got[3]) == 0 &&
                          sd_err(ctx, fp, ctx, got[4]) == 0))
    st = CUSCI_ERR_INTERNAL;
  cusci_array_release(fb), cusci_array_release(fa), cusci_array_release(fz), cusci_array_release(fp);
  return st;
}

/* got reordered (a new array of its dtype) to match want's order, each of
 * want's values taking the nearest of got's not yet taken: roots compare
 * as sets, NumPy promising no order of eigenvalues. got itself (retained
 * by the caller's reference) when the sizes differ. */
static cusci_array *sd_match(cusci_ctx *ctx, cusci_array *got, const cusci_array *want)
{
  const int64_t n = cusci_array_size(got);
  if (!got || !want || n != cusci_array_size(want) || n == 0)
    return got;
  cusci_array *g = NULL, *w = NULL, *r = NULL;
  if (cusci_array_astype(ctx, got, CUSCI_COMPLEX128, true, &g) == CUSCI_OK &&
      cusci_array_astype(ctx, (cusci_array *)want, CUSCI_COMPLEX128, true, &w) == CUSCI_OK) {
    double complex *hg = tk_to_host(ctx, g), *hw = tk_to_host(ctx, w), *o = malloc(sizeof *o * (size_t)n);
    bool *used = calloc((size_t)n, 1);
    if (hg && hw && o && used) {
      for (int64_t i = 0; i < n; i++) {
        int64_t best = -1;
        for (int64_t j = 0; j < n; j++)
          if (!used[j] && (best < 0 || cabs(hg[j] - hw[i]) < cabs(hg[best] - hw[i])))
            best = j;
        used[best] = true;
        o[i] = hg[best];
      }
      cusci_array *c = NULL;
      if (cusci_array_from_host(ctx, o, 1, (const int64_t[]){n}, CUSCI_COMPLEX128, &c) == CUSCI_OK &&
          cusci_array_astype(ctx, c, cusci_array_dtype(got), true, &r) != CUSCI_OK)
        r = NULL;
      cusci_array_release(c);
    }
    free(hg), free(hw), free(o), free(used);
  }
  cusci_array_release(g), cusci_array_release(w);
  if (!r)
    return got;
  cusci_array_release(got);
  return r;
}

/* The responses' cases (freqz, sosfreqz, freqz_zpk, freqs, freqs_zpk,
 * group_delay): got[0] w, got[1] h or gd; CUSCI_ERR_NOT_SUPPORTED for
 * another func. */
static cusci_status sd_response(cusci_ctx *ctx, const char *func, const char *name, const char *rest, cusci_array **got, cusci_array **want,
                                double *kgot, double *kwant)
{
  long long worN = 0, nw = 0;
  int whole = 0, nyq = 0;
  double fs = 0;
  const bool analog = !strncmp(func, "freqs", 5), zpk = strstr(func, "zpk") != NULL, sos = !strcmp(func, "sosfreqz");
  if (strcmp(func, "freqz") && strcmp(func, "group_delay") && !analog && !zpk && !sos)
    return CUSCI_ERR_NOT_SUPPORTED;
  const int got_n = analog ? sscanf(rest, "%lld %lld", &worN, &nw)
                    : !strcmp(func, "freqz") ? sscanf(rest, "%lld %d %lf %d %lld", &worN, &whole, &fs, &nyq, &nw)
                                             : sscanf(rest, "%lld %d %lf %lld", &worN, &whole, &fs, &nw);
  if (got_n != (analog ? 2 : !strcmp(func, "freqz") ? 5 : 4))
    return CUSCI_ERR_VALUE;
  cusci_array *x = sd_load(ctx, name, sos ? "sos" : zpk ? "z" : "b"), *y = sos ? NULL : sd_load(ctx, name, zpk ? "p" : "a");
  cusci_array *win = nw ? sd_load(ctx, name, "win") : NULL;
  double *hw = win ? tk_to_host(ctx, win) : NULL, k = 1;
  if (zpk) {
    sd_gain(ctx, name, &k);
    *kgot = *kwant = k;
  }
  const cusci_signal_freqz_opts o = {.worN = worN, .w = hw, .nw = nw, .whole = whole != 0, .fs = fs, .include_nyquist = nyq != 0};
  want[0] = sd_load(ctx, name, "w"), want[1] = sd_load(ctx, name, "h");
  cusci_status st;
  if (sos)
    st = cusci_signal_sosfreqz(ctx, x, &o, &got[0], &got[1]);
  else if (!strcmp(func, "freqz"))
    st = cusci_signal_freqz(ctx, x, y, &o, &got[0], &got[1]);
  else if (!strcmp(func, "group_delay"))
    st = cusci_signal_group_delay(ctx, x, y, &o, &got[0], &got[1]);
  else if (analog)
    st = zpk ? cusci_signal_freqs_zpk(ctx, x, y, k, &o, &got[0], &got[1]) : cusci_signal_freqs(ctx, x, y, &o, &got[0], &got[1]);
  else
    st = cusci_signal_freqz_zpk(ctx, x, y, k, &o, &got[0], &got[1]);
  free(hw);
  cusci_array_release(x), cusci_array_release(y), cusci_array_release(win);
  return st;
}

/* The conversions' cases (tf2zpk, tf2sos, sos2tf, sos2zpk, tf2ss, zpk2ss,
 * ss2tf, ss2zpk); CUSCI_ERR_NOT_SUPPORTED for another func. */
static cusci_status sd_convert(cusci_ctx *ctx, const char *func, const char *name, const char *rest, cusci_array **got, cusci_array **want,
                               double *kgot, double *kwant)
{
  static const char *const abcd[] = {"A", "B", "C", "D"};
  cusci_array *in[4] = {NULL, NULL, NULL, NULL};
  cusci_status st = CUSCI_ERR_NOT_SUPPORTED;
  bool roots = false;
  long long input = 0;
  if (!strcmp(func, "tf2zpk") || !strcmp(func, "tf2sos") || !strcmp(func, "tf2ss")) {
    in[0] = sd_load(ctx, name, "b"), in[1] = sd_load(ctx, name, "a");
    if (func[3] == 'z') {
      want[0] = sd_load(ctx, name, "z"), want[1] = sd_load(ctx, name, "p");
      sd_gain(ctx, name, kwant);
      st = cusci_signal_tf2zpk(ctx, in[0], in[1], &got[0], &got[1], kgot);
      roots = true;
    } else if (func[4] == 'o') {
      int pairing, analog;
      want[0] = sd_load(ctx, name, "y");
      st = sscanf(rest, "%d %d", &pairing, &analog) != 2
             ? CUSCI_ERR_VALUE
             : cusci_signal_tf2sos(ctx, in[0], in[1], (cusci_signal_pairing)pairing, analog != 0, &got[0]);
    } else {
      for (int i = 0; i < 4; i++)
        want[i] = sd_load(ctx, name, abcd[i]);
      st = cusci_signal_tf2ss(ctx, in[0], in[1], &got[0], &got[1], &got[2], &got[3]);
    }
  } else if (!strcmp(func, "sos2tf") || !strcmp(func, "sos2zpk")) {
    in[0] = sd_load(ctx, name, "sos");
    if (func[4] == 't') {
      want[0] = sd_load(ctx, name, "b"), want[1] = sd_load(ctx, name, "a");
      st = cusci_signal_sos2tf(ctx, in[0], &got[0], &got[1]);
    } else {
      want[0] = sd_load(ctx, name, "z"), want[1] = sd_load(ctx, name, "p");
      sd_gain(ctx, name, kwant);
      st = cusci_signal_sos2zpk(ctx, in[0], &got[0], &got[1], kgot);
      roots = true;
    }
  } else if (!strcmp(func, "zpk2ss")) {
    double k;
    in[0] = sd_load(ctx, name, "z"), in[1] = sd_load(ctx, name, "p");
    sd_gain(ctx, name, &k);
    for (int i = 0; i < 4; i++)
      want[i] = sd_load(ctx, name, abcd[i]);
    st = cusci_signal_zpk2ss(ctx, in[0], in[1], k, &got[0], &got[1], &got[2], &got[3]);
  } else if (!strcmp(func, "ss2tf") || !strcmp(func, "ss2zpk")) {
    for (int i = 0; i < 4; i++)
      in[i] = sd_load(ctx, name, abcd[i]);
    if (sscanf(rest, "%lld", &input) != 1)
      st = CUSCI_ERR_VALUE;
    else if (func[3] == 't') {
      want[0] = sd_load(ctx, name, "num"), want[1] = sd_load(ctx, name, "den");
      st = cusci_signal_ss2tf(ctx, in[0], in[1], in[2], in[3], input, &got[0], &got[1]);
    } else {
      want[0] = sd_load(ctx, name, "z"), want[1] = sd_load(ctx, name, "p");
      sd_gain(ctx, name, kwant);
      st = cusci_signal_ss2zpk(ctx, in[0], in[1], in[2], in[3], input, &got[0], &got[1], kgot);
      roots = true;
    }
  }
  if (roots && st == CUSCI_OK)
    for (int i = 0; i < 2; i++)
      got[i] = sd_match(ctx, got[i], want[i]);
  for (int i = 0; i < 4; i++)
    cusci_array_release(in[i]);
  return st;
}

/* One manifest line on ctx: results[] ours, wants[] SciPy's (NULL-ended),
 * *kgot / *kwant the zpk gains where the case has them. */
enum { SD_MAX = 16 };
/* firwin2, firls, remez and minimum_phase cases (CUSCI_ERR_NOT_SUPPORTED
 * for another func). */
static cusci_status sd_fir(cusci_ctx *ctx, const char *func, const char *name, const char *rest, cusci_array **got, cusci_array **want)
{
  long long nt, nf;
  int a, b, c;
  double fs;
  char win[64];
  cusci_status st = CUSCI_ERR_VALUE;
  if (!strcmp(func, "minphase")) {
    cusci_array *h = sd_load(ctx, name, "h");
    want[0] = sd_load(ctx, name, "y");
    if (h && sscanf(rest, "%d %lld %d", &a, &nf, &b) == 3) {
      const cusci_signal_minimum_phase_opts o = {.method = (cusci_signal_minimum_phase_method)a, .n_fft = nf, .whole = b != 0};
      st = cusci_signal_minimum_phase(ctx, h, &o, &got[0]);
    }
    cusci_array_release(h);
    return st;
  }
  const bool w2 = !strcmp(func, "firwin2");
  if (!w2 && strcmp(func, "firls") && strcmp(func, "remez"))
    return CUSCI_ERR_NOT_SUPPORTED;
  cusci_array *x = sd_load(ctx, name, w2 ? "f" : "bands"), *y = sd_load(ctx, name, w2 ? "g" : "des"), *w = NULL;
  double *hx = x ? tk_to_host(ctx, x) : NULL, *hy = y ? tk_to_host(ctx, y) : NULL, *hw = NULL;
  want[0] = sd_load(ctx, name, "y");
  const int64_t n = x ? cusci_array_size(x) : 0;
  if (!hx || !hy) {
  } else if (w2 && sscanf(rest, "%lld %lld %d %lf %63s", &nt, &nf, &a, &fs, win) == 5) {
    const cusci_signal_firwin2_opts o = {.nfreqs = nf, .window = strcmp(win, "-") ? win : NULL, .antisymmetric = a != 0, .fs = fs};
    st = cusci_signal_firwin2(ctx, nt, n, hx, hy, &o, &got[0]);
  } else if (!strcmp(func, "firls") && sscanf(rest, "%lld %lf %d", &nt, &fs, &a) == 3) {
    if (a && (w = sd_load(ctx, name, "w")))
      hw = tk_to_host(ctx, w);
    if (!a || hw)
      st = cusci_signal_firls(ctx, nt, n / 2, hx, hy, hw, fs, &got[0]);
  } else if (!strcmp(func, "remez") && sscanf(rest, "%lld %d %lf %d %d", &nt, &a, &fs, &b, &c) == 5) {
    if (c && (w = sd_load(ctx, name, "w")))
      hw = tk_to_host(ctx, w);
    const cusci_signal_remez_opts o = {.weight = hw, .type = (cusci_signal_remez_type)a, .fs = fs, .grid_density = b};
    if (!c || hw)
      st = cusci_signal_remez(ctx, nt, n / 2, hx, hy, &o, &got[0]);
  }
  free(hx), free(hy), free(hw);
  cusci_array_release(x), cusci_array_release(y), cusci_array_release(w);
  return st;
}

/* cola, impulse, mls, argrel and czt_points cases (CUSCI_ERR_NOT_SUPPORTED for
 * another func). */
static cusci_status sd_sequence(cusci_ctx *ctx, const char *func, const char *name, const char *rest, cusci_array **got, cusci_array **want)
{
  int a, b, n2;
  long long nper, nov;
  char win[64], dt[32];
  want[0] = NULL;
  if (!strcmp(func, "cola")) {
    double tol;
    if (sscanf(rest, "%d %63s %lld %lld %lf", &a, win, &nper, &nov, &tol) != 5)
      return CUSCI_ERR_VALUE;
    cusci_array *w = strcmp(win, "-") ? NULL : sd_load(ctx, name, "win");
    bool r = false;
    cusci_status st = (a ? cusci_signal_check_NOLA : cusci_signal_check_COLA)(ctx, w ? NULL : win, w, nper, nov, tol, &r);
    cusci_array_release(w);
    want[0] = sd_load(ctx, name, "y");
    const double v = r;
    return st == CUSCI_OK ? cusci_array_full(ctx, 1, (int64_t[]){1}, CUSCI_FLOAT64, &v, &got[0]) : st;
  }
  if (!strcmp(func, "impulse")) {
    int64_t shape[8], idx[8];
    if (sscanf(rest, "%31s %d %d %n", dt, &a, &b, &n2) != 3 || b < 1 || b > 4)
      return CUSCI_ERR_VALUE;
    double v[16];
    const int nv = sd_numbers(rest + n2, v, 16);
    for (int i = 0; i < nv && i < 2 * b; i++)
      (i < b ? shape : idx)[i % b] = (int64_t)v[i];
    static const struct { const char *name; cusci_dtype dt; } dts[] = {
      {"float64", CUSCI_FLOAT64}, {"float32", CUSCI_FLOAT32}, {"complex128", CUSCI_COMPLEX128}, {"int64", CUSCI_INT64}};
    cusci_dtype d = CUSCI_FLOAT64;
    for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++)
      if (!strcmp(dt, dts[i].name))
        d = dts[i].dt;
    want[0] = sd_load(ctx, name, "y");
    return cusci_signal_unit_impulse(ctx, b, shape, nv > b ? idx : NULL, a != 0, d, &got[0]);
  }
  if (!strcmp(func, "mls")) {
    long long len;
    int st_given, nt;
    if (sscanf(rest, "%d %lld %d %d %n", &a, &len, &st_given, &nt, &n2) != 4 || a < 1 || a > 62 || nt > 8)
      return CUSCI_ERR_VALUE;
    double tv[8];
    int taps[8];
    sd_numbers(rest + n2, tv, 8);
    for (int i = 0; i < nt; i++)
      taps[i] = (int)tv[i];
    int8_t state[64], out[64];
    cusci_array *sa = st_given ? sd_load(ctx, name, "st") : NULL;
    if (sa && cusci_array_to_host(ctx, sa, state, (size_t)a) != CUSCI_OK)
      cusci_array_release(sa), sa = NULL;
    cusci_array_release(sa);
    want[0] = sd_load(ctx, name, "y"), want[1] = sd_load(ctx, name, "s");
    cusci_status st = cusci_signal_max_len_seq(ctx, a, st_given ? state : NULL, len, nt, nt ? taps : NULL, &got[0], out);
    const int64_t nb = a;
    return st == CUSCI_OK ? cusci_array_from_host(ctx, out, 1, &nb, CUSCI_INT8, &got[1]) : st;
  }
  if (!strcmp(func, "argrel")) {
    int axis, order, mode;
    if (sscanf(rest, "%d %d %d %d", &a, &axis, &order, &mode) != 4)
      return CUSCI_ERR_VALUE;
    cusci_array *x = sd_load(ctx, name, "x");
    const int nd = x ? cusci_array_ndim(x) : 0;
    for (int d = 0; d < nd && d < SD_MAX; d++) {
      char part[8];
      snprintf(part, sizeof part, "i%d", d);
      want[d] = sd_load(ctx, name, part);
    }
    cusci_status st = x && nd <= SD_MAX ? cusci_signal_argrelextrema(ctx, x, (cusci_signal_comparator)a, axis, order, (cusci_signal_take_mode)mode, got)
                                        : CUSCI_ERR_VALUE;
    cusci_array_release(x);
    return st;
  }
  if (!strcmp(func, "czt_points")) {
    long long m;
    char ws[96], as[96];
    if (sscanf(rest, "%lld %95s %95s", &m, ws, as) != 3)
      return CUSCI_ERR_VALUE;
    double w[2] = {0, 0}, av[2] = {1, 0};
    const bool hw = strcmp(ws, "-") && sscanf(ws, "%lf,%lf", &w[0], &w[1]) == 2;
    const bool ha = strcmp(as, "-") && sscanf(as, "%lf,%lf", &av[0], &av[1]) == 2;
    want[0] = sd_load(ctx, name, "y");
    return cusci_signal_czt_points(ctx, m, hw ? w : NULL, ha ? av : NULL, &got[0]);
  }
  return CUSCI_ERR_NOT_SUPPORTED;
}

static cusci_status sd_run(cusci_ctx *ctx, const char *line, char *name, cusci_array **got, cusci_array **want, double *kgot, double *kwant)
{
  char func[32];
  int off = 0;
  for (int i = 0; i < SD_MAX; i++)
    got[i] = want[i] = NULL;
  *kgot = *kwant = 0;
  if (sscanf(line, "%31s %127s %n", func, name, &off) != 2)
    return CUSCI_ERR_VALUE;
  const char *rest = line + off;
  if (!strcmp(func, "window")) {
    char spec[128];
    long long nx;
    int fftbins;
    if (sscanf(rest, "%127s %lld %d", spec, &nx, &fftbins) != 3)
      return CUSCI_ERR_VALUE;
    want[0] = sd_load(ctx, name, "y");
    return cusci_signal_get_window(ctx, spec, nx, fftbins, &got[0]);
  }
  if (!strcmp(func, "butter") || !strcmp(func, "iir")) {
    int ft = 0, N, bt, analog, n2;
    double fs, rp = 0, rs = 0, W[2];
    const bool iir = func[0] == 'i';
    if (iir ? sscanf(rest, "%d %d %d %d %lf %lf %lf %n", &ft, &N, &bt, &analog, &fs, &rp, &rs, &n2) != 7
            : sscanf(rest, "%d %d %d %lf %n", &N, &bt, &analog, &fs, &n2) != 4)
      return CUSCI_ERR_VALUE;
    const int nwn = sd_numbers(rest + n2, W, 2);
    const cusci_signal_iir_opts o = {.analog = analog != 0, .fs = fs};
    static const char *const parts[] = {"sos", "b", "a", "z", "p", "sos"};
    for (int i = 0; i < 6; i++)
      want[i] = sd_load(ctx, name, parts[i]);
    sd_gain(ctx, name, kwant);
    return sd_design(ctx, (cusci_signal_iir_type)ft, N, nwn, W, rp, rs, (cusci_signal_btype)bt, &o, got, kgot);
  }
  if (!strcmp(func, "ord")) {
    int ft, analog, nwn, n2;
    double fs, gpass, gstop, e[4];
    if (sscanf(rest, "%d %d %lf %lf %lf %d %n", &ft, &analog, &fs, &gpass, &gstop, &nwn, &n2) != 6 || nwn < 1 || nwn > 2 ||
        sd_numbers(rest + n2, e, 4) != 2 * nwn)
      return CUSCI_ERR_VALUE;
    const double *wp = e, *ws = e + nwn;
    const cusci_signal_iir_opts o = {.analog = analog != 0, .fs = fs};
    static const char *const parts[] = {"sos", "b", "a", "z", "p", "sos", "n", "wn"};
    for (int i = 0; i < 8; i++)
      want[i] = sd_load(ctx, name, parts[i]);
    sd_gain(ctx, name, kwant);
    int N = 0;
    double Wn[2];
    cusci_status st;
    switch (ft) {
    case CUSCI_SIGNAL_BUTTER: st = cusci_signal_buttord(ctx, nwn, wp, ws, gpass, gstop, &o, &N, Wn); break;
    case CUSCI_SIGNAL_CHEBY1: st = cusci_signal_cheb1ord(ctx, nwn, wp, ws, gpass, gstop, &o, &N, Wn); break;
    case CUSCI_SIGNAL_CHEBY2: st = cusci_signal_cheb2ord(ctx, nwn, wp, ws, gpass, gstop, &o, &N, Wn); break;
    default: st = cusci_signal_ellipord(ctx, nwn, wp, ws, gpass, gstop, &o, &N, Wn); break;
    }
    const double dn = N;
    if (st == CUSCI_OK)
      st = cusci_array_from_host(ctx, &dn, 1, (const int64_t[]){1}, CUSCI_FLOAT64, &got[6]);
    if (st == CUSCI_OK)
      st = cusci_array_from_host(ctx, Wn, 1, (const int64_t[]){nwn}, CUSCI_FLOAT64, &got[7]);
    const cusci_signal_iir_type f = (cusci_signal_iir_type)ft;
    if (st == CUSCI_OK)
      st = cusci_signal_iirdesign_sos(ctx, nwn, wp, ws, gpass, gstop, f, &o, &got[0]);
    if (st == CUSCI_OK)
      st = cusci_signal_iirdesign_ba(ctx, nwn, wp, ws, gpass, gstop, f, &o, &got[1], &got[2]);
    if (st == CUSCI_OK)
      st = cusci_signal_iirdesign_zpk(ctx, nwn, wp, ws, gpass, gstop, f, &o, &got[3], &got[4], kgot);
    const cusci_signal_btype bt = nwn == 1 ? (wp[0] < ws[0] ? CUSCI_SIGNAL_LOWPASS : CUSCI_SIGNAL_HIGHPASS)
                                           : (ws[0] < wp[0] ? CUSCI_SIGNAL_BANDPASS : CUSCI_SIGNAL_BANDSTOP);
    if (st == CUSCI_OK)
      st = cusci_signal_iirfilter_sos(ctx, N, nwn, Wn, gpass, gstop, bt, f, &o, &got[5]);
    return st;
  }
  if (!strcmp(func, "proto")) {
    int ft, N;
    double rp, rs;
    if (sscanf(rest, "%d %d %lf %lf", &ft, &N, &rp, &rs) != 4)
      return CUSCI_ERR_VALUE;
    want[0] = sd_load(ctx, name, "z");
    want[1] = sd_load(ctx, name, "p");
    sd_gain(ctx, name, kwant);
    switch (ft) {
    case CUSCI_SIGNAL_CHEBY1: return cusci_signal_cheb1ap(ctx, N, rp, &got[0], &got[1], kgot);
    case CUSCI_SIGNAL_CHEBY2: return cusci_signal_cheb2ap(ctx, N, rs, &got[0], &got[1], kgot);
    case CUSCI_SIGNAL_ELLIP: return cusci_signal_ellipap(ctx, N, rp, rs, &got[0], &got[1], kgot);
    default: return cusci_signal_besselap(ctx, N, (cusci_signal_bessel_norm)(ft - CUSCI_SIGNAL_BESSEL_PHASE), &got[0], &got[1], kgot);
    }
  }
  if (!strcmp(func, "zpk2sos")) {
    int pairing, analog;
    if (sscanf(rest, "%d %d", &pairing, &analog) != 2)
      return CUSCI_ERR_VALUE;
    cusci_array *z = sd_load(ctx, name, "z"), *p = sd_load(ctx, name, "p"), *k = sd_load(ctx, name, "k");
    double *hk = k ? tk_to_host(ctx, k) : NULL;
    want[0] = sd_load(ctx, name, "y");
    cusci_status st = z && p && hk ? cusci_signal_zpk2sos(ctx, z, p, hk[0], (cusci_signal_pairing)pairing, analog != 0, &got[0]) : CUSCI_ERR_VALUE;
    free(hk);
    cusci_array_release(z), cusci_array_release(p), cusci_array_release(k);
    return st;
  }
  if (!strcmp(func, "firwin")) {
    long long nt;
    int pz, sc, n2;
    double width, fs, cut[8];
    char win[64];
    if (sscanf(rest, "%lld %d %d %lf %lf %63s %n", &nt, &pz, &sc, &width, &fs, win, &n2) != 6)
      return CUSCI_ERR_VALUE;
    const int nc = sd_numbers(rest + n2, cut, 8);
    const cusci_signal_firwin_opts o = {
      .width = width, .window = strcmp(win, "-") ? win : NULL, .pass_zero = (cusci_signal_pass_zero)pz, .noscale = !sc, .fs = fs};
    want[0] = sd_load(ctx, name, "y");
    return cusci_signal_firwin(ctx, nt, nc, cut, &o, &got[0]);
  }
  if (!strcmp(func, "peaks")) {
    /* 10 bounds, distance, wlen, rel_height: "-" None, "none" a bound of a condition given as (None, None) */
    char tok[13][32];
    if (sscanf(rest, "%31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s", tok[0], tok[1], tok[2], tok[3], tok[4], tok[5], tok[6],
               tok[7], tok[8], tok[9], tok[10], tok[11], tok[12]) != 13)
      return CUSCI_ERR_VALUE;
    cusci_signal_find_peaks_opts o = {0};
    cusci_signal_interval *iv[5] = {&o.height, &o.threshold, &o.prominence, &o.width, &o.plateau_size};
    for (int i = 0; i < 5; i++) {
      const char *lo = tok[2 * i], *hi = tok[2 * i + 1];
      if (!strcmp(lo, "none")) { /* present but unbounded: -inf <= v */
        iv[i]->has_min = true, iv[i]->min = -INFINITY;
        continue;
      }
      iv[i]->has_min = strcmp(lo, "-") != 0, iv[i]->min = iv[i]->has_min ? atof(lo) : 0;
      iv[i]->has_max = strcmp(hi, "-") != 0, iv[i]->max = iv[i]->has_max ? atof(hi) : 0;
    }
    o.distance = strcmp(tok[10], "-") ? atof(tok[10]) : 0;
    o.wlen = strcmp(tok[11], "-") ? atof(tok[11]) : 0;
    o.rel_height = strcmp(tok[12], "-") ? atof(tok[12]) : 0;
    cusci_signal_peak_properties pp = {NULL};
    o.properties = &pp;
    cusci_array *x = sd_load(ctx, name, "x");
    want[0] = sd_load(ctx, name, "peaks");
    static const char *const keys[13] = {"plateau_sizes", "left_edges", "right_edges", "peak_heights", "left_thresholds", "right_thresholds",
                                         "prominences", "left_bases", "right_bases", "widths", "width_heights", "left_ips", "right_ips"};
    cusci_status st = cusci_signal_find_peaks(ctx, x, &o, &got[0]);
    cusci_array *props[13] = {pp.plateau_sizes, pp.left_edges, pp.right_edges, pp.peak_heights, pp.left_thresholds, pp.right_thresholds,
                              pp.prominences, pp.left_bases, pp.right_bases, pp.widths, pp.width_heights, pp.left_ips, pp.right_ips};
    /* each property SciPy gives, in order; one given by one side alone is an error */
    int k = 1;
    for (int i = 0; i < 13; i++) {
      char fname[96];
      snprintf(fname, sizeof fname, "%s_%s", name, keys[i]);
      cusci_array *w = tk_fixture(ctx, "signal_design", fname, true);
      if (w && props[i] && k < SD_MAX) {
        want[k] = w, got[k] = props[i], k++;
        continue;
      }
      if ((w || props[i]) && st == CUSCI_OK)
        st = CUSCI_ERR_INTERNAL;
      cusci_array_release(w), cusci_array_release(props[i]);
    }
    cusci_array_release(x);
    return st;
  }
  if (!strcmp(func, "prominences") || !strcmp(func, "widths")) {
    char a1[32], a2[32] = "-";
    if (sscanf(rest, "%31s %31s", a1, a2) < 1)
      return CUSCI_ERR_VALUE;
    cusci_array *x = sd_load(ctx, name, "x"), *pk = sd_load(ctx, name, "pk");
    cusci_status st;
    if (func[0] == 'p') {
      want[0] = sd_load(ctx, name, "prom"), want[1] = sd_load(ctx, name, "lb"), want[2] = sd_load(ctx, name, "rb");
      st = cusci_signal_peak_prominences(ctx, x, pk, strcmp(a1, "-") ? atof(a1) : 0, &got[0], &got[1], &got[2]);
    } else {
      static const char *const parts[] = {"w", "wh", "lip", "rip"};
      for (int i = 0; i < 4; i++)
        want[i] = sd_load(ctx, name, parts[i]);
      st = cusci_signal_peak_widths(ctx, x, pk, atof(a1), strcmp(a2, "-") ? atof(a2) : 0, &got[0], &got[1], &got[2], &got[3]);
    }
    cusci_array_release(x), cusci_array_release(pk);
    return st;
  }
  if (!strcmp(func, "spec")) {
    /* "spec FUNC NAME ...": the name read is FUNC */
    char fname[32], win[64], nps[24], novs[24], nffts[24];
    double fs;
    int axis, det, two, sc, av;
    snprintf(fname, sizeof fname, "%s", name);
    if (sscanf(rest, "%127s %lf %23s %d %63s %23s %23s %d %d %d %d", name, &fs, nps, &axis, win, novs, nffts, &det, &two, &sc, &av) != 11)
      return CUSCI_ERR_VALUE;
    const long long nov = strcmp(novs, "-") ? atoll(novs) : -2;
    const cusci_signal_spectral_opts o = {.window = strcmp(win, "-") ? win : NULL,
                                          .noverlap = nov == -2 ? 0 : nov == 0 ? CUSCI_SIGNAL_NO_OVERLAP : nov,
                                          .nfft = strcmp(nffts, "-") ? atoll(nffts) : 0,
                                          .detrend = (cusci_signal_segment_trend)det,
                                          .return_twosided = two != 0,
                                          .scaling = (cusci_signal_scaling)sc,
                                          .average = (cusci_signal_average)av};
    const int64_t nperseg = strcmp(nps, "-") ? atoll(nps) : 0;
    cusci_array *x = sd_load(ctx, name, "x"), *y = !strcmp(fname, "csd") || !strcmp(fname, "coherence") ? sd_load(ctx, name, "y") : NULL;
    want[0] = sd_load(ctx, name, "f"), want[1] = sd_load(ctx, name, "p");
    cusci_status st;
    if (!strcmp(fname, "welch"))
      st = cusci_signal_welch(ctx, x, fs, nperseg, axis, &o, &got[0], &got[1]);
    else if (!strcmp(fname, "csd"))
      st = cusci_signal_csd(ctx, x, y, fs, nperseg, axis, &o, &got[0], &got[1]);
    else if (!strcmp(fname, "coherence"))
      st = cusci_signal_coherence(ctx, x, y, fs, nperseg, axis, &o, &got[0], &got[1]);
    else
      st = cusci_signal_periodogram(ctx, x, fs, axis, &o, &got[0], &got[1]);
    cusci_array_release(x), cusci_array_release(y);
    return st;
  }
  if (!strcmp(func, "spg") || !strcmp(func, "stft")) {
    char win[64], nps[24], novs[24], nffts[24];
    double fs;
    int axis, det, two, a, b = 0, c = 0;
    const int want_n = func[1] == 'p' ? 10 : 11;
    if (sscanf(rest, "%lf %23s %d %63s %23s %23s %d %d %d %d %d", &fs, nps, &axis, win, novs, nffts, &det, &two, &a, &b, &c) < want_n)
      return CUSCI_ERR_VALUE;
    const long long nov = strcmp(novs, "-") ? atoll(novs) : -2;
    const int64_t nperseg = strcmp(nps, "-") ? atoll(nps) : 0, nfft = strcmp(nffts, "-") ? atoll(nffts) : 0;
    const int64_t noverlap = nov == -2 ? 0 : nov == 0 ? CUSCI_SIGNAL_NO_OVERLAP : nov;
    cusci_array *x = sd_load(ctx, name, "x");
    want[0] = sd_load(ctx, name, "f"), want[1] = sd_load(ctx, name, "t"), want[2] = sd_load(ctx, name, func[1] == 'p' ? "s" : "z");
    cusci_status st;
    if (func[1] == 'p') {
      const cusci_signal_spectral_opts o = {.window = strcmp(win, "-") ? win : NULL, .noverlap = noverlap, .nfft = nfft,
                                            .detrend = (cusci_signal_segment_trend)det, .return_twosided = two != 0,
                                            .scaling = (cusci_signal_scaling)a};
      st = cusci_signal_spectrogram(ctx, x, fs, nperseg, axis, &o, (cusci_signal_spectrogram_mode)b, &got[0], &got[1], &got[2]);
    } else {
      const cusci_signal_stft_opts o = {.window = strcmp(win, "-") ? win : NULL, .noverlap = noverlap, .nfft = nfft, .detrend = det != 0,
                                        .linear_trend = det == 2, .return_twosided = two != 0, .boundary = (cusci_signal_stft_boundary)a,
                                        .unpadded = !b, .psd_scaling = c != 0};
      st = cusci_signal_stft(ctx, x, fs, nperseg, axis, &o, &got[0], &got[1], &got[2]);
    }
    cusci_array_release(x);
    return st;
  }
  if (!strcmp(func, "chirp")) {
    double f0, t1, f1, phi;
    int m, vt, cx;
    if (sscanf(rest, "%lf %lf %lf %d %lf %d %d", &f0, &t1, &f1, &m, &phi, &vt, &cx) != 7)
      return CUSCI_ERR_VALUE;
    cusci_array *t = sd_load(ctx, name, "t");
    want[0] = sd_load(ctx, name, "y");
    const cusci_signal_chirp_opts o = {.method = (cusci_signal_chirp_method)m, .phi = phi, .vertex_at_t1 = vt != 0, .complex_out = cx != 0};
    const cusci_status st = cusci_signal_chirp(ctx, t, f0, t1, f1, &o, &got[0]);
    cusci_array_release(t);
    return st;
  }
  if (!strcmp(func, "sweep") || !strcmp(func, "sawtooth") || !strcmp(func, "square")) {
    double a;
    if (sscanf(rest, "%lf", &a) != 1)
      return CUSCI_ERR_VALUE;
    cusci_array *t = sd_load(ctx, name, "t"), *p = func[1] == 'w' ? sd_load(ctx, name, "p") : NULL;
    double *hp = p ? tk_to_host(ctx, p) : NULL;
    want[0] = sd_load(ctx, name, "y");
    cusci_status st;
    if (func[1] == 'w')
      st = hp ? cusci_signal_sweep_poly(ctx, t, (int)cusci_array_size(p), hp, a, &got[0]) : CUSCI_ERR_VALUE;
    else if (func[1] == 'a')
      st = cusci_signal_sawtooth(ctx, t, a, &got[0]);
    else
      st = cusci_signal_square(ctx, t, a, &got[0]);
    free(hp);
    cusci_array_release(t), cusci_array_release(p);
    return st;
  }
  if (!strcmp(func, "gausspulse") || !strcmp(func, "gcutoff")) {
    double fc, bw, bwr, tpr = 0;
    if (sscanf(rest, "%lf %lf %lf %lf", &fc, &bw, &bwr, &tpr) < 3)
      return CUSCI_ERR_VALUE;
    if (func[1] == 'c') {
      want[0] = sd_load(ctx, name, "c");
      double c = 0;
      const cusci_status st = cusci_signal_gausspulse_cutoff(ctx, fc, bw, bwr, tpr, &c);
      const int64_t one = 1;
      if (st == CUSCI_OK)
        return cusci_array_from_host(ctx, &c, 1, &one, CUSCI_FLOAT64, &got[0]);
      return st;
    }
    cusci_array *t = sd_load(ctx, name, "t");
    want[0] = sd_load(ctx, name, "i"), want[1] = sd_load(ctx, name, "q"), want[2] = sd_load(ctx, name, "e");
    const cusci_status st = cusci_signal_gausspulse(ctx, t, fc, bw, bwr, &got[0], &got[1], &got[2]);
    cusci_array_release(t);
    return st;
  }
  if (!strcmp(func, "czt") || !strcmp(func, "zoom")) {
    cusci_array *x = sd_load(ctx, name, "x");
    want[0] = sd_load(ctx, name, "y");
    long long m;
    int axis, ep, off2 = 0;
    double fs;
    cusci_status st = CUSCI_ERR_VALUE;
    if (func[0] == 'c') {
      char p[4][40];
      if (sscanf(rest, "%lld %39s %39s %39s %39s %d", &m, p[0], p[1], p[2], p[3], &axis) == 6) {
        const double w[2] = {atof(p[0]), atof(p[1])}, a[2] = {atof(p[2]), atof(p[3])};
        st = cusci_signal_czt(ctx, x, m, strcmp(p[0], "-") ? w : NULL, strcmp(p[2], "-") ? a : NULL, axis, &got[0]);
      }
    } else if (sscanf(rest, "%lld %lf %d %d %n", &m, &fs, &ep, &axis, &off2) == 4) {
      double f[2];
      const int nf = sd_numbers(rest + off2, f, 2);
      st = cusci_signal_zoom_fft(ctx, x, nf, f, m, fs, ep != 0, axis, &got[0]);
    }
    cusci_array_release(x);
    return st;
  }
  if (!strcmp(func, "vstrength")) {
    cusci_array *e = sd_load(ctx, name, "e"), *p = sd_load(ctx, name, "p");
    want[0] = sd_load(ctx, name, "s"), want[1] = sd_load(ctx, name, "ph");
    const cusci_status st = cusci_signal_vectorstrength(ctx, e, p, &got[0], &got[1]);
    cusci_array_release(e), cusci_array_release(p);
    return st;
  }
  if (!strcmp(func, "lomb")) {
    int norm, wt, fm;
    if (sscanf(rest, "%d %d %d", &norm, &wt, &fm) != 3)
      return CUSCI_ERR_VALUE;
    cusci_array *x = sd_load(ctx, name, "x"), *y = sd_load(ctx, name, "y"), *f = sd_load(ctx, name, "f"), *w = wt ? sd_load(ctx, name, "w") : NULL;
    want[0] = sd_load(ctx, name, "p");
    const cusci_signal_lombscargle_opts o = {.normalize = (cusci_signal_lombscargle_norm)norm, .weights = w, .floating_mean = fm != 0};
    const cusci_status st = cusci_signal_lombscargle(ctx, x, y, f, &o, &got[0]);
    cusci_array_release(x), cusci_array_release(y), cusci_array_release(f), cusci_array_release(w);
    return st;
  }
  if (!strcmp(func, "istft")) {
    char win[64], nps[24], novs[24], nffts[24];
    double fs;
    int fa, ta, two, bnd, psd;
    if (sscanf(rest, "%lf %d %d %63s %23s %23s %23s %d %d %d", &fs, &fa, &ta, win, nps, novs, nffts, &two, &bnd, &psd) != 10)
      return CUSCI_ERR_VALUE;
    const cusci_signal_istft_opts o = {.window = strcmp(win, "-") ? win : NULL, .nperseg = strcmp(nps, "-") ? atoll(nps) : 0,
                                       .noverlap = strcmp(novs, "-") ? atoll(novs) : 0, .nfft = strcmp(nffts, "-") ? atoll(nffts) : 0,
                                       .input_twosided = two != 0, .no_boundary = !bnd, .psd_scaling = psd != 0};
    cusci_array *z = sd_load(ctx, name, "z");
    want[0] = sd_load(ctx, name, "t"), want[1] = sd_load(ctx, name, "x");
    const cusci_status st = cusci_signal_istft(ctx, z, fs, fa, ta, &o, &got[0], &got[1]);
    cusci_array_release(z);
    return st;
  }
  if (!strcmp(func, "notch") || !strcmp(func, "gammatone")) {
    int kind, pz = 0, iir = 0, order = 0;
    long long numtaps = 0;
    double w0, Q = 0, fs;
    want[0] = sd_load(ctx, name, "b"), want[1] = sd_load(ctx, name, "a");
    if (func[0] == 'g') {
      if (sscanf(rest, "%lf %d %d %lld %lf", &w0, &iir, &order, &numtaps, &fs) != 5)
        return CUSCI_ERR_VALUE;
      const cusci_signal_gammatone_opts o = {.order = order, .numtaps = numtaps, .fs = fs};
      return cusci_signal_gammatone(ctx, w0, iir ? CUSCI_SIGNAL_GAMMATONE_IIR : CUSCI_SIGNAL_GAMMATONE_FIR, &o, &got[0], &got[1]);
    }
    if (sscanf(rest, "%d %lf %lf %lf %d", &kind, &w0, &Q, &fs, &pz) != 5)
      return CUSCI_ERR_VALUE;
    switch (kind) {
    case 0: return cusci_signal_iirnotch(ctx, w0, Q, fs, &got[0], &got[1]);
    case 1: return cusci_signal_iirpeak(ctx, w0, Q, fs, &got[0], &got[1]);
    default:
      return cusci_signal_iircomb(ctx, w0, Q, kind == 2 ? CUSCI_SIGNAL_COMB_NOTCH : CUSCI_SIGNAL_COMB_PEAK, fs, pz != 0, &got[0], &got[1]);
    }
  }
  cusci_status st = sd_convert(ctx, func, name, rest, got, want, kgot, kwant);
  if (st == CUSCI_ERR_NOT_SUPPORTED)
    st = sd_fir(ctx, func, name, rest, got, want);
  if (st == CUSCI_ERR_NOT_SUPPORTED)
    st = sd_sequence(ctx, func, name, rest, got, want);
  if (st == CUSCI_ERR_NOT_SUPPORTED)
    st = sd_response(ctx, func, name, rest, got, want, kgot, kwant);
  return st == CUSCI_ERR_NOT_SUPPORTED ? CUSCI_ERR_VALUE : st;
}

static void sd_release(cusci_array **v)
{
  for (int i = 0; i < SD_MAX; i++)
    cusci_array_release(v[i]), v[i] = NULL;
}

/* A case's tolerance: windows 1e-12, designs 1e-10, FIR designs the
 * manifest's, a conversion's
 * where the manifest gives one (multiple roots); a bandstop's order
 * selection moves its passband edges by a bounded minimization that
 * stops within 1e-5 (scipy.optimize.fminbound's xtol), and a rounding
 * difference in the objective (NumPy's vectorized acosh against the C
 * library's) can move where it stops within that, so those cases and the
 * designs made from them are held to 1e-5. */
static double sd_tolerance(const char *line)
{
  int nwn = 0, n2 = 0;
  double e[4];
  if (!strncmp(line, "window", 6) || !strncmp(line, "czt_points", 10))
    return 1e-12;
  if (!strncmp(line, "cola", 4) || !strncmp(line, "impulse", 7) || !strncmp(line, "mls", 3) || !strncmp(line, "argrel", 6))
    return 0;
  double tol;
  if (!strncmp(line, "firwin2", 7) || !strncmp(line, "firls", 5) || !strncmp(line, "remez", 5) || !strncmp(line, "minphase", 8) ||
      !strncmp(line, "spg", 3) || !strncmp(line, "stft", 4) || !strncmp(line, "istft", 5))
    return atof(strrchr(line, ' ') + 1);
  if (sscanf(line, "tf2zpk %*s %lf", &tol) == 1 || sscanf(line, "tf2sos %*s %*d %*d %lf", &tol) == 1 ||
      sscanf(line, "spec %*s %*s %*f %*s %*d %*s %*s %*s %*d %*d %*d %*d %lf", &tol) == 1)
    return tol;
  if (sscanf(line, "ord %*s %*d %*d %*f %*f %*f %d %n", &nwn, &n2) == 1 && nwn == 2 && sd_numbers(line + n2, e, 4) == 4 && e[0] < e[2])
    return 1e-5;
  return 1e-10;
}

/* Every case on ctx against SciPy (sd_tolerance),
 * and, with twin, ctx's results equal to twin's bit for bit. */
static void sd_fixtures(cusci_ctx *ctx, cusci_ctx *twin)
{
  FILE *f = tk_manifest("signal_design", "cases.txt");
  if (!f)
    return;
  char line[512];
  while (tk_manifest_line(f, line, sizeof line)) {
    char name[128] = "";
    cusci_array *got[SD_MAX], *want[SD_MAX];
    double kg, kw;
    cusci_status st = sd_run(ctx, line, name, got, want, &kg, &kw);
    const double tol = sd_tolerance(line);
    double worst = 0;
    bool good = st == CUSCI_OK;
    for (int i = 0; i < SD_MAX && want[i]; i++) {
      const double e = sd_err(ctx, got[i], ctx, want[i]);
      worst = fmax(worst, e);
      /* SciPy's dtype: float64 but for zeros and poles. */
      good &= e <= tol && sd_same_shape(got[i], want[i]) && cusci_array_dtype(got[i]) == cusci_array_dtype(want[i]);
    }
    if (!strncmp(line, "butter", 6) || !strncmp(line, "iir", 3) || !strncmp(line, "proto", 5) || !strncmp(line, "ord", 3) ||
        strstr(line, "2zpk "))
      good &= fabs(kg - kw) <= tol * fabs(kw);
    char twin_note[96] = "";
    if (twin && st == CUSCI_OK) {
      cusci_array *tg[SD_MAX], *tw[SD_MAX];
      char tn[128];
      double tk, tkw;
      const cusci_status ts = sd_run(twin, line, tn, tg, tw, &tk, &tkw);
      bool same = ts == CUSCI_OK && tk == kg;
      /* the analysis runs where the data is: the FFTs differ by rounding */
      /* (and the waveforms of t, by the device's elementary functions) */
      static const char *const where_data[] = {"spec ", "spg ", "stft ", "istft ", "chirp ", "sweep ", "gausspulse ", "sawtooth ", "square ", "czt ", "zoom ", "vstrength ", "lomb "};
      bool analysis = false;
      for (size_t k = 0; k < sizeof where_data / sizeof *where_data; k++)
        analysis |= !strncmp(line, where_data[k], strlen(where_data[k]));
      /* (float32 FFTs differ by a few units in the last place) */
      const double twin_tol = analysis ? fmin(tol, 1e-4) * (tol >= 1e-6 ? 1e-1 : 1e-2) : 0;
      double te = 0;
      for (int i = 0; i < SD_MAX && got[i] && same; i++) {
        te = fmax(te, sd_err(ctx, got[i], twin, tg[i]));
        same = te <= twin_tol;
      }
      if (twin_tol > 0)
        snprintf(twin_note, sizeof twin_note, ", %s the host (%.2g)", same ? "=" : "differs from", te);
      else
        snprintf(twin_note, sizeof twin_note, ", %s the host", same ? "=" : "differs from");
      good &= same;
      sd_release(tg), sd_release(tw);
    }
    ok(good, "%s: %s, relative error to SciPy %.3g (tolerance %.0e)%s", line, cusci_status_name(st), worst, tol, twin_note);
    sd_release(got), sd_release(want);
  }
  fclose(f);
}

/* The public steps chained by hand (buttap, a band transform,
 * bilinear_zpk, then zpk2tf and zpk2sos) equal butter's three outputs bit
 * for bit on ctx, for each band type (order 3, digital): the steps are
 * what butter is made of, and butter is SciPy's to rounding. */
static void sd_chain(cusci_ctx *ctx)
{
  static const char *const names[] = {"lowpass", "highpass", "bandpass", "bandstop"};
  for (int bt = 0; bt < 4; bt++) {
    const bool band = bt >= 2;
    const double Wn[2] = {band ? 0.2 : 0.3, 0.45};
    double warped[2];
    for (int i = 0; i < 2; i++)
      warped[i] = 2 * 2.0 * tan(M_PI * Wn[i] / 2.0);
    const double wo = band ? sqrt(warped[0] * warped[1]) : warped[0], bw = warped[1] - warped[0];
    cusci_array *z0 = NULL, *p0 = NULL, *z1 = NULL, *p1 = NULL, *z2 = NULL, *p2 = NULL, *b = NULL, *a = NULL, *sos = NULL;
    cusci_array *wz = NULL, *wp = NULL, *wb = NULL, *wa = NULL, *wsos = NULL;
    double k0 = 0, k1 = 0, k2 = 0, wk = 0;
    cusci_status st = cusci_signal_buttap(ctx, 3, &z0, &p0, &k0);
    if (st == CUSCI_OK)
      switch (bt) {
      case 0: st = cusci_signal_lp2lp_zpk(ctx, z0, p0, k0, wo, &z1, &p1, &k1); break;
      case 1: st = cusci_signal_lp2hp_zpk(ctx, z0, p0, k0, wo, &z1, &p1, &k1); break;
      case 2: st = cusci_signal_lp2bp_zpk(ctx, z0, p0, k0, wo, bw, &z1, &p1, &k1); break;
      default: st = cusci_signal_lp2bs_zpk(ctx, z0, p0, k0, wo, bw, &z1, &p1, &k1); break;
      }
    if (st == CUSCI_OK)
      st = cusci_signal_bilinear_zpk(ctx, z1, p1, k1, 2.0, &z2, &p2, &k2);
    if (st == CUSCI_OK)
      st = cusci_signal_zpk2tf(ctx, z2, p2, k2, &b, &a);
    if (st == CUSCI_OK)
      st = cusci_signal_zpk2sos(ctx, z2, p2, k2, CUSCI_SIGNAL_PAIRING_DEFAULT, false, &sos);
    const cusci_signal_btype t = (cusci_signal_btype)bt;
    if (st == CUSCI_OK)
      st = cusci_signal_butter_zpk(ctx, 3, band ? 2 : 1, Wn, t, NULL, &wz, &wp, &wk);
    if (st == CUSCI_OK)
      st = cusci_signal_butter_ba(ctx, 3, band ? 2 : 1, Wn, t, NULL, &wb, &wa);
    if (st == CUSCI_OK)
      st = cusci_signal_butter_sos(ctx, 3, band ? 2 : 1, Wn, t, NULL, &wsos);
    const bool same = st == CUSCI_OK && k2 == wk && sd_err(ctx, z2, ctx, wz) == 0 && sd_err(ctx, p2, ctx, wp) == 0 && sd_err(ctx, b, ctx, wb) == 0 &&
                      sd_err(ctx, a, ctx, wa) == 0 && sd_err(ctx, sos, ctx, wsos) == 0 && cusci_array_dtype(b) == CUSCI_FLOAT64 &&
                      cusci_array_dtype(z2) == CUSCI_COMPLEX128 && sd_same_shape(sos, wsos);
    ok(same, "buttap, the %s transform, bilinear_zpk, zpk2tf and zpk2sos by hand = butter %s (order 3) bit for bit: %s", names[bt], names[bt],
       cusci_status_name(st));
    cusci_array *all[] = {z0, p0, z1, p1, z2, p2, b, a, sos, wz, wp, wb, wa, wsos};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
      cusci_array_release(all[i]);
  }
}

#endif
