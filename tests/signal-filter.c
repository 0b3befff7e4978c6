/*
 * tests/signal-filter.c: scipy.signal's filters and convolutions on the
 * host: SciPy's fixtures (tests/signal-filter-suite.h), properties that
 * need no reference (an impulse gives the impulse response, linearity,
 * time reversal of filtfilt, a filter per channel, the streaming filters
 * equal to one call over random chunkings, bit for bit), and bad input,
 * each with its status and message.
 */
#include "tests/signal-filter-suite.h"

static cusci_ctx *host;

static cusci_array *vec(const double *v, int64_t n)
{
  cusci_array *a = NULL;
  cusci_array_from_host(host, v, 1, &n, CUSCI_FLOAT64, &a);
  return a;
}

static cusci_array *rnd(int ndim, const int64_t *shape, cusci_dtype dt, uint64_t seed)
{
  return tk_random(host, ndim, shape, dt, -2, 2, &seed);
}

static bool equal(const cusci_array *a, const cusci_array *b)
{
  if (!a || !b || cusci_array_size(a) != cusci_array_size(b) || cusci_array_dtype(a) != cusci_array_dtype(b))
    return false;
  void *x = tk_to_host(host, a), *y = tk_to_host(host, b);
  bool same = x && y && !memcmp(x, y, cusci_array_nbytes(a));
  free(x), free(y);
  return same;
}

static const double bw[5] = { 0.004824343357716228, 0.019297373430864913, 0.02894606014629737, 0.019297373430864913, 0.004824343357716228 };
static const double aw[5] = { 1, -2.369513007182038, 2.313988414415880, -1.054665405878568, 0.1873794923682187 };
static const double sos2[12] = { 0.0048, 0.0097, 0.0048, 1, -1.1, 0.31, 1, 2, 1, 1, -1.3, 0.62 };

