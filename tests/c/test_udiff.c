/* Unified diffs through the C ABI's apply entry (hl_apply_diff) and the streaming applier:
 * HL_DIALECT_UDIFF places a hunk whose line numbers and counts are wrong and reports it as a
 * block, refuses a hunk that matches two places (both listed), and streams hunk by hunk;
 * HL_DIALECT_UDIFF_STRICT gives git apply's result or git's error lines, and `recount` repairs
 * the counts as `git apply --recount` does. */
#include <stdlib.h>

#include "check.h"

static const char FILE_PY[] = "def total(items):\n    return sum(items)\n\ndef mean(items):\n"
                              "    return total(items) / len(items)\n";
/* Headers say line 40 and 9 lines; the body has 2 old lines. */
static const char DIFF[] = "--- a/stats.py\n"
                           "+++ b/stats.py\n"
                           "@@ -40,9 +40,9 @@\n"
                           " def mean(items):\n"
                           "-    return total(items) / len(items)\n"
                           "+    return total(items) / max(len(items), 1)\n";
static const char MEANT[] = "def total(items):\n    return sum(items)\n\ndef mean(items):\n"
                            "    return total(items) / max(len(items), 1)\n";

/* Checks a failed call: status, no result, the error's code and exact message. */
static void check_error(hl_status got, hl_result *result, hl_error *error, const char *code,
                        const char *message) {
    CHECK_STATUS(got, HL_STATUS_EDIT_REJECTED);
    CHECK(result == NULL);
    CHECK(error != NULL);
    if (error == NULL) {
        return;
    }
    const char *text;
    size_t len;
    CHECK_STATUS(hl_error_code(error, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, code);
    if (message != NULL) {
        CHECK_STATUS(hl_error_message(error, &text, &len), HL_STATUS_OK);
        CHECK_TEXT(text, len, message);
    }
    hl_error_free(error);
}

static void native(void) {
    hl_apply_options options = {0};
    options.dialect = HL_DIALECT_UDIFF;
    hl_result *result = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_apply_diff(DIFF, strlen(DIFF), FILE_PY, strlen(FILE_PY), &options, &result,
                               &error),
                 HL_STATUS_OK);
    CHECK(error == NULL);
    if (result == NULL) {
        return;
    }
    const char *content;
    size_t content_len, count = 0;
    CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
    CHECK_TEXT(content, content_len, MEANT);
    CHECK_STATUS(hl_result_block_count(result, &count), HL_STATUS_OK);
    CHECK(count == 1);
    hl_block block;
    CHECK_STATUS(hl_result_block(result, 0, &block), HL_STATUS_OK);
    CHECK(block.status == HL_BLOCK_APPLIED);
    CHECK_TEXT(block.strategy, block.strategy_len, "exact");
    CHECK(block.start.line == 4 && block.end_line == 5);
    hl_result_free(result);

    /* A hunk that matches two places is refused, whatever its line numbers say. */
    static const char TWICE[] = "x = 1\ny = 2\nx = 1\ny = 2\n";
    static const char AMBIGUOUS[] = "@@ -3,2 +3,2 @@\n x = 1\n-y = 2\n+y = 3\n";
    result = NULL;
    error = NULL;
    hl_status status = hl_apply_diff(AMBIGUOUS, strlen(AMBIGUOUS), TWICE, strlen(TWICE),
                                     &options, &result, &error);
    check_error(status, result, error, "ambiguous_match", NULL);
}

static void strict(void) {
    hl_apply_options options = {0};
    options.dialect = HL_DIALECT_UDIFF_STRICT;
    hl_result *result = NULL;
    hl_error *error = NULL;
    /* git reads the counts: the patch is corrupt. */
    hl_status status =
        hl_apply_diff(DIFF, strlen(DIFF), FILE_PY, strlen(FILE_PY), &options, &result, &error);
    check_error(status, result, error, "invalid_patch", "error: corrupt patch at line 7");
    /* --recount counts the body; git then finds the hunk near its line, as written. */
    options.recount = true;
    result = NULL;
    error = NULL;
    CHECK_STATUS(hl_apply_diff(DIFF, strlen(DIFF), FILE_PY, strlen(FILE_PY), &options, &result,
                               &error),
                 HL_STATUS_OK);
    if (result != NULL) {
        const char *content;
        size_t content_len;
        CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
        CHECK_TEXT(content, content_len, MEANT);
        hl_result_free(result);
    }
    /* A context line that differs: git's two error lines. */
    static const char DRIFTED[] = "--- a/stats.py\n+++ b/stats.py\n@@ -4,2 +4,2 @@\n"
                                  " def mean(xs):\n-    return total(items) / len(items)\n"
                                  "+    return 0\n";
    result = NULL;
    error = NULL;
    status = hl_apply_diff(DRIFTED, strlen(DRIFTED), FILE_PY, strlen(FILE_PY), &options, &result,
                           &error);
    check_error(status, result, error, "patch_context_not_found",
                "error: patch failed: stats.py:4\nerror: stats.py: patch does not apply");
}

/* A udiff applier shows a hunk once the complete line after it shows the hunk is complete. */
static void streaming(void) {
    static const char TWO[] = "@@ -1,2 +1,2 @@\n def total(items):\n-    return sum(items)\n"
                              "+    return sum(items, 0)\n@@ -4,2 +4,2 @@\n def mean(items):\n"
                              "-    return total(items) / len(items)\n"
                              "+    return total(items) / max(len(items), 1)\n";
    hl_applier_options options = {0};
    options.dialect = HL_DIALECT_UDIFF;
    hl_applier *applier = NULL;
    CHECK_STATUS(hl_applier_new(FILE_PY, strlen(FILE_PY), &options, &applier), HL_STATUS_OK);
    if (applier == NULL) {
        return;
    }
    const char *second = strstr(TWO, "@@ -4");
    size_t first_len = (size_t)(second - TWO);
    hl_update update;
    CHECK_STATUS(hl_applier_push(applier, TWO, first_len, &update), HL_STATUS_OK);
    CHECK(update.blocks_completed == 0); /* the first hunk may still go on */
    /* The next hunk's header line completes the first hunk: it is placed. */
    size_t header_len = (size_t)(strchr(second, '\n') - second) + 1;
    CHECK_STATUS(hl_applier_push(applier, second, header_len, &update), HL_STATUS_OK);
    CHECK(update.blocks_completed == 1);
    /* One splice over the hunk's lines (from its first context line). */
    CHECK(update.start == 0);
    CHECK(update.removed == strlen("def total(items):\n    return sum(items)\n"));
    CHECK_STATUS(hl_applier_push(applier, second + header_len, strlen(second) - header_len,
                                 &update),
                 HL_STATUS_OK);
    hl_result *result = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_applier_finish(applier, &result, &error), HL_STATUS_OK);
    if (result != NULL) {
        const char *content;
        size_t content_len, count = 0;
        CHECK_STATUS(hl_result_content(result, &content, &content_len), HL_STATUS_OK);
        CHECK(strstr(content, "sum(items, 0)") != NULL && strstr(content, "max(len") != NULL);
        CHECK_STATUS(hl_result_block_count(result, &count), HL_STATUS_OK);
        CHECK(count == 2);
        hl_result_free(result);
    }
    hl_applier_free(applier);
}

int main(void) {
    native();
    strict();
    streaming();
    return check_report();
}
