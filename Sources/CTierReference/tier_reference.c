// launchprof's fixed reference workloads (see include/CTierReference.h).
// CHANGING THESE CHANGES WHAT EVERY CALIBRATED TIER MEANS.
#define _GNU_SOURCE
// No fused multiply-add: the draw workload rounds the same on every machine.
#pragma STDC FP_CONTRACT OFF
#include "CTierReference.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SIDE = 256, PAYLOAD = 256 * 1024 };

// MARK: - Inputs

int lp_ref_init(lp_ref_state *state) {
    memset(state, 0, sizeof *state);
    state->payload = malloc(PAYLOAD);
    state->canvas = malloc(SIDE * SIDE * 4);
    uint8_t *pixels = malloc(SIDE * SIDE * 4);
    if (!state->payload || !state->canvas || !pixels) {
        free(pixels);
        lp_ref_free(state);
        return LP_REF_NO_MEMORY;
    }
    state->payload_length = PAYLOAD;
    for (uint32_t i = 0; i < PAYLOAD; i++) state->payload[i] = (uint8_t)((i * 2654435761u) >> 7);

    // A deterministic noise image: it compresses poorly, so decoding does real work.
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < SIDE * SIDE * 4; i += 4) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        pixels[i] = (uint8_t)x;
        pixels[i + 1] = (uint8_t)(x >> 8);
        pixels[i + 2] = (uint8_t)(x >> 16);
        pixels[i + 3] = 255;
    }
    // Encoded once, with the simplified API's fixed settings (libpng's own defaults).
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = SIDE;
    image.height = SIDE;
    image.format = PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, 0, NULL) || size == 0) {
        png_image_free(&image);
        free(pixels);
        lp_ref_free(state);
        return LP_REF_PNG_ENCODE;
    }
    state->png = malloc(size);
    if (!state->png) {
        free(pixels);
        lp_ref_free(state);
        return LP_REF_NO_MEMORY;
    }
    if (!png_image_write_to_memory(&image, state->png, &size, 0, pixels, 0, NULL)) {
        png_image_free(&image);
        free(pixels);
        lp_ref_free(state);
        return LP_REF_PNG_ENCODE;
    }
    state->png_length = size;
    free(pixels);
    return LP_REF_OK;
}

void lp_ref_free(lp_ref_state *state) {
    free(state->payload);
    free(state->png);
    free(state->canvas);
    memset(state, 0, sizeof *state);
}

// MARK: - cpu: SHA-256 (FIPS 180-4)

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void sha256_block(uint32_t h[8], const uint8_t *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void lp_ref_cpu(const lp_ref_state *state, uint8_t digest[32]) {
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    size_t n = state->payload_length, full = n / 64 * 64;
    for (size_t i = 0; i < full; i += 64) sha256_block(h, state->payload + i);
    uint8_t tail[128] = {0};
    size_t rest = n - full;
    memcpy(tail, state->payload + full, rest);
    tail[rest] = 0x80;
    size_t tail_length = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)n * 8;
    for (int i = 0; i < 8; i++) tail[tail_length - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < tail_length; i += 64) sha256_block(h, tail + i);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(h[i] >> 24); digest[4 * i + 1] = (uint8_t)(h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(h[i] >> 8); digest[4 * i + 3] = (uint8_t)h[i];
    }
}

// MARK: - io

enum { TEXT_FILES = 32, DATA_FILES = 2, LINE = 64 };

/// The size of text file `i`: 256 B to 8 KiB (256 << (i % 6)), less 7 bytes a file so no two are alike.
static size_t text_size(int i) { return ((size_t)256 << (i % 6)) - (size_t)(7 * i); }

/// `files->directory`/`name` in `path`; 0, or -1 when it does not fit.
static int file_path(char path[LP_REF_PATH_MAX], const lp_ref_io_files *files, const char *name) {
    return snprintf(path, LP_REF_PATH_MAX, "%s/%s", files->directory, name) < LP_REF_PATH_MAX ? 0 : -1;
}

