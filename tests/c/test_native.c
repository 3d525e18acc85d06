/* The native dialect through the C ABI: hl_apply_diff with whitespace drift (and its block
 * report), an ambiguous edit refused with its code and message, the partial policy with one
 * failed block and its report, overlapping blocks, unknown option values, and a native applier
 * streamed one byte at a time (multi-byte characters split across pushes), whose splices must
 * rebuild the preview and whose result must equal hl_apply_diff's. */
#include <stdlib.h>

#include "check.h"

/* The SEARCH text lost the function's indentation; the replacement has the file's. */
static const char FILE_PY[] = "def f():\n    a = 1\n    b = 2\n    return a + b\n";
static const char DRIFT[] = "------- SEARCH\n"
                            "a = 1\n"
                            "b = 2\n"
                            "=======\n"
                            "    a = 10\n"
                            "    b = 20\n"
                            "+++++++ REPLACE\n";
static const char DRIFTED[] = "def f():\n    a = 10\n    b = 20\n    return a + b\n";

/* `x = 1` occurs twice; aider's markers. */
static const char TWICE[] = "x = 1\ny = 2\nx = 1\n";
static const char AMBIGUOUS[] = "<<<<<<< SEARCH\nx = 1\n=======\nx = 3\n>>>>>>> REPLACE\n";
/* One block that applies, one whose SEARCH text is nowhere. */
static const char PARTLY[] = "------- SEARCH\ny = 2\n=======\ny = 5\n+++++++ REPLACE\n"
                             "------- SEARCH\nz = 9\n=======\nz = 0\n+++++++ REPLACE\n";
/* Two blocks over the same line. */
static const char OVERLAP[] = "------- SEARCH\ny = 2\nx = 1\n=======\nY\n+++++++ REPLACE\n"
                              "------- SEARCH\ny = 2\n=======\nZ\n+++++++ REPLACE\n";

