#ifndef LAUNCHPROF_TIER_REFERENCE_H
#define LAUNCHPROF_TIER_REFERENCE_H

/// launchprof's four fixed reference workloads, one per kind of cost (cpu, io, decode, draw), in
/// plain C that nothing in the app shares.
///
/// Calibrated device tiers state how many seconds a device takes for each of these workloads, and
/// launchprof divides by how long this host takes (`HostReference`). The workloads must therefore
/// never change with the app: if they used the app's own drawing, decoding, hashing or file code,
/// making the app faster would make the reference faster too, raise every tier factor and hide the
/// improvement under every calibrated tier.
///
/// CHANGING THESE CHANGES WHAT EVERY CALIBRATED TIER MEANS. Don't, without re-deriving the
/// built-in table's reference seconds (Sources/LaunchTiers/TierTable.swift, docs/tiers.md).

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The inputs the workloads share, made once by `lp_ref_init`.
typedef struct lp_ref_state {
    /// 256 KiB of deterministic bytes (cpu, and io's files).
    uint8_t *payload;
    size_t payload_length;
    /// A 256×256 RGBA noise image encoded as PNG with libpng's simplified API (decode).
    uint8_t *png;
    size_t png_length;
    /// The 256×256 RGBA canvas the draw workload fills (draw).
    uint8_t *canvas;
} lp_ref_state;

/// Error codes: 0 is success.
enum {
    LP_REF_OK = 0,
    LP_REF_NO_MEMORY = 1,
    LP_REF_PNG_ENCODE = 2,
    LP_REF_PNG_DECODE = 3,
    /// io: a file could not be created in the directory (errno says why).
    LP_REF_IO_CREATE = 4,
    /// io: a file could not be written whole.
    LP_REF_IO_WRITE = 5,
    /// io: a file could not be read, or was not the length it was written with.
    LP_REF_IO_READ = 7,
    /// io: the directory could not be listed.
    LP_REF_IO_LIST = 8,
    /// io: the lock file could not be opened or locked.
    LP_REF_IO_LOCK = 9,
};

/// The longest path the io workload builds (the directory and a file's name).
#define LP_REF_PATH_MAX 4096

/// The io workload's files: made once by `lp_ref_io_prepare` in a directory, read by every `lp_ref_io`.
typedef struct lp_ref_io_files {
    /// The directory they are in.
    char directory[LP_REF_PATH_MAX];
    /// What a file is read into: the largest file's length + 1.
    uint8_t *buffer;
    size_t buffer_length;
} lp_ref_io_files;

/// Makes the shared inputs: the payload, the noise image (xorshift32, seed 2463534242) and its PNG.
/// Returns 0 or an error code; on error nothing is left allocated.
int lp_ref_init(lp_ref_state *state);

/// Frees what `lp_ref_init` made.
void lp_ref_free(lp_ref_state *state);

/// cpu: SHA-256 of the 256 KiB payload. Writes the 32-byte digest to `digest`.
void lp_ref_cpu(const lp_ref_state *state, uint8_t digest[32]);

/// io, version 2: what a warm launch's io phases do. `lp_ref_io_prepare` writes its files once (no
/// fsync) into `directory`, an empty directory the caller made and removes: 32 text files of 256 B to
/// 8 KiB (printable bytes of the payload, a line every 64), 2 data files (the payload, 256 KiB each)
/// and an empty `state.lock`. Returns 0 or an error code (errno then says why); on error too,
/// `lp_ref_io_free` frees what was made (the files written stay for the caller to remove).
int lp_ref_io_prepare(lp_ref_io_files *files, const lp_ref_state *state, const char *directory);

/// Frees what `lp_ref_io_prepare` allocated (not the files).
void lp_ref_io_free(lp_ref_io_files *files);

/// io: lists the directory; reads every text file whole (`stat`, `open`, `fstat`, `read` to the end,
/// `close`) and scans its bytes (a parser's first pass: lines and structural characters counted);
/// reads both data files whole; opens `state.lock`, takes a shared `flock` and lets it go. From the
/// page cache, after a first run: nothing is flushed or written. Returns 0 or an error code (errno
/// then says why); on success `*checksum` sums the entries, the scans and the data files' last bytes.
int lp_ref_io(const lp_ref_io_files *files, uint64_t *checksum);

/// decode: decodes the noise PNG to RGBA with libpng's simplified API. Returns 0 or an error code;
/// on success `*checksum` is the sum of the decoded bytes.
int lp_ref_decode(const lp_ref_state *state, uint64_t *checksum);

/// draw: fills twelve nested anti-aliased rounded rectangles (radius 12) with a vertical two-stop
/// gradient at opacity 0.6 on the 256×256 RGBA canvas, cleared to opaque black first, in scalar
/// double-precision code. Returns the sum of the canvas bytes (so the work cannot be skipped).
uint64_t lp_ref_draw(lp_ref_state *state);

#ifdef __cplusplus
}
#endif

#endif
