/* Streams a diff into hl_applier one byte at a time, so every multi-byte character (2, 3 and 4
 * bytes) is split across pushes. After every push the preview must be what Cline's partial call
 * gives for the complete characters pushed so far (hl_construct_new_file_content is the oracle),
 * and the host's own copy, kept only through the hl_update splices, must equal the preview. */
#include <stdlib.h>

#include "check.h"

static const char ORIGINAL[] = "intro\ncaf\xc3\xa9 \xf0\x9f\x9a\x80\nend\n";
static const char DIFF[] =
    "------- SEARCH\n"
    "caf\xc3\xa9 \xf0\x9f\x9a\x80\n" /* "café 🚀" */
    "=======\n"
    "\xe2\x82\xac" "uro \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x8e\x89\n" /* "€uro 中文 🎉" */
    "+++++++ REPLACE\n";
static const char EXPECTED[] = "intro\n\xe2\x82\xac" "uro \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x8e\x89\nend\n";

/* The host's copy of the preview, updated only through the splices. */
typedef struct {
    char *text;
    size_t len;
} mirror;

static int apply_splice(mirror *m, const hl_update *u) {
    if (u->start > m->len || u->removed > m->len - u->start) {
        return 0;
    }
    size_t tail = m->len - u->start - u->removed;
    size_t len = u->start + u->inserted_len + tail;
    char *text = malloc(len + 1);
    if (text == NULL) {
        return 0;
    }
    memcpy(text, m->text, u->start);
    memcpy(text + u->start, u->inserted, u->inserted_len);
    memcpy(text + u->start + u->inserted_len, m->text + u->start + u->removed, tail);
    text[len] = '\0';
    free(m->text);
    m->text = text;
    m->len = len;
    return 1;
}

static int is_char_boundary(const char *s, size_t len, size_t i) {
    return i == len || (((unsigned char)s[i]) & 0xC0) != 0x80;
}

/* Cline's partial content for the first `n` bytes of DIFF, or NULL (caller frees). */
static char *stateless_partial(size_t n, hl_cline_version version, size_t *len) {
    hl_result *result = NULL;
    hl_error *error = NULL;
    if (hl_construct_new_file_content(DIFF, n, ORIGINAL, strlen(ORIGINAL), false, version,
                                      &result, &error) != HL_STATUS_OK) {
        hl_error_free(error);
        return NULL;
    }
    const char *content;
    char *copy = NULL;
    if (hl_result_content(result, &content, len) == HL_STATUS_OK) {
        copy = malloc(*len + 1);
        if (copy != NULL) {
            memcpy(copy, content, *len + 1);
        }
    }
    hl_result_free(result);
    return copy;
}

static void stream(hl_dialect dialect, hl_cline_version version) {
    hl_applier_options options = {0};
    options.dialect = dialect;
    hl_applier *applier = NULL;
    CHECK_STATUS(hl_applier_new(ORIGINAL, strlen(ORIGINAL), &options, &applier), HL_STATUS_OK);
    if (applier == NULL) {
        return;
    }
    mirror m = {calloc(1, 1), 0};
    size_t n = strlen(DIFF);
    size_t mid_character_pushes = 0;
    size_t bad_previews = 0;
    size_t bad_mirrors = 0;
    for (size_t i = 0; i < n; i++) {
        hl_update update;
        hl_status status = hl_applier_push(applier, DIFF + i, 1, &update);
        if (status != HL_STATUS_OK || !apply_splice(&m, &update) ||
            update.inserted[update.inserted_len] != '\0') {
            CHECK_STATUS(status, HL_STATUS_OK);
            CHECK(!"splice applies and inserted text is NUL-terminated");
            break;
        }
        const char *preview;
        size_t preview_len;
        CHECK_STATUS(hl_applier_preview(applier, &preview, &preview_len), HL_STATUS_OK);
        /* The engine sees complete characters only: the oracle is the prefix up to the last
         * character boundary at or before i + 1. */
        size_t complete = i + 1;
        if (!is_char_boundary(DIFF, n, complete)) {
            mid_character_pushes++;
        }
        while (!is_char_boundary(DIFF, n, complete)) {
            complete--;
        }
        size_t want_len = 0;
        char *want = stateless_partial(complete, version, &want_len);
        if (want == NULL || preview_len != want_len || memcmp(preview, want, want_len) != 0 ||
            preview[preview_len] != '\0') {
            bad_previews++;
            fprintf(stderr, "preview after byte %zu differs from Cline's partial call\n", i);
        }
        if (m.len != preview_len || memcmp(m.text, preview, preview_len) != 0) {
            bad_mirrors++;
        }
        free(want);
    }
    /* Pushes that end inside a character: width - 1 for each of é 🚀 € 中 文 🎉. */
    CHECK(mid_character_pushes == 1 + 3 + 2 + 2 + 2 + 3);
    CHECK(bad_previews == 0);
    CHECK(bad_mirrors == 0);

    hl_result *result = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_applier_finish(applier, &result, &error), HL_STATUS_OK);
    CHECK(error == NULL);
    const char *content;
    size_t content_len;
    CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
    CHECK_TEXT(content, content_len, EXPECTED);
    size_t count = 99;
    CHECK_STATUS(hl_result_match_count(result, &count), HL_STATUS_OK);
    if (version == HL_CLINE_V1) {
        /* The block starts after "intro\n": offset 6 in every unit, on line 2. */
        size_t value = 0;
        CHECK(count == 1);
        CHECK_STATUS(hl_result_match_index(result, 0, HL_UNIT_UTF16, &value), HL_STATUS_OK);
        CHECK(value == 6);
        CHECK_STATUS(hl_result_match_index(result, 0, HL_UNIT_LINES, &value), HL_STATUS_OK);
        CHECK(value == 2);
    } else {
        CHECK(count == 0); /* Cline v2 reports no matchIndices */
    }
    size_t blocks = 0;
    CHECK_STATUS(hl_result_block_count(result, &blocks), HL_STATUS_OK);
    CHECK(blocks == 1);
    hl_block block;
    CHECK_STATUS(hl_result_block(result, 0, &block), HL_STATUS_OK);
    CHECK_TEXT(block.strategy, block.strategy_len, "exact");
    CHECK(block.start.bytes == 6 && block.start.line == 2);
    /* The matched "café 🚀\n" is 11 bytes, 7 code points, 8 UTF-16 units long. */
    CHECK(block.end.bytes == 17 && block.end.code_points == 13 && block.end.utf16 == 14);
    hl_result_free(result);
    free(m.text);
    hl_applier_free(applier);
}

int main(void) {
    stream(HL_DIALECT_CLINE_V1, HL_CLINE_V1);
    stream(HL_DIALECT_CLINE_V2, HL_CLINE_V2);
    return check_report();
}
