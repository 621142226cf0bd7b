#ifndef LAUNCHPROF_HISTORY_SHIM_H
#define LAUNCHPROF_HISTORY_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#ifdef __cplusplus
extern "C" {
#endif

/// sqlite3_bind_text and sqlite3_bind_blob with SQLITE_TRANSIENT (a macro Swift cannot import):
/// SQLite copies the bytes before returning.
int lp_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length);
int lp_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length);

/// The most bytes lp_deflate may write for `length` input bytes.
size_t lp_deflate_bound(size_t length);

/// zlib (deflate, level 6) of `input` into `output` of `*output_length` bytes; on success 0 and
/// `*output_length` is the compressed size.
int lp_deflate(const uint8_t *input, size_t length, uint8_t *output, size_t *output_length);

/// Inflates `input` into `output` of exactly `expected` bytes: 0 only when the stream is whole,
/// valid and inflates to exactly `expected` bytes.
int lp_inflate(const uint8_t *input, size_t length, uint8_t *output, size_t expected);

// ---- PostgreSQL's client library, opened on first use -------------------------------------
//
// libpq (libpq.so.5) is not linked: with it the loader would map and relocate about 24 more
// libraries (Kerberos, LDAP, GnuTLS, ...) and run their initialisers at every launchprof start,
// about 3 ms of CPU (BENCHMARKS.md, "launchprof exec around short programs"). Only a
// `postgresql://` store opens it, through lp_pq_open; the lp_PQ* functions below are libpq's
// functions of the same name (without lp_), callable once lp_pq_open has returned 0.

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

/// libpq's ConnStatusType and ExecStatusType values launchprof tests for (checked against
/// libpq-fe.h when the shim is compiled).
#define LP_CONNECTION_OK 0
#define LP_PGRES_COMMAND_OK 1
#define LP_PGRES_TUPLES_OK 2

/// The library's file name, as dlopen is given it.
#define LP_LIBPQ_NAME "libpq.so.5"

/// Opens libpq and finds its functions (once per process; thread-safe): 0, or -1 with what went
/// wrong (dlopen's or dlsym's message) written to `message` (`capacity` bytes, NUL-terminated).
int lp_pq_open(char *message, size_t capacity);

PGconn *lp_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname);
int lp_PQstatus(const PGconn *connection);
void lp_PQfinish(PGconn *connection);
char *lp_PQerrorMessage(const PGconn *connection);
/// Discards the server's notices (PQsetNoticeProcessor with a processor that does nothing).
void lp_PQdiscardNotices(PGconn *connection);
PGresult *lp_PQexec(PGconn *connection, const char *query);
PGresult *lp_PQexecParams(PGconn *connection, const char *command, int count, const unsigned int *types,
                          const char *const *values, const int *lengths, const int *formats, int result_format);
void lp_PQclear(PGresult *result);
int lp_PQresultStatus(const PGresult *result);
char *lp_PQresultErrorMessage(const PGresult *result);
char *lp_PQresultErrorField(const PGresult *result, int field);
int lp_PQntuples(const PGresult *result);
int lp_PQnfields(const PGresult *result);
int lp_PQgetisnull(const PGresult *result, int row, int field);
int lp_PQgetlength(const PGresult *result, int row, int field);
char *lp_PQgetvalue(const PGresult *result, int row, int field);
unsigned int lp_PQftype(const PGresult *result, int field);

#ifdef __cplusplus
}
#endif

#endif
