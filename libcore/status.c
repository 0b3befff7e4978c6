/*
 * libcore/status.c: status names and sentences, from CUSCI_STATUS_MAP.
 */
#include "libcore/internal.h"

const char *cusci_status_name(cusci_status st)
{
  switch (st) {
#define CUSCI_NAME_(name, value, text) \
  case CUSCI_##name:                   \
    return "CUSCI_" #name;
    CUSCI_STATUS_MAP(CUSCI_NAME_)
#undef CUSCI_NAME_
  }
  return "CUSCI_UNKNOWN_STATUS";
}

const char *cusci_status_string(cusci_status st)
{
  switch (st) {
#define CUSCI_TEXT_(name, value, text) \
  case CUSCI_##name:                   \
    return text;
    CUSCI_STATUS_MAP(CUSCI_TEXT_)
#undef CUSCI_TEXT_
  }
  return "Unknown status code.";
}
