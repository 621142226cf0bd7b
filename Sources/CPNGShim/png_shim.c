// The only place launchprof touches libpng directly. libpng reports errors with longjmp, which
// must never cross Swift frames, so every libpng call happens below a setjmp in this file and
// errors come back as a return code and libpng's message.
#include "png_shim.h"

#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LP_PNG_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LP_PNG_ASAN 1
#endif

#ifdef LP_PNG_ASAN
#include <sanitizer/asan_interface.h>
#define SCRATCH_REDZONE ((size_t)32)
#else
#define ASAN_POISON_MEMORY_REGION(address, size) ((void)(address), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(address, size) ((void)(address), (void)(size))
#define SCRATCH_REDZONE ((size_t)0)
#endif

// Scratch memory for what libpng and zlib allocate for themselves during one decode: the read and info
// structures, zlib's inflate state and 32 KiB window, the row buffers (about 45 KiB and two rows).
// Taken from malloc and given back for every decode, these made glibc hand the top of the heap back
// to the kernel after one decode and fault it in again during the next (four brk calls and two page
// faults per decode, 10-20% of a small asset's decode time). One block per thread, reused by every
// decode on it and freed when the thread ends; what does not fit is malloc'ed as before. Under
// AddressSanitizer (the fuzzers) the block stays poisoned except for the allocations made from it,
// with a red zone after each, so an overrun from one allocation into the next is still caught.
#define SCRATCH_BYTES ((size_t)256 * 1024)
#define SCRATCH_ALIGN ((size_t)16)

typedef struct scratch {
    uint8_t *base;
    size_t used;
    /// Bytes malloc'ed for this decode and not yet freed (the scratch block not counted), and the most
    /// there may be (lp_png_limits.max_chunk_bytes * LP_PNG_LIBPNG_BUDGET_CHUNKS): an allocation past it
    /// fails, which libpng reports as out of memory.
    size_t live;
    size_t budget;
    /// The most `live` reached.
    size_t peak;
} scratch;

/// What the last decode on this thread left malloc'ed when it ended, and its peak (lp_png_last_decode_memory).
static _Thread_local size_t last_decode_live, last_decode_peak;

/// Each malloc'ed block starts with its size, so that freeing it gives its bytes back to the budget.
#define BLOCK_HEADER ((size_t)16)

static pthread_key_t scratch_key;
static int scratch_key_ready;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_release(void *block) {
    ASAN_UNPOISON_MEMORY_REGION(block, SCRATCH_BYTES);
    free(block);
}

static void scratch_key_create(void) { scratch_key_ready = pthread_key_create(&scratch_key, scratch_release) == 0; }

/// This thread's scratch block, empty; `base` is NULL when there is none (everything is then malloc'ed).
static scratch thread_scratch(size_t budget) {
    scratch result = { NULL, 0, 0, budget, 0 };
    if (pthread_once(&scratch_once, scratch_key_create) != 0 || !scratch_key_ready) return result;
    uint8_t *block = (uint8_t *)pthread_getspecific(scratch_key);
    if (block == NULL) {
        block = (uint8_t *)malloc(SCRATCH_BYTES);
        if (block != NULL && pthread_setspecific(scratch_key, block) != 0) {
            scratch_release(block);
            block = NULL;
        }
    }
    if (block != NULL) ASAN_POISON_MEMORY_REGION(block, SCRATCH_BYTES);
    result.base = block;
    return result;
}

static png_voidp scratch_malloc(png_structp png, png_alloc_size_t size) {
    scratch *memory = (scratch *)png_get_mem_ptr(png);
    size_t available = SCRATCH_BYTES - memory->used;
    if (memory->base != NULL && size <= available) {
        png_voidp pointer = memory->base + memory->used;
        size_t taken = (size + SCRATCH_REDZONE + SCRATCH_ALIGN - 1) & ~(SCRATCH_ALIGN - 1);
        memory->used = taken <= available ? memory->used + taken : SCRATCH_BYTES;
        ASAN_UNPOISON_MEMORY_REGION(pointer, size);
        return pointer;
    }
    if (size > memory->budget - memory->live || size > SIZE_MAX - BLOCK_HEADER) return NULL;
    uint8_t *block = (uint8_t *)malloc(BLOCK_HEADER + size);
    if (block == NULL) return NULL;
    memcpy(block, &size, sizeof size);
    memory->live += size;
    if (memory->live > memory->peak) memory->peak = memory->live;
    return block + BLOCK_HEADER;
}

