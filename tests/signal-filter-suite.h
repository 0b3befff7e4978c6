/*
 * tests/signal-filter-suite.h: the scipy.signal fixtures of
 * tests/fixtures/signal_filter (fixtures_signal_filter.py) run on one
 * context, each against SciPy's result and, with a second context (the
 * host beside a GPU), against that context's result too: bit for bit for
 * the filters and the direct method, within the FFT's tolerance for the
 * FFT method.
 */
#ifndef CUSCI_TESTS_SIGNAL_FILTER_SUITE_H
#define CUSCI_TESTS_SIGNAL_FILTER_SUITE_H

#include <stdio.h>

#include <cusci/signal.h>

#include "tests/signal-util.h"

static cusci_signal_mode sf_mode(const char *s)
{
  return !strcmp(s, "same") ? CUSCI_SIGNAL_SAME : !strcmp(s, "valid") ? CUSCI_SIGNAL_VALID : CUSCI_SIGNAL_FULL;
}

static cusci_signal_padtype sf_pad(const char *s)
{
  return !strcmp(s, "even") ? CUSCI_SIGNAL_PAD_EVEN : !strcmp(s, "constant") ? CUSCI_SIGNAL_PAD_CONSTANT : !strcmp(s, "none") ? CUSCI_SIGNAL_PAD_NONE
                                                                                                                               : CUSCI_SIGNAL_PAD_ODD;
}

/* A comma-separated list into v (at most 8), or none for "-". */
static int parse_list_or_none(const char *s, int64_t *v)
{
  int n = 0;
  if (!strcmp(s, "-"))
    return 0;
  for (const char *p = s; *p && n < 8;) {
    v[n++] = strtoll(p, (char **)&p, 10);
    if (*p == ',')
      p++;
    else
      break;
  }
  return n;
}

/* Whether the case's input x was of a single-precision dtype: its
 * result is then compared with SciPy's within single precision, whatever
 * the result's dtype (a float32 mean taken off, say). */
static bool sf_single_x;

static cusci_array *sf_load(cusci_ctx *ctx, const char *name, const char *part, bool optional)
{
  char n[192];
  snprintf(n, sizeof n, "%s_%s", name, part);
  cusci_array *a = tk_fixture(ctx, "signal_filter", n, optional);
  if (a && !strcmp(part, "x"))
    sf_single_x = cusci_array_dtype(a) == CUSCI_FLOAT32 || cusci_array_dtype(a) == CUSCI_COMPLEX64;
  return a;
}

/* One case of the manifest on ctx: *y (and *zf) our results; *want and
 * *wantzf SciPy's; *fft 1 when the FFT method or a reduction ran (whose
 * sums the host and the GPU order differently: the two agree within
 * rounding, not bit for bit), 2 for filtfilt's gust, whose initial states
 * solve a least-squares problem as ill-conditioned as the filter's poles
 * are close to the unit circle (the two agree as closely as each agrees
 * with SciPy). */
