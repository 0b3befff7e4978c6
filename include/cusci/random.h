/*
 * cusci/random.h: numpy.random's Generator on the GPU and the host.
 *
 * A generator is a bit generator with its state, kept in host memory. The
 * default, CUSCI_BITGEN_PHILOX (Philox4x32-10), is counter based and gives
 * the same numbers for the same seed on the host backend and on any GPU,
 * bit for bit, whatever the launch configuration: element i of a call
 * depends on the seed, the generator's counter and i alone. The other kinds
 * are cuRAND's engines: on a GPU, or through cuRAND's host generator on a
 * host context (in a build with CUDA).
 *
 * Every sampling function mirrors numpy.random.Generator.<name>: the
 * distribution's parameters in NumPy's order, then the output's shape and
 * (where the function takes one) dtype, then `out` as everywhere in cusci
 * (allocated when *out is NULL, else written after its shape, dtype and
 * device are checked; any strided view will do). A call advances the
 * generator only when it succeeds. Parameters are scalars; the _array
 * variants of uniform, normal, lognormal, exponential, gamma, beta, poisson
 * and binomial take arrays that broadcast against the output.
 *
 * Real-valued functions take dtype CUSCI_FLOAT32 or CUSCI_FLOAT64 (NumPy
 * offers the choice for a few of them; cusci for all). Float32 values are
 * computed in double and rounded once. Discrete distributions give int64,
 * as NumPy's do; integers() takes any integer dtype or bool.
 *
 * Every sampling function returns CUSCI_OK or one of:
 *  CUSCI_ERR_NULL_POINTER   ctx, g, out, or shape (with ndim > 0) is NULL;
 *  CUSCI_ERR_NDIM, CUSCI_ERR_SHAPE, CUSCI_ERR_OVERFLOW  a bad shape;
 *  CUSCI_ERR_DTYPE          a dtype the function does not make, or *out's;
 *  CUSCI_ERR_VALUE          a parameter outside NumPy's domain (NaN
 *                           included), named in the message;
 *  CUSCI_ERR_DEVICE         *out, or a cuRAND generator, on another device;
 *  CUSCI_ERR_NOT_SUPPORTED  a cuRAND generator asked for a distribution
 *                           cuRAND does not make;
 *  CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
#ifndef CUSCI_RANDOM_H
#define CUSCI_RANDOM_H

#include <cusci/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ generators */

typedef struct cusci_random_generator cusci_random_generator;

/* The bit generators. PHILOX works on the host and the GPU, the same bits
 * on both; the others are cuRAND's (pseudo: XORWOW, MRG32K3A, MTGP32,
 * MT19937; quasi: SOBOL32, SCRAMBLED_SOBOL32, one dimension), on a GPU
 * context or, through cuRAND's host generator, a host context of a build
 * with CUDA (no promise that host and GPU agree). */
typedef enum cusci_bitgen {
  CUSCI_BITGEN_PHILOX = 0,
  CUSCI_BITGEN_XORWOW,
  CUSCI_BITGEN_MRG32K3A,
  CUSCI_BITGEN_MTGP32,
  CUSCI_BITGEN_MT19937,
  CUSCI_BITGEN_SOBOL32,
  CUSCI_BITGEN_SCRAMBLED_SOBOL32
} cusci_bitgen;

/*
 * numpy.random.Generator(Philox(seed)), or a cuRAND engine seeded with
 * `seed`. A Philox generator is plain state and may be used with any
 * context; a cuRAND generator belongs to ctx's device (a GPU, or the host)
 * and is used with contexts on that device.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT (an
 * unknown kind), CUSCI_ERR_NOT_SUPPORTED (a cuRAND kind in a build without
 * CUDA), CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_random_generator_create(cusci_ctx *ctx, cusci_bitgen kind, uint64_t seed, cusci_random_generator **out);
/* Free a generator (a cuRAND one on its device). NULL: no-op. */
CUSCI_API void cusci_random_generator_destroy(cusci_random_generator *g);
/* The generator's kind; CUSCI_BITGEN_PHILOX for NULL. */
CUSCI_API cusci_bitgen cusci_random_generator_kind(const cusci_random_generator *g);

/* Bytes of a state blob (see get_state). */
#define CUSCI_RANDOM_STATE_BYTES 48