/// Frees what came from malloc; what came from the scratch block is reused by the next decode.
static void scratch_free(png_structp png, png_voidp pointer) {
    scratch *memory = (scratch *)png_get_mem_ptr(png);
    uint8_t *bytes = (uint8_t *)pointer;
    if (bytes == NULL || (memory->base != NULL && bytes >= memory->base && bytes < memory->base + SCRATCH_BYTES)) return;
    size_t size;
    memcpy(&size, bytes - BLOCK_HEADER, sizeof size);
    memory->live -= size;
    free(bytes - BLOCK_HEADER);
}

/// The most libpng and zlib may hold allocated at once during one decode (the decoded pixels are not
/// theirs): a few chunks of the largest size an ancillary chunk may have (iCCP, zTXt, iTXt are held
/// whole, and inflated into a second buffer), plus room for the rows and zlib's state. Without it,
/// the 1000 text chunks libpng keeps could each inflate to the chunk limit.
static size_t libpng_budget(lp_png_limits limits) {
    size_t chunk = limits.max_chunk_bytes;
    size_t chunks = chunk > (SIZE_MAX - LP_PNG_LIBPNG_BUDGET_SLACK) / LP_PNG_LIBPNG_BUDGET_CHUNKS
        ? SIZE_MAX - LP_PNG_LIBPNG_BUDGET_SLACK : chunk * LP_PNG_LIBPNG_BUDGET_CHUNKS;
    return chunks + LP_PNG_LIBPNG_BUDGET_SLACK;
}

typedef struct shim_state {
    char *error;
    size_t error_capacity;
    const uint8_t *data;
    size_t length;
    size_t offset;
    uint8_t *out;
    size_t out_length;
    size_t out_capacity;
} shim_state;

static void set_error(char *error, size_t capacity, const char *message) {
    if (error == NULL || capacity == 0) return;
    strncpy(error, message, capacity - 1);
    error[capacity - 1] = '\0';
}

static void shim_error(png_structp png, png_const_charp message) {
    shim_state *state = (shim_state *)png_get_error_ptr(png);
    set_error(state->error, state->error_capacity, message ? message : "unknown libpng error");
    png_longjmp(png, 1);
}

static void shim_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message; // Warnings are allowed: the image still decodes.
}

static void shim_read(png_structp png, png_bytep buffer, size_t count) {
    shim_state *state = (shim_state *)png_get_io_ptr(png);
    if (count > state->length - state->offset) {
        png_error(png, "unexpected end of file (truncated PNG)");
    }
    memcpy(buffer, state->data + state->offset, count);
    state->offset += count;
}

static void record_memory(const scratch *memory) {
    last_decode_live = memory->live;
    last_decode_peak = memory->peak;
}

void lp_png_last_decode_memory(size_t *live, size_t *peak) {
    *live = last_decode_live;
    *peak = last_decode_peak;
}

static uint32_t big_endian_word(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | (uint32_t)bytes[3];
}

/// Checks that every chunk up to IEND fits in the file: libpng allocates a chunk's buffer from its
/// declared length before reading its data, so a length of 1.9 GB in a 65-byte file was a 1.9 GB
/// allocation. A PNG held in memory cannot have more data than the bytes left, so a longer declared
/// length is an error here, before libpng runs. A file that ends between chunks is left to libpng
/// (which reports the truncation). Returns 0 when every chunk fits.
static int check_chunk_lengths(const uint8_t *data, size_t length, char *error, size_t error_capacity) {
    size_t offset = 8;
    while (length - offset >= 8) {
        uint32_t declared = big_endian_word(data + offset);
        char name[5];
        for (int i = 0; i < 4; i++) {
            uint8_t c = data[offset + 4 + i];
            name[i] = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ? (char)c : '?';
        }
        name[4] = '\0';
        size_t left = length - offset - 8;
        if (declared > 0x7fffffffu || (size_t)declared + 4 > left) {
            if (error != NULL && error_capacity > 0) {
                snprintf(error, error_capacity,
                         "chunk '%s' at byte %zu declares %u bytes of data, more than the %zu bytes left in the file "
                         "with its CRC (a truncated or corrupt PNG)",
                         name, offset, declared, left);
            }
            return 1;
        }
        if (memcmp(name, "IEND", 4) == 0) return 0;
        offset += 12 + (size_t)declared;
    }
    return 0;
}

