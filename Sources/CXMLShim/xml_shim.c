#include "xml_shim.h"
#include "xml_builder.h"
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <string.h>
#include <stdlib.h>

typedef struct {
    lp_xml_builder builder;
    xmlParserCtxtPtr parser;
    lp_xml_error *error;
    int failed;
    int depth;
    int max_depth;
} state_t;

static void fail(state_t *s, int code) {
    if (s->failed) return;
    s->failed = 1;
    s->error->code = code;
    s->error->line = s->parser ? xmlSAX2GetLineNumber(s->parser) : 1;
    s->error->column = s->parser ? xmlSAX2GetColumnNumber(s->parser) : 1;
    if (s->parser) xmlStopParser(s->parser);
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                     const xmlChar **attributes) {
    (void)uri; (void)nb_namespaces; (void)namespaces; (void)nb_defaulted;
    state_t *s = ctx;
    if (s->failed) return;
    if (++s->depth > s->max_depth) { fail(s, LP_XML_TOO_DEEP); return; }
    // SAX2 gives each attribute as local name, prefix, URI, value start, value end, in libxml2's own
    // buffers: the builder copies the values and interns the names.
    // Where the start tag ends, as xmlSAX2GetLineNumber and xmlSAX2GetColumnNumber would say.
    xmlParserInputPtr input = s->parser->input;
    if (lp_xml_builder_start(&s->builder, localname, prefix, nb_attributes, attributes, input ? input->line : 0,
                             input ? input->col : 0) != 0) {
        fail(s, XML_ERR_NO_MEMORY);
    }
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname; (void)prefix; (void)uri;
    state_t *s = ctx;
    if (s->failed) return;
    s->depth--;
    if (lp_xml_builder_end(&s->builder) != 0) fail(s, XML_ERR_NO_MEMORY);
}

static void on_text(void *ctx, const xmlChar *characters, int length) {
    state_t *s = ctx;
    if (s->failed) return;
    if (lp_xml_builder_text(&s->builder, (const char *)characters, length) != 0) fail(s, XML_ERR_NO_MEMORY);
}

static void on_internal_subset(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    (void)name; (void)external_id; (void)system_id;
    fail(ctx, LP_XML_DOCTYPE);
}

static void on_entity_declaration(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                                  const xmlChar *system_id, xmlChar *content) {
    (void)name; (void)type; (void)public_id; (void)system_id; (void)content;
    fail(ctx, LP_XML_ENTITY);
}

static xmlEntityPtr on_get_entity(void *ctx, const xmlChar *name) {
    (void)ctx;
    // Only the five predefined entities exist; anything else is an undeclared-entity error.
    return xmlGetPredefinedEntity(name);
}

static void on_structured_error(void *ctx, xmlErrorPtr error) {
    state_t *s = ctx;
    if (s->failed || !error || error->level < XML_ERR_ERROR) return;
    s->failed = 1;
    s->error->code = error->code;
    s->error->line = error->line > 0 ? error->line : 1;
    s->error->column = error->int2 > 0 ? error->int2 : 1;
}

lp_xml_document *lp_xml_parse_document(const char *bytes, int length, int max_depth, lp_xml_error *error) {
    memset(error, 0, sizeof *error);
    state_t s;
    memset(&s, 0, sizeof s);
    s.error = error;
    s.max_depth = max_depth;
    if (lp_xml_builder_init(&s.builder, length) != 0) {
        lp_xml_document_free(lp_xml_builder_finish(&s.builder));
        return NULL;
    }

    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = on_start;
    handler.endElementNs = on_end;
    handler.characters = on_text;
    handler.cdataBlock = on_text;
    handler.internalSubset = on_internal_subset;
    handler.entityDecl = on_entity_declaration;
    handler.getEntity = on_get_entity;
    handler.serror = on_structured_error;

    xmlParserCtxtPtr parser = xmlCreatePushParserCtxt(&handler, &s, NULL, 0, NULL);
    if (!parser) {
        error->code = XML_ERR_NO_MEMORY;
        error->line = 1;
        error->column = 1;
        return lp_xml_builder_finish(&s.builder);
    }
    s.parser = parser;
    // No network, no DTD loading or validation, no entity substitution, libxml2's limits kept.
    xmlCtxtUseOptions(parser, XML_PARSE_NONET);
    parser->replaceEntities = 0;
    parser->loadsubset = 0;
    parser->validate = 0;
    // Fed in pieces of 16 KiB: libxml2 then holds only the unparsed rest of the input in its buffer,
    // not a copy of the whole document. (All at once, a 144 KB file made it allocate and free a
    // 260 KB buffer per parse, past glibc's trim threshold: the heap was given back to the system
    // and faulted in again by the next parse, a third of the parse's time.) libxml2's push parser
    // reads the same document the same way whatever the pieces.
    enum { piece = 16384 };
    int offset = 0, result = 0;
    while (length - offset > piece && result == 0 && !s.failed) {
        result = xmlParseChunk(parser, bytes + offset, piece, 0);
        offset += piece;
    }
    if (result == 0 && !s.failed) result = xmlParseChunk(parser, bytes + offset, length - offset, 1);
    if (!s.failed && (result != 0 || !parser->wellFormed)) {
        s.failed = 1;
        error->code = result != 0 ? result : XML_ERR_INTERNAL_ERROR;
        error->line = xmlSAX2GetLineNumber(parser);
        error->column = xmlSAX2GetColumnNumber(parser);
    }
    xmlFreeParserCtxt(parser);
    if (s.failed && error->code == 0) error->code = XML_ERR_INTERNAL_ERROR;
    return lp_xml_builder_finish(&s.builder);
}