static void properties(void)
{
  /* An impulse through an FIR filter gives b; through an IIR one, y[0] =
   * b[0] / a[0]. */
  double imp[12] = { 1 };
  cusci_array *x = vec(imp, 12), *b = vec(bw, 5), *a1 = vec((double[]){ 1 }, 1), *y = NULL;
  cusci_status st = cusci_signal_lfilter(host, b, a1, x, 0, NULL, &y, NULL);
  double *v = st == CUSCI_OK ? tk_to_host(host, y) : NULL;
  bool good = v != NULL;
  for (int i = 0; good && i < 12; i++)
    good = v[i] == (i < 5 ? bw[i] : 0);
  ok(good, "lfilter: an impulse through an FIR filter gives its taps exactly");
  free(v);
  cusci_array_release(y), y = NULL;

  /* A filter without state under Gustafsson's method is (b0 / a0)^2; an
   * empty signal filters to an empty one and leaves the state as it was. */
  {
    cusci_array *b2 = vec((double[]){ 3 }, 1), *a2 = vec((double[]){ 1.5 }, 1), *g = NULL, *e = NULL, *ye = NULL, *zf = NULL;
    cusci_signal_filtfilt_opts go = { CUSCI_SIGNAL_PAD_ODD, 0, true };
    cusci_status sg = cusci_signal_filtfilt(host, b2, a2, x, 0, &go, &g);
    double *gv = sg == CUSCI_OK ? tk_to_host(host, g) : NULL;
    ok(gv && gv[0] == 4 && gv[1] == 0, "filtfilt, gust, of a filter without state: (b0 / a0)^2 x (%s)", cusci_status_name(sg));
    free(gv);
    int64_t e0 = 0;
    cusci_array_empty(host, 1, &e0, CUSCI_FLOAT64, &e);
    cusci_array *zi = vec((double[]){ 0.5, -0.25, 1, 2 }, 4);
    cusci_array *ah = vec((double[]){ 1, -0.5 }, 2);
    sg = cusci_signal_lfilter(host, b, ah, e, 0, zi, &ye, &zf);
    double *zv = sg == CUSCI_OK ? tk_to_host(host, zf) : NULL;
    ok(sg == CUSCI_OK && cusci_array_size(ye) == 0 && zv && zv[0] == 0.5 && zv[3] == 2, "lfilter of an empty signal: empty, zf = zi (%s)",
       cusci_status_name(sg));
    free(zv);
    cusci_array_release(b2), cusci_array_release(a2), cusci_array_release(g), cusci_array_release(e), cusci_array_release(ye);
    cusci_array_release(zf), cusci_array_release(zi), cusci_array_release(ah);
  }
  /* Integers keep their dtype and wrap as NumPy's; bools are any. */
  {
    int64_t two = 2;
    const int8_t i8[2] = { 100, 100 }, k8[2] = { 2, 2 };
    const bool ba[2] = { true, false }, bb[2] = { true, true };
    cusci_array *p = NULL, *q = NULL, *r = NULL, *pb = NULL, *qb = NULL, *rb = NULL;
    cusci_array_from_host(host, i8, 1, &two, CUSCI_INT8, &p);
    cusci_array_from_host(host, k8, 1, &two, CUSCI_INT8, &q);
    cusci_array_from_host(host, ba, 1, &two, CUSCI_BOOL, &pb);
    cusci_array_from_host(host, bb, 1, &two, CUSCI_BOOL, &qb);
    cusci_status s1 = cusci_signal_convolve(host, p, q, CUSCI_SIGNAL_FULL, CUSCI_SIGNAL_AUTO, &r);
    cusci_status s2 = cusci_signal_convolve(host, pb, qb, CUSCI_SIGNAL_FULL, CUSCI_SIGNAL_DIRECT, &rb);
    int8_t rv[3] = { 0 };
    bool bv[3] = { false };
    if (s1 == CUSCI_OK && cusci_array_dtype(r) == CUSCI_INT8)
      cusci_array_to_host(host, r, rv, sizeof rv);
    if (s2 == CUSCI_OK && cusci_array_dtype(rb) == CUSCI_BOOL)
      cusci_array_to_host(host, rb, bv, sizeof bv);
    ok(rv[0] == -56 && rv[1] == -112 && rv[2] == -56, "convolve of int8 [100, 100] by [2, 2]: int8 [-56, -112, -56], wrapped as NumPy's");
    ok(bv[0] && bv[1] && !bv[2], "convolve of bools: [True, True, False] as SciPy's");
    cusci_array_release(p), cusci_array_release(q), cusci_array_release(r);
    cusci_array_release(pb), cusci_array_release(qb), cusci_array_release(rb);
  }
  /* Linearity: f(x1 + 2 x2) = f(x1) + 2 f(x2), within rounding. */
  cusci_array *a = vec(aw, 5);
  int64_t sh[2] = { 3, 500 };
  cusci_array *x1 = rnd(2, sh, CUSCI_FLOAT64, 11), *x2 = rnd(2, sh, CUSCI_FLOAT64, 12), *two = NULL, *sum = NULL, *y1 = NULL, *y2 = NULL, *ys = NULL,
              *t = NULL, *r = NULL;
  cusci_array *k2 = vec((double[]){ 2 }, 1);
  cusci_multiply(host, x2, k2, &two);
  cusci_add(host, x1, two, &sum);
  cusci_signal_lfilter(host, b, a, x1, -1, NULL, &y1, NULL);
  cusci_signal_lfilter(host, b, a, two, -1, NULL, &y2, NULL);
  cusci_signal_lfilter(host, b, a, sum, -1, NULL, &ys, NULL);
  cusci_add(host, y1, y2, &r);
  ok(sig_rel_rms(host, ys, host, r) < 1e-13, "lfilter is linear (relative RMS %.3g)", sig_rel_rms(host, ys, host, r));
  cusci_array *rel[] = { k2, two, sum, y1, y2, ys, t, r };
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
    cusci_array_release(rel[i]);

  /* Zero phase: away from the ends (where the passes start), filtfilt of
   * the reversed signal is the reversed filtfilt; a single pass is not. */
  int64_t st1[2] = { 1, -1 }, mid0[2] = { 0, 150 }, mid1[2] = { 3, 350 };
  cusci_array *xr = NULL, *xrc = NULL, *f1 = NULL, *f2 = NULL, *f2r = NULL, *m1 = NULL, *m2 = NULL, *l1 = NULL, *l2 = NULL, *l2r = NULL,
              *n1 = NULL, *n2 = NULL;
  cusci_array_slice(host, x1, NULL, NULL, st1, &xr);
  cusci_array_copy(host, xr, &xrc);
  cusci_signal_filtfilt(host, b, a, x1, 1, NULL, &f1);
  cusci_signal_filtfilt(host, b, a, xrc, 1, NULL, &f2);
  cusci_array_slice(host, f2, NULL, NULL, st1, &f2r);
  cusci_array_slice(host, f1, mid0, mid1, NULL, &m1);
  cusci_array_slice(host, f2r, mid0, mid1, NULL, &m2);
  double e = sig_rel_rms(host, m1, host, m2);
  cusci_signal_lfilter(host, b, a, x1, 1, NULL, &l1, NULL);
  cusci_signal_lfilter(host, b, a, xrc, 1, NULL, &l2, NULL);
  cusci_array_slice(host, l2, NULL, NULL, st1, &l2r);
  cusci_array_slice(host, l1, mid0, mid1, NULL, &n1);
  cusci_array_slice(host, l2r, mid0, mid1, NULL, &n2);
  double e1 = sig_rel_rms(host, n1, host, n2);
  ok(f1 && f2 && e < 1e-9 && e1 > 0.1, "filtfilt is zero phase: reversed in, reversed out away from the ends (relative RMS %.3g; one pass %.3g)", e,
     e1);
  cusci_array *rel2[] = { xr, xrc, f1, f2, f2r, m1, m2, l1, l2, l2r, n1, n2 };
  for (size_t i = 0; i < sizeof rel2 / sizeof *rel2; i++)
    cusci_array_release(rel2[i]);

  /* A filter per channel: sos (6, 2, 6) on x (2, 3, 200) along axis 2, each
   * channel as sosfilt with its own sections, bit for bit. */
  double sp[6 * 12];
  for (int c = 0; c < 6; c++)
    for (int j = 0; j < 12; j++)
      sp[12 * c + j] = sos2[j] * (j % 6 == 3 ? 1 : 1 + 0.05 * c);
  int64_t ss[3] = { 6, 2, 6 }, xs[3] = { 2, 3, 200 };
  cusci_array *sosc = NULL, *xc = rnd(3, xs, CUSCI_FLOAT64, 13), *yc = NULL;
  cusci_array_from_host(host, sp, 3, ss, CUSCI_FLOAT64, &sosc);
  st = cusci_signal_sosfilt(host, sosc, xc, 2, NULL, &yc, NULL);
  good = st == CUSCI_OK;
  for (int c = 0; good && c < 6; c++) {
    int64_t s2[2] = { 2, 6 }, one[1] = { 200 };
    cusci_array *sc = NULL, *line = NULL, *lc = NULL, *yl = NULL, *want = NULL, *wc = NULL;
    cusci_array_from_host(host, sp + 12 * c, 2, s2, CUSCI_FLOAT64, &sc);
    int64_t b0[3] = { c / 3, c % 3, 0 }, e0[3] = { c / 3 + 1, c % 3 + 1, 200 };
    cusci_array_slice(host, xc, b0, e0, NULL, &line);
    cusci_array_reshape(host, line, 1, one, &lc);
    cusci_signal_sosfilt(host, sc, lc, 0, NULL, &yl, NULL);
    cusci_array_slice(host, yc, b0, e0, NULL, &want);
    cusci_array_reshape(host, want, 1, one, &wc);
    cusci_array *wcc = NULL;
    cusci_array_copy(host, wc, &wcc);
    good = equal(yl, wcc);
    cusci_array *rel3[] = { sc, line, lc, yl, want, wc, wcc };
    for (size_t i = 0; i < sizeof rel3 / sizeof *rel3; i++)
      cusci_array_release(rel3[i]);
  }
  ok(good, "sosfilt with a filter per channel (6 channels of 2 sections): each channel as its own sosfilt, bit for bit (%s)", cusci_status_name(st));
  cusci_array_release(sosc), cusci_array_release(xc), cusci_array_release(yc);
  cusci_array_release(x), cusci_array_release(b), cusci_array_release(a1), cusci_array_release(a), cusci_array_release(x1), cusci_array_release(x2);
}

