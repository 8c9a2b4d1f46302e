#ifndef LEDGER_LAZY_LIBRARIES_H
#define LEDGER_LAZY_LIBRARIES_H

/* libgit2 and libdbus, loaded on first use (Linux on x86-64): every function of theirs that
 * ledger calls is defined here as a stub that jumps through a slot; the slot's first use
 * dlopen()s the library and looks the function up (trampolines.S, lazy.c). Nothing here is
 * called by name: the stubs take the functions' own names. docs/DESIGN.md, "Start-up". */

#endif
