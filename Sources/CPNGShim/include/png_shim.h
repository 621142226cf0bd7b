#ifndef LAUNCHPROF_PNG_SHIM_H
#define LAUNCHPROF_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What libpng and zlib may hold allocated at once during one decode, besides the decoded pixels:
/// LP_PNG_LIBPNG_BUDGET_CHUNKS times lp_png_limits.max_chunk_bytes, plus LP_PNG_LIBPNG_BUDGET_SLACK
/// bytes (rows, zlib's state). An allocation past it fails and the decode reports "out of memory".
#define LP_PNG_LIBPNG_BUDGET_CHUNKS 4
#define LP_PNG_LIBPNG_BUDGET_SLACK (4 << 20)

/// Limits that keep a hostile header from making the decoder allocate without bound.
typedef struct lp_png_limits {
    uint32_t max_width;
    uint32_t max_height;
    /// Maximum bytes of decoded RGBA8 pixels (width * height * 4).
    size_t max_pixel_bytes;
    /// Maximum bytes libpng may allocate for one ancillary chunk.
    size_t max_chunk_bytes;
} lp_png_limits;

/// What a decode produced: RGBA8 pixels (owned by the caller, free with lp_png_free) and the source format.
typedef struct lp_png_decoded {
    uint8_t *pixels;
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
} lp_png_decoded;

/// Decodes a PNG held in memory to 8-bit RGBA, whatever its colour type, bit depth or interlacing
/// (palette and grey expanded, tRNS to alpha, 16-bit stripped). Every chunk up to IEND must fit in
/// `length` (checked before libpng runs: libpng allocates a chunk from its declared length).
/// Returns 0 on success; otherwise non-zero with libpng's message (or the limit hit) in `error`.
/// libpng's longjmp-based errors are caught here, so they never cross into Swift.
int lp_png_decode(const uint8_t *data, size_t length, lp_png_limits limits,
                  lp_png_decoded *out, char *error, size_t error_capacity);

/// As lp_png_decode, but into `destination`, the caller's `capacity` bytes, which must be exactly the
/// decoded RGBA8 size (width * height * 4, from the header the caller read): no second buffer, no copy.
/// `out->pixels` is then `destination` (not to be passed to lp_png_free). A size that differs is an error.
int lp_png_decode_to(const uint8_t *data, size_t length, lp_png_limits limits, uint8_t *destination,
                     size_t capacity, lp_png_decoded *out, char *error, size_t error_capacity);

/// What libpng and zlib held malloc'ed (beyond the reused scratch block) at the end of the last decode
/// on the calling thread (0 unless something leaked) and at most during it (within the budget above).
/// For tests: the last decode that reached libpng, whether it succeeded or failed.
void lp_png_last_decode_memory(size_t *live, size_t *peak);

/// Encodes RGBA8 pixels (row-major, no padding) as a PNG in memory, deterministically
/// (no time stamp). `compression_level` is zlib's 0–9, `filters` a mask of libpng's PNG_FILTER_*
/// (0: libpng's default), `strategy` zlib's (Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE…), and
/// `drop_alpha` writes RGB (the caller checked that every pixel is opaque).
/// On success `*out` holds the bytes (free with lp_png_free).
int lp_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                       int filters, int strategy, int drop_alpha,
                       uint8_t **out, size_t *out_length, char *error, size_t error_capacity);

/// Frees memory returned by the functions above.
void lp_png_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