/* The streaming filters over random chunkings equal one call, bit for
 * bit, output and final state. */
static void streaming(void)
{
  cusci_array *b = vec(bw, 5), *a = vec(aw, 5), *sos = NULL;
  int64_t s2[2] = { 2, 6 };
  cusci_array_from_host(host, sos2, 2, s2, CUSCI_FLOAT64, &sos);
  for (int kind = 0; kind < 2; kind++)
    for (int axis = 0; axis < 2; axis++) {
      int64_t sh[2] = { axis ? 3 : 1000, axis ? 1000 : 3 };
      cusci_array *x = rnd(2, sh, kind ? CUSCI_FLOAT32 : CUSCI_FLOAT64, 20 + 2 * kind + axis), *y = NULL, *zf = NULL;
      cusci_status st = kind ? cusci_signal_sosfilt(host, sos, x, axis, NULL, &y, &zf) : cusci_signal_lfilter(host, b, a, x, axis, NULL, &y, &zf);
      cusci_signal_filter *f = NULL;
      cusci_status sf = kind ? cusci_signal_filter_create_sosfilt(host, sos, 2, sh, axis, CUSCI_FLOAT32, NULL, &f)
                             : cusci_signal_filter_create_lfilter(host, b, a, 2, sh, axis, CUSCI_FLOAT64, NULL, &f);
      cusci_array *all = NULL;
      cusci_array_empty(host, 2, sh, cusci_array_dtype(y), &all);
      uint64_t seed = 99 + kind;
      int chunks = 0;
      bool good = st == CUSCI_OK && sf == CUSCI_OK && sf_feed(host, f, x, all, axis, NULL, 0, &seed, 0, 97, true, &chunks);
      cusci_array *state = NULL;
      good = good && cusci_signal_filter_state(host, f, &state) == CUSCI_OK && equal(all, y) && equal(state, zf);
      ok(good, "%s streaming along axis %d over %d random chunks (some empty) = one call, output and state bit for bit", kind ? "sosfilt" : "lfilter",
         axis, chunks);
      /* Reset to zero state: the first chunk again gives the first output. */
      cusci_array *y2 = NULL, *first = NULL, *fc = NULL;
      int64_t s0[2] = { 0, 0 }, e0[2] = { sh[0], sh[1] };
      e0[axis] = 50;
      cusci_array_slice(host, x, s0, e0, NULL, &first);
      cusci_signal_filter_reset(host, f, NULL);
      cusci_signal_filter_process(host, f, first, &y2);
      cusci_array *yf = NULL;
      cusci_array_slice(host, y, s0, e0, NULL, &yf);
      cusci_array_copy(host, yf, &fc);
      ok(equal(y2, fc), "%s streaming: after a reset the first chunk's output again", kind ? "sosfilt" : "lfilter");
      cusci_array *rel[] = { x, y, zf, all, state, y2, first, fc, yf };
      for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
        cusci_array_release(rel[i]);
      cusci_signal_filter_destroy(f);
    }
  cusci_array_release(b), cusci_array_release(a), cusci_array_release(sos);
}

/* The filters run in blocks of CUSCI__SIG_IIR_BLOCK samples past that
 * length (reference/signal/filter.h): a stream whose chunks end on the
 * blocks' edges, span several or are empty equals one call bit for bit,
 * and the blocks agree with the plain recurrence within rounding. */
