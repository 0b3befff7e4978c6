/*
 * cusci/kit/launchers.h: the first lines of a module's launch header
 * (kernels/X/launch.h): <cusci/core_ext.h>, whose CUSCI_LAUNCHER declares
 * each launcher (or, in a build without CUDA, its stand-in), and a check
 * that the including file had its config.h first: one that included
 * <cusci/core_ext.h> before config.h would get the stand-ins in a build
 * with CUDA, and every GPU call would fail as if there were no GPU.
 */
#ifndef CUSCI_KIT_LAUNCHERS_H
#define CUSCI_KIT_LAUNCHERS_H

#include <cusci/core_ext.h>

#if defined(CUSCI_HAVE_CUDA) && !defined(CUSCI_LAUNCHERS_ARE_REAL)
#error "config.h must be included before <cusci/core_ext.h>, or the launchers are stand-ins"
#endif

#endif
