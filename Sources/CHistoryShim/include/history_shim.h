#ifndef LAUNCHPROF_HISTORY_SHIM_H
#define LAUNCHPROF_HISTORY_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>
#include <libpq-fe.h>

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

#ifdef __cplusplus
}
#endif

#endif