static void blocks(void)
{
  enum { n = 3000 };
  static const int64_t lens[] = { 256, 0, 256, 100, 156, 700, 1, 255, 256, 512, 1, 0, 507 };
  cusci_array *b = vec(bw, 5), *a = vec(aw, 5), *sos = NULL;
  int64_t s2[2] = { 2, 6 };
  cusci_array_from_host(host, sos2, 2, s2, CUSCI_FLOAT64, &sos);
  for (int kind = 0; kind < 2; kind++)
    for (int axis = 0; axis < 2; axis++) {
      int64_t sh[2] = { axis ? 2 : n, axis ? n : 2 };
      cusci_array *x = rnd(2, sh, CUSCI_FLOAT64, 40 + 2 * kind + axis), *y = NULL, *zf = NULL, *all = NULL, *state = NULL;
      cusci_status st = kind ? cusci_signal_sosfilt(host, sos, x, axis, NULL, &y, &zf) : cusci_signal_lfilter(host, b, a, x, axis, NULL, &y, &zf);
      cusci_signal_filter *f = NULL;
      cusci_status sf = kind ? cusci_signal_filter_create_sosfilt(host, sos, 2, sh, axis, CUSCI_FLOAT64, NULL, &f)
                             : cusci_signal_filter_create_lfilter(host, b, a, 2, sh, axis, CUSCI_FLOAT64, NULL, &f);
      cusci_array_empty(host, 2, sh, CUSCI_FLOAT64, &all);
      int chunks;
      bool good = st == CUSCI_OK && sf == CUSCI_OK && sf_feed(host, f, x, all, axis, lens, sizeof lens / sizeof *lens, NULL, 0, 0, false, &chunks);
      good = good && cusci_signal_filter_state(host, f, &state) == CUSCI_OK && equal(all, y) && equal(state, zf);
      ok(good, "%s in blocks along axis %d: chunks on the blocks' edges, across several and empty = one call, output and state bit for bit",
         kind ? "sosfilt" : "lfilter", axis);
      /* The plain recurrence, here, in double. */
      const double *xv = cusci_array_data(x), *yv = cusci_array_data(y);
      double err = 0, nrm = 0;
      for (int64_t line = 0; line < 2; line++) {
        double z[4] = { 0, 0, 0, 0 };
        for (int64_t t = 0; t < n; t++) {
          const int64_t e = axis ? line * n + t : t * 2 + line;
          double v = xv[e];
          if (kind) {
            for (int q = 0; q < 2; q++) {
              const double *c = sos2 + 6 * q, w = c[0] * v + z[2 * q];
              z[2 * q] = c[1] * v - c[4] * w + z[2 * q + 1];
              z[2 * q + 1] = c[2] * v - c[5] * w;
              v = w;
            }
          } else {
            const double yn = z[0] + bw[0] * v;
            for (int k = 0; k < 3; k++)
              z[k] = z[k + 1] + bw[k + 1] * v - aw[k + 1] * yn;
            z[3] = bw[4] * v - aw[4] * yn;
            v = yn;
          }
          err += (yv[e] - v) * (yv[e] - v), nrm += v * v;
        }
      }
      const double rel = sqrt(err / nrm);
      ok(st == CUSCI_OK && rel < 1e-13, "%s in blocks along axis %d = the plain recurrence within rounding (relative RMS %.3g)", kind ? "sosfilt" : "lfilter",
         axis, rel);
      cusci_array *rel_[] = { x, y, zf, all, state };
      for (size_t i = 0; i < sizeof rel_ / sizeof *rel_; i++)
        cusci_array_release(rel_[i]);
      cusci_signal_filter_destroy(f);
    }
  cusci_array_release(b), cusci_array_release(a), cusci_array_release(sos);
}

