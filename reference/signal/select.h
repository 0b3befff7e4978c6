/*
 * reference/signal/select.h: the k-th smallest of n values in place
 * (Wirth's selection, N. Wirth, Algorithms + Data Structures = Programs,
 * 1976), as one statement for C and CUDA alike: medfilt's median on the
 * host and in kernels/signal/filter.cu. The value found is the k-th of the
 * sorted values whatever the order they come in, so both backends give the
 * same (NaN excepted, which compares with nothing).
 */
#ifndef CUSCI_REFERENCE_SIGNAL_SELECT_H
#define CUSCI_REFERENCE_SIGNAL_SELECT_H

/* out = the k-th smallest of a[0 .. n-1] (type T), a reordered. */
#define CUSCI__SIG_SELECT(T, a, n, k, out)                                      \
  do {                                                                          \
    int64_t lo_ = 0, hi_ = (n) - 1;                                             \
    while (lo_ < hi_) {                                                         \
      const T piv_ = (a)[k];                                                    \
      int64_t i_ = lo_, j_ = hi_;                                               \
      do {                                                                      \
        while ((a)[i_] < piv_)                                                  \
          i_++;                                                                 \
        while (piv_ < (a)[j_])                                                  \
          j_--;                                                                 \
        if (i_ <= j_) {                                                         \
          const T t_ = (a)[i_];                                                 \
          (a)[i_] = (a)[j_], (a)[j_] = t_;                                      \
          i_++, j_--;                                                           \
        }                                                                       \
      } while (i_ <= j_);                                                       \
      if (j_ < (k))                                                             \
        lo_ = i_;                                                               \
      if ((k) < i_)                                                             \
        hi_ = j_;                                                               \
    }                                                                           \
    (out) = (a)[k];                                                             \
  } while (0)

#endif
