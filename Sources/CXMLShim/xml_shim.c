#include "xml_shim.h"
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <string.h>
#include <stdlib.h>

typedef struct {
    const lp_xml_callbacks *callbacks;
    void *context;
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
    // SAX2 gives each attribute as localname, prefix, URI, value start, value end; the callback
    // gets name, value start, value end, pointing into libxml2's own buffers (no copies).
    const char *stack_triples[3 * 16];
    const char **triples = stack_triples;
    if (nb_attributes > 16) {
        triples = calloc((size_t)nb_attributes * 3, sizeof(char *));
        if (!triples) { fail(s, XML_ERR_NO_MEMORY); return; }
    }
    for (int i = 0; i < nb_attributes; i++) {
        triples[i * 3] = (const char *)attributes[i * 5];
        triples[i * 3 + 1] = (const char *)attributes[i * 5 + 3];
        triples[i * 3 + 2] = (const char *)attributes[i * 5 + 4];
    }
    char qualified[512];
    const char *name = (const char *)localname;
    if (prefix) {
        snprintf(qualified, sizeof qualified, "%s:%s", (const char *)prefix, (const char *)localname);
        name = qualified;
    }
    s->callbacks->start(s->context, name, triples, nb_attributes, xmlSAX2GetLineNumber(s->parser),
                        xmlSAX2GetColumnNumber(s->parser));
    if (triples != stack_triples) free(triples);
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname; (void)prefix; (void)uri;
    state_t *s = ctx;
    if (s->failed) return;
    s->depth--;
    s->callbacks->end(s->context);
}

static void on_text(void *ctx, const xmlChar *characters, int length) {
    state_t *s = ctx;
    if (s->failed) return;
    s->callbacks->text(s->context, (const char *)characters, length);
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

int lp_xml_parse(const char *bytes, int length, int max_depth, const lp_xml_callbacks *callbacks,
                 void *context, lp_xml_error *error) {
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

    state_t s = {callbacks, context, NULL, error, 0, 0, max_depth};
    memset(error, 0, sizeof *error);
    xmlParserCtxtPtr parser = xmlCreatePushParserCtxt(&handler, &s, NULL, 0, NULL);
    if (!parser) { error->code = XML_ERR_NO_MEMORY; error->line = 1; error->column = 1; return -1; }
    s.parser = parser;
    // No network, no DTD loading or validation, no entity substitution, libxml2's limits kept.
    xmlCtxtUseOptions(parser, XML_PARSE_NONET);
    parser->replaceEntities = 0;
    parser->loadsubset = 0;
    parser->validate = 0;
    int result = xmlParseChunk(parser, bytes, length, 1);
    if (!s.failed && (result != 0 || !parser->wellFormed)) {
        s.failed = 1;
        error->code = result != 0 ? result : XML_ERR_INTERNAL_ERROR;
        error->line = xmlSAX2GetLineNumber(parser);
        error->column = xmlSAX2GetColumnNumber(parser);
    }
    xmlFreeParserCtxt(parser);
    return s.failed ? -1 : 0;
}