static cusci_status sf_run(cusci_ctx *ctx, const char *line, char *name, cusci_array **y, cusci_array **zf, cusci_array **want,
                           cusci_array **wantzf, int *fft)
{
  char func[32], a1[32], a2[32];
  int axis = 0, zi = 0;
  long long padlen = 0, n1 = 0, n2 = 0;
  *y = *zf = *want = *wantzf = NULL;
  *fft = 0;
  if (sscanf(line, "%31s %127s", func, name) != 2)
    return CUSCI_ERR_IO;
  const char *rest = line + strlen(func) + 1 + strlen(name);
  cusci_status st = CUSCI_ERR_IO;
  if (!strcmp(func, "lfilter") || !strcmp(func, "sosfilt")) {
    sscanf(rest, "%d %d", &axis, &zi);
    const bool sos = func[0] == 's';
    cusci_array *b = sf_load(ctx, name, sos ? "sos" : "b", false), *a = sos ? NULL : sf_load(ctx, name, "a", false);
    cusci_array *x = sf_load(ctx, name, "x", false), *z = zi ? sf_load(ctx, name, "zi", false) : NULL;
    *want = sf_load(ctx, name, "y", false);
    if (zi)
      *wantzf = sf_load(ctx, name, "zf", false);
    if (b && x && (sos || a) && (!zi || z))
      st = sos ? cusci_signal_sosfilt(ctx, b, x, axis, z, y, zi ? zf : NULL) : cusci_signal_lfilter(ctx, b, a, x, axis, z, y, zi ? zf : NULL);
    cusci_array_release(b), cusci_array_release(a), cusci_array_release(x), cusci_array_release(z);
  } else if (!strcmp(func, "filtfilt") || !strcmp(func, "sosfiltfilt")) {
    sscanf(rest, "%d %31s %lld", &axis, a1, &padlen);
    const bool sos = func[0] == 's';
    cusci_array *b = sf_load(ctx, name, sos ? "sos" : "b", false), *a = sos ? NULL : sf_load(ctx, name, "a", false);
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    /* SciPy's padlen 0 is no padding: padtype none here. */
    cusci_signal_filtfilt_opts o = { padlen == 0 ? CUSCI_SIGNAL_PAD_NONE : sf_pad(a1), padlen < 0 ? 0 : padlen, !strcmp(a1, "gust") };
    *fft = o.gust ? 2 : 0;
    if (b && x && (sos || a))
      st = sos ? cusci_signal_sosfiltfilt(ctx, b, x, axis, &o, y) : cusci_signal_filtfilt(ctx, b, a, x, axis, &o, y);
    cusci_array_release(b), cusci_array_release(a), cusci_array_release(x);
  } else if (!strcmp(func, "lfilter_zi") || !strcmp(func, "sosfilt_zi")) {
    const bool sos = func[0] == 's';
    cusci_array *b = sf_load(ctx, name, sos ? "sos" : "b", false), *a = sos ? NULL : sf_load(ctx, name, "a", false);
    *want = sf_load(ctx, name, "y", false);
    if (b && (sos || a))
      st = sos ? cusci_signal_sosfilt_zi(ctx, b, y) : cusci_signal_lfilter_zi(ctx, b, a, y);
    cusci_array_release(b), cusci_array_release(a);
  } else if (!strcmp(func, "convolve") || !strcmp(func, "correlate") || !strcmp(func, "fftconvolve") || !strcmp(func, "oaconvolve")) {
    sscanf(rest, "%31s %31s", a1, a2);
    cusci_array *x1 = sf_load(ctx, name, "x1", false), *x2 = sf_load(ctx, name, "x2", false);
    *want = sf_load(ctx, name, "y", false);
    if (x1 && x2) {
      if (func[0] == 'f' || func[0] == 'o') {
        int64_t v[8];
        int ax[8], na = parse_list_or_none(a2, v);
        for (int i = 0; i < na; i++)
          ax[i] = (int)v[i];
        *fft = true;
        st = (func[0] == 'o' ? cusci_signal_oaconvolve : cusci_signal_fftconvolve)(ctx, x1, x2, sf_mode(a1), na, na ? ax : NULL, y);
      } else {
        const cusci_signal_method m = !strcmp(a2, "fft") ? CUSCI_SIGNAL_FFT : CUSCI_SIGNAL_DIRECT;
        *fft = m == CUSCI_SIGNAL_FFT;
        st = (!strcmp(func, "convolve") ? cusci_signal_convolve : cusci_signal_correlate)(ctx, x1, x2, sf_mode(a1), m, y);
      }
    }
    cusci_array_release(x1), cusci_array_release(x2);
  } else if (!strcmp(func, "upfirdn") || !strcmp(func, "resample_poly")) {
    sscanf(rest, "%lld %lld %d", &n1, &n2, &axis);
    const bool poly = func[0] == 'r';
    cusci_array *h = poly ? NULL : sf_load(ctx, name, "h", false), *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    if (x && (poly || h))
      st = poly ? cusci_signal_resample_poly(ctx, x, n1, n2, axis, y) : cusci_signal_upfirdn(ctx, h, x, n1, n2, axis, y);
    cusci_array_release(h), cusci_array_release(x);
  } else if (!strcmp(func, "resample_poly_ex")) {
    double cval = 0;
    sscanf(rest, "%lld %lld %d %31s %d %lf", &n1, &n2, &axis, a1, &zi, &cval);
    static const char *const pads[] = { "constant", "mean",     "median",        "minimum",     "maximum", "symmetric", "reflect",
                                        "edge",     "wrap",     "antisymmetric", "antireflect", "line",    "smooth" };
    int pd = 0;
    while (pd < 12 && strcmp(pads[pd], a1))
      pd++;
    cusci_array *x = sf_load(ctx, name, "x", false), *w = zi ? sf_load(ctx, name, "w", false) : NULL;
    *want = sf_load(ctx, name, "y", false);
    if (x && (!zi || w))
      *fft = pd != 0, st = cusci_signal_resample_poly_ex(ctx, x, n1, n2, axis, w, (cusci_signal_poly_pad)pd, cval, y);
    cusci_array_release(x), cusci_array_release(w);
  } else if (!strcmp(func, "upfirdn_ex")) {
    int md = 0;
    double cval = 0;
    sscanf(rest, "%lld %lld %d %d %lf", &n1, &n2, &axis, &md, &cval);
    cusci_array *h = sf_load(ctx, name, "h", false), *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    /* The extensions of arithmetic modes are ufuncs: within rounding. */
    *fft = md >= CUSCI_SIGNAL_EXT_ANTIREFLECT;
    if (h && x)
      st = cusci_signal_upfirdn_ex(ctx, h, x, n1, n2, axis, (cusci_signal_ext)md, cval, y);
    cusci_array_release(h), cusci_array_release(x);
  } else if (!strcmp(func, "resample") || !strcmp(func, "hilbert")) {
    sscanf(rest, "%lld %d", &n1, &axis);
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    *fft = true;
    if (x)
      st = func[0] == 'r' ? cusci_signal_resample(ctx, x, n1, axis, y) : cusci_signal_hilbert(ctx, x, n1, axis, y);
    cusci_array_release(x);
  } else if (!strcmp(func, "convolve2d") || !strcmp(func, "correlate2d")) {
    char a3[32];
    double fill = 0;
    sscanf(rest, "%31s %31s %lf", a1, a3, &fill);
    cusci_array *x1 = sf_load(ctx, name, "x1", false), *x2 = sf_load(ctx, name, "x2", false);
    *want = sf_load(ctx, name, "y", false);
    const cusci_signal_boundary bd = !strcmp(a3, "wrap") ? CUSCI_SIGNAL_BOUNDARY_WRAP : !strcmp(a3, "symm") ? CUSCI_SIGNAL_BOUNDARY_SYMM
                                                                                                           : CUSCI_SIGNAL_BOUNDARY_FILL;
    if (x1 && x2)
      st = (!strcmp(func, "convolve2d") ? cusci_signal_convolve2d : cusci_signal_correlate2d)(ctx, x1, x2, sf_mode(a1), bd, fill, y);
    cusci_array_release(x1), cusci_array_release(x2);
  } else if (!strcmp(func, "savgol_coeffs") || !strcmp(func, "savgol_filter")) {
    long long W = 0, P = 0, D = 0;
    double delta = 1;
    sscanf(rest, "%lld %lld %lld %lf %d %31s", &W, &P, &D, &delta, &axis, a1);
    *want = sf_load(ctx, name, "y", false);
    if (func[7] == 'c') {
      st = cusci_signal_savgol_coeffs(ctx, W, P, D, delta, y);
    } else {
      static const char *const modes[] = { "interp", "mirror", "constant", "nearest", "wrap" };
      int m = 0;
      while (m < 4 && strcmp(modes[m], a1))
        m++;
      cusci_array *x = sf_load(ctx, name, "x", false);
      if (x)
        *fft = m == 0, st = cusci_signal_savgol_filter(ctx, x, W, P, D, delta, axis, (cusci_signal_savgol_mode)m, 0.75, y);
      cusci_array_release(x);
    }
  } else if (!strcmp(func, "symiirorder1") || !strcmp(func, "symiirorder2")) {
    double c0 = 0, z1 = 0, prec = 0;
    sscanf(rest, "%lf %lf %lf", &c0, &z1, &prec);
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    if (x)
      *fft = true, st = (func[11] == '1' ? cusci_signal_symiirorder1 : cusci_signal_symiirorder2)(ctx, x, c0, z1, prec, y);
    cusci_array_release(x);
  } else if (!strcmp(func, "sepfir2d")) {
    cusci_array *x = sf_load(ctx, name, "x", false), *hr = sf_load(ctx, name, "hr", false), *hc = sf_load(ctx, name, "hc", false);
    *want = sf_load(ctx, name, "y", false);
    if (x && hr && hc)
      st = cusci_signal_sepfir2d(ctx, x, hr, hc, y);
    cusci_array_release(x), cusci_array_release(hr), cusci_array_release(hc);
  } else if (!strcmp(func, "decimate")) {
    int zp = 0;
    sscanf(rest, "%lld %lld %31s %d %d", &n1, &n2, a1, &zp, &axis);
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    if (x)
      st = cusci_signal_decimate(ctx, x, n1, n2, !strcmp(a1, "fir") ? CUSCI_SIGNAL_FTYPE_FIR : CUSCI_SIGNAL_FTYPE_IIR, zp, axis, y);
    cusci_array_release(x);
  } else if (!strcmp(func, "envelope")) {
    char a3[32], a4[32];
    int sq = 0;
    sscanf(rest, "%d %31s %31s %lld %d %31s", &axis, a1, a2, &n1, &sq, a3);
    (void)a4;
    const int64_t bp[2] = { strcmp(a1, "-") ? atoll(a1) : CUSCI_SLICE_NONE, strcmp(a2, "-") ? atoll(a2) : CUSCI_SLICE_NONE };
    const cusci_signal_residual rs = !strcmp(a3, "all") ? CUSCI_SIGNAL_RESIDUAL_ALL : !strcmp(a3, "none") ? CUSCI_SIGNAL_RESIDUAL_NONE
                                                                                                         : CUSCI_SIGNAL_RESIDUAL_LOWPASS;
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    *fft = true;
    if (x)
      st = cusci_signal_envelope(ctx, x, bp, n1, sq, rs, axis, y);
    cusci_array_release(x);
  } else if (!strcmp(func, "medfilt2d")) {
    sscanf(rest, "%31s", a1);
    int64_t ks[8];
    const int nk = parse_list_or_none(a1, ks);
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    if (x)
      st = cusci_signal_medfilt2d(ctx, x, nk, nk ? ks : NULL, y);
    cusci_array_release(x);
  } else if (!strcmp(func, "order_filter")) {
    sscanf(rest, "%lld", &n1);
    cusci_array *x = sf_load(ctx, name, "x", false), *d = sf_load(ctx, name, "d", false);
    *want = sf_load(ctx, name, "y", false);
    if (x && d)
      st = cusci_signal_order_filter(ctx, x, d, n1, y);
    cusci_array_release(x), cusci_array_release(d);
  } else if (!strcmp(func, "lfiltic")) {
    sscanf(rest, "%d", &zi);
    cusci_array *b = sf_load(ctx, name, "b", false), *a = sf_load(ctx, name, "a", false), *y0 = sf_load(ctx, name, "y0", false);
    cusci_array *x0 = zi ? sf_load(ctx, name, "x0", false) : NULL;
    *want = sf_load(ctx, name, "y", false);
    if (b && a && y0 && (!zi || x0))
      st = cusci_signal_lfiltic(ctx, b, a, y0, x0, y);
    cusci_array_release(b), cusci_array_release(a), cusci_array_release(y0), cusci_array_release(x0);
  } else if (!strcmp(func, "deconvolve")) {
    cusci_array *num = sf_load(ctx, name, "num", false), *den = sf_load(ctx, name, "den", false);
    *want = sf_load(ctx, name, "y", false);
    *wantzf = sf_load(ctx, name, "r", false);
    if (num && den)
      st = cusci_signal_deconvolve(ctx, num, den, y, zf);
    cusci_array_release(num), cusci_array_release(den);
  } else if (!strcmp(func, "detrend")) {
    sscanf(rest, "%d %31s %31s", &axis, a1, a2);
    int64_t bp[8];
    const int nbp = parse_list_or_none(a2, bp);
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    if (x)
      *fft = true, st = cusci_signal_detrend(ctx, x, axis, !strcmp(a1, "constant") ? CUSCI_SIGNAL_TREND_CONSTANT : CUSCI_SIGNAL_TREND_LINEAR, nbp, bp, y);
    cusci_array_release(x);
  } else if (!strcmp(func, "wiener")) {
    sscanf(rest, "%31s %31s", a1, a2);
    int64_t ms[8];
    const int nk = parse_list_or_none(a1, ms);
    const double noise = strcmp(a2, "-") ? atof(a2) : 0;
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    if (x)
      *fft = true, st = cusci_signal_wiener(ctx, x, nk, nk ? ms : NULL, strcmp(a2, "-") ? &noise : NULL, y);
    cusci_array_release(x);
  } else if (!strcmp(func, "hilbert2")) {
    sscanf(rest, "%31s", a1);
    int64_t nn[8];
    const int k2 = parse_list_or_none(a1, nn);
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    *fft = true;
    if (x)
      st = cusci_signal_hilbert2(ctx, x, k2 ? nn : NULL, NULL, y);
    cusci_array_release(x);
  } else if (!strcmp(func, "medfilt")) {
    sscanf(rest, "%31s", a1);
    int64_t ks[8];
    const int nk = parse_list_or_none(a1, ks);
    cusci_array *x = sf_load(ctx, name, "x", false);
    *want = sf_load(ctx, name, "y", false);
    if (x)
      st = cusci_signal_medfilt(ctx, x, nk, nk ? ks : NULL, y);
    cusci_array_release(x);
  } else if (!strcmp(func, "correlation_lags")) {
    sscanf(rest, "%lld %lld %31s", &n1, &n2, a1);
    *want = sf_load(ctx, name, "y", false);
    st = cusci_signal_correlation_lags(ctx, n1, n2, sf_mode(a1), y);
  }
  return st;
}

