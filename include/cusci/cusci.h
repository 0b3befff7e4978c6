/* cusci/cusci.h: the whole of cusci that is installed. */
#ifndef CUSCI_CUSCI_H
#define CUSCI_CUSCI_H

#include <cusci/core.h>
#include <cusci/compute.h>
#include <cusci/core_ext.h>
#include <cusci/dlpack.h>
#include <cusci/kernel.h>
#include <cusci/linalg.h>
#include <cusci/random.h>

#endif
