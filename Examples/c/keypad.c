/*
 * keypad: loads a keypad from a config file (../keypad.conf), lays its keys out on a grid and draws
 * it as text, reporting each phase to launchprof through include/launchprof.h. Without
 * LAUNCHPROF_FD it just runs.
 *
 *     make -C Examples/c && launchprof exec -- Examples/c/keypad Examples/keypad.conf
 */
#define LAUNCHPROF_IMPLEMENTATION /* this program's one file holds the client */
#include "launchprof.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { max_rows = 16, max_columns = 16, max_label = 8, max_width = 200 };

struct keypad {
    char title[max_width];
    int width, rows, columns;
    char labels[max_rows][max_columns][max_label];
};

/* The whole file, NUL-terminated, or NULL with errno set. */
static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    size_t size = 0, capacity = 4096;
    char *text = malloc(capacity);
    size_t n;
    while (text && (n = fread(text + size, 1, capacity - size - 1, file)) > 0) {
        size += n;
        if (capacity - size - 1 == 0) text = realloc(text, capacity *= 2);
    }
    fclose(file);
    if (text) text[size] = 0;
    return text;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) *--end = 0;
    return s;
}

/* Parses `key = value` lines; on an error prints `path:line: reason` and returns 0. */
static int parse(char *text, const char *path, struct keypad *pad) {
    memset(pad, 0, sizeof *pad);
    int number = 0;
    for (char *line = text, *next; line; line = next) {
        number++;
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        char *content = trim(line), *equals = strchr(content, '=');
        if (!*content || *content == '#') continue;
        if (!equals) return fprintf(stderr, "%s:%d: expected 'key = value'\n", path, number), 0;
        *equals = 0;
        char *key = trim(content), *value = trim(equals + 1);
        if (!strcmp(key, "title")) {
            snprintf(pad->title, sizeof pad->title, "%s", value);
        } else if (!strcmp(key, "width")) {
            pad->width = atoi(value);
            if (pad->width < 8 || pad->width > max_width - 2) return fprintf(stderr, "%s:%d: width must be 8 to %d\n", path, number, max_width - 2), 0;
        } else if (!strcmp(key, "row")) {
            if (pad->rows == max_rows) return fprintf(stderr, "%s:%d: more than %d rows\n", path, number, max_rows), 0;
            int columns = 0;
            for (char *label = strtok_r(value, " ", &value); label; label = strtok_r(NULL, " ", &value)) {
                if (columns == max_columns) return fprintf(stderr, "%s:%d: more than %d keys\n", path, number, max_columns), 0;
                snprintf(pad->labels[pad->rows][columns++], max_label, "%s", label);
            }
            if (pad->rows > 0 && columns != pad->columns) return fprintf(stderr, "%s:%d: every row needs %d keys\n", path, number, pad->columns), 0;
            pad->columns = columns;
            pad->rows++;
        } else {
            return fprintf(stderr, "%s:%d: unknown key '%s'\n", path, number, key), 0;
        }
    }
    if (!pad->rows || !pad->width) return fprintf(stderr, "%s: needs a width and at least one row\n", path), 0;
    return 1;
}

/* Each key's left edge and the keys' inner width: the columns share the width, one border between keys. */
static int lay_out(const struct keypad *pad, int left[]) {
    int inner = (pad->width - 1) / pad->columns - 1;
    if (inner < 1) inner = 1;
    for (int c = 0; c < pad->columns; c++) left[c] = c * (inner + 1);
    return inner;
}

static void rule(char *line, int columns, int inner) {
    char *p = line;
    for (int c = 0; c < columns; c++) {
        *p++ = '+';
        memset(p, '-', (size_t)inner);
        p += inner;
    }
    strcpy(p, "+\n");
}

static void draw(const struct keypad *pad, const int left[], int inner) {
    int total = pad->columns * (inner + 1) + 1;
    char line[max_columns * (max_width + 1) + 4];
    rule(line, 1, total - 2);
    fputs(line, stdout);
    int room = total - 2, length = (int)strlen(pad->title) < room ? (int)strlen(pad->title) : room;
    printf("|%*s%.*s%*s|\n", (room - length) / 2, "", length, pad->title, room - length - (room - length) / 2, "");
    rule(line, pad->columns, inner);
    fputs(line, stdout);
    for (int r = 0; r < pad->rows; r++) {
        memset(line, ' ', (size_t)total);
        for (int c = 0; c < pad->columns; c++) {
            const char *label = pad->labels[r][c];
            int length = (int)strlen(label), at = left[c] + 1 + (inner - length) / 2;
            line[left[c]] = '|';
            memcpy(line + (at > left[c] ? at : left[c] + 1), label, (size_t)(length < inner ? length : inner));
        }
        strcpy(line + total - 1, "|\n");
        fputs(line, stdout);
        rule(line, pad->columns, inner);
        fputs(line, stdout);
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: keypad CONFIG\n");
        return 2;
    }
    struct keypad pad;
    lp_begin_kind(LP_KIND_IO, "loading config");
    lp_begin_kind(LP_KIND_IO, "reading file");
    char *text = read_file(argv[1]);
    lp_end("reading file");
    if (!text) {
        fprintf(stderr, "keypad: cannot read %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    int parsed;
    {
        LP_SCOPE_KIND(LP_KIND_CPU, "parsing");
        parsed = parse(text, argv[1], &pad);
    }
    lp_end("loading config");
    free(text);
    if (!parsed) return 1;

    int left[max_columns];
    lp_begin_kind(LP_KIND_CPU, "laying out keys");
    int inner = lay_out(&pad, left);
    lp_end("laying out keys");
    lp_count(pad.rows * pad.columns, "keys laid out");

    lp_begin_kind(LP_KIND_DRAW, "drawing");
    draw(&pad, left, inner);
    lp_mark("first frame");
    lp_end("drawing");

    lp_mark("interactive");
    lp_done();
    return 0;
}
