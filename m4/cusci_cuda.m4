dnl CUSCI_CHECK_CUDA: everything cusci's build knows about nvcc lives here.
dnl
dnl   --with-cuda[=DIR]    default: the nvcc on PATH, else /usr/local/cuda;
dnl                        with neither option and no toolkit, build the host
dnl                        backend alone and say so loudly; an explicit
dnl                        --with-cuda that finds nothing is an error.
dnl   --without-cuda       host backend only.
dnl   --with-cuda-arch=L   real archs, plus PTX of the highest: a list such
dnl                        as "90", "all" for "80 90 100 120", or "native"
dnl                        for the GPUs nvidia-smi sees. The default is
dnl                        native, or all where no GPU is visible: a full
dnl                        build compiles every kernel four times, which
dnl                        takes long on a small machine, and the GPU at
dnl                        hand is the one the build is usually for.
dnl
dnl Sets: NVCC, NVCCFLAGS, CUDA_CPPFLAGS, CUDA_LIBS, CUDA_LIBDIR,
dnl CUDA_VERSION, CUSCI_CUDA_ARCHS, CUSCI_CUDA_PTX_ARCH (and, for the summary,
dnl cusci_cuda_arch_from: how the archs were chosen); AM_CONDITIONAL
dnl HAVE_CUDA; CUSCI_HAVE_CUDA in config.h. NVRTC (users' own kernels,
dnl compiled at run time): NVRTC_LIBS and CUSCI_HAVE_NVRTC in config.h.
AC_DEFUN([CUSCI_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
      [CUDA toolkit (default: the nvcc on PATH, else /usr/local/cuda; --without-cuda builds the host backend only)]),
    [], [with_cuda=check])
  AC_ARG_WITH([cuda-arch],
    AS_HELP_STRING([--with-cuda-arch=LIST],
      [compute capabilities to build for, plus PTX of the highest: e.g. "90"; "all" for "80 90 100 120"; "native" for this machine's GPUs (default: native, or all when no GPU is visible)]),
    [], [with_cuda_arch=default])
  AC_ARG_VAR([NVCC], [the CUDA compiler])
  AC_ARG_VAR([NVCCFLAGS], [extra flags for the CUDA compiler])

  cusci_have_cuda=no
  cusci_have_nvrtc=no
  cusci_cuda_why="--without-cuda"
  cusci_cuda_home=
  AS_CASE([$with_cuda],
    [no], [],
    [yes|check], [
      AS_IF([test -z "$NVCC"], [AC_PATH_PROG([NVCC], [nvcc], [])])
      AS_IF([test -z "$NVCC" && test -x /usr/local/cuda/bin/nvcc], [NVCC=/usr/local/cuda/bin/nvcc])
      AS_IF([test -n "$NVCC"], [cusci_cuda_home=`dirname "$NVCC"`; cusci_cuda_home=`dirname "$cusci_cuda_home"`],
            [cusci_cuda_why="no nvcc on PATH nor in /usr/local/cuda"])
    ],
    [
      cusci_cuda_home=$with_cuda
      NVCC="$with_cuda/bin/nvcc"
      AS_IF([test -x "$NVCC"], [], [cusci_cuda_why="no $NVCC"; NVCC=; cusci_cuda_home=])
    ])

  AS_IF([test -n "$cusci_cuda_home"], [
    CUDA_CPPFLAGS="-I$cusci_cuda_home/include"
    CUDA_LIBDIR="$cusci_cuda_home/lib64"
    AS_IF([test -d "$CUDA_LIBDIR"], [], [CUDA_LIBDIR="$cusci_cuda_home/lib"])
    cusci_save_CPPFLAGS=$CPPFLAGS
    cusci_save_LIBS=$LIBS
    cusci_save_LDFLAGS=$LDFLAGS
    CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"
    LDFLAGS="$LDFLAGS -L$CUDA_LIBDIR"
    AC_CHECK_HEADER([cuda_runtime_api.h], [
      AC_CHECK_LIB([cudart], [cudaGetDeviceCount], [cusci_have_cuda=yes],
                   [cusci_cuda_why="libcudart not found in $CUDA_LIBDIR"])
    ], [cusci_cuda_why="cuda_runtime_api.h not found in $cusci_cuda_home/include"])
    CPPFLAGS=$cusci_save_CPPFLAGS
    LIBS=$cusci_save_LIBS
    LDFLAGS=$cusci_save_LDFLAGS
  ])

  AS_IF([test "x$cusci_have_cuda" != xyes && test "x$with_cuda" != xno && test "x$with_cuda" != xcheck],
    [AC_MSG_ERROR([--with-cuda was given but no usable CUDA toolkit was found: $cusci_cuda_why])])

  AS_IF([test "x$cusci_have_cuda" = xyes], [
    CUDA_VERSION=`"$NVCC" --version | sed -n 's/.*release \([[0-9.]]*\).*/\1/p'`
    cusci_cuda_all_archs="80 90 100 120"
    cusci_cuda_arch_from="--with-cuda-arch"
    AS_CASE([$with_cuda_arch],
      [all], [with_cuda_arch=$cusci_cuda_all_archs; cusci_cuda_arch_from="all"],
      [native|default], [
        AC_PATH_PROG([NVIDIA_SMI], [nvidia-smi], [])
        AC_MSG_CHECKING([the compute capabilities of this machine's GPUs])
        cusci_native=
        dnl nvidia-smi prints a compute capability as "9.0"; nvcc wants "90".
        AS_IF([test -n "$NVIDIA_SMI"], [
          cusci_native=`"$NVIDIA_SMI" --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
            sed -n 's/^ *\([[0-9]][[0-9]]*\)\.\([[0-9]]\) *$/\1\2/p' | sort -un | tr '\n' ' '`
          cusci_native=`echo $cusci_native`])
        AS_IF([test -n "$cusci_native"], [
          AC_MSG_RESULT([$cusci_native])
          with_cuda_arch=$cusci_native; cusci_cuda_arch_from="the GPUs of this machine"
        ], [test "x$with_cuda_arch" = xnative], [
          AC_MSG_RESULT([none])
          AC_MSG_ERROR([--with-cuda-arch=native: nvidia-smi shows no GPU; name the archs, e.g. --with-cuda-arch=90, or all])
        ], [
          AC_MSG_RESULT([none visible: building for all])
          with_cuda_arch=$cusci_cuda_all_archs; cusci_cuda_arch_from="all: no GPU visible"
        ])
      ])
    CUSCI_CUDA_ARCHS=
    CUSCI_CUDA_PTX_ARCH=0
    cusci_gencode=
    for cusci_a in `echo "$with_cuda_arch" | tr ',;' '  '`; do
      AS_CASE([$cusci_a], [*[[!0-9]]*|''], [AC_MSG_ERROR([--with-cuda-arch: "$cusci_a" is not a compute capability such as 90])])
      cusci_gencode="$cusci_gencode -gencode arch=compute_$cusci_a,code=sm_$cusci_a"
      CUSCI_CUDA_ARCHS="$CUSCI_CUDA_ARCHS $cusci_a"
      AS_IF([test "$cusci_a" -gt "$CUSCI_CUDA_PTX_ARCH"], [CUSCI_CUDA_PTX_ARCH=$cusci_a])
    done
    AS_IF([test -z "$CUSCI_CUDA_ARCHS"], [AC_MSG_ERROR([--with-cuda-arch: empty list])])
    CUSCI_CUDA_ARCHS=`echo $CUSCI_CUDA_ARCHS`
    cusci_gencode="$cusci_gencode -gencode arch=compute_$CUSCI_CUDA_PTX_ARCH,code=compute_$CUSCI_CUDA_PTX_ARCH"
    CUSCI_NVCC_FLAGS="-std=c++17 -O3 $cusci_gencode -Xfatbin=-compress-all -Xcompiler -fPIC,-fvisibility=hidden"
    AC_MSG_CHECKING([whether $NVCC compiles for archs $CUSCI_CUDA_ARCHS])
    echo '__global__ void k(int *p) { *p = 1; } int main(void) { return 0; }' > conftest.cu
    AS_IF(["$NVCC" $CUSCI_NVCC_FLAGS -c conftest.cu -o conftest.o >&AS_MESSAGE_LOG_FD 2>&1],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no]); AC_MSG_ERROR([$NVCC cannot compile for archs $CUSCI_CUDA_ARCHS; see config.log])])
    rm -f conftest.cu conftest.o
    CUDA_LIBS="-L$CUDA_LIBDIR -R$CUDA_LIBDIR -lcudart"
    dnl What a static link of random and linalg needs besides the core: their
    dnl .pc files' Libs.private.
    PC_RANDOM_CUDA_LIBS="-L$CUDA_LIBDIR -lcurand -lcudart -lstdc++"
    PC_LINALG_CUDA_LIBS="-L$CUDA_LIBDIR -lcublas -lcusolver -lcufft -lcudart -lstdc++"
    PC_SIGNAL_CUDA_LIBS="-L$CUDA_LIBDIR -lcufft -lcudart -lstdc++"
    AC_DEFINE([CUSCI_HAVE_CUDA], [1], [Define to 1 to build the CUDA backend.])

    dnl NVRTC compiles users' kernels at run time; without it they report
    dnl CUSCI_ERR_NOT_SUPPORTED and the rest of the CUDA backend is unchanged.
    cusci_save_CPPFLAGS=$CPPFLAGS
    cusci_save_LIBS=$LIBS
    cusci_save_LDFLAGS=$LDFLAGS
    CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"
    LDFLAGS="$LDFLAGS -L$CUDA_LIBDIR"
    AC_CHECK_HEADER([nvrtc.h], [
      AC_CHECK_LIB([nvrtc], [nvrtcVersion], [cusci_have_nvrtc=yes])
    ])
    CPPFLAGS=$cusci_save_CPPFLAGS
    LIBS=$cusci_save_LIBS
    LDFLAGS=$cusci_save_LDFLAGS
    AS_IF([test "x$cusci_have_nvrtc" = xyes], [
      NVRTC_LIBS="-L$CUDA_LIBDIR -R$CUDA_LIBDIR -lnvrtc"
      AC_DEFINE([CUSCI_HAVE_NVRTC], [1], [Define to 1 when NVRTC compiles users' kernels at run time.])
    ])
  ])
  AC_SUBST([NVRTC_LIBS])
  AC_SUBST([NVCC])
  AC_SUBST([CUSCI_NVCC_FLAGS])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([PC_RANDOM_CUDA_LIBS])
  AC_SUBST([PC_LINALG_CUDA_LIBS])
  AC_SUBST([PC_SIGNAL_CUDA_LIBS])
  AC_SUBST([CUDA_LIBDIR])
  AC_SUBST([CUDA_VERSION])
  AM_CONDITIONAL([HAVE_CUDA], [test "x$cusci_have_cuda" = xyes])
])
