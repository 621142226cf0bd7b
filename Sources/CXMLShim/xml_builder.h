#ifndef LAUNCHPROF_XML_BUILDER_H
#define LAUNCHPROF_XML_BUILDER_H

#include "xml_arena.h"

/// Builds an `lp_xml_document` from SAX2 events (private to the shim: `xml_shim.c` drives it from
/// libxml2's callbacks). Every function returning int returns 0, or -1 when memory ran out or an
/// offset would pass INT32_MAX; the document is then left consistent but incomplete.

typedef struct {
    int32_t element;
    /// Its last child so far, or -1 (the next child is linked after it).
    int32_t last_child;
    /// Where its text starts in `scratch`: its text nodes are appended there, its children's in
    /// between are taken off again when they end.
    int32_t text_mark;
} lp_xml_open_element;

/// One slot of the name table: libxml2's interned (dictionary) pointers for a prefix and a local
/// name, and the name's id. `local` is NULL in a free slot.
typedef struct {
    const void *prefix;
    const void *local;
    int32_t id;
} lp_xml_name_slot;

/// The last name seen in one place (an attribute position, an element depth): siblings repeat
/// their names, so most lookups end here without hashing.
typedef struct {
    const void *prefix;
    const void *local;
    int32_t id;
} lp_xml_recent_name;

enum { lp_xml_recent_count = 8 };

typedef struct {
    lp_xml_arena *arena;
    /// `&arena->document`.
    lp_xml_document *document;
    lp_xml_name_slot *slots;
    /// A power of two, at least twice `document->name_count`.
    int32_t slot_capacity;
    lp_xml_recent_name recent_attributes[lp_xml_recent_count];
    lp_xml_recent_name recent_elements[lp_xml_recent_count];
    lp_xml_open_element *stack;
    int32_t depth;
    int32_t stack_capacity;
    char *scratch;
    int32_t scratch_count;
    int32_t scratch_capacity;
} lp_xml_builder;

/// A new, empty document sized for about `length` bytes of XML, in `builder`.
int lp_xml_builder_init(lp_xml_builder *builder, int length);

/// An element starts. `attributes` are SAX2's: per attribute, local name, prefix, URI, value start
/// and value end. Names must be libxml2's interned pointers (a pointer always names the same string).
int lp_xml_builder_start(lp_xml_builder *builder, const unsigned char *local, const unsigned char *prefix, int attribute_count,
                         const unsigned char **attributes, int line, int column);

/// The innermost open element ends.
int lp_xml_builder_end(lp_xml_builder *builder);

/// Text inside the innermost open element (ignored outside the root).
int lp_xml_builder_text(lp_xml_builder *builder, const char *characters, int length);

/// Ends the build: records the innermost element left open, frees the builder's own memory and
/// hands over the document (the caller frees it with `lp_xml_document_free`).
lp_xml_document *lp_xml_builder_finish(lp_xml_builder *builder);

#endif