/* The streaming resamplers over random chunkings = one call, bit for bit. */
static void resampling_streams(void)
{
  static const double h[9] = { 0.05, -0.1, 0.2, 0.6, 1, 0.6, 0.2, -0.1, 0.05 };
  static const int64_t rates[4][2] = { { 3, 2 }, { 2, 3 }, { 1, 4 }, { 5, 1 } };
  int64_t nh = 9;
  cusci_array *ha = NULL;
  cusci_array_from_host(host, h, 1, &nh, CUSCI_FLOAT64, &ha);
  for (int kind = 0; kind < 2; kind++)
    for (int rt = 0; rt < 4; rt++) {
      const int axis = rt % 2;
      int64_t sh[2] = { axis ? 3 : 700, axis ? 700 : 3 };
      const cusci_dtype dt = rt == 3 ? CUSCI_FLOAT32 : CUSCI_FLOAT64;
      cusci_array *x = rnd(2, sh, dt, 60 + 4 * kind + rt), *want = NULL;
      const int64_t up = rates[rt][0], down = rates[rt][1];
      cusci_status st = kind ? cusci_signal_resample_poly(host, x, up, down, axis, &want) : cusci_signal_upfirdn(host, ha, x, up, down, axis, &want);
      cusci_signal_resampler *r = NULL;
      cusci_status sr = kind ? cusci_signal_resampler_create_poly(host, up, down, 2, sh, axis, dt, &r)
                             : cusci_signal_resampler_create_upfirdn(host, ha, up, down, 2, sh, axis, dt, &r);
      int64_t ws[2] = { sh[0], sh[1] };
      ws[axis] = st == CUSCI_OK ? cusci_array_shape(want)[axis] : 0;
      cusci_array *all = NULL;
      cusci_array_empty(host, 2, ws, cusci_array_dtype(want ? want : x), &all);
      uint64_t seed = 7 + rt;
      int64_t at = 0, got = 0;
      bool good = st == CUSCI_OK && sr == CUSCI_OK;
      for (int c = 0; good && at <= 700; c++) {
        const bool last = at == 700;
        int64_t len = last ? 0 : (int64_t)(tk_rand(&seed) % 90);
        if (c % 5 == 2)
          len = 0;
        len = at + len > 700 ? 700 - at : len;
        int64_t s0[2] = { 0, 0 }, e0[2] = { sh[0], sh[1] };
        s0[axis] = at, e0[axis] = at + len;
        cusci_array *xv = NULL, *yv = NULL, *dst = NULL;
        cusci_array_slice(host, x, s0, e0, NULL, &xv);
        good = (last ? cusci_signal_resampler_finish(host, r, &yv) : cusci_signal_resampler_process(host, r, xv, &yv)) == CUSCI_OK;
        const int64_t m = good ? cusci_array_shape(yv)[axis] : 0;
        good = good && got + m <= ws[axis];
        if (good && m > 0) {
          int64_t d0[2] = { 0, 0 }, d1[2] = { ws[0], ws[1] };
          d0[axis] = got, d1[axis] = got + m;
          cusci_array_slice(host, all, d0, d1, NULL, &dst);
          good = cusci_array_copy(host, yv, &dst) == CUSCI_OK;
        }
        got += m;
        cusci_array_release(xv), cusci_array_release(yv), cusci_array_release(dst);
        if (last)
          break;
        at += len;
      }
      good = good && got == ws[axis] && equal(all, want);
      ok(good, "%s streaming, up %lld down %lld along axis %d (%s): chunks and finish = one call, bit for bit (%lld of %lld outputs)",
         kind ? "resample_poly" : "upfirdn", (long long)up, (long long)down, axis, cusci_dtype_name(dt), (long long)got, (long long)ws[axis]);
      cusci_signal_resampler_destroy(r);
      cusci_array_release(x), cusci_array_release(want), cusci_array_release(all);
    }
  cusci_array_release(ha);
}