/*
 * The generator's state as a blob of CUSCI_RANDOM_STATE_BYTES bytes in host
 * memory, the same on every machine (little endian, versioned): write it to
 * a file, read it back, set it, and the generator goes on where it was.
 * For a cuRAND engine the state is its seed and an offset that bounds the
 * values used so far; the engine seeks to that offset at its next call, so
 * that it and a generator restored from the blob make the same numbers
 * (MTGP32 and MT19937 cannot seek: their states restore only offset 0).
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER or CUSCI_ERR_BUFFER_TOO_SMALL.
 */
CUSCI_API cusci_status cusci_random_generator_get_state(cusci_ctx *ctx, cusci_random_generator *g, void *buf, size_t len);
/*
 * Restore a state made by get_state, for a generator of the same kind.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_BUFFER_TOO_SMALL,
 * CUSCI_ERR_FORMAT (not a state blob, or another version), CUSCI_ERR_VALUE
 * (a state of another kind), CUSCI_ERR_NOT_SUPPORTED (an offset on a cuRAND
 * engine that cannot seek), CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_random_generator_set_state(cusci_ctx *ctx, cusci_random_generator *g, const void *buf, size_t len);
/*
 * Jump ahead by `delta` counter steps (numpy's Philox.advance): the next
 * call starts where it would have after calls that used `delta` steps. A
 * call that makes n elements uses ceil(n / 4) steps (float32, and integers
 * below 2^32 apart), ceil(n / 2) (float64, wider integers) for the
 * distributions made without rejection (random, uniform, the normals,
 * exponential, laplace, logistic, gumbel, rayleigh, weibull, pareto, power,
 * triangular), and n for the rest. For a cuRAND engine, delta is cuRAND's
 * generator offset.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_NOT_SUPPORTED
 * (a cuRAND engine that cannot seek), CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_random_generator_advance(cusci_ctx *ctx, cusci_random_generator *g, uint64_t delta);
/*
 * numpy.random.Generator.spawn(n): n independent children, each with its
 * own Philox key derived from the parent's key and a running spawn count
 * (so spawning again gives new children), for one stream per thread or per
 * GPU. The parent's counter is not moved. Children of a cuRAND engine are
 * engines of the same kind with derived seeds. children[0..n) receive new
 * generators, each destroyed by its owner; on failure none is made.
 * Returns CUSCI_OK, CUSCI_ERR_NULL_POINTER, CUSCI_ERR_INVALID_ARGUMENT
 * (n < 0), CUSCI_ERR_OUT_OF_MEMORY, CUSCI_ERR_CUDA.
 */
CUSCI_API cusci_status cusci_random_generator_spawn(cusci_ctx *ctx, cusci_random_generator *g, int n, cusci_random_generator **children);

/* --------------------------------------------------------- continuous */

/* Generator.random: uniform on [0, 1), multiples of 2^-53 (float64) or
 * 2^-24 (float32). cuRAND engines too. */
