/*
 * tests/linalg-qr.c: qr, rq, lstsq, norm, cond, trace, null_space, orth,
 * vdot, tensordot, multi_dot, matrix_power, einsum, block_diag and
 * convolution_matrix on the host backend: against SciPy's and NumPy's
 * results (tests/fixtures/fixtures_linalg_qr.py), the property suite
 * (tests/linalg-qr-suite.h), and the error paths.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/linalg-qr-suite.h"

static cusci_ctx *ctx;

static cusci_array *fx(const char *name)
{
  cusci_array *a = tk_fixture(ctx, "linalg_qr", name, false);
  if (!a) {
    printf("Bail out! missing fixture %s\n", name);
    exit(1);
  }
  return a;
}

/* got against the fixture `name`: same shape (and dtype unless any_dtype),
 * values (or their moduli, with absval) within 64 * n * eps * max(1, |want|). */
static void check_ex(cusci_status st, cusci_array **gotp, const char *name, int64_t n, bool absval, bool any_dtype)
{
  cusci_array *got = *gotp, *want = fx(name);
  bool same = st == CUSCI_OK && lu_same_shape(got, want, any_dtype);
  double err = INFINITY, tol = 0;
  if (same) {
    int64_t size = cusci_array_size(want);
    lu_c *g = lu_values(ctx, got), *w = lu_values(ctx, want);
    if (absval)
      for (int64_t i = 0; i < size; i++)
        g[i] = cabs(g[i]);
    double scale = lu_maxabs(w, size);
    cusci_dtype dt = cusci_array_dtype(want);
    tol = 64 * n * lu_eps(dt == CUSCI_INT32 || dt == CUSCI_INT64 ? CUSCI_FLOAT64 : dt) * (scale > 1 ? scale : 1);
    err = lu_maxdiff(g, w, size);
    free(g), free(w);
  }
  ok(same && err <= tol, "%s: %s, max error %.3g <= %.3g", name,
     st == CUSCI_OK ? (same ? "shape and dtype match" : "shape or dtype differ") : cusci_ctx_last_error(ctx), err, tol);
  cusci_array_release(want);
}
#define check(st, got, name, n) check_ex((st), (got), (name), (n), false, false)
#define REL(x) (cusci_array_release(x), (x) = NULL)

/* Q Q^H of a 2-D array on the host. */
static cusci_array *projector(cusci_array *q)
{
  int64_t r = cusci_array_shape(q)[0], c = cusci_array_shape(q)[1], s[2] = { r, r };
  lu_c *v = lu_values(ctx, q), *vt = malloc(sizeof *vt * (size_t)(r * c + 1)), *p = malloc(sizeof *p * (size_t)(r * r));
  for (int64_t i = 0; i < r; i++)
    for (int64_t j = 0; j < c; j++)
      vt[j * r + i] = conj(v[i * c + j]);
  lu_gemm('N', v, vt, p, r, r, c);
  cusci_array *out = lu_array(ctx, CUSCI_COMPLEX128, 2, s, p);
  free(v), free(vt), free(p);
  return out;
}