/// Creates `name` in the files' directory holding `length` bytes of `bytes` (no fsync: the page cache
/// is what the workload reads). Returns 0 or an error code (errno says why).
static int create_file(const lp_ref_io_files *files, const char *name, const uint8_t *bytes, size_t length) {
    char path[LP_REF_PATH_MAX];
    if (file_path(path, files, name) != 0) { errno = ENAMETOOLONG; return LP_REF_IO_CREATE; }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return LP_REF_IO_CREATE;
    size_t done = 0;
    while (done < length) {
        ssize_t n = write(fd, bytes + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { int saved = n < 0 ? errno : EIO; close(fd); errno = saved; return LP_REF_IO_WRITE; }
        done += (size_t)n;
    }
    return close(fd) == 0 ? LP_REF_OK : LP_REF_IO_WRITE;
}

int lp_ref_io_prepare(lp_ref_io_files *files, const lp_ref_state *state, const char *directory) {
    memset(files, 0, sizeof *files);
    if (snprintf(files->directory, sizeof files->directory, "%s", directory) >= (int)sizeof files->directory) {
        errno = ENAMETOOLONG;
        return LP_REF_IO_CREATE;
    }
    files->buffer_length = state->payload_length + 1;
    files->buffer = malloc(files->buffer_length);
    if (!files->buffer) { errno = ENOMEM; return LP_REF_NO_MEMORY; }
    // Text: printable bytes drawn from the payload, a line every 64 (settings, manifests, themes).
    uint8_t *text = files->buffer;
    char name[32];
    for (int i = 0; i < TEXT_FILES; i++) {
        size_t length = text_size(i);
        for (size_t k = 0; k < length; k++) {
            uint8_t b = state->payload[(k * 31 + (size_t)i * 977) % state->payload_length];
            text[k] = k % LINE == LINE - 1 ? '\n' : (uint8_t)(' ' + b % 95);
        }
        snprintf(name, sizeof name, "text-%02d.txt", i);
        int code = create_file(files, name, text, length);
        if (code != LP_REF_OK) return code;
    }
    // Data: the payload (images, fonts, a data file read whole).
    for (int i = 0; i < DATA_FILES; i++) {
        snprintf(name, sizeof name, "data-%d.bin", i);
        int code = create_file(files, name, state->payload, state->payload_length);
        if (code != LP_REF_OK) return code;
    }
    return create_file(files, "state.lock", NULL, 0);
}

void lp_ref_io_free(lp_ref_io_files *files) {
    free(files->buffer);
    memset(files, 0, sizeof *files);
}

/// Reads the file `name` whole into the buffer as an app reads a file it needs: `stat` (is it there?),
/// `open`, `fstat` (its size, to bound the read), `read` to the end, `close`. Its length, or -1 (errno).
static ssize_t read_file(const lp_ref_io_files *files, const char *name) {
    char path[LP_REF_PATH_MAX];
    struct stat info;
    if (file_path(path, files, name) != 0) { errno = ENAMETOOLONG; return -1; }
    if (stat(path, &info) != 0) return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (fstat(fd, &info) != 0 || (size_t)info.st_size >= files->buffer_length) { close(fd); errno = EFBIG; return -1; }
    size_t total = 0;
    for (;;) {
        ssize_t n = read(fd, files->buffer + total, files->buffer_length - total);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { int saved = errno; close(fd); errno = saved; return -1; }
        if (n == 0) break;
        total += (size_t)n;
    }
    close(fd);
    return (ssize_t)total;
}

/// What a parser's first pass does with a small file: every byte looked at, its lines and
/// structural characters counted.
static uint64_t scan_text(const uint8_t *bytes, size_t length) {
    uint64_t tokens = 0;
    for (size_t i = 0; i < length; i++) {
        uint8_t b = bytes[i];
        tokens += (b == '\n') + 3 * (b == '{' || b == '}') + 5 * (b == '<' || b == '>') + 7 * (b == '"');
    }
    return tokens;
}

int lp_ref_io(const lp_ref_io_files *files, uint64_t *checksum) {
    uint64_t sum = 0;
    DIR *listing = opendir(files->directory);
    if (!listing) return LP_REF_IO_LIST;
    struct dirent *entry;
    while ((entry = readdir(listing))) sum += entry->d_name[0] != '.';
    closedir(listing);
    char name[32];
    for (int i = 0; i < TEXT_FILES; i++) {
        snprintf(name, sizeof name, "text-%02d.txt", i);
        ssize_t n = read_file(files, name);
        if (n != (ssize_t)text_size(i)) { if (n >= 0) errno = EIO; return LP_REF_IO_READ; }
        sum += scan_text(files->buffer, (size_t)n);
    }
    for (int i = 0; i < DATA_FILES; i++) {
        snprintf(name, sizeof name, "data-%d.bin", i);
        ssize_t n = read_file(files, name);
        if (n != (ssize_t)(files->buffer_length - 1)) { if (n >= 0) errno = EIO; return LP_REF_IO_READ; }
        sum += files->buffer[(size_t)n - 1];
    }
    // The state lock a launch takes (shared) and lets go of.
    char path[LP_REF_PATH_MAX];
    if (file_path(path, files, "state.lock") != 0) { errno = ENAMETOOLONG; return LP_REF_IO_LOCK; }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return LP_REF_IO_LOCK;
    if (flock(fd, LOCK_SH) != 0 || flock(fd, LOCK_UN) != 0) { int saved = errno; close(fd); errno = saved; return LP_REF_IO_LOCK; }
    close(fd);
    *checksum = sum;
    return LP_REF_OK;
}

// MARK: - decode

int lp_ref_decode(const lp_ref_state *state, uint64_t *checksum) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, state->png, state->png_length)) {
        png_image_free(&image);
        return LP_REF_PNG_DECODE;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(image);
    uint8_t *pixels = malloc(size);
    if (!pixels) { png_image_free(&image); return LP_REF_NO_MEMORY; }
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        free(pixels);
        png_image_free(&image);
        return LP_REF_PNG_DECODE;
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < size; i++) sum += pixels[i];
    free(pixels);
    *checksum = sum;
    return LP_REF_OK;
}

