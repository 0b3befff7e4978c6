dnl AX_PTHREAD_SIMPLE: -pthread where the compiler takes it.
AC_DEFUN([AX_PTHREAD_SIMPLE], [
  AC_MSG_CHECKING([whether $CC accepts -pthread])
  cusci_save_CFLAGS=$CFLAGS
  CFLAGS="$CFLAGS -pthread"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <pthread.h>]], [[pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_mutex_lock(&m);]])],
    [AC_MSG_RESULT([yes]); PTHREAD_CFLAGS=-pthread; PTHREAD_LIBS=-pthread],
    [AC_MSG_RESULT([no]); PTHREAD_CFLAGS=; PTHREAD_LIBS=-lpthread])
  CFLAGS=$cusci_save_CFLAGS
  AC_SUBST([PTHREAD_CFLAGS])
  AC_SUBST([PTHREAD_LIBS])
])

dnl CUSCI_PC_RELOCATABLE: set PC_PREFIX, PC_LIBDIR, PC_INCLUDEDIR for the
dnl .pc files, relative to ${pcfiledir} when everything is under the prefix.
AC_DEFUN([CUSCI_PC_RELOCATABLE], [
  case "$libdir:$includedir:$pkgconfigdir" in
    '${exec_prefix}/'*':${prefix}/'*':${libdir}/pkgconfig')
      cusci_rel=`echo "$libdir" | sed 's,^\${exec_prefix}/,,'`
      cusci_up=`echo "$cusci_rel/pkgconfig" | sed 's,[[^/]][[^/]]*,..,g'`
      PC_PREFIX="\${pcfiledir}/$cusci_up"
      PC_LIBDIR="\${prefix}/$cusci_rel"
      PC_INCLUDEDIR=`echo "$includedir" | sed 's,^\${prefix},${prefix},'`
      ;;
    *)
      PC_PREFIX=$prefix
      test "x$PC_PREFIX" = xNONE && PC_PREFIX=$ac_default_prefix
      PC_LIBDIR="$libdir"
      PC_INCLUDEDIR="$includedir"
      ;;
  esac
  AC_SUBST([PC_PREFIX])
  AC_SUBST([PC_LIBDIR])
  AC_SUBST([PC_INCLUDEDIR])
])

dnl CUSCI_MODULE_BUILT(NAME, CONDITION): record, once configure knows it,
dnl whether module NAME is built (CONDITION is a shell test). The installed
dnl cusci/cusci.h reads CUSCI_HAVE_<NAME>, 1 or 0; the CMake package reads
dnl CUSCI_MODULES, every module, and CUSCI_MODULES_BUILT, those built, core
dnl first in both.
AC_DEFUN([_CUSCI_MODULES_INIT], [
  CUSCI_MODULES=core
  CUSCI_MODULES_BUILT=core
  AC_SUBST([CUSCI_MODULES])
  AC_SUBST([CUSCI_MODULES_BUILT])
])
AC_DEFUN([CUSCI_MODULE_BUILT], [
  AC_REQUIRE([_CUSCI_MODULES_INIT])
  CUSCI_MODULES="$CUSCI_MODULES $1"
  AS_IF([$2], [m4_toupper([CUSCI_HAVE_$1])=1; CUSCI_MODULES_BUILT="$CUSCI_MODULES_BUILT $1"],
        [m4_toupper([CUSCI_HAVE_$1])=0])
  AC_SUBST(m4_toupper([CUSCI_HAVE_$1]))
])

dnl CUSCI_CMAKE_RELOCATABLE: set CUSCI_CMAKE_PREFIX, CUSCI_CMAKE_LIBDIR and
dnl CUSCI_CMAKE_INCLUDEDIR for the CMake package, which is installed in
dnl $libdir/cmake/cusci. When libdir and includedir lie under the prefix, the
dnl prefix is computed from the package's own folder, as the .pc files do
dnl with ${pcfiledir}, so that a moved or DESTDIR-staged installation still
dnl finds itself; otherwise the paths are absolute, expanded here.
AC_DEFUN([CUSCI_CMAKE_RELOCATABLE], [
  case "$exec_prefix:$libdir:$includedir" in
    NONE:'${exec_prefix}/'*':${prefix}/'* | '${prefix}:${exec_prefix}/'*':${prefix}/'* | \
    NONE:'${prefix}/'*':${prefix}/'* | '${prefix}:${prefix}/'*':${prefix}/'*)
      cusci_rel=`echo "$libdir" | sed 's,^\${[[a-z_]]*}/,,'`
      cusci_up=`echo "$cusci_rel/cmake/cusci" | sed 's,[[^/]][[^/]]*,..,g'`
      CUSCI_CMAKE_PREFIX="\${CMAKE_CURRENT_LIST_DIR}/$cusci_up"
      CUSCI_CMAKE_LIBDIR="\${_cusci_prefix}/$cusci_rel"
      CUSCI_CMAKE_INCLUDEDIR=`echo "$includedir" | sed 's,^\${prefix},${_cusci_prefix},'`
      ;;
    *)
      cusci_save_prefix=$prefix
      cusci_save_exec_prefix=$exec_prefix
      test "x$prefix" = xNONE && prefix=$ac_default_prefix
      test "x$exec_prefix" = xNONE && exec_prefix=$prefix
      CUSCI_CMAKE_PREFIX=$prefix
      CUSCI_CMAKE_LIBDIR=$libdir
      CUSCI_CMAKE_INCLUDEDIR=$includedir
      dnl A few rounds expand variables that name others (libdir names
      dnl exec_prefix, which may name prefix).
      for cusci_i in 1 2 3 4; do
        eval CUSCI_CMAKE_LIBDIR=\"$CUSCI_CMAKE_LIBDIR\"
        eval CUSCI_CMAKE_INCLUDEDIR=\"$CUSCI_CMAKE_INCLUDEDIR\"
      done
      prefix=$cusci_save_prefix
      exec_prefix=$cusci_save_exec_prefix
      ;;
  esac
  AC_SUBST([CUSCI_CMAKE_PREFIX])
  AC_SUBST([CUSCI_CMAKE_LIBDIR])
  AC_SUBST([CUSCI_CMAKE_INCLUDEDIR])
])
