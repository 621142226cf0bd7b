#include "xml_builder.h"
#include <stdlib.h>
#include <string.h>

/// Appends `length` bytes to the document's byte buffer; their offset, or -1.
static int32_t append_bytes(lp_xml_builder *b, const void *bytes, int64_t length) {
    lp_xml_document *d = b->document;
    if (lp_xml_ensure((void **)&d->bytes, &b->arena->byte_capacity, (int64_t)d->byte_count + length, 1) != 0) return -1;
    int32_t start = d->byte_count;
    if (length > 0) memcpy(d->bytes + start, bytes, (size_t)length);
    d->byte_count += (int32_t)length;
    return start;
}

static uint32_t name_hash(const void *prefix, const void *local) {
    uint64_t x = (uint64_t)(uintptr_t)local * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)prefix * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(x >> 32);
}

/// Doubles the name table and puts every name back.
static int grow_slots(lp_xml_builder *b) {
    int64_t capacity = (int64_t)b->slot_capacity * 2;
    if (capacity > INT32_MAX) return -1;
    lp_xml_name_slot *slots = calloc((size_t)capacity, sizeof *slots);
    if (!slots) return -1;
    uint32_t mask = (uint32_t)capacity - 1;
    for (int32_t i = 0; i < b->slot_capacity; i++) {
        lp_xml_name_slot slot = b->slots[i];
        if (!slot.local) continue;
        uint32_t j = name_hash(slot.prefix, slot.local) & mask;
        while (slots[j].local) j = (j + 1) & mask;
        slots[j] = slot;
    }
    free(b->slots);
    b->slots = slots;
    b->slot_capacity = (int32_t)capacity;
    return 0;
}

/// The id of the name `prefix:local` (or `local` without a prefix), made on first sight.
static int32_t intern(lp_xml_builder *b, const unsigned char *prefix, const unsigned char *local) {
    uint32_t mask = (uint32_t)b->slot_capacity - 1;
    uint32_t i = name_hash(prefix, local) & mask;
    for (; b->slots[i].local; i = (i + 1) & mask) {
        if (b->slots[i].local == local && b->slots[i].prefix == prefix) return b->slots[i].id;
    }
    lp_xml_document *d = b->document;
    if (lp_xml_ensure((void **)&d->names, &b->arena->name_capacity, (int64_t)d->name_count + 1, sizeof *d->names) != 0) return -1;
    size_t local_length = strlen((const char *)local);
    int32_t start;
    if (prefix) {
        size_t prefix_length = strlen((const char *)prefix);
        start = append_bytes(b, prefix, (int64_t)prefix_length);
        if (start < 0 || append_bytes(b, ":", 1) < 0 || append_bytes(b, local, (int64_t)local_length) < 0) return -1;
    } else {
        start = append_bytes(b, local, (int64_t)local_length);
        if (start < 0) return -1;
    }
    int32_t id = d->name_count++;
    d->names[id] = (lp_xml_range){start, d->byte_count - start};
    b->slots[i] = (lp_xml_name_slot){prefix, local, id};
    // At most half full, so a probe always ends at a free slot.
    if ((int64_t)d->name_count * 2 > b->slot_capacity && grow_slots(b) != 0) return -1;
    return id;
}

int lp_xml_builder_init(lp_xml_builder *b, int length) {
    memset(b, 0, sizeof *b);
    b->arena = lp_xml_arena_acquire();
    if (!b->arena) return -1;
    lp_xml_document *d = &b->arena->document;
    b->document = d;
    // Room for an element per 64 bytes of XML and an attribute per 20 (the fixtures have one per 70
    // and one per 17 to 24), so that a typical document needs no growth; a recycled arena keeps its
    // larger arrays.
    int64_t hint = length > 0 ? length : 0;
    int64_t elements = hint / 64 + 16, attributes = hint / 20 + 16, bytes = hint / 2 + 256;
    b->slot_capacity = 64;
    b->slots = calloc((size_t)b->slot_capacity, sizeof *b->slots);
    if (!b->slots || lp_xml_ensure((void **)&d->elements, &b->arena->element_capacity, elements, sizeof *d->elements) != 0 ||
        lp_xml_ensure((void **)&d->attributes, &b->arena->attribute_capacity, attributes, sizeof *d->attributes) != 0 ||
        lp_xml_ensure((void **)&d->names, &b->arena->name_capacity, 16, sizeof *d->names) != 0 ||
        lp_xml_ensure((void **)&d->bytes, &b->arena->byte_capacity, bytes, 1) != 0 ||
        lp_xml_ensure((void **)&b->stack, &b->stack_capacity, 32, sizeof *b->stack) != 0) {
        return -1;
    }
    return 0;
}

/// The id of `prefix:local`, from `recent` when it names the same pointers.
static inline int32_t intern_recent(lp_xml_builder *b, lp_xml_recent_name *recent, const unsigned char *prefix,
                                    const unsigned char *local) {
    if (recent->local == local && recent->prefix == prefix) return recent->id;
    int32_t id = intern(b, prefix, local);
    if (id >= 0) *recent = (lp_xml_recent_name){prefix, local, id};
    return id;
}

