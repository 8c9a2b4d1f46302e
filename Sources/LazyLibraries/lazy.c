/* Binds the stubs of trampolines.S: loads the library on the first call of any of its
 * functions and looks the function up. Linux on x86-64 only; elsewhere the libraries are
 * linked as usual and this file is empty. */
#if defined(__linux__) && defined(__x86_64__)

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <git2/version.h>

/* One stub's slot: where it jumps (its binder until the first call), its function's name and
 * its library (an index in `libraries`). The layout is trampolines.S's. */
struct ledger_lazy_symbol {
    void *target;
    const char *name;
    long library;
};

static struct {
    const char *soname;
    const char *package;
    void *handle;
} libraries[] = {
    {"libgit2.so." LIBGIT2_SOVERSION, "libgit2-" LIBGIT2_SOVERSION, 0},
    {"libdbus-1.so.3", "libdbus-1-3", 0},
};

/* Called by the binder with the stub's slot; returns the function, recorded in the slot so
 * that later calls jump straight to it. Two threads binding at once find the same function. */
void *ledger_lazy_bind(struct ledger_lazy_symbol *symbol) {
    typeof(libraries[0]) *library = &libraries[symbol->library];
    void *handle = __atomic_load_n(&library->handle, __ATOMIC_ACQUIRE);
    if (!handle) {
        handle = dlopen(library->soname, RTLD_NOW | RTLD_GLOBAL);
        if (!handle) {
            fprintf(stderr, "ledger: cannot load %s (%s); install the Debian package %s\n", library->soname, dlerror(), library->package);
            exit(4);
        }
        __atomic_store_n(&library->handle, handle, __ATOMIC_RELEASE);
    }
    void *function = dlsym(handle, symbol->name);
    if (!function) {
        fprintf(stderr, "ledger: %s has no function %s; install the version ledger was built with (%s)\n", library->soname, symbol->name, library->package);
        exit(4);
    }
    __atomic_store_n(&symbol->target, function, __ATOMIC_RELEASE);
    return function;
}

#endif
