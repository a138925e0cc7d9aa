#ifndef STRATA_CSQLITE_SHIM_H
#define STRATA_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro Swift cannot import: it asks SQLite to copy bound bytes.
static inline sqlite3_destructor_type strata_sqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}

// sqlite3_db_config is variadic, which Swift cannot call. Turns off SQLite's fallback that reads a double-quoted
// name matching no column as a string literal: a query naming a column that no longer exists then fails instead
// of returning the column's name as its value.
static inline int strata_sqlite_disable_double_quoted_strings(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
}

// Keeps a connection from checkpointing its write-ahead log into the database file when it closes: a file refused
// at open must be left as it was, its log included.
static inline int strata_sqlite_disable_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