/// Without entity substitution, libxml2 hands back each `&amp;` of an attribute value as `&#38;`
/// (it replaces the other predefined entities and character references, and the parser refuses
/// every other entity): so each `&#38;` in a value stands for one `&`. Rewrites them in place and
/// returns the value's new length.
static int32_t unescape_ampersands(unsigned char *value, int32_t length) {
    if (!memchr(value, '&', (size_t)length)) return length;
    int32_t written = 0;
    for (int32_t read = 0; read < length;) {
        if (value[read] == '&' && length - read >= 5 && memcmp(value + read, "&#38;", 5) == 0) {
            value[written++] = '&';
            read += 5;
        } else {
            value[written++] = value[read++];
        }
    }
    return written;
}

int lp_xml_builder_start(lp_xml_builder *b, const unsigned char *local, const unsigned char *prefix, int attribute_count,
                         const unsigned char **attributes, int line, int column) {
    lp_xml_document *d = b->document;
    lp_xml_arena *arena = b->arena;
    if (attribute_count < 0) attribute_count = 0;
    if (lp_xml_ensure((void **)&d->elements, &arena->element_capacity, (int64_t)d->element_count + 1, sizeof *d->elements) != 0 ||
        lp_xml_ensure((void **)&d->attributes, &arena->attribute_capacity, (int64_t)d->attribute_count + attribute_count,
                      sizeof *d->attributes) != 0 ||
        lp_xml_ensure((void **)&b->stack, &b->stack_capacity, (int64_t)b->depth + 1, sizeof *b->stack) != 0) {
        return -1;
    }
    int32_t name = intern_recent(b, &b->recent_elements[b->depth % lp_xml_recent_count], prefix, local);
    if (name < 0) return -1;
    // Names first (a new one is appended to `bytes`), then room for all the values at once.
    int32_t first_attribute = d->attribute_count;
    lp_xml_attribute *out = d->attributes + first_attribute;
    int64_t total = 0;
    for (int i = 0; i < attribute_count; i++) {
        const unsigned char *value = attributes[i * 5 + 3], *end = attributes[i * 5 + 4];
        int64_t length = value && end > value ? end - value : 0;
        lp_xml_recent_name *recent = &b->recent_attributes[i % lp_xml_recent_count];
        int32_t id = intern_recent(b, recent, NULL, attributes[i * 5]);
        if (id < 0) return -1;
        total += length;
        out[i] = (lp_xml_attribute){id, 0, (int32_t)(length > INT32_MAX ? 0 : length)};
    }
    if (lp_xml_ensure((void **)&d->bytes, &arena->byte_capacity, (int64_t)d->byte_count + total, 1) != 0) return -1;
    for (int i = 0; i < attribute_count; i++) {
        out[i].value_start = d->byte_count;
        if (out[i].value_length > 0) {
            memcpy(d->bytes + d->byte_count, attributes[i * 5 + 3], (size_t)out[i].value_length);
            out[i].value_length = unescape_ampersands((unsigned char *)d->bytes + d->byte_count, out[i].value_length);
        }
        d->byte_count += out[i].value_length;
    }
    d->attribute_count += attribute_count;
    int32_t index = d->element_count++;
    d->elements[index] = (lp_xml_element){
        .name = name,
        .first_child = -1,
        .next_sibling = -1,
        .first_attribute = first_attribute,
        .attribute_count = attribute_count,
        .text_start = 0,
        .text_length = 0,
        .line = line,
        .column = column,
    };
    if (b->depth > 0) {
        lp_xml_open_element *parent = &b->stack[b->depth - 1];
        if (parent->last_child < 0) {
            d->elements[parent->element].first_child = index;
        } else {
            d->elements[parent->last_child].next_sibling = index;
        }
        parent->last_child = index;
    }
    b->stack[b->depth++] = (lp_xml_open_element){index, -1, b->scratch_count};
    return 0;
}

static int is_space(unsigned char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

int lp_xml_builder_end(lp_xml_builder *b) {
    if (b->depth == 0) return 0;
    lp_xml_open_element open = b->stack[--b->depth];
    // Leading whitespace was never kept (see lp_xml_builder_text); trailing whitespace goes here.
    int32_t end = b->scratch_count;
    while (end > open.text_mark && is_space((unsigned char)b->scratch[end - 1])) end--;
    int32_t length = end - open.text_mark;
    if (length > 0) {
        int32_t start = append_bytes(b, b->scratch + open.text_mark, length);
        if (start < 0) return -1;
        b->document->elements[open.element].text_start = start;
        b->document->elements[open.element].text_length = length;
    }
    b->scratch_count = open.text_mark;
    return 0;
}

int lp_xml_builder_text(lp_xml_builder *b, const char *characters, int length) {
    if (b->depth == 0 || !characters || length <= 0) return 0;
    const lp_xml_open_element *open = &b->stack[b->depth - 1];
    if (b->scratch_count == open->text_mark) {
        // Nothing kept yet: the text's leading whitespace would be trimmed, so it is not kept at all
        // (most text between elements is indentation only).
        while (length > 0 && is_space((unsigned char)*characters)) {
            characters++;
            length--;
        }
        if (length == 0) return 0;
    }
    if (lp_xml_ensure((void **)&b->scratch, &b->scratch_capacity, (int64_t)b->scratch_count + length, 1) != 0) return -1;
    memcpy(b->scratch + b->scratch_count, characters, (size_t)length);
    b->scratch_count += length;
    return 0;
}

lp_xml_document *lp_xml_builder_finish(lp_xml_builder *b) {
    lp_xml_document *d = b->document;
    if (d) d->open_element = b->depth > 0 ? b->stack[b->depth - 1].element : -1;
    free(b->slots);
    free(b->stack);
    free(b->scratch);
    memset(b, 0, sizeof *b);
    return d;
}