CUSCI_API cusci_status cusci_random_random(cusci_ctx *ctx, cusci_random_generator *g, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.uniform(low, high): low + (high - low) random(); low and high
 * finite, high - low finite. cuRAND engines too. */
CUSCI_API cusci_status cusci_random_uniform(cusci_ctx *ctx, cusci_random_generator *g, double low, double high, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.standard_normal, by the ziggurat method. cuRAND too. */
CUSCI_API cusci_status cusci_random_standard_normal(cusci_ctx *ctx, cusci_random_generator *g, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.normal(loc, scale): loc finite, scale >= 0. cuRAND too. */
CUSCI_API cusci_status cusci_random_normal(cusci_ctx *ctx, cusci_random_generator *g, double loc, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.lognormal(mean, sigma): exp(normal(mean, sigma)), sigma >= 0. cuRAND too. */
CUSCI_API cusci_status cusci_random_lognormal(cusci_ctx *ctx, cusci_random_generator *g, double mean, double sigma, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.standard_exponential: -log(u), u uniform on (0, 1). */
CUSCI_API cusci_status cusci_random_standard_exponential(cusci_ctx *ctx, cusci_random_generator *g, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.exponential(scale): scale >= 0. */
CUSCI_API cusci_status cusci_random_exponential(cusci_ctx *ctx, cusci_random_generator *g, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.laplace(loc, scale), logistic(loc, scale), gumbel(loc, scale):
 * by inversion; loc finite, scale >= 0. */
CUSCI_API cusci_status cusci_random_laplace(cusci_ctx *ctx, cusci_random_generator *g, double loc, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_random_logistic(cusci_ctx *ctx, cusci_random_generator *g, double loc, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_random_gumbel(cusci_ctx *ctx, cusci_random_generator *g, double loc, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.rayleigh(scale): scale >= 0. */
CUSCI_API cusci_status cusci_random_rayleigh(cusci_ctx *ctx, cusci_random_generator *g, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.weibull(a): a >= 0. */
CUSCI_API cusci_status cusci_random_weibull(cusci_ctx *ctx, cusci_random_generator *g, double a, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.pareto(a) (Lomax, as NumPy's): a > 0. */
CUSCI_API cusci_status cusci_random_pareto(cusci_ctx *ctx, cusci_random_generator *g, double a, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.power(a): a > 0. */
CUSCI_API cusci_status cusci_random_power(cusci_ctx *ctx, cusci_random_generator *g, double a, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.triangular(left, mode, right): left <= mode <= right, left < right. */
CUSCI_API cusci_status cusci_random_triangular(cusci_ctx *ctx, cusci_random_generator *g, double left, double mode, double right, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.standard_cauchy: the ratio of two standard normals. */
CUSCI_API cusci_status cusci_random_standard_cauchy(cusci_ctx *ctx, cusci_random_generator *g, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.standard_gamma(shape) (Marsaglia-Tsang): shape >= 0. */
CUSCI_API cusci_status cusci_random_standard_gamma(cusci_ctx *ctx, cusci_random_generator *g, double shape_k, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.gamma(shape, scale): shape >= 0, scale >= 0. */
CUSCI_API cusci_status cusci_random_gamma(cusci_ctx *ctx, cusci_random_generator *g, double shape_k, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.beta(a, b): a > 0, b > 0. */
CUSCI_API cusci_status cusci_random_beta(cusci_ctx *ctx, cusci_random_generator *g, double a, double b, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.chisquare(df): df > 0. */
CUSCI_API cusci_status cusci_random_chisquare(cusci_ctx *ctx, cusci_random_generator *g, double df, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.noncentral_chisquare(df, nonc): df > 0, nonc >= 0. */
CUSCI_API cusci_status cusci_random_noncentral_chisquare(cusci_ctx *ctx, cusci_random_generator *g, double df, double nonc, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.f(dfnum, dfden): both > 0. */
CUSCI_API cusci_status cusci_random_f(cusci_ctx *ctx, cusci_random_generator *g, double dfnum, double dfden, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.noncentral_f(dfnum, dfden, nonc): dfnum, dfden > 0, nonc >= 0. */
CUSCI_API cusci_status cusci_random_noncentral_f(cusci_ctx *ctx, cusci_random_generator *g, double dfnum, double dfden, double nonc, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.standard_t(df): df > 0. */
CUSCI_API cusci_status cusci_random_standard_t(cusci_ctx *ctx, cusci_random_generator *g, double df, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.wald(mean, scale): both > 0. */
CUSCI_API cusci_status cusci_random_wald(cusci_ctx *ctx, cusci_random_generator *g, double mean, double scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);

/* Generator.vonmises(mu, kappa) (Best-Fisher), on [-pi, pi]: mu finite,
 * kappa >= 0. */
CUSCI_API cusci_status cusci_random_vonmises(cusci_ctx *ctx, cusci_random_generator *g, double mu, double kappa, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);

/* ----------------------------------------------------------- discrete */

/*
 * Generator.integers(low, high, dtype, endpoint): unbiased integers in
 * [low, high) or, with endpoint, [low, high], by Lemire's method. dtype is
 * bool or any integer dtype, and low and high must lie in its range (for
 * uint64 the range reachable through int64 arguments).
 * CUSCI_ERR_VALUE when low >= high (low > high with endpoint) or a bound
 * outside the dtype.
 */
CUSCI_API cusci_status cusci_random_integers(cusci_ctx *ctx, cusci_random_generator *g, int64_t low, int64_t high, bool endpoint, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
/* Generator.poisson(lam): int64; 0 <= lam <= 9.2e18. cuRAND engines too. */
CUSCI_API cusci_status cusci_random_poisson(cusci_ctx *ctx, cusci_random_generator *g, double lam, int ndim, const int64_t *shape, cusci_array **out);
/* Generator.binomial(n, p): int64; n >= 0, p in [0, 1]. */
CUSCI_API cusci_status cusci_random_binomial(cusci_ctx *ctx, cusci_random_generator *g, int64_t n, double p, int ndim, const int64_t *shape, cusci_array **out);
/* Generator.negative_binomial(n, p): int64; n > 0, p in (0, 1]. */
CUSCI_API cusci_status cusci_random_negative_binomial(cusci_ctx *ctx, cusci_random_generator *g, double n, double p, int ndim, const int64_t *shape, cusci_array **out);
/* Generator.geometric(p): int64 >= 1; p in (0, 1]. */
CUSCI_API cusci_status cusci_random_geometric(cusci_ctx *ctx, cusci_random_generator *g, double p, int ndim, const int64_t *shape, cusci_array **out);
/* Generator.logseries(p): int64 >= 1; p in [0, 1). */
CUSCI_API cusci_status cusci_random_logseries(cusci_ctx *ctx, cusci_random_generator *g, double p, int ndim, const int64_t *shape, cusci_array **out);
/* Generator.zipf(a): int64 >= 1; a > 1. */
CUSCI_API cusci_status cusci_random_zipf(cusci_ctx *ctx, cusci_random_generator *g, double a, int ndim, const int64_t *shape, cusci_array **out);
/* Generator.hypergeometric(ngood, nbad, nsample): int64; each >= 0,
 * nsample <= ngood + nbad <= 10^9. */
CUSCI_API cusci_status cusci_random_hypergeometric(cusci_ctx *ctx, cusci_random_generator *g, int64_t ngood, int64_t nbad, int64_t nsample, int ndim, const int64_t *shape, cusci_array **out);

/* -------------------------------------------------- permutations, choice */
/*
 * These order n random keys (one Philox block each, ties by index) by a
 * sort, on the GPU with CUB's radix sort, so that host and GPU give the same
 * permutation. A call uses n counter steps (choice with p and replacement:
 * one per output). Philox generators only (CUSCI_ERR_NOT_SUPPORTED for
 * cuRAND's); on a GPU, n is at most 2^31-1 (CUSCI_ERR_OVERFLOW).
 */

/* Generator.permutation(n): int64, a random order of 0..n-1. n >= 0. */
CUSCI_API cusci_status cusci_random_permutation(cusci_ctx *ctx, cusci_random_generator *g, int64_t n, cusci_array **out);
/* Generator.shuffle(x): permute x in place along axis 0 (any dtype, any
 * view). CUSCI_ERR_NDIM for a 0-dimensional x. */
CUSCI_API cusci_status cusci_random_shuffle(cusci_ctx *ctx, cusci_random_generator *g, cusci_array *x);
/*
 * Generator.permuted(x, axis, out): a copy of x (or *out, which may be x
 * itself) with every slice along *axis permuted independently, or all of x
 * as one slice when axis is NULL (axis=None). Slice r uses counter steps
 * r n .. r n + n - 1 (n = the slice's length). CUSCI_ERR_AXIS for an axis
 * out of range.
 */
CUSCI_API cusci_status cusci_random_permuted(cusci_ctx *ctx, cusci_random_generator *g, cusci_array *x, const int *axis, cusci_array **out);
/*
 * Generator.choice(a, size, replace, p) with an integer a: int64 indices in
 * [0, a) of the given shape. Without replacement, distinct indices (the
 * first of a random permutation, or with p the Efraimidis-Spirakis keys);
 * with replacement and p, inversion of the cumulative sums; with neither,
 * integers(0, a). p: NULL, or a float32/float64 array of a probabilities
 * on the context's device, finite, >= 0, summing to 1 within sqrt(eps).
 * CUSCI_ERR_VALUE: a < 0, a == 0 with a non-empty shape, a sample larger
 * than a (or than p's non-zero entries) without replacement, a bad p;
 * CUSCI_ERR_NDIM / CUSCI_ERR_SHAPE / CUSCI_ERR_DTYPE for p's form.
 */
CUSCI_API cusci_status cusci_random_choice(cusci_ctx *ctx, cusci_random_generator *g, int64_t a, int ndim, const int64_t *shape, bool replace, const cusci_array *p, cusci_array **out);
/* Generator.choice(a, size, replace, p) with an array a (any dtype,
 * ndim >= 1): the rows of a along axis 0 at the indices that choice(len(a),
 * size, replace, p) draws, shape size + a.shape[1:]. CUSCI_ERR_NDIM for a
 * 0-dimensional a; otherwise as choice. */
CUSCI_API cusci_status cusci_random_choice_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *a, int ndim, const int64_t *shape, bool replace, const cusci_array *p, cusci_array **out);

/* ------------------------------------------------- array parameters */
/*
 * NumPy's array arguments: each parameter is an array (a 0-d array for a
 * scalar) that broadcasts against the output shape, on the context's
 * device, of a real dtype (binomial's n: an integer dtype). Element k of
 * the output uses element k of each broadcast parameter; with parameters
 * that are one value everywhere, the result is the scalar call's (poisson:
 * except for lam < 10, drawn here by the multiplication method). Each
 * parameter is checked element by element as the scalar call checks it
 * (CUSCI_ERR_VALUE naming the flat index), and CUSCI_ERR_BROADCAST when it
 * does not broadcast. Philox generators only. Otherwise as the scalar calls.
 */
CUSCI_API cusci_status cusci_random_uniform_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *low, const cusci_array *high, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_random_normal_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *loc, const cusci_array *scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_random_lognormal_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *mean, const cusci_array *sigma, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_random_exponential_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_random_gamma_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *shape_k, const cusci_array *scale, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_random_beta_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *a, const cusci_array *b, int ndim, const int64_t *shape, cusci_dtype dtype, cusci_array **out);
CUSCI_API cusci_status cusci_random_poisson_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *lam, int ndim, const int64_t *shape, cusci_array **out);
CUSCI_API cusci_status cusci_random_binomial_array(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *n, const cusci_array *p, int ndim, const int64_t *shape, cusci_array **out);

/* ------------------------------------------------ multivariate draws */
/*
 * These make rows: the output has shape (shape..., k), one row per
 * counter step. Parameter arrays live on the context's device; they are
 * read to the host and checked there. Philox generators only.
 */

/* Generator.multinomial(n, pvals): int64 counts summing to n, by
 * conditional binomials. n >= 0; pvals 1-D, each in [0, 1], the sum of all
 * but the last at most 1 (the last is what is left, as NumPy). */
CUSCI_API cusci_status cusci_random_multinomial(cusci_ctx *ctx, cusci_random_generator *g, int64_t n, const cusci_array *pvals, int ndim, const int64_t *shape, cusci_array **out);
/* Generator.dirichlet(alpha): float64 rows summing to 1 (gammas over their
 * sum). alpha 1-D, each > 0. */
CUSCI_API cusci_status cusci_random_dirichlet(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *alpha, int ndim, const int64_t *shape, cusci_array **out);
/* Generator.multivariate_hypergeometric(colors, nsample) (NumPy's
 * "marginals" method): int64 rows summing to nsample. colors 1-D of an
 * integer dtype, each >= 0, sum at most 10^9; 0 <= nsample <= sum. */
CUSCI_API cusci_status cusci_random_multivariate_hypergeometric(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *colors, int64_t nsample, int ndim, const int64_t *shape, cusci_array **out);

/* How multivariate_normal factors the covariance. */
typedef enum cusci_random_mvn_method {
  CUSCI_MVN_EIGH = 0, /* symmetric eigendecomposition: any positive semidefinite cov */
  CUSCI_MVN_CHOLESKY  /* Cholesky: positive definite cov only, faster to set up */
} cusci_random_mvn_method;

/* multivariate_normal's keywords; zero (or NULL) is the default. */
typedef struct cusci_random_mvn_opts {
  cusci_random_mvn_method method;
  double tol; /* how far below 0 an eigenvalue (relative) or an asymmetry may be; 0: 1e-8 */
} cusci_random_mvn_opts;

/*
 * Generator.multivariate_normal(mean, cov, size, method): float64 rows
 * mean + L z, z standard normal, with L lower triangular and L L^T = cov
 * (Cholesky, or the eigendecomposition made triangular by a QR step).
 * mean 1-D of d, cov d x d, both finite; cov symmetric within tol.
 * CUSCI_ERR_VALUE for a cov that is not symmetric or not positive
 * semidefinite (eigh), CUSCI_ERR_LINALG for one not positive definite
 * (Cholesky), CUSCI_ERR_SHAPE when cov does not match mean,
 * CUSCI_ERR_INVALID_ARGUMENT for an unknown method.
 */
CUSCI_API cusci_status cusci_random_multivariate_normal(cusci_ctx *ctx, cusci_random_generator *g, const cusci_array *mean, const cusci_array *cov, const cusci_random_mvn_opts *opts, int ndim, const int64_t *shape, cusci_array **out);

/* Generator.bytes(length): `length` random bytes as a uint8 array
 * (integers(0, 255, endpoint) as uint8). */
CUSCI_API cusci_status cusci_random_bytes(cusci_ctx *ctx, cusci_random_generator *g, int64_t length, cusci_array **out);

#ifdef __cplusplus
}
#endif

#endif /* CUSCI_RANDOM_H */