/* Whether the library text (ptr, len) contains the C string `needle`. */
static int contains(const char *text, size_t len, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; text != NULL && i + n <= len; i++) {
        if (memcmp(text + i, needle, n) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Checks that a call failed with `status` and code `code`, that `*result` was not written, and
 * that the message contains `needle`; frees the error. */
static void check_refusal(hl_status got, hl_status status, hl_result *result, hl_error *error,
                          const char *code, const char *needle) {
    CHECK_STATUS(got, status);
    CHECK(result == NULL);
    CHECK(error != NULL);
    if (error == NULL) {
        return;
    }
    const char *c, *message;
    size_t c_len, message_len;
    CHECK_STATUS(hl_error_code(error, &c, &c_len), HL_STATUS_OK);
    CHECK_TEXT(c, c_len, code);
    CHECK_STATUS(hl_error_message(error, &message, &message_len), HL_STATUS_OK);
    CHECK(message[message_len] == '\0');
    CHECK(contains(message, message_len, needle));
    if (!contains(message, message_len, needle)) {
        fprintf(stderr, "  message: %.*s\n", (int)message_len, message);
    }
    hl_error_free(error);
}

static void drift(void) {
    hl_result *result = NULL;
    hl_error *error = NULL;
    /* NULL options: native, all or nothing. */
    CHECK_STATUS(hl_apply_diff(DRIFT, strlen(DRIFT), FILE_PY, strlen(FILE_PY), NULL, &result,
                               &error),
                 HL_STATUS_OK);
    CHECK(error == NULL);
    if (result == NULL) {
        return;
    }
    const char *content;
    size_t content_len, count = 0, failed = 99, index = 0;
    CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
    CHECK_TEXT(content, content_len, DRIFTED);
    CHECK_STATUS(hl_result_match_index(result, 0, HL_UNIT_LINES, &index), HL_STATUS_OK);
    CHECK(index == 2);
    CHECK_STATUS(hl_result_block_count(result, &count), HL_STATUS_OK);
    CHECK(count == 1);
    CHECK_STATUS(hl_result_failed_count(result, &failed), HL_STATUS_OK);
    CHECK(failed == 0);

    hl_block block;
    CHECK_STATUS(hl_result_block(result, 0, &block), HL_STATUS_OK);
    CHECK(block.index == 0);
    CHECK(block.status == HL_BLOCK_APPLIED);
    CHECK_TEXT(block.strategy, block.strategy_len, "indentation");
    CHECK(block.start.line == 2 && block.end_line == 3);
    CHECK(block.start.bytes == 9);
    CHECK(block.candidates == 1);
    CHECK(block.indent_delta == 4);
    CHECK(!block.reindented);
    CHECK(block.normalization_count == 1);
    CHECK(block.error_code == NULL && block.error_code_len == 0);
    CHECK(block.error_message == NULL && block.error_message_len == 0);
    const char *name = NULL;
    size_t name_len = 0;
    CHECK_STATUS(hl_result_block_normalization(result, 0, 0, &name, &name_len), HL_STATUS_OK);
    CHECK_TEXT(name, name_len, "indentation");
    name = NULL;
    CHECK_STATUS(hl_result_block_normalization(result, 0, 1, &name, &name_len),
                 HL_STATUS_OUT_OF_RANGE);
    CHECK(name == NULL);
    hl_result_free(result);

    /* A replacement carrying the SEARCH text's (wrong) indentation is shifted back. */
    static const char SHIFTED[] = "------- SEARCH\na = 1\nb = 2\n=======\na = 10\nb = 20\n"
                                  "+++++++ REPLACE\n";
    result = NULL;
    CHECK_STATUS(hl_apply_diff(SHIFTED, strlen(SHIFTED), FILE_PY, strlen(FILE_PY), NULL,
                               &result, &error),
                 HL_STATUS_OK);
    if (result != NULL) {
        CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
        CHECK_TEXT(content, content_len, DRIFTED);
        CHECK_STATUS(hl_result_block(result, 0, &block), HL_STATUS_OK);
        CHECK(block.reindented && block.indent_delta == 4);
        hl_result_free(result);
    }
}

static void ambiguous(void) {
    hl_result *result = NULL;
    hl_error *error = NULL;
    hl_apply_options options = {0}; /* zero: the same defaults as NULL */
    hl_status status = hl_apply_diff(AMBIGUOUS, strlen(AMBIGUOUS), TWICE, strlen(TWICE),
                                     &options, &result, &error);
    check_refusal(status, HL_STATUS_EDIT_REJECTED, result, error, "ambiguous_match",
                  "line 1, line 3");
}

static void partial(void) {
    hl_result *result = NULL;
    hl_error *error = NULL;
    /* All or nothing (the default) refuses the whole diff. */
    hl_status status = hl_apply_diff(PARTLY, strlen(PARTLY), TWICE, strlen(TWICE), NULL, &result,
                                     &error);
    check_refusal(status, HL_STATUS_EDIT_REJECTED, result, error, "search_not_found",
                  "block 2");

    hl_apply_options options = {0};
    options.policy = HL_POLICY_PARTIAL;
    result = NULL;
    error = NULL;
    CHECK_STATUS(hl_apply_diff(PARTLY, strlen(PARTLY), TWICE, strlen(TWICE), &options, &result,
                               &error),
                 HL_STATUS_OK);
    CHECK(error == NULL);
    if (result == NULL) {
        return;
    }
    const char *content;
    size_t content_len, count = 0, failed = 0;
    CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
    CHECK_TEXT(content, content_len, "x = 1\ny = 5\nx = 1\n");
    CHECK_STATUS(hl_result_block_count(result, &count), HL_STATUS_OK);
    CHECK(count == 2);
    CHECK_STATUS(hl_result_failed_count(result, &failed), HL_STATUS_OK);
    CHECK(failed == 1);

    hl_block block;
    CHECK_STATUS(hl_result_block(result, 0, &block), HL_STATUS_OK);
    CHECK(block.status == HL_BLOCK_APPLIED);
    CHECK_TEXT(block.strategy, block.strategy_len, "exact");
    CHECK(block.start.line == 2 && block.end_line == 2);
    CHECK(block.error_code == NULL);

    CHECK_STATUS(hl_result_block(result, 1, &block), HL_STATUS_OK);
    CHECK(block.index == 1);
    CHECK(block.status == HL_BLOCK_FAILED);
    CHECK_TEXT(block.strategy, block.strategy_len, "unmatched");
    CHECK(block.candidates == 0 && block.end_line == 0 && block.start.line == 0);
    CHECK(block.normalization_count == 0);
    CHECK_TEXT(block.error_code, block.error_code_len, "search_not_found");
    CHECK(block.error_message != NULL && block.error_message[block.error_message_len] == '\0');
    CHECK(contains(block.error_message, block.error_message_len, "block 2"));
    CHECK_STATUS(hl_result_block(result, 2, &block), HL_STATUS_OUT_OF_RANGE);
    hl_result_free(result);
}

static void overlapping(void) {
    hl_result *result = NULL;
    hl_error *error = NULL;
    hl_status status = hl_apply_diff(OVERLAP, strlen(OVERLAP), TWICE, strlen(TWICE), NULL,
                                     &result, &error);
    check_refusal(status, HL_STATUS_EDIT_REJECTED, result, error, "overlapping_blocks",
                  "overlaps block 1");
}

static void invalid_options(void) {
    hl_result *result = NULL;
    hl_error *error = NULL;
    hl_apply_options options = {0};
    options.dialect = 42;
    hl_status status = hl_apply_diff(DRIFT, strlen(DRIFT), FILE_PY, strlen(FILE_PY), &options,
                                     &result, &error);
    check_refusal(status, HL_STATUS_INVALID_OPTION, result, error, "invalid_dialect", "42");

    options.dialect = HL_DIALECT_NATIVE;
    options.policy = 7;
    error = NULL;
    status = hl_apply_diff(DRIFT, strlen(DRIFT), FILE_PY, strlen(FILE_PY), &options, &result,
                           &error);
    check_refusal(status, HL_STATUS_INVALID_OPTION, result, error, "invalid_policy", "7");

    hl_applier_options applier_options = {0};
    applier_options.dialect = HL_DIALECT_NATIVE;
    applier_options.policy = 7;
    hl_applier *applier = NULL;
    CHECK_STATUS(hl_applier_new(FILE_PY, strlen(FILE_PY), &applier_options, &applier),
                 HL_STATUS_INVALID_OPTION);
    CHECK(applier == NULL);
}

/* Replaces `removed` bytes at `start` of the host's copy with the inserted text. */
static int apply_splice(char **text, size_t *len, const hl_update *u) {
    if (u->start > *len || u->removed > *len - u->start) {
        return 0;
    }
    size_t tail = *len - u->start - u->removed;
    size_t n = u->start + u->inserted_len + tail;
    char *next = malloc(n + 1);
    if (next == NULL) {
        return 0;
    }
    memcpy(next, *text, u->start);
    memcpy(next + u->start, u->inserted, u->inserted_len);
    memcpy(next + u->start + u->inserted_len, *text + u->start + u->removed, tail);
    next[n] = '\0';
    free(*text);
    *text = next;
    *len = n;
    return 1;
}

static void stream_bytes(void) {
    /* A tab-indented file with typographic quotes; the SEARCH text has spaces, a trailing
     * space, and the rocket split over four pushes. */
    static const char ORIGINAL[] = "intro \xe2\x80\x9c" "caf\xc3\xa9\xe2\x80\x9d\n"
                                   "\tkeep \xf0\x9f\x9a\x80\n"
                                   "end\n";
    static const char DIFF[] = "<<<<<<< SEARCH\n"
                               "    keep \xf0\x9f\x9a\x80 \n"
                               "=======\n"
                               "\tkept \xe4\xb8\xad\xe6\x96\x87\n"
                               ">>>>>>> REPLACE\n";
    static const char EXPECTED[] = "intro \xe2\x80\x9c" "caf\xc3\xa9\xe2\x80\x9d\n"
                                   "\tkept \xe4\xb8\xad\xe6\x96\x87\n"
                                   "end\n";
    hl_applier_options options = {0};
    options.dialect = HL_DIALECT_NATIVE;
    hl_applier *applier = NULL;
    CHECK_STATUS(hl_applier_new(ORIGINAL, strlen(ORIGINAL), &options, &applier), HL_STATUS_OK);
    if (applier == NULL) {
        return;
    }
    /* A native preview is the whole file from the start. */
    const char *preview;
    size_t preview_len;
    CHECK_STATUS(hl_applier_preview(applier, &preview, &preview_len), HL_STATUS_OK);
    CHECK_TEXT(preview, preview_len, ORIGINAL);

    size_t len = strlen(ORIGINAL);
    char *mirror = malloc(len + 1);
    if (mirror == NULL) {
        hl_applier_free(applier);
        return;
    }
    memcpy(mirror, ORIGINAL, len + 1);
    size_t bad_splices = 0, bad_previews = 0, mid_splices = 0;
    for (size_t i = 0; i < strlen(DIFF); i++) {
        hl_update update;
        CHECK_STATUS(hl_applier_push(applier, DIFF + i, 1, &update), HL_STATUS_OK);
        if (!apply_splice(&mirror, &len, &update)) {
            bad_splices++;
            continue;
        }
        /* The block is in the middle of the file: its splices are not at the end. */
        if (update.removed + update.inserted_len > 0 && update.start + update.removed < len) {
            mid_splices++;
        }
        if (hl_applier_preview(applier, &preview, &preview_len) != HL_STATUS_OK ||
            preview_len != len || memcmp(preview, mirror, len) != 0) {
            bad_previews++;
        }
    }
    CHECK(bad_splices == 0);
    CHECK(bad_previews == 0);
    CHECK(mid_splices > 0);
    CHECK_TEXT(mirror, len, EXPECTED);

    hl_result *result = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_applier_finish(applier, &result, &error), HL_STATUS_OK);
    if (result != NULL) {
        const char *content;
        size_t content_len;
        CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
        CHECK_TEXT(content, content_len, EXPECTED);
        hl_block block;
        CHECK_STATUS(hl_result_block(result, 0, &block), HL_STATUS_OK);
        CHECK_TEXT(block.strategy, block.strategy_len, "indentation");
        CHECK(block.start.line == 2 && block.end_line == 2 && block.candidates == 1);
        hl_result_free(result);
    }
    hl_update update;
    CHECK_STATUS(hl_applier_push(applier, "x", 1, &update), HL_STATUS_ALREADY_FINISHED);
    hl_applier_free(applier);
    free(mirror);

    /* The same diff in one call gives the same content. */
    result = NULL;
    CHECK_STATUS(hl_apply_diff(DIFF, strlen(DIFF), ORIGINAL, strlen(ORIGINAL), NULL, &result,
                               &error),
                 HL_STATUS_OK);
    if (result != NULL) {
        const char *content;
        size_t content_len;
        CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
        CHECK_TEXT(content, content_len, EXPECTED);
        hl_result_free(result);
    }
}

int main(void) {
    drift();
    ambiguous();
    partial();
    overlapping();
    invalid_options();
    stream_bytes();
    return check_report();
}
