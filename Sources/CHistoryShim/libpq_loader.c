// PostgreSQL's client library opened with dlopen on first use (history_shim.h says why).
#include "history_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// The header only for its declarations: libpq is not linked (Debian puts it under postgresql/).
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif

_Static_assert(CONNECTION_OK == LP_CONNECTION_OK, "libpq's CONNECTION_OK");
_Static_assert(PGRES_COMMAND_OK == LP_PGRES_COMMAND_OK, "libpq's PGRES_COMMAND_OK");
_Static_assert(PGRES_TUPLES_OK == LP_PGRES_TUPLES_OK, "libpq's PGRES_TUPLES_OK");
_Static_assert(sizeof(Oid) == sizeof(unsigned int), "libpq's Oid");

// Every libpq function launchprof calls: one pointer each, typed from libpq-fe.h's declaration.
#define LP_PQ_FUNCTIONS(X)                                                                                       \
    X(PQconnectdbParams) X(PQstatus) X(PQfinish) X(PQerrorMessage) X(PQsetNoticeProcessor) X(PQexec)          \
    X(PQexecParams) X(PQclear) X(PQresultStatus) X(PQresultErrorMessage) X(PQresultErrorField) X(PQntuples)   \
    X(PQnfields) X(PQgetisnull) X(PQgetlength) X(PQgetvalue) X(PQftype)

static struct {
#define LP_PQ_POINTER(name) __typeof__(name) *name;
    LP_PQ_FUNCTIONS(LP_PQ_POINTER)
#undef LP_PQ_POINTER
} pq;

static pthread_once_t pq_once = PTHREAD_ONCE_INIT;
static int pq_ready;           // set by pq_load once every function was found
static char pq_failure[512];  // else what went wrong

static void pq_load(void) {
    void *library = dlopen(LP_LIBPQ_NAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(pq_failure, sizeof pq_failure, "%s", reason ? reason : "cannot open " LP_LIBPQ_NAME);
        return;
    }
#define LP_PQ_FIND(name)                                                                            \
    if ((*(void **)&pq.name = dlsym(library, #name)) == NULL) {                                     \
        snprintf(pq_failure, sizeof pq_failure, "%s has no function %s", LP_LIBPQ_NAME, #name);     \
        return;                                                                                     \
    }
    LP_PQ_FUNCTIONS(LP_PQ_FIND)
#undef LP_PQ_FIND
    pq_ready = 1;
}

int lp_pq_open(char *message, size_t capacity) {
    pthread_once(&pq_once, pq_load);
    if (pq_ready) return 0;
    if (message != NULL && capacity > 0) snprintf(message, capacity, "%s", pq_failure);
    return -1;
}

static void discard_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

PGconn *lp_PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    return pq.PQconnectdbParams(keywords, values, expand_dbname);
}
int lp_PQstatus(const PGconn *connection) { return (int)pq.PQstatus(connection); }
void lp_PQfinish(PGconn *connection) { pq.PQfinish(connection); }
char *lp_PQerrorMessage(const PGconn *connection) { return pq.PQerrorMessage(connection); }
void lp_PQdiscardNotices(PGconn *connection) { (void)pq.PQsetNoticeProcessor(connection, discard_notice, NULL); }
PGresult *lp_PQexec(PGconn *connection, const char *query) { return pq.PQexec(connection, query); }
PGresult *lp_PQexecParams(PGconn *connection, const char *command, int count, const unsigned int *types,
                          const char *const *values, const int *lengths, const int *formats, int result_format) {
    return pq.PQexecParams(connection, command, count, types, values, lengths, formats, result_format);
}
void lp_PQclear(PGresult *result) { pq.PQclear(result); }
int lp_PQresultStatus(const PGresult *result) { return (int)pq.PQresultStatus(result); }
char *lp_PQresultErrorMessage(const PGresult *result) { return pq.PQresultErrorMessage(result); }
char *lp_PQresultErrorField(const PGresult *result, int field) { return pq.PQresultErrorField(result, field); }
int lp_PQntuples(const PGresult *result) { return pq.PQntuples(result); }
int lp_PQnfields(const PGresult *result) { return pq.PQnfields(result); }
int lp_PQgetisnull(const PGresult *result, int row, int field) { return pq.PQgetisnull(result, row, field); }
int lp_PQgetlength(const PGresult *result, int row, int field) { return pq.PQgetlength(result, row, field); }
char *lp_PQgetvalue(const PGresult *result, int row, int field) { return pq.PQgetvalue(result, row, field); }
unsigned int lp_PQftype(const PGresult *result, int field) { return pq.PQftype(result, field); }
