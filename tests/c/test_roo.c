/* Roo Code's apply_diff through the C ABI: hl_apply_diff with HL_DIALECT_ROO at Roo's default
 * threshold (a typo refused with Roo's message) and at 0.9 (applied, re-indented as Roo does),
 * one block failing while another applies (reported HL_BLOCK_FAILED, in the order Roo tried
 * them), markers out of sequence, and a roo applier fed one byte at a time whose preview stays
 * the original and whose result equals hl_apply_diff's. */
#include <stdlib.h>

#include "check.h"

static const char FILE_PY[] = "def total(items):\n    return sum(items)\n";
/* A typo in SEARCH: 94% similar. (REPLACE lines are re-indented relative to the first SEARCH
 * line: one written at column 0 here would lose the file's 4 spaces, as in Roo.) */
static const char TYPO[] = "<<<<<<< SEARCH\n"
                           "    return sum(itms)\n"
                           "=======\n"
                           "    return sum(items, start=0)\n"
                           ">>>>>>> REPLACE";
static const char TYPO_APPLIED[] = "def total(items):\n    return sum(items, start=0)\n";
/* The hinted block applies; the one without a hint (tried first) matches nothing. */
static const char TWO[] = "<<<<<<< SEARCH\n:start_line:1\n-------\ndef total(items):\n=======\n"
                          "def total(items, start):\n>>>>>>> REPLACE\n"
                          "<<<<<<< SEARCH\nnowhere\n=======\nx\n>>>>>>> REPLACE";

static int starts_with(const char *text, size_t len, const char *prefix) {
    size_t n = strlen(prefix);
    return text != NULL && len >= n && memcmp(text, prefix, n) == 0;
}

static hl_apply_options roo(double threshold) {
    hl_apply_options options = {0};
    options.dialect = HL_DIALECT_ROO;
    options.fuzzy_threshold = threshold;
    return options;
}

static void threshold(void) {
    hl_result *result = NULL;
    hl_error *error = NULL;
    hl_apply_options strict = roo(0); /* 0: Roo's default, 1.0 */
    CHECK_STATUS(hl_apply_diff(TYPO, strlen(TYPO), FILE_PY, strlen(FILE_PY), &strict, &result,
                               &error),
                 HL_STATUS_EDIT_REJECTED);
    CHECK(result == NULL && error != NULL);
    if (error != NULL) {
        const char *code, *message;
        size_t code_len, message_len;
        CHECK_STATUS(hl_error_code(error, &code, &code_len), HL_STATUS_OK);
        CHECK_TEXT(code, code_len, "search_not_found");
        CHECK_STATUS(hl_error_message(error, &message, &message_len), HL_STATUS_OK);
        CHECK(starts_with(message, message_len,
                          "No sufficiently similar match found (94% similar, needs 100%)"));
        hl_error_free(error);
    }

    hl_apply_options loose = roo(0.9);
    result = NULL;
    error = NULL;
    CHECK_STATUS(hl_apply_diff(TYPO, strlen(TYPO), FILE_PY, strlen(FILE_PY), &loose, &result,
                                &error),
                 HL_STATUS_OK);
    if (result != NULL) {
        const char *content;
        size_t content_len, count = 0;
        CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
        CHECK_TEXT(content, content_len, TYPO_APPLIED);
        CHECK_STATUS(hl_result_block_count(result, &count), HL_STATUS_OK);
        CHECK(count == 1);
        hl_block block;
        CHECK_STATUS(hl_result_block(result, 0, &block), HL_STATUS_OK);
        CHECK(block.status == HL_BLOCK_APPLIED);
        CHECK_TEXT(block.strategy, block.strategy_len, "similarity");
        CHECK(block.start.line == 2 && block.end_line == 2);
        hl_result_free(result);
    }
}

static void one_block_fails(void) {
    hl_result *result = NULL;
    hl_error *error = NULL;
    hl_apply_options options = roo(0);
    CHECK_STATUS(hl_apply_diff(TWO, strlen(TWO), FILE_PY, strlen(FILE_PY), &options, &result,
                               &error),
                 HL_STATUS_OK);
    CHECK(error == NULL);
    if (result == NULL) {
        return;
    }
    const char *content;
    size_t content_len, count = 0, failed = 0;
    CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
    CHECK_TEXT(content, content_len, "def total(items, start):\n    return sum(items)\n");
    CHECK_STATUS(hl_result_block_count(result, &count), HL_STATUS_OK);
    CHECK_STATUS(hl_result_failed_count(result, &failed), HL_STATUS_OK);
    CHECK(count == 2 && failed == 1);
    hl_block block;
    CHECK_STATUS(hl_result_block(result, 0, &block), HL_STATUS_OK);
    CHECK(block.index == 1 && block.status == HL_BLOCK_FAILED);
    CHECK_TEXT(block.error_code, block.error_code_len, "search_not_found");
    CHECK(starts_with(block.error_message, block.error_message_len,
                      "No sufficiently similar match found ("));
    CHECK_STATUS(hl_result_block(result, 1, &block), HL_STATUS_OK);
    CHECK(block.index == 0 && block.status == HL_BLOCK_APPLIED);
    hl_result_free(result);
}

static void markers_out_of_sequence(void) {
    static const char BAD[] = "<<<<<<< SEARCH\na\n";
    hl_result *result = NULL;
    hl_error *error = NULL;
    hl_apply_options options = roo(0);
    CHECK_STATUS(hl_apply_diff(BAD, strlen(BAD), "a\n", 2, &options, &result, &error),
                 HL_STATUS_EDIT_REJECTED);
    CHECK(result == NULL);
    if (error != NULL) {
        const char *message;
        size_t message_len;
        CHECK_STATUS(hl_error_message(error, &message, &message_len), HL_STATUS_OK);
        CHECK_TEXT(message, message_len,
                   "ERROR: Unexpected end of sequence: Expected '=======' was not found.");
        hl_error_free(error);
    }
}

static void streamed(void) {
    hl_applier_options options = {0};
    options.dialect = HL_DIALECT_ROO;
    options.fuzzy_threshold = 0.9;
    hl_applier *applier = NULL;
    CHECK_STATUS(hl_applier_new(FILE_PY, strlen(FILE_PY), &options, &applier), HL_STATUS_OK);
    if (applier == NULL) {
        return;
    }
    size_t changed = 0;
    for (size_t i = 0; i < strlen(TYPO); i++) {
        hl_update update;
        CHECK_STATUS(hl_applier_push(applier, TYPO + i, 1, &update), HL_STATUS_OK);
        changed += update.removed + update.inserted_len;
    }
    CHECK(changed == 0); /* Roo sorts blocks before applying any: finish applies the diff. */
    const char *preview;
    size_t preview_len;
    CHECK_STATUS(hl_applier_preview(applier, &preview, &preview_len), HL_STATUS_OK);
    CHECK_TEXT(preview, preview_len, FILE_PY);
    hl_result *result = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_applier_finish(applier, &result, &error), HL_STATUS_OK);
    if (result != NULL) {
        const char *content;
        size_t content_len;
        CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
        CHECK_TEXT(content, content_len, TYPO_APPLIED);
        hl_result_free(result);
    }
    hl_applier_free(applier);
}

int main(void) {
    threshold();
    one_block_fails();
    markers_out_of_sequence();
    streamed();
    return check_report();
}