/*
 * x (on ctx) fed to the streaming filter f along axis in chunks, each
 * chunk's output copied into all at its place: the lengths lens[0..nlens)
 * when lens is given, else lo + a random number below span (from *seed),
 * each 7th chunk empty when empties is set, until x ends. Whether every
 * call succeeded; *chunks the chunks fed.
 */
static bool sf_feed(cusci_ctx *ctx, cusci_signal_filter *f, cusci_array *x, cusci_array *all, int axis, const int64_t *lens, size_t nlens,
                    uint64_t *seed, int64_t lo, int64_t span, bool empties, int *chunks)
{
  const int64_t *sh = cusci_array_shape(x), n = sh[axis];
  bool good = true;
  *chunks = 0;
  for (int64_t at = 0; good && (lens ? (size_t)*chunks < nlens : at < n); (*chunks)++) {
    int64_t len = lens ? lens[*chunks] : lo + (int64_t)(tk_rand(seed) % (uint64_t)span);
    if (!lens && empties && *chunks % 7 == 3)
      len = 0;
    len = at + len > n ? n - at : len;
    int64_t start[2] = { 0, 0 }, stop[2] = { sh[0], sh[1] };
    start[axis] = at, stop[axis] = at + len;
    cusci_array *xv = NULL, *yv = NULL, *dst = NULL;
    good = cusci_array_slice(ctx, x, start, stop, NULL, &xv) == CUSCI_OK && cusci_signal_filter_process(ctx, f, xv, &yv) == CUSCI_OK &&
           cusci_array_slice(ctx, all, start, stop, NULL, &dst) == CUSCI_OK && cusci_array_copy(ctx, yv, &dst) == CUSCI_OK;
    cusci_array_release(xv), cusci_array_release(yv), cusci_array_release(dst);
    at += len;
  }
  return good;
}