// MARK: - draw

/// Signed distance from the centre of pixel (x, y) to the rounded rectangle's edge (negative inside).
static double rounded_rect_distance(int x, int y, double rx, double ry, double rw, double rh, double r) {
    double px = x + 0.5 - (rx + rw / 2), py = y + 0.5 - (ry + rh / 2);
    double qx = fabs(px) - (rw / 2 - r), qy = fabs(py) - (rh / 2 - r);
    double ox = qx > 0 ? qx : 0, oy = qy > 0 ? qy : 0;
    double inside = fmax(qx, qy);
    return sqrt(ox * ox + oy * oy) + (inside < 0 ? inside : 0) - r;
}

uint64_t lp_ref_draw(lp_ref_state *state) {
    uint8_t *dst = state->canvas;
    for (size_t i = 0; i < SIDE * SIDE * 4; i += 4) { dst[i] = 0; dst[i + 1] = 0; dst[i + 2] = 0; dst[i + 3] = 255; }
    const double top[3] = {200, 120, 40}, bottom[3] = {40, 60, 200};
    const double opacity = 0.6, radius = 12;
    for (int n = 0; n < 12; n++) {
        double inset = n * 8, rx = inset, ry = inset, rw = SIDE - 2 * inset, rh = SIDE - 2 * inset;
        int x0 = (int)floor(rx) - 1, y0 = (int)floor(ry) - 1, x1 = (int)ceil(rx + rw) + 1, y1 = (int)ceil(ry + rh) + 1;
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 > SIDE) x1 = SIDE;
        if (y1 > SIDE) y1 = SIDE;
        for (int y = y0; y < y1; y++) {
            double t = (y + 0.5 - ry) / rh;
            t = t < 0 ? 0 : (t > 1 ? 1 : t);
            double color[3];
            for (int c = 0; c < 3; c++) color[c] = top[c] + (bottom[c] - top[c]) * t;
            for (int x = x0; x < x1; x++) {
                double coverage = 0.5 - rounded_rect_distance(x, y, rx, ry, rw, rh, radius);
                if (coverage <= 0) continue;
                if (coverage > 1) coverage = 1;
                double a = coverage * opacity;
                uint8_t *p = dst + ((size_t)y * SIDE + (size_t)x) * 4;
                for (int c = 0; c < 3; c++) p[c] = (uint8_t)lround(color[c] * a + p[c] * (1 - a));
                p[3] = (uint8_t)lround(255 * a + p[3] * (1 - a));
            }
        }
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < SIDE * SIDE * 4; i++) sum += dst[i];
    return sum;
}
