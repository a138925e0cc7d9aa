#ifndef STRATA_CSQLITE_SHIM_H
#define STRATA_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro Swift cannot import: it asks SQLite to copy bound bytes.
static inline sqlite3_destructor_type strata_sqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}
#endif
