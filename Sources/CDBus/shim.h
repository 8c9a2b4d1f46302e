#ifndef LEDGER_CDBUS_SHIM_H
#define LEDGER_CDBUS_SHIM_H

#include <dbus/dbus.h>

#endif
