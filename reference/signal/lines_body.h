/*
 * reference/signal/lines_body.h: the body of lines.c, included once per
 * precision: R the real type, C its complex type, NAME(x) x with the
 * precision's suffix.
 */

/* The line's input in buf (complex for C2C and C2R, real otherwise). */
static void NAME(gather)(const cusci__sig_lines *l, const char *src, int64_t len, void *buf)
{
  const int64_t st = l->sstr[l->axis];
  const bool cplx = l->op == CUSCI__SIG_LINE_C2C || l->op == CUSCI__SIG_LINE_C2R;
  if (st == 1) {
    memcpy(buf, src, (cplx ? sizeof(C) : sizeof(R)) * (size_t)len);
    return;
  }
  if (cplx) {
    const C *s = (const C *)src;
    C *b = buf;
    for (int64_t j = 0; j < len; j++)
      b[j] = s[j * st];
  } else {
    const R *s = (const R *)src;
    R *b = buf;
    for (int64_t j = 0; j < len; j++)
      b[j] = s[j * st];
  }
}

/* One line: from src to dst, through buf (the line) and work (the plan's).
 * direct: dst's line is contiguous and may be written before src's is
 * read (another array, or this line of the same one), so that the
 * transform runs in it. */
static int NAME(line)(const cusci__sig_lines *l, const void *plan, const char *src, char *dst, void *buf, void *work, bool direct)
{
  const int64_t n = l->n, ds = l->dstr[l->axis];
  const R sc = (R)l->scale;
  switch (l->op) {
  case CUSCI__SIG_LINE_C2C: {
    C *b = direct ? (C *)dst : buf, *d = (C *)dst;
    if (!direct || src != dst)
      NAME(gather)(l, src, n, b);
    NAME(cusci__fft_run)(plan, b, l->sign, work);
    if (!direct || sc != 1)
      for (int64_t j = 0; j < n; j++)
        d[j * ds] = sc * b[j];
    return 0;
  }
  case CUSCI__SIG_LINE_R2C: {
    R *x = buf;
    C *X = direct ? (C *)dst : (C *)(x + (n + 2)), *d = (C *)dst;
    NAME(gather)(l, src, n, x);
    NAME(cusci__rfft_forward)(plan, x, X, work);
    if (!direct || sc != 1)
      for (int64_t j = 0; j <= n / 2; j++)
        d[j * ds] = sc * X[j];
    return 0;
  }
  case CUSCI__SIG_LINE_C2R: {
    C *X = buf;
    R *x = direct ? (R *)dst : (R *)(X + (n / 2 + 1)), *d = (R *)dst;
    NAME(gather)(l, src, n / 2 + 1, X);
    NAME(cusci__rfft_backward)(plan, X, x, work);
    if (!direct || sc != 1)
      for (int64_t j = 0; j < n; j++)
        d[j * ds] = sc * x[j];
    return 0;
  }
  default: {
    /* buf: x and y (n reals each), the extension (len reals) and its
     * transform (len / 2 + 1 complex values). */
    const int64_t len = cusci__dct_len(l->type, l->sine, n);
    C *U = buf;
    R *x = (R *)(U + (len / 2 + 1)), *y = x + n, *u = y + n, *d = (R *)dst;
    NAME(gather)(l, src, n, x);
    x[0] *= (R)l->pre0;
    x[n - 1] *= (R)l->preN;
    NAME(cusci__dct_run)(plan, l->type, l->sine, n, x, y, u, U, work);
    y[0] *= (R)l->post0;
    y[n - 1] *= (R)l->postN;
    for (int64_t j = 0; j < n; j++)
      d[j * ds] = sc * y[j];
    return 0;
  }
  }
}

static void *NAME(plan)(const cusci__sig_lines *l)
{
  switch (l->op) {
  case CUSCI__SIG_LINE_C2C: return NAME(cusci__fft_plan)(l->n, false);
  case CUSCI__SIG_LINE_R2C:
  case CUSCI__SIG_LINE_C2R: return NAME(cusci__rfft_plan)(l->n);
  default: return NAME(cusci__rfft_plan)(cusci__dct_len(l->type, l->sine, l->n));
  }
}

static void NAME(plan_free)(const cusci__sig_lines *l, void *plan)
{
  if (l->op == CUSCI__SIG_LINE_C2C)
    NAME(cusci__fft_free)(plan);
  else
    NAME(cusci__rfft_free)(plan);
}

/* The bytes of scratch a step's run needs: room for the line in and out
 * (n + 2 reals and n / 2 + 1 complex values, or n complex values, or, for
 * the DCT, 2 n reals, the extension and its transform), then the plan's
 * work area. */
static size_t NAME(scratch)(const cusci__sig_lines *l, const void *plan, size_t *line_bytes)
{
  const size_t work_bytes = l->op == CUSCI__SIG_LINE_C2C ? NAME(cusci__fft_work)(plan) : NAME(cusci__rfft_work)(plan);
  const int64_t len = l->op == CUSCI__SIG_LINE_DCT ? cusci__dct_len(l->type, l->sine, l->n) : 0;
  size_t b = sizeof(C) * (size_t)(l->n + 2) * 2 + sizeof(C) * (size_t)(len / 2 + 1) + sizeof(R) * (size_t)(len + 2 * l->n);
  b = (b + 63) / 64 * 64;
  *line_bytes = b;
  return b + work_bytes;
}

static void NAME(run)(const cusci__sig_lines *l, const void *plan, const void *src, void *dst, void *scratch)
{
  size_t line_bytes;
  NAME(scratch)(l, plan, &line_bytes);
  void *buf = scratch, *work = (char *)scratch + line_bytes;
  const int ax = l->axis;
  bool same = true;
  for (int i = 0; i < l->ndim; i++)
    same &= l->sstr[i] == l->dstr[i];
  /* C2C in place needs the same line; the real transforms read src into
   * buf first, so any other array will do. */
  const bool direct = l->dstr[ax] == 1 && l->op != CUSCI__SIG_LINE_DCT &&
                      (src != dst || (l->op == CUSCI__SIG_LINE_C2C && same && l->sstr[ax] == 1));
  int64_t idx[CUSCI__SIG_MAXD] = {0};
  const size_t ssz = l->op == CUSCI__SIG_LINE_C2C || l->op == CUSCI__SIG_LINE_C2R ? sizeof(C) : sizeof(R);
  const size_t dsz = l->op == CUSCI__SIG_LINE_C2C || l->op == CUSCI__SIG_LINE_R2C ? sizeof(C) : sizeof(R);
  for (;;) {
    int64_t so = 0, dof = 0;
    for (int i = 0; i < l->ndim; i++)
      if (i != ax) {
        so += idx[i] * l->sstr[i];
        dof += idx[i] * l->dstr[i];
      }
    NAME(line)(l, plan, (const char *)src + so * (int64_t)ssz, (char *)dst + dof * (int64_t)dsz, buf, work, direct);
    int i = l->ndim - 1;
    for (; i >= 0; i--) {
      if (i == ax)
        continue;
      if (++idx[i] < l->shape[i])
        break;
      idx[i] = 0;
    }
    if (i < 0)
      break;
  }
}
