/*
 * cusci/linalg.h: scipy.linalg and numpy.linalg on cuBLAS and cuSOLVER,
 * with a host backend on LAPACKE and CBLAS.
 *
 * Every function takes stacks of matrices as NumPy does: the last two axes
 * of an array are the matrix, the leading axes are a batch, and batch axes
 * broadcast where NumPy's do (matmul, solve). Arrays may be strided views.
 * The dtypes are float32, float64, complex64 and complex128; bool and
 * integer inputs are converted to float64 as NumPy converts them, float16
 * is refused (CUSCI_ERR_DTYPE) as numpy.linalg refuses it. Results have the
 * input's dtype (real for singular values and eigenvalues of complex
 * input) and are C-contiguous.
 *
 * Numerical failure is CUSCI_ERR_LINALG, as scipy.linalg raises
 * LinAlgError, with the failing index and batch index in the message
 * (cusci_ctx_last_error). On a GPU context, knowing whether a factorization
 * failed means reading cuSOLVER's info back to the host: every function
 * that can return CUSCI_ERR_LINALG therefore waits for the context's stream
 * before it returns. matmul does not.
 *
 * `check_finite` is SciPy's default (on) for the functions that mirror a
 * scipy.linalg function: an input holding inf or NaN is CUSCI_ERR_VALUE.
 * The options structs can turn it off.
 *
 * Besides the statuses listed per function, every function can return
 * CUSCI_ERR_NULL_POINTER (ctx, an input or an output pointer is NULL),
 * CUSCI_ERR_DEVICE (an array on another device), CUSCI_ERR_DTYPE,
 * CUSCI_ERR_OUT_OF_MEMORY and, on a GPU, CUSCI_ERR_CUDA; and, when *out is
 * given, CUSCI_ERR_SHAPE / CUSCI_ERR_DTYPE / CUSCI_ERR_DEVICE if it does not
 * match the result.
 */
#ifndef CUSCI_LINALG_H
#define CUSCI_LINALG_H

/* The functions, by family. */
#include <cusci/linalg/basic.h>
#include <cusci/linalg/eig.h>
#include <cusci/linalg/matfuncs.h>
#include <cusci/linalg/options.h>
#include <cusci/linalg/qr.h>
#include <cusci/linalg/solvers.h>
#include <cusci/linalg/special.h>

#endif /* CUSCI_LINALG_H */