static void fixtures(void)
{
  cusci_array *a, *b, *q = NULL, *r = NULL, *p = NULL, *x = NULL, *res = NULL, *s = NULL, *o = NULL;
  /* qr */
  a = fx("qr_full_a");
  check(cusci_linalg_qr(ctx, a, NULL, &q, &r, NULL), &q, "qr_full_q", 8);
  check(CUSCI_OK, &r, "qr_full_r", 8);
  REL(a), REL(q), REL(r);
  a = fx("qr_econ_a");
  check(cusci_linalg_qr(ctx, a, &(cusci_linalg_qr_opts){ .mode = CUSCI_LINALG_QR_ECONOMIC }, &q, &r, NULL), &q, "qr_econ_q", 8);
  check(CUSCI_OK, &r, "qr_econ_r", 8);
  REL(a), REL(q), REL(r);
  a = fx("qr_r_a");
  check(cusci_linalg_qr(ctx, a, &(cusci_linalg_qr_opts){ .mode = CUSCI_LINALG_QR_R }, NULL, &r, NULL), &r, "qr_r_r", 8);
  REL(a), REL(r);
  a = fx("qr_piv_a");
  check(cusci_linalg_qr(ctx, a, &(cusci_linalg_qr_opts){ .pivoting = true }, &q, &r, &p), &q, "qr_piv_q", 8);
  check(CUSCI_OK, &r, "qr_piv_r", 8);
  check(CUSCI_OK, &p, "qr_piv_p", 1);
  REL(a), REL(q), REL(r), REL(p);
  a = fx("qr_pivc_a");
  check(cusci_linalg_qr(ctx, a, &(cusci_linalg_qr_opts){ .pivoting = true, .mode = CUSCI_LINALG_QR_ECONOMIC }, &q, &r, &p), &r, "qr_pivc_r", 8);
  check(CUSCI_OK, &p, "qr_pivc_p", 1);
  REL(a), REL(q), REL(r), REL(p);
  /* rq: |R| */
  a = fx("rq_full_a");
  check_ex(cusci_linalg_rq(ctx, a, NULL, &r, &q), &r, "rq_full_absr", 8, true, true);
  REL(q), REL(r);
  check_ex(cusci_linalg_rq(ctx, a, &(cusci_linalg_rq_opts){ .mode = CUSCI_LINALG_QR_R }, &r, NULL), &r, "rq_full_absr", 8, true, true);
  REL(a), REL(r);
  a = fx("rq_econ_a");
  check_ex(cusci_linalg_rq(ctx, a, &(cusci_linalg_rq_opts){ .mode = CUSCI_LINALG_QR_ECONOMIC }, &r, &q), &r, "rq_econ_absr", 8, true, true);
  REL(a), REL(q), REL(r);
  /* lstsq */
  int64_t rank = -1;
  cusci_array *want_rank;
  a = fx("lstsq_over_a"), b = fx("lstsq_over_b");
  check(lstsq1(ctx, a, b, NULL, &x, &res, &rank, &s), &x, "lstsq_over_x", 16);
  check(CUSCI_OK, &res, "lstsq_over_res", 16);
  check(CUSCI_OK, &s, "lstsq_over_s", 8);
  want_rank = fx("lstsq_over_rank");
  int64_t wr = -2;
  cusci_array_to_host(ctx, want_rank, &wr, sizeof wr);
  ok(rank == wr, "lstsq_over rank %lld == %lld", (long long)rank, (long long)wr);
  REL(want_rank), REL(a), REL(b), REL(x), REL(res), REL(s);
  a = fx("lstsq_def_a"), b = fx("lstsq_def_b");
  check(lstsq1(ctx, a, b, NULL, &x, &res, &rank, &s), &x, "lstsq_def_x", 64);
  check(CUSCI_OK, &s, "lstsq_def_s", 8);
  want_rank = fx("lstsq_def_rank");
  cusci_array_to_host(ctx, want_rank, &wr, sizeof wr);
  ok(rank == wr && cusci_array_size(res) == 0 && cusci_array_dtype(res) == CUSCI_FLOAT64, "lstsq_def rank %lld == %lld, residues empty float64",
     (long long)rank, (long long)wr);
  REL(want_rank), REL(a), REL(b), REL(x), REL(res), REL(s);
  a = fx("lstsq_wide_a"), b = fx("lstsq_wide_b");
  check(lstsq1(ctx, a, b, NULL, &x, &res, &rank, &s), &x, "lstsq_wide_x", 16);
  REL(a), REL(b), REL(x), REL(res), REL(s);
  a = fx("lstsq_gelsy_a"), b = fx("lstsq_gelsy_b");
  check(lstsq1(ctx, a, b, &(cusci_linalg_lstsq_opts){ .lapack_driver = CUSCI_LINALG_LSTSQ_GELSY }, &x, &res, &rank, NULL), &x,
        "lstsq_gelsy_x", 16);
  REL(x), REL(res);
  check(lstsq1(ctx, a, b, &(cusci_linalg_lstsq_opts){ .has_cond = true, .cond = 0.5, .lapack_driver = CUSCI_LINALG_LSTSQ_GELSS }, &x,
                           &res, &rank, &s),
        &x, "lstsq_cond_x", 16);
  want_rank = fx("lstsq_cond_rank");
  cusci_array_to_host(ctx, want_rank, &wr, sizeof wr);
  ok(rank == wr, "lstsq_cond rank %lld == %lld", (long long)rank, (long long)wr);
  REL(want_rank), REL(a), REL(b), REL(x), REL(res), REL(s);
  /* lstsq on stacks: the rank as an array */
  cusci_array *rka = NULL;
  a = fx("lstsq_batch_a"), b = fx("lstsq_batch_b");
  check(cusci_linalg_lstsq(ctx, a, b, NULL, &x, &res, &rka, &s), &x, "lstsq_batch_x", 16);
  check(CUSCI_OK, &res, "lstsq_batch_res", 16);
  check(CUSCI_OK, &rka, "lstsq_batch_rank", 1);
  check(CUSCI_OK, &s, "lstsq_batch_s", 8);
  REL(a), REL(b), REL(x), REL(res), REL(s), REL(rka);
  a = fx("lstsq_bvec_a"), b = fx("lstsq_bvec_b");
  check(cusci_linalg_lstsq(ctx, a, b, NULL, &x, &res, &rka, &s), &x, "lstsq_bvec_x", 16);
  check(CUSCI_OK, &rka, "lstsq_bvec_rank", 1);
  ok(res && cusci_array_ndim(res) == 2 && cusci_array_shape(res)[0] == 2 && cusci_array_shape(res)[1] == 0 &&
     cusci_array_dtype(res) == CUSCI_COMPLEX64, "lstsq_bvec residues: an empty (2, 0) complex64 array");
  REL(a), REL(b), REL(x), REL(res), REL(s), REL(rka);

  /* norm */
  static const struct {
    const char *name;
    cusci_linalg_ord ord;
    double p;
  } mords[] = { { "none", CUSCI_LINALG_ORD_NONE, 0 }, { "fro", CUSCI_LINALG_ORD_FRO, 0 }, { "nuc", CUSCI_LINALG_ORD_NUC, 0 },
                { "inf", CUSCI_LINALG_ORD_INF, 0 },   { "ninf", CUSCI_LINALG_ORD_NEG_INF, 0 }, { "p1", CUSCI_LINALG_ORD_P, 1 },
                { "pn1", CUSCI_LINALG_ORD_P, -1 },    { "p2", CUSCI_LINALG_ORD_P, 2 },    { "pn2", CUSCI_LINALG_ORD_P, -2 } },
    vords[] = { { "none", CUSCI_LINALG_ORD_NONE, 0 }, { "inf", CUSCI_LINALG_ORD_INF, 0 }, { "ninf", CUSCI_LINALG_ORD_NEG_INF, 0 },
                { "p0", CUSCI_LINALG_ORD_P, 0 },      { "p1", CUSCI_LINALG_ORD_P, 1 },   { "p3", CUSCI_LINALG_ORD_P, 3 },
                { "pn15", CUSCI_LINALG_ORD_P, -1.5 } };
  char nm[64];
  a = fx("norm_m");
  for (size_t i = 0; i < sizeof mords / sizeof *mords; i++) {
    snprintf(nm, sizeof nm, "norm_m_%s", mords[i].name);
    check(cusci_linalg_norm(ctx, a, &(cusci_linalg_norm_opts){ .ord = mords[i].ord, .p = mords[i].p }, &o), &o, nm, 8);
    REL(o);
  }
  REL(a);
  a = fx("norm_v");
  for (size_t i = 0; i < sizeof vords / sizeof *vords; i++) {
    snprintf(nm, sizeof nm, "norm_v_%s", vords[i].name);
    check(cusci_linalg_norm(ctx, a, &(cusci_linalg_norm_opts){ .ord = vords[i].ord, .p = vords[i].p }, &o), &o, nm, 8);
    REL(o);
  }
  REL(a);
  a = fx("norm_t");
  check(cusci_linalg_norm(ctx, a, NULL, &o), &o, "norm_t_all", 8);
  REL(o);
  check(cusci_linalg_norm(ctx, a, &(cusci_linalg_norm_opts){ .keepdims = true }, &o), &o, "norm_t_all_keep", 8);
  REL(o);
  check(cusci_linalg_norm(ctx, a, &(cusci_linalg_norm_opts){ .ord = CUSCI_LINALG_ORD_P, .p = 3, .naxes = 1, .axes = { 1 } }, &o), &o,
        "norm_t_ax1_p3", 8);
  REL(o);
  check(cusci_linalg_norm(ctx, a, &(cusci_linalg_norm_opts){ .ord = CUSCI_LINALG_ORD_NUC, .naxes = 2, .axes = { 1, 2 } }, &o), &o,
        "norm_t_ax12_nuc", 8);
  REL(o);
  check(cusci_linalg_norm(ctx, a, &(cusci_linalg_norm_opts){ .ord = CUSCI_LINALG_ORD_INF, .naxes = 2, .axes = { 2, 0 }, .keepdims = true }, &o), &o,
        "norm_t_ax20_inf_keep", 8);
  REL(o);
  check(cusci_linalg_norm(ctx, a, &(cusci_linalg_norm_opts){ .ord = CUSCI_LINALG_ORD_P, .p = 1, .naxes = 2, .axes = { 0, -1 } }, &o), &o,
        "norm_t_ax02_p1", 8);
  REL(o), REL(a);
  /* cond */
  a = fx("cond_a");
  for (size_t i = 0; i < sizeof mords / sizeof *mords; i++) {
    if (!strcmp(mords[i].name, "p2"))
      continue;
    snprintf(nm, sizeof nm, "cond_%s", mords[i].name);
    check(cusci_linalg_cond(ctx, a, mords[i].ord, mords[i].p, &o), &o, nm, 64);
    REL(o);
  }
  REL(a);
  a = fx("cond_rect_a");
  check(cusci_linalg_cond(ctx, a, CUSCI_LINALG_ORD_NONE, 0, &o), &o, "cond_rect", 64);
  REL(o), REL(a);
  /* trace */
  a = fx("trace_a");
  check(cusci_linalg_trace(ctx, a, 1, 2, 0, &o), &o, "trace_out", 4);
  REL(o);
  check(cusci_linalg_trace(ctx, a, -2, 1, 2, &o), &o, "trace_neg", 4);
  REL(o), REL(a);
  a = fx("trace_int_a");
  check(cusci_linalg_trace(ctx, a, 0, 0, 1, &o), &o, "trace_int_out", 1);
  REL(o), REL(a);
  /* null_space, orth: the projectors and the column counts */
  a = fx("null_a");
  cusci_status st = cusci_linalg_null_space(ctx, a, 0, &o);
  cusci_array *pr = st == CUSCI_OK ? projector(o) : NULL;
  check_ex(st, &pr, "null_proj", 16, false, true);
  REL(pr), REL(o), REL(a);
  a = fx("orth_a");
  st = cusci_linalg_orth(ctx, a, 0, &o);
  pr = st == CUSCI_OK ? projector(o) : NULL;
  check_ex(st, &pr, "orth_proj", 16, false, true);
  REL(pr), REL(o), REL(a);
  /* vdot, tensordot, multi_dot, matrix_power */
  a = fx("vdot_a"), b = fx("vdot_b");
  check(cusci_linalg_vdot(ctx, a, b, &o), &o, "vdot_out", 8);
  REL(o), REL(a), REL(b);
  a = fx("td_a"), b = fx("td_b");
  check(cusci_linalg_tensordot(ctx, a, b, 2, NULL, NULL, &o), &o, "td_out", 32);
  REL(o), REL(b);
  b = fx("td_b2");
  check(cusci_linalg_tensordot(ctx, a, b, 2, (const int[]){ 0, 2 }, (const int[]){ 2, 0 }, &o), &o, "td_out2", 32);
  REL(o), REL(a), REL(b);
  cusci_array *md[5];
  for (int i = 0; i < 5; i++) {
    snprintf(nm, sizeof nm, "md_%d", i);
    md[i] = fx(nm);
  }
  check(cusci_linalg_multi_dot(ctx, 5, (const cusci_array *const *)md, &o), &o, "md_out", 32);
  REL(o);
  check(cusci_linalg_multi_dot(ctx, 3, (const cusci_array *const *)md + 1, &o), &o, "md_out3", 32);
  REL(o);
  for (int i = 0; i < 5; i++)
    cusci_array_release(md[i]);
  a = fx("mp_a");
  static const struct {
    int64_t k;
    const char *name;
  } mp[] = { { 3, "mp_3" }, { 0, "mp_0" }, { -2, "mp_n2" }, { 1, "mp_1" } };
  for (size_t i = 0; i < 4; i++) {
    check(cusci_linalg_matrix_power(ctx, a, mp[i].k, &o), &o, mp[i].name, 64);
    REL(o);
  }
  REL(a);
  /* einsum */
  cusci_array *ea = fx("es_a"), *eb = fx("es_b"), *a3 = fx("es_a3"), *b3 = fx("es_b3"), *a2 = fx("es_a2"), *ev = fx("es_v"), *ew = fx("es_w");
  cusci_array *sq = fx("es_sq"), *v4 = fx("es_v4");
  static const struct {
    const char *sub, *want;
    int x, y;
  } es[] = { { "ij,jk->ik", "es_ij_jk", 0, 1 }, { "bij,bjk->bik", "es_bij_bjk", 2, 3 }, { "ij,ij->", "es_ij_ij", 0, 4 },
             { "i,i->", "es_i_i", 5, 6 },     { "ij->ji", "es_ij_ji", 0, -1 },       { "ii->i", "es_ii_i", 7, -1 },
             { "ii", "es_ii", 7, -1 },        { "ij,j->i", "es_ij_j", 0, 8 },         { "ij,jk", "es_implicit", 0, 1 },
             { "i,j->ij", "es_outer", 5, 8 }, { "ij,jk->k", "es_sumfree", 0, 1 },     { "bij,bjk->kbi", "es_perm", 2, 3 } };
  cusci_array *ops[9] = { ea, eb, a3, b3, a2, ev, ew, sq, v4 };
  for (size_t i = 0; i < sizeof es / sizeof *es; i++) {
    check(cusci_linalg_einsum(ctx, es[i].sub, ops[es[i].x], es[i].y >= 0 ? ops[es[i].y] : NULL, &o), &o, es[i].want, 16);
    REL(o);
  }
  for (int i = 0; i < 9; i++)
    cusci_array_release(ops[i]);
  /* block_diag, convolution_matrix */
  cusci_array *bd[4] = { fx("bd_1"), fx("bd_2"), fx("bd_3"), fx("bd_4") };
  check(cusci_linalg_block_diag(ctx, 4, (const cusci_array *const *)bd, &o), &o, "bd_out", 1);
  REL(o);
  for (int i = 0; i < 4; i++)
    cusci_array_release(bd[i]);
  st = cusci_linalg_block_diag(ctx, 0, NULL, &o);
  ok(st == CUSCI_OK && cusci_array_ndim(o) == 2 && cusci_array_shape(o)[0] == 1 && cusci_array_shape(o)[1] == 0, "block_diag() is (1, 0)");
  REL(o);
  a = fx("cm_a");
  static const char *modes[3] = { "full", "same", "valid" };
  for (int n = 3; n <= 7; n += 4)
    for (int m = 0; m < 3; m++) {
      snprintf(nm, sizeof nm, "cm_%d_%s", n, modes[m]);
      check(cusci_linalg_convolution_matrix(ctx, a, n, (cusci_linalg_conv_mode)m, &o), &o, nm, 1);
      REL(o);
    }
  REL(a);
}
#define FIXTURE_COUNT (10 + 3 + 11 + 7 + 22 + 9 + 3 + 2 + 9 + 12 + 2 + 6)