/* Same shape, and relative RMS within tol (0: equal values). */
static bool sf_close(cusci_ctx *ca, const cusci_array *a, cusci_ctx *cb, const cusci_array *b, double tol, double *e)
{
  *e = INFINITY;
  if (!a || !b || cusci_array_ndim(a) != cusci_array_ndim(b) ||
      memcmp(cusci_array_shape(a), cusci_array_shape(b), sizeof(int64_t) * (size_t)cusci_array_ndim(a)))
    return false;
  *e = sig_rel_rms(ca, a, cb, b);
  return *e <= tol;
}

/* Every case of the manifest on ctx, against SciPy (and twin's result
 * when twin is not NULL). */
static void sf_fixtures(cusci_ctx *ctx, cusci_ctx *twin)
{
  FILE *f = tk_manifest("signal_filter", "cases.txt");
  if (!f)
    return;
  char line[512];
  while (tk_manifest_line(f, line, sizeof line)) {
    char name[128] = "";
    cusci_array *y, *zf, *want, *wantzf;
    int fft;
    sf_single_x = false;
    cusci_status st = sf_run(ctx, line, name, &y, &zf, &want, &wantzf, &fft);
    const cusci_dtype dt = want ? cusci_array_dtype(want) : CUSCI_FLOAT64;
    const bool single = dt == CUSCI_FLOAT32 || dt == CUSCI_COMPLEX64 || sf_single_x;
    /* SciPy's own rounding differs from ours: a relative RMS of a few
     * hundred eps for the recursive filters, whose errors feed back. */
    const double tol = single ? 2e-4 : 1e-10;
    double e = INFINITY, ez = 0;
    bool good = st == CUSCI_OK && sf_close(ctx, y, ctx, want, tol, &e) && (!wantzf || sf_close(ctx, zf, ctx, wantzf, tol, &ez));
    bool dtype_ok = st == CUSCI_OK && y && want && cusci_array_dtype(y) == cusci_array_dtype(want);
    char twin_note[160] = "";
    if (twin && st == CUSCI_OK) {
      cusci_array *ty, *tzf, *tw, *twz;
      int tf;
      char tn[128];
      cusci_status ts = sf_run(twin, line, tn, &ty, &tzf, &tw, &twz, &tf);
      double te = INFINITY;
      const double twin_tol = fft == 2 ? tol : fft ? sig_tol(dt, 1 << 12) : 0;
      const bool same = ts == CUSCI_OK && sf_close(ctx, y, twin, ty, twin_tol, &te) && (!zf || sf_close(ctx, zf, twin, tzf, twin_tol, &te));
      snprintf(twin_note, sizeof twin_note, ", %s the host (%s, relative RMS %.3g)", same ? "=" : "differs from", cusci_status_name(ts), te);
      good &= same;
      cusci_array_release(ty), cusci_array_release(tzf), cusci_array_release(tw), cusci_array_release(twz);
    }
    ok(good && dtype_ok, "%s: %s%s, relative RMS to SciPy %.3g (zf %.3g, tolerance %.3g)%s%s%s", line, cusci_status_name(st),
       st == CUSCI_OK && !dtype_ok ? " (wrong dtype)" : "", e, ez, tol, twin_note, st == CUSCI_OK ? "" : ": ",
       st == CUSCI_OK ? "" : cusci_ctx_last_error(ctx));
    cusci_array_release(y), cusci_array_release(zf), cusci_array_release(want), cusci_array_release(wantzf);
  }
  fclose(f);
}

#endif