static void errors(void)
{
  cusci_array *b = vec(bw, 5), *a = vec(aw, 5), *a0 = vec((double[]){ 0, 1 }, 2), *empty = NULL, *nanb = vec((double[]){ 1, NAN }, 2), *y = NULL;
  int64_t z0 = 0, xs[2] = { 3, 50 };
  cusci_array_empty(host, 1, &z0, CUSCI_FLOAT64, &empty);
  cusci_array *x = rnd(2, xs, CUSCI_FLOAT64, 5);
  tk_status(host, cusci_signal_lfilter(host, b, a0, x, -1, NULL, &y, NULL), CUSCI_ERR_VALUE, "a[0] is 0", "lfilter with a[0] == 0");
  tk_status(host, cusci_signal_lfilter(host, empty, a, x, -1, NULL, &y, NULL), CUSCI_ERR_VALUE, "b is empty", "lfilter with an empty b");
  tk_status(host, cusci_signal_lfilter(host, nanb, a, x, -1, NULL, &y, NULL), CUSCI_ERR_VALUE, "not finite", "lfilter with a NaN in b");
  tk_status(host, cusci_signal_lfilter(host, b, a, x, 2, NULL, &y, NULL), CUSCI_ERR_AXIS, "out of range", "lfilter along axis 2 of a 2-d x");
  int64_t zs[2] = { 3, 3 };
  cusci_array *zbad = NULL;
  cusci_array_zeros(host, 2, zs, CUSCI_FLOAT64, &zbad);
  tk_status(host, cusci_signal_lfilter(host, b, a, x, -1, zbad, &y, NULL), CUSCI_ERR_SHAPE, "zi has shape 3x3", "lfilter with zi of the wrong shape");
  int64_t s5[2] = { 2, 5 }, s6[2] = { 2, 6 };
  cusci_array *sos5 = NULL, *sosa = NULL, *zsos = NULL;
  cusci_array_zeros(host, 2, s5, CUSCI_FLOAT64, &sos5);
  double sbad[12] = { 1, 0, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0 };
  cusci_array_from_host(host, sbad, 2, s6, CUSCI_FLOAT64, &sosa);
  tk_status(host, cusci_signal_sosfilt(host, sos5, x, -1, NULL, &y, NULL), CUSCI_ERR_SHAPE, "(n_sections, 6)", "sosfilt with sos of shape (2, 5)");
  tk_status(host, cusci_signal_sosfilt(host, sosa, x, -1, NULL, &y, NULL), CUSCI_ERR_VALUE, "a0 must be 1", "sosfilt with a section's a0 = 2");
  cusci_array_zeros(host, 2, zs, CUSCI_FLOAT64, &zsos);
  cusci_array *sosg = NULL;
  cusci_array_from_host(host, sos2, 2, s6, CUSCI_FLOAT64, &sosg);
  tk_status(host, cusci_signal_sosfilt(host, sosg, x, -1, zsos, &y, NULL), CUSCI_ERR_SHAPE, "must have shape 2x3x2", "sosfilt with zi of the wrong shape");
  int64_t s33[3] = { 4, 2, 6 };
  cusci_array *sos4 = NULL;
  cusci_array_zeros(host, 3, s33, CUSCI_FLOAT64, &sos4);
  tk_status(host, cusci_signal_sosfilt(host, sos4, x, -1, NULL, &y, NULL), CUSCI_ERR_VALUE, "a0 must be 1", "sosfilt with a filter per channel whose sections are all 0");
  cusci_signal_filtfilt_opts o = { CUSCI_SIGNAL_PAD_ODD, 50, false };
  tk_status(host, cusci_signal_filtfilt(host, b, a, x, -1, &o, &y), CUSCI_ERR_VALUE, "more than padlen, which is 50", "filtfilt with padlen 50 of 50 samples");
  o.padlen = 0, o.gust = true;
  tk_status(host, cusci_signal_sosfiltfilt(host, sosg, x, -1, &o, &y), CUSCI_ERR_VALUE, "not sosfiltfilt's", "sosfiltfilt with gust");
  o.gust = false, o.padtype = (cusci_signal_padtype)7;
  tk_status(host, cusci_signal_filtfilt(host, b, a, x, -1, &o, &y), CUSCI_ERR_VALUE, "padtype 7", "filtfilt with padtype 7");
  cusci_array *ab = vec((double[]){ 1, -1 }, 2);
  tk_status(host, cusci_signal_lfilter_zi(host, b, ab, &y), CUSCI_ERR_VALUE, "no steady state", "lfilter_zi of a = [1, -1]");
  /* Convolution. */
  cusci_array *x1 = vec((double[]){ 1, 2, 3 }, 3), *m = NULL;
  int64_t s23[2] = { 2, 3 }, s32[2] = { 3, 2 };
  cusci_array *p = NULL, *q = NULL;
  cusci_array_zeros(host, 2, s23, CUSCI_FLOAT64, &p);
  cusci_array_zeros(host, 2, s32, CUSCI_FLOAT64, &q);
  tk_status(host, cusci_signal_convolve(host, x1, empty, CUSCI_SIGNAL_FULL, CUSCI_SIGNAL_AUTO, &m), CUSCI_ERR_VALUE, "in2 is empty", "convolve with an empty input");
  tk_status(host, cusci_signal_convolve(host, x1, p, CUSCI_SIGNAL_FULL, CUSCI_SIGNAL_AUTO, &m), CUSCI_ERR_SHAPE, "same number", "convolve of 1-d and 2-d");
  tk_status(host, cusci_signal_convolve(host, p, q, CUSCI_SIGNAL_VALID, CUSCI_SIGNAL_DIRECT, &m), CUSCI_ERR_SHAPE, "at least as large",
            "convolve valid of (2, 3) and (3, 2)");
  tk_status(host, cusci_signal_correlate(host, x1, x1, (cusci_signal_mode)3, CUSCI_SIGNAL_AUTO, &m), CUSCI_ERR_VALUE, "mode 3", "correlate with mode 3");
  tk_status(host, cusci_signal_convolve(host, x1, x1, CUSCI_SIGNAL_FULL, (cusci_signal_method)5, &m), CUSCI_ERR_VALUE, "method 5", "convolve with method 5");
  tk_status(host, cusci_signal_fftconvolve(host, p, p, CUSCI_SIGNAL_FULL, 2, (int[]){ 1, -1 }, &m), CUSCI_ERR_AXIS, "given twice", "fftconvolve with an axis twice");
  tk_status(host, cusci_signal_fftconvolve(host, p, q, CUSCI_SIGNAL_FULL, 1, (int[]){ 1 }, &m), CUSCI_ERR_SHAPE, "equal or 1",
            "fftconvolve of (2, 3) and (3, 2) along axis 1");
  tk_status(host, cusci_signal_correlation_lags(host, 0, 3, CUSCI_SIGNAL_FULL, &m), CUSCI_ERR_VALUE, "at least 1", "correlation_lags of length 0");
  cusci_signal_method meth = (cusci_signal_method)9;
  int64_t big = 1 << 20;
  cusci_array *xb = NULL;
  cusci_array_zeros(host, 1, &big, CUSCI_FLOAT64, &xb);
  ok(cusci_signal_choose_conv_method(host, x1, x1, CUSCI_SIGNAL_FULL, &meth) == CUSCI_OK && meth == CUSCI_SIGNAL_DIRECT,
     "choose_conv_method: direct for 3 by 3");
  ok(cusci_signal_choose_conv_method(host, xb, xb, CUSCI_SIGNAL_FULL, &meth) == CUSCI_OK && meth == CUSCI_SIGNAL_FFT,
     "choose_conv_method: the FFT for 2^20 by 2^20");
  cusci_array_release(xb);
  /* Resampling, order filters, trends. */
  tk_status(host, cusci_signal_upfirdn(host, b, x, 0, 2, -1, &m), CUSCI_ERR_VALUE, "at least 1", "upfirdn with up 0");
  tk_status(host, cusci_signal_resample_poly(host, x, 2, -1, -1, &m), CUSCI_ERR_VALUE, "at least 1", "resample_poly with down -1");
  tk_status(host, cusci_signal_resample(host, x, 0, -1, &m), CUSCI_ERR_VALUE, "num is 0", "resample to 0 samples");
  cusci_array *cx = NULL;
  cusci_array_astype(host, x, CUSCI_COMPLEX128, true, &cx);
  tk_status(host, cusci_signal_hilbert(host, cx, 0, -1, &m), CUSCI_ERR_DTYPE, "must be real", "hilbert of complex input");
  tk_status(host, cusci_signal_medfilt(host, cx, 0, NULL, &m), CUSCI_ERR_DTYPE, "not supported", "medfilt of complex input");
  tk_status(host, cusci_signal_medfilt(host, x, 1, (int64_t[]){ 4 }, &m), CUSCI_ERR_VALUE, "must be odd", "medfilt with an even kernel");
  tk_status(host, cusci_signal_medfilt2d(host, x1, 0, NULL, &m), CUSCI_ERR_SHAPE, "takes 2", "medfilt2d of a 1-d array");
  int64_t d3[2] = { 3, 3 };
  cusci_array *dom = NULL;
  cusci_array_ones(host, 2, d3, CUSCI_FLOAT64, &dom);
  tk_status(host, cusci_signal_order_filter(host, x, dom, 9, &m), CUSCI_ERR_VALUE, "not within the 9", "order_filter with rank 9 of 9");
  tk_status(host, cusci_signal_detrend(host, x, -1, CUSCI_SIGNAL_TREND_LINEAR, 1, (int64_t[]){ 51 }, &m), CUSCI_ERR_VALUE, "breakpoint 51",
            "detrend with a breakpoint past the end");
  cusci_array *q0 = NULL, *r0 = NULL;
  tk_status(host, cusci_signal_deconvolve(host, empty, x1, &q0, &r0), CUSCI_ERR_VALUE, "signal is empty", "deconvolve of an empty signal");
  tk_status(host, cusci_signal_lfiltic(host, b, a0, x1, NULL, &m), CUSCI_ERR_VALUE, "a[0] is 0", "lfiltic with a[0] == 0");
  ok(q0 == NULL && r0 == NULL, "deconvolve leaves nothing behind when it fails");
  cusci_array_release(cx), cusci_array_release(dom);
  /* The rest of signal.h's functions, each a bad input. */
  {
    int64_t s36[2] = { 3, 6 }, s33b[2] = { 3, 3 }, s3[1] = { 3 };
    cusci_array *sosb = NULL, *m2 = NULL, *k2 = NULL, *h3 = NULL, *h2 = NULL;
    double sb[6] = { 1, 0, 0, 1, 0, 0 };
    cusci_array_from_host(host, sb, 2, (int64_t[]){ 1, 6 }, CUSCI_FLOAT64, &sosb);
    cusci_array_zeros(host, 2, s36, CUSCI_FLOAT64, &m2);
    cusci_array_zeros(host, 2, s33b, CUSCI_FLOAT64, &k2);
    cusci_array_ones(host, 1, s3, CUSCI_FLOAT64, &h3);
    cusci_array_ones(host, 1, (int64_t[]){ 2 }, CUSCI_FLOAT64, &h2);
    int64_t s3d[3] = { 2, 1, 6 };
    cusci_array *sos3 = NULL, *cx2 = NULL, *w26 = NULL;
    cusci_array_zeros(host, 3, s3d, CUSCI_FLOAT64, &sos3);
    cusci_array_astype(host, m2, CUSCI_COMPLEX128, true, &cx2);
    cusci_array_zeros(host, 2, (int64_t[]){ 2, 6 }, CUSCI_FLOAT64, &w26);
    tk_status(host, cusci_signal_sosfilt_zi(host, sos3, &m), CUSCI_ERR_VALUE, "a0 must be 1", "sosfilt_zi of sections all 0");
    tk_status(host, cusci_signal_oaconvolve(host, x1, m2, CUSCI_SIGNAL_FULL, 0, NULL, &m), CUSCI_ERR_SHAPE, "same number", "oaconvolve of 1-d and 2-d");
    tk_status(host, cusci_signal_convolve2d(host, x1, x1, CUSCI_SIGNAL_FULL, CUSCI_SIGNAL_BOUNDARY_FILL, 0, &m), CUSCI_ERR_SHAPE, "both must be 2-D",
              "convolve2d of 1-d inputs");
    tk_status(host, cusci_signal_correlate2d(host, m2, k2, CUSCI_SIGNAL_SAME, (cusci_signal_boundary)4, 0, &m), CUSCI_ERR_VALUE, "boundary 4",
              "correlate2d with boundary 4");
    tk_status(host, cusci_signal_sepfir2d(host, m2, h2, h3, &m), CUSCI_ERR_VALUE, "odd length", "sepfir2d with an even hrow");
    tk_status(host, cusci_signal_envelope(host, x1, (int64_t[]){ 2, 1 }, 0, false, CUSCI_SIGNAL_RESIDUAL_NONE, 0, &m), CUSCI_ERR_VALUE, "bp_in",
              "envelope with bp_in [2, 1)");
    tk_status(host, cusci_signal_hilbert2(host, cx2, NULL, NULL, &m), CUSCI_ERR_DTYPE, "must be real", "hilbert2 of complex input");
    tk_status(host, cusci_signal_wiener(host, m2, 1, (int64_t[]){ 0 }, NULL, &m), CUSCI_ERR_VALUE, "at least 1", "wiener with a window of 0");
    tk_status(host, cusci_signal_savgol_coeffs(host, 5, 5, 0, 1, &m), CUSCI_ERR_VALUE, "less than window_length", "savgol_coeffs of order 5 in 5");
    tk_status(host, cusci_signal_savgol_filter(host, x1, 5, 2, 0, 1, 0, CUSCI_SIGNAL_SAVGOL_INTERP, 0, &m), CUSCI_ERR_VALUE, "longer than x",
              "savgol_filter interp with a window longer than x");
    tk_status(host, cusci_signal_decimate(host, x, 0, 0, CUSCI_SIGNAL_FTYPE_IIR, true, -1, &m), CUSCI_ERR_VALUE, "q is 0", "decimate by 0");
    tk_status(host, cusci_signal_symiirorder1(host, x, 1, 1.5, -1, &m), CUSCI_ERR_VALUE, "less than 1", "symiirorder1 with |z1| = 1.5");
    tk_status(host, cusci_signal_symiirorder1(host, x1, 1, 0.99, -1, &m), CUSCI_ERR_VALUE, "does not converge", "symiirorder1 of 3 samples, z1 0.99");
    tk_status(host, cusci_signal_symiirorder2(host, cx2, 0.5, 0.3, -1, &m), CUSCI_ERR_DTYPE, "real input", "symiirorder2 of complex input");
    tk_status(host, cusci_signal_upfirdn_ex(host, h3, x1, 1, 1, 0, (cusci_signal_ext)9, 0, &m), CUSCI_ERR_VALUE, "mode 9", "upfirdn_ex with mode 9");
    tk_status(host, cusci_signal_upfirdn_ex(host, h3, h2, 1, 1, 0, CUSCI_SIGNAL_EXT_LINE, 0, &m), CUSCI_ERR_VALUE, "line", "upfirdn_ex line of 2 samples");
    tk_status(host, cusci_signal_resample_poly_ex(host, x, 3, 2, -1, NULL, CUSCI_SIGNAL_POLY_PAD_MEAN, 1.5, &m), CUSCI_ERR_VALUE, "no effect",
              "resample_poly_ex with a cval and padtype mean");
    cusci_signal_resampler *rs = NULL;
    tk_status(host, cusci_signal_resampler_create_poly(host, 0, 2, 1, s3, 0, CUSCI_FLOAT64, &rs), CUSCI_ERR_VALUE, "at least 1", "a resampler with up 0");
    cusci_status sr = cusci_signal_resampler_create_upfirdn(host, h3, 2, 1, 2, s36, 1, CUSCI_FLOAT64, &rs);
    cusci_array *ywrong = NULL, *y1 = NULL, *yafter = NULL, *yreset = NULL;
    tk_status(host, sr == CUSCI_OK ? cusci_signal_resampler_process(host, rs, w26, &ywrong) : sr, CUSCI_ERR_SHAPE, "chunks of shape 3x0",
              "a resampler given a chunk of the wrong shape");
    if (sr == CUSCI_OK)
      cusci_signal_resampler_finish(host, rs, &y1);
    tk_status(host, sr == CUSCI_OK ? cusci_signal_resampler_process(host, rs, m2, &yafter) : sr, CUSCI_ERR_VALUE, "finished",
              "a resampler given a chunk after finish");
    ok(sr == CUSCI_OK && cusci_signal_resampler_reset(host, rs) == CUSCI_OK && cusci_signal_resampler_process(host, rs, m2, &yreset) == CUSCI_OK,
       "a resampler takes chunks again after a reset");
    cusci_signal_resampler_destroy(rs);
    cusci_array *rel[] = { sosb, m2, k2, h3, h2, sos3, cx2, w26, ywrong, y1, yafter, yreset };
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
      cusci_array_release(rel[i]);
  }
  /* Streaming. */
  cusci_signal_filter *f = NULL;
  int64_t fs[2] = { 3, 0 };
  cusci_status st = cusci_signal_filter_create_lfilter(host, b, a, 2, fs, 1, CUSCI_FLOAT64, NULL, &f);
  int64_t wrong[2] = { 4, 10 };
  cusci_array *xw = rnd(2, wrong, CUSCI_FLOAT64, 8);
  tk_status(host, st == CUSCI_OK ? cusci_signal_filter_process(host, f, xw, &y) : st, CUSCI_ERR_SHAPE, "chunks of shape 3x0",
            "a streaming filter given a chunk of the wrong shape");
  cusci_signal_filter_destroy(f);
  tk_status(host, cusci_signal_filter_create_lfilter(host, b, a0, 2, fs, 1, CUSCI_FLOAT64, NULL, &f), CUSCI_ERR_VALUE, "a[0] is 0",
            "a streaming filter with a[0] == 0");
  ok(y == NULL && m == NULL && f == NULL, "no result is left behind by a failed call");
  cusci_array *rel[] = { b, a, a0, empty, nanb, x, zbad, sos5, sosa, zsos, sosg, sos4, ab, x1, p, q, xw };
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
    cusci_array_release(rel[i]);
}

int main(void)
{
  host = tk_host_ctx();
  sf_fixtures(host, NULL);
  properties();
  streaming();
  blocks();
  resampling_streams();
  errors();
  cusci_ctx_destroy(host);
  return done_testing();
}