/* Every error path of the new functions: a status and a message, no
 * output, no leak. */
#define ERROR_COUNT 24
static void errors(void)
{
  int64_t s3[3] = { 2, 3, 3 }, s1[1] = { 4 }, s2[2] = { 3, 4 }, s4[2] = { 4, 2 };
  double v[18] = { 1.5, -2.25, 0.5, 3.75, 1.25, -0.5, 2, 1, 0.25, 1.5, -2.25, 0.5, 3.75, 1.25, -0.5, 2, 1, 0.25 };
  cusci_array *a3 = NULL, *a1 = NULL, *a2 = NULL, *b42 = NULL, *an = NULL, *h16 = NULL, *out = NULL, *q = NULL, *r = NULL, *res = NULL, *s = NULL;
  cusci_array_from_host(ctx, v, 3, s3, CUSCI_FLOAT64, &a3);
  cusci_array_from_host(ctx, v, 1, s1, CUSCI_FLOAT64, &a1);
  cusci_array_from_host(ctx, v, 2, s2, CUSCI_FLOAT64, &a2);
  cusci_array_from_host(ctx, v, 2, s4, CUSCI_FLOAT64, &b42);
  double nv[12];
  memcpy(nv, v, sizeof nv);
  nv[5] = NAN;
  cusci_array_from_host(ctx, nv, 2, s2, CUSCI_FLOAT64, &an);
  cusci_array_zeros(ctx, 2, s2, CUSCI_FLOAT16, &h16);
  int64_t rank = 0;
#define E(call, want, what)                                                                                           \
  do {                                                                                                                \
    cusci_status st_ = (call);                                                                                        \
    ok(st_ == (want) && out == NULL && q == NULL && r == NULL, "%s: %s (%s)", what, cusci_status_name(st_), cusci_ctx_last_error(ctx)); \
    REL(out), REL(q), REL(r);                                                                                         \
  } while (0)
  E(cusci_linalg_qr(ctx, a1, NULL, &q, &r, NULL), CUSCI_ERR_NDIM, "qr of a 1-D array");
  E(cusci_linalg_qr(ctx, an, NULL, &q, &r, NULL), CUSCI_ERR_VALUE, "qr with a NaN");
  E(cusci_linalg_qr(ctx, a2, &(cusci_linalg_qr_opts){ .mode = 7 }, &q, &r, NULL), CUSCI_ERR_INVALID_ARGUMENT, "qr mode out of range");
  E(cusci_linalg_qr(ctx, a2, &(cusci_linalg_qr_opts){ .pivoting = true }, &q, &r, NULL), CUSCI_ERR_NULL_POINTER, "qr pivoting without p");
  E(cusci_linalg_qr(ctx, h16, NULL, &q, &r, NULL), CUSCI_ERR_DTYPE, "qr of float16");
  E(cusci_linalg_rq(ctx, a1, NULL, &r, &q), CUSCI_ERR_NDIM, "rq of a 1-D array");
  E(lstsq1(ctx, a1, a1, NULL, &out, &res, &rank, &s), CUSCI_ERR_NDIM, "lstsq of a 1-D a");
  E(lstsq1(ctx, a2, b42, NULL, &out, &res, &rank, &s), CUSCI_ERR_SHAPE, "lstsq with b's rows != a's");
  E(lstsq1(ctx, an, a1, NULL, &out, &res, &rank, &s), CUSCI_ERR_SHAPE, "lstsq 3x4 with a 4-vector");
  E(lstsq1(ctx, b42, a1, &(cusci_linalg_lstsq_opts){ .lapack_driver = 9 }, &out, &res, &rank, &s), CUSCI_ERR_INVALID_ARGUMENT,
    "lstsq driver out of range");
  {
    int64_t s43[2] = { 4, 3 };
    cusci_array *n43 = NULL;
    cusci_array_from_host(ctx, nv, 2, s43, CUSCI_FLOAT64, &n43);
    E(lstsq1(ctx, n43, a1, NULL, &out, &res, &rank, &s), CUSCI_ERR_VALUE, "lstsq with a NaN");
    cusci_array_release(n43);
  }
  ok(res == NULL && s == NULL, "lstsq left residues and s alone");
  E(cusci_linalg_norm(ctx, a1, &(cusci_linalg_norm_opts){ .ord = CUSCI_LINALG_ORD_FRO }, &out), CUSCI_ERR_VALUE, "norm 'fro' of a vector");
  E(cusci_linalg_norm(ctx, a2, &(cusci_linalg_norm_opts){ .ord = CUSCI_LINALG_ORD_P, .p = 3 }, &out), CUSCI_ERR_VALUE, "norm ord 3 of a matrix");
  E(cusci_linalg_norm(ctx, a3, &(cusci_linalg_norm_opts){ .ord = CUSCI_LINALG_ORD_INF }, &out), CUSCI_ERR_NDIM, "norm with ord of a 3-D array");
  E(cusci_linalg_norm(ctx, a2, &(cusci_linalg_norm_opts){ .naxes = 2, .axes = { 1, -1 } }, &out), CUSCI_ERR_AXIS, "norm with a repeated axis");
  E(cusci_linalg_norm(ctx, a2, &(cusci_linalg_norm_opts){ .naxes = 1, .axes = { 2 } }, &out), CUSCI_ERR_AXIS, "norm with an axis out of range");
  E(cusci_linalg_cond(ctx, a2, CUSCI_LINALG_ORD_P, 1, &out), CUSCI_ERR_SHAPE, "cond ord 1 of a 3x4 matrix");
  E(cusci_linalg_trace(ctx, a3, 0, 1, -2, &out), CUSCI_ERR_AXIS, "trace with axis1 == axis2");
  E(cusci_linalg_tensordot(ctx, a2, b42, 1, (const int[]){ 0 }, (const int[]){ 0 }, &out), CUSCI_ERR_SHAPE, "tensordot over extents 3 and 4");
  E(cusci_linalg_multi_dot(ctx, 2, (const cusci_array *const[]){ a3, a2 }, &out), CUSCI_ERR_NDIM, "multi_dot with a 3-D array");
  E(cusci_linalg_matrix_power(ctx, a2, 2, &out), CUSCI_ERR_SHAPE, "matrix_power of a 3x4 matrix");
  E(cusci_linalg_einsum(ctx, "...ij,jk", a2, b42, &out), CUSCI_ERR_NOT_SUPPORTED, "einsum with an ellipsis");
  E(cusci_linalg_einsum(ctx, "ij,jk->ik", a2, a2, &out), CUSCI_ERR_VALUE, "einsum with extents that differ for j");
#undef E
  cusci_array *arrs[] = { a3, a1, a2, b42, an, h16 };
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++)
    cusci_array_release(arrs[i]);
}

int main(void)
{
  ctx = tk_host_ctx();
  plan(FIXTURE_COUNT + ERROR_COUNT + qs_count());
  fixtures();
  errors();
  qs_all(ctx);
  cusci_ctx_destroy(ctx);
  return done_testing();
}
