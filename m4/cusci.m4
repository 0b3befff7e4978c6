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
dnl whether module NAME is built (CONDITION is a shell test): the installed
dnl cusci/cusci.h reads CUSCI_HAVE_<NAME>, 1 or 0.
AC_DEFUN([CUSCI_MODULE_BUILT], [
  AS_IF([$2], [m4_toupper([CUSCI_HAVE_$1])=1], [m4_toupper([CUSCI_HAVE_$1])=0])
  AC_SUBST(m4_toupper([CUSCI_HAVE_$1]))
])
