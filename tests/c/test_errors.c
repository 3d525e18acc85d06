/* Every error path of the C API: engine errors with Cline's exact messages and the engine's
 * codes, invalid options, invalid and incomplete UTF-8, use after finish, out-of-range
 * arguments, and NULL for every pointer argument. Each failing call must leave its
 * out-parameters untouched (they hold sentinels here). */
#include <stdint.h>

#include "check.h"

static const char ORIGINAL[] = "a\nb\nc\n";
static const char DIFF[] = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n";
static const char MISSING[] = "------- SEARCH\nnot there\n=======\nx\n+++++++ REPLACE\n";
static const char NOT_FOUND_MESSAGE[] =
    "The SEARCH block:\nnot there\n...does not match anything in the file.";

/* A pointer value no failing call may write (never dereferenced). */
#define SENTINEL_PTR(type) ((type)(uintptr_t)0x5e5e)
#define SENTINEL 0x5e5eu

/* Checks an engine error's code and message, then frees it. */
static void check_error(hl_error *error, const char *code, const char *message) {
    const char *text;
    size_t len;
    CHECK(error != NULL);
    if (error == NULL) {
        return;
    }
    CHECK_STATUS(hl_error_code(error, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, code);
    CHECK_STATUS(hl_error_message(error, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, message);
    hl_error_free(error);
}

static hl_applier *new_applier(void) {
    hl_applier *applier = NULL;
    CHECK_STATUS(hl_applier_new(ORIGINAL, strlen(ORIGINAL), NULL, &applier), HL_STATUS_OK);
    return applier;
}

static void search_not_found(void) {
    hl_result *result = SENTINEL_PTR(hl_result *);
    hl_error *error = NULL;
    CHECK_STATUS(hl_construct_new_file_content(MISSING, strlen(MISSING), ORIGINAL,
                                               strlen(ORIGINAL), true, HL_CLINE_V1, &result,
                                               &error),
                 HL_STATUS_EDIT_REJECTED);
    CHECK(result == SENTINEL_PTR(hl_result *));
    check_error(error, "search_not_found", NOT_FOUND_MESSAGE);

    /* The same through the streaming applier: the push succeeds, the snapshot and the finish
     * report the error. */
    hl_applier *applier = new_applier();
    hl_update update;
    CHECK_STATUS(hl_applier_push(applier, MISSING, strlen(MISSING), &update), HL_STATUS_OK);
    error = NULL;
    CHECK_STATUS(hl_applier_snapshot(applier, &result, &error), HL_STATUS_EDIT_REJECTED);
    check_error(error, "search_not_found", NOT_FOUND_MESSAGE);
    error = NULL;
    CHECK_STATUS(hl_applier_finish(applier, &result, &error), HL_STATUS_EDIT_REJECTED);
    CHECK(result == SENTINEL_PTR(hl_result *));
    check_error(error, "search_not_found", NOT_FOUND_MESSAGE);
    hl_applier_free(applier);
}

static void invalid_options(void) {
    hl_result *result = SENTINEL_PTR(hl_result *);
    hl_error *error = NULL;
    CHECK_STATUS(hl_construct_new_file_content(DIFF, strlen(DIFF), ORIGINAL, strlen(ORIGINAL),
                                               true, 3, &result, &error),
                 HL_STATUS_INVALID_OPTION);
    CHECK(result == SENTINEL_PTR(hl_result *));
    check_error(error, "invalid_version", "Invalid version 'v3' for file content constructor");

    hl_applier_options options = {0};
    options.dialect = 42;
    hl_applier *applier = SENTINEL_PTR(hl_applier *);
    CHECK_STATUS(hl_applier_new(ORIGINAL, strlen(ORIGINAL), &options, &applier),
                 HL_STATUS_INVALID_OPTION);
    CHECK(applier == SENTINEL_PTR(hl_applier *));
}

static void invalid_utf8(void) {
    static const char bad[] = "b\xff\n";
    hl_result *result = SENTINEL_PTR(hl_result *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    CHECK_STATUS(hl_construct_new_file_content(bad, strlen(bad), ORIGINAL, strlen(ORIGINAL), true,
                                               HL_CLINE_V1, &result, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_construct_new_file_content(DIFF, strlen(DIFF), bad, strlen(bad), true,
                                               HL_CLINE_V1, &result, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK(result == SENTINEL_PTR(hl_result *) && error == SENTINEL_PTR(hl_error *));

    hl_applier *applier = SENTINEL_PTR(hl_applier *);
    CHECK_STATUS(hl_applier_new(bad, strlen(bad), NULL, &applier), HL_STATUS_INVALID_UTF8);
    CHECK(applier == SENTINEL_PTR(hl_applier *));

    /* A rejected chunk changes nothing: not the preview, not the pending half character. */
    static const char with_e[] = "------- SEARCH\nb\n=======\nB\xc3\xa9\n";
    const size_t half = strlen(with_e) - 2; /* ends inside the é */
    applier = new_applier();
    hl_update update;
    const char *preview;
    size_t len;
    CHECK_STATUS(hl_applier_push(applier, with_e, half, &update), HL_STATUS_OK);
    hl_update untouched = {SENTINEL, SENTINEL, NULL, SENTINEL, SENTINEL};
    CHECK_STATUS(hl_applier_push(applier, "\xff", 1, &untouched), HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_applier_push(applier, "x", 1, &untouched), HL_STATUS_INVALID_UTF8);
    CHECK(untouched.start == SENTINEL && untouched.inserted == NULL);
    CHECK_STATUS(hl_applier_push(applier, with_e + half, 2, &update), HL_STATUS_OK);
    CHECK_STATUS(hl_applier_preview(applier, &preview, &len), HL_STATUS_OK);
    /* Exactly what Cline's partial call shows for the whole prefix. */
    hl_result *partial = NULL;
    hl_error *no_error = NULL;
    CHECK_STATUS(hl_construct_new_file_content(with_e, strlen(with_e), ORIGINAL, strlen(ORIGINAL),
                                               false, HL_CLINE_V1, &partial, &no_error),
                 HL_STATUS_OK);
    const char *want;
    size_t want_len;
    CHECK_STATUS(hl_result_content(partial, &want, &want_len), HL_STATUS_OK);
    CHECK(want_len > 0 && len == want_len && memcmp(preview, want, len) == 0);
    CHECK(memchr(preview, 0xc3, len) != NULL); /* the é made it, once */
    hl_result_free(partial);
    hl_applier_free(applier);

    /* A character still incomplete at finish is invalid UTF-8; the rest can still come. */
    applier = new_applier();
    CHECK_STATUS(hl_applier_push(applier, DIFF, strlen(DIFF), &update), HL_STATUS_OK);
    CHECK_STATUS(hl_applier_push(applier, "\xe2\x82", 2, &update), HL_STATUS_OK);
    result = SENTINEL_PTR(hl_result *);
    error = SENTINEL_PTR(hl_error *);
    CHECK_STATUS(hl_applier_finish(applier, &result, &error), HL_STATUS_INVALID_UTF8);
    CHECK(result == SENTINEL_PTR(hl_result *) && error == SENTINEL_PTR(hl_error *));
    CHECK_STATUS(hl_applier_push(applier, "\xac", 1, &update), HL_STATUS_OK);
    CHECK_TEXT(update.inserted, update.inserted_len, "");
    error = NULL;
    CHECK_STATUS(hl_applier_finish(applier, &result, &error), HL_STATUS_OK);
    const char *content;
    CHECK_STATUS(hl_result_content(result, &content, &len), HL_STATUS_OK);
    CHECK_TEXT(content, len, "a\nB\nc\n");
    hl_result_free(result);
    hl_applier_free(applier);
}

static void after_finish(void) {
    hl_applier *applier = new_applier();
    hl_update update;
    hl_result *result = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_applier_push(applier, DIFF, strlen(DIFF), &update), HL_STATUS_OK);
    CHECK_STATUS(hl_applier_finish(applier, &result, &error), HL_STATUS_OK);
    hl_result_free(result);

    hl_update untouched = {SENTINEL, SENTINEL, NULL, SENTINEL, SENTINEL};
    CHECK_STATUS(hl_applier_push(applier, "x", 1, &untouched), HL_STATUS_ALREADY_FINISHED);
    CHECK(untouched.start == SENTINEL);
    const char *preview = NULL;
    size_t len = SENTINEL;
    CHECK_STATUS(hl_applier_preview(applier, &preview, &len), HL_STATUS_ALREADY_FINISHED);
    CHECK(preview == NULL && len == SENTINEL);
    result = SENTINEL_PTR(hl_result *);
    error = NULL;
    CHECK_STATUS(hl_applier_finish(applier, &result, &error), HL_STATUS_ALREADY_FINISHED);
    CHECK(result == SENTINEL_PTR(hl_result *));
    check_error(error, "already_finished", "this applier has already finished; create a new one");
    error = NULL;
    CHECK_STATUS(hl_applier_snapshot(applier, &result, &error), HL_STATUS_ALREADY_FINISHED);
    check_error(error, "already_finished", "this applier has already finished; create a new one");
    hl_applier_free(applier);
}

static void out_of_range(void) {
    hl_result *result = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_construct_new_file_content(DIFF, strlen(DIFF), ORIGINAL, strlen(ORIGINAL),
                                               true, HL_CLINE_V1, &result, &error),
                 HL_STATUS_OK);
    size_t value = SENTINEL;
    CHECK_STATUS(hl_result_match_index(result, 1, HL_UNIT_BYTES, &value), HL_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(hl_result_match_index(result, 0, 99, &value), HL_STATUS_OUT_OF_RANGE);
    CHECK(value == SENTINEL);
    hl_block block;
    block.index = SENTINEL;
    CHECK_STATUS(hl_result_block(result, 0, &block), HL_STATUS_OUT_OF_RANGE); /* none */
    CHECK(block.index == SENTINEL);
    CHECK_STATUS(hl_result_match_index(result, 0, HL_UNIT_CODE_POINTS, &value), HL_STATUS_OK);
    CHECK(value == 2);
    hl_result_free(result);
}

static void null_arguments(void) {
    const size_t dl = strlen(DIFF), ol = strlen(ORIGINAL);
    hl_result *result = SENTINEL_PTR(hl_result *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    hl_applier *applier = SENTINEL_PTR(hl_applier *);
    const char *text = SENTINEL_PTR(const char *);
    size_t len = SENTINEL;
    size_t count = SENTINEL;
    hl_update update = {SENTINEL, SENTINEL, NULL, SENTINEL, SENTINEL};
    hl_block block;
    block.index = SENTINEL;

    CHECK_STATUS(hl_construct_new_file_content(NULL, dl, ORIGINAL, ol, true, 1, &result, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_construct_new_file_content(DIFF, dl, NULL, ol, true, 1, &result, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_construct_new_file_content(DIFF, dl, ORIGINAL, ol, true, 1, NULL, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_construct_new_file_content(DIFF, dl, ORIGINAL, ol, true, 1, &result, NULL),
                 HL_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(hl_applier_new(NULL, ol, NULL, &applier), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_new(ORIGINAL, ol, NULL, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK(applier == SENTINEL_PTR(hl_applier *));

    CHECK_STATUS(hl_applier_push(NULL, DIFF, dl, &update), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_preview(NULL, &text, &len), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_snapshot(NULL, &result, &error), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_finish(NULL, &result, &error), HL_STATUS_NULL_ARGUMENT);

    hl_applier *live = new_applier();
    CHECK_STATUS(hl_applier_push(live, NULL, 1, &update), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_push(live, DIFF, dl, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_preview(live, NULL, &len), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_preview(live, &text, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_snapshot(live, NULL, &error), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_snapshot(live, &result, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_finish(live, NULL, &error), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_applier_finish(live, &result, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK(update.start == SENTINEL && text == SENTINEL_PTR(const char *) && len == SENTINEL);
    CHECK(result == SENTINEL_PTR(hl_result *) && error == SENTINEL_PTR(hl_error *));
    /* (NULL, 0) is the empty text, and none of the above disturbed the applier. */
    CHECK_STATUS(hl_applier_push(live, NULL, 0, &update), HL_STATUS_OK);
    CHECK_STATUS(hl_applier_push(live, DIFF, dl, &update), HL_STATUS_OK);
    hl_result *finished = NULL;
    hl_error *no_error = NULL;
    CHECK_STATUS(hl_applier_finish(live, &finished, &no_error), HL_STATUS_OK);

    CHECK_STATUS(hl_result_content(NULL, &text, &len), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_content(finished, NULL, &len), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_content(finished, &text, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_match_count(NULL, &count), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_match_count(finished, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_match_index(NULL, 0, HL_UNIT_BYTES, &count), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_match_index(finished, 0, HL_UNIT_BYTES, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_block_count(NULL, &count), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_block_count(finished, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_block(NULL, 0, &block), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_result_block(finished, 0, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK(count == SENTINEL && block.index == SENTINEL && text == SENTINEL_PTR(const char *));
    hl_result_free(finished);
    hl_applier_free(live);

    hl_error *an_error = NULL;
    CHECK_STATUS(hl_construct_new_file_content(MISSING, strlen(MISSING), ORIGINAL, ol, true, 1,
                                               &finished, &an_error),
                 HL_STATUS_EDIT_REJECTED);
    CHECK_STATUS(hl_error_code(NULL, &text, &len), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_error_code(an_error, NULL, &len), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_error_code(an_error, &text, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_error_message(NULL, &text, &len), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_error_message(an_error, NULL, &len), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_error_message(an_error, &text, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK(text == SENTINEL_PTR(const char *) && len == SENTINEL);
    hl_error_free(an_error);

    CHECK_STATUS(hl_line_number_from_byte_index(NULL, 3, 0, &count), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_line_number_from_byte_index(ORIGINAL, ol, 0, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK(count == SENTINEL);

    /* The free functions accept NULL. */
    hl_applier_free(NULL);
    hl_result_free(NULL);
    hl_error_free(NULL);
}

static void static_strings(void) {
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", HL_VERSION_MAJOR, HL_VERSION_MINOR, HL_VERSION_PATCH);
    CHECK(strcmp(hl_version(), want) == 0);
    CHECK(strcmp(hl_status_str(HL_STATUS_OK), "ok") == 0);
    CHECK(strcmp(hl_status_str(HL_STATUS_NULL_ARGUMENT), "null argument") == 0);
    CHECK(strcmp(hl_status_str(1000), "unknown status") == 0);
    size_t line = 0;
    CHECK_STATUS(hl_line_number_from_byte_index(ORIGINAL, strlen(ORIGINAL), 4, &line),
                 HL_STATUS_OK);
    CHECK(line == 3);
}

int main(void) {
    search_not_found();
    invalid_options();
    invalid_utf8();
    after_finish();
    out_of_range();
    null_arguments();
    static_strings();
    return check_report();
}
