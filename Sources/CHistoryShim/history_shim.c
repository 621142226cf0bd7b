#include "history_shim.h"

#include <zlib.h>

int lp_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

int lp_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

size_t lp_deflate_bound(size_t length) { return (size_t)compressBound((uLong)length); }

int lp_deflate(const uint8_t *input, size_t length, uint8_t *output, size_t *output_length) {
    uLongf size = (uLongf)*output_length;
    int status = compress2(output, &size, input, (uLong)length, 6);
    if (status != Z_OK) return status;
    *output_length = (size_t)size;
    return 0;
}

int lp_inflate(const uint8_t *input, size_t length, uint8_t *output, size_t expected) {
    uLongf size = (uLongf)expected;
    uLong consumed = (uLong)length;
    int status = uncompress2(output, &size, input, &consumed);
    if (status != Z_OK) return status == 0 ? -1 : status;
    return size == (uLongf)expected && consumed == (uLong)length ? 0 : -1;
}