/// Both decoders: into `destination` (exactly `capacity` bytes, the caller's) when it is not NULL,
/// else into memory malloc'ed here.
static int decode(const uint8_t *data, size_t length, lp_png_limits limits, uint8_t *destination, size_t capacity,
                  lp_png_decoded *out, char *error, size_t error_capacity) {
    shim_state state = { error, error_capacity, data, length, 0, NULL, 0, 0 };
    memset(out, 0, sizeof *out);
    if (length < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        set_error(error, error_capacity, "not a PNG file (bad signature)");
        return 1;
    }
    if (check_chunk_lengths(data, length, error, error_capacity) != 0) return 1;
    scratch memory = thread_scratch(libpng_budget(limits));
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &state, shim_error, shim_warning, &memory,
                                               scratch_malloc, scratch_free);
    if (png == NULL) {
        set_error(error, error_capacity, "libpng could not create a read structure");
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        set_error(error, error_capacity, "libpng could not create an info structure");
        return 1;
    }
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        if (destination == NULL) free(pixels);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        record_memory(&memory);
        return 1;
    }
    png_set_read_fn(png, &state, shim_read);
    png_set_user_limits(png, limits.max_width, limits.max_height);
    png_set_chunk_malloc_max(png, limits.max_chunk_bytes);
    // Every ancillary chunk but tRNS is skipped unread: the decode needs none of them (no gamma or
    // background is applied), and libpng would otherwise keep each text, profile or palette
    // suggestion (up to 1000 of them, each up to the chunk limit once inflated) until the decode ends.
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    if ((size_t)width * (size_t)height > limits.max_pixel_bytes / 4) {
        png_error(png, "image too large: decoded pixels exceed the memory limit");
    }
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);

    size_t row_bytes = png_get_rowbytes(png, info);
    if (row_bytes != (size_t)width * 4) {
        png_error(png, "unexpected row size after conversion to RGBA8");
    }
    if (destination != NULL && row_bytes * height != capacity) {
        png_error(png, "the decoded size is not the one the caller expected");
    }
    pixels = destination != NULL ? destination : (uint8_t *)malloc(row_bytes * height);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
    if (pixels == NULL || rows == NULL) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * row_bytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    record_memory(&memory);
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    out->bit_depth = bit_depth;
    out->color_type = color_type;
    out->interlaced = interlace != PNG_INTERLACE_NONE;
    return 0;
}

int lp_png_decode(const uint8_t *data, size_t length, lp_png_limits limits,
                  lp_png_decoded *out, char *error, size_t error_capacity) {
    return decode(data, length, limits, NULL, 0, out, error, error_capacity);
}

int lp_png_decode_to(const uint8_t *data, size_t length, lp_png_limits limits, uint8_t *destination,
                     size_t capacity, lp_png_decoded *out, char *error, size_t error_capacity) {
    if (destination == NULL) {
        set_error(error, error_capacity, "no destination buffer");
        memset(out, 0, sizeof *out);
        return 1;
    }
    return decode(data, length, limits, destination, capacity, out, error, error_capacity);
}

static void shim_write(png_structp png, png_bytep buffer, size_t count) {
    shim_state *state = (shim_state *)png_get_io_ptr(png);
    if (count > state->out_capacity - state->out_length) {
        size_t capacity = state->out_capacity ? state->out_capacity : 65536;
        while (capacity - state->out_length < count) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(state->out, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        state->out = grown;
        state->out_capacity = capacity;
    }
    memcpy(state->out + state->out_length, buffer, count);
    state->out_length += count;
}

static void shim_flush(png_structp png) { (void)png; }

int lp_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                       int filters, int strategy, int drop_alpha,
                       uint8_t **out, size_t *out_length, char *error, size_t error_capacity) {
    shim_state state = { error, error_capacity, NULL, 0, 0, NULL, 0, 0 };
    *out = NULL;
    *out_length = 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, shim_error, shim_warning);
    if (png == NULL) {
        set_error(error, error_capacity, "libpng could not create a write structure");
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        set_error(error, error_capacity, "libpng could not create an info structure");
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(state.out);
        png_destroy_write_struct(&png, &info);
        return 1;
    }
    png_set_write_fn(png, &state, shim_write, shim_flush);
    png_set_compression_level(png, compression_level);
    png_set_compression_strategy(png, strategy);
    if (filters != 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, width, height, 8, drop_alpha ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    // RGBA rows in, RGB out: libpng strips the fourth byte of every pixel as it writes.
    if (drop_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * width * 4));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *out = state.out;
    *out_length = state.out_length;
    return 0;
}

void lp_png_free(void *pointer) { free(pointer); }
