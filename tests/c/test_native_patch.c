/* The native reading of V4A bodies through the C API: hl_apply_patch_body in
 * HL_PATCH_DIALECT_NATIVE (lines found in two places refused, naming both; an `@@` line
 * choosing one; the file's CRLF endings kept), and hl_native_body_applier streaming a body in
 * 5-byte pieces (cutting a UTF-8 character), its preview, chunk reports and finish. Run under
 * valgrind and the sanitizers by make test-c. */
#include <stdint.h>

#include "check.h"

static const char FILE_TEXT[] = "class A:\r\n    x = 1\r\n\r\nclass B:\r\n    x = 1\r\n";

static hl_patch_file the_file(void) {
    hl_patch_file f;
    f.path = "a.py";
    f.path_len = strlen(f.path);
    f.content = FILE_TEXT;
    f.content_len = strlen(FILE_TEXT);
    return f;
}

/* The text of `error`'s message contains `part`. */
static void check_message(hl_error *error, const char *part) {
    const char *text;
    size_t len;
    CHECK_STATUS(hl_error_message(error, &text, &len), HL_STATUS_OK);
    int found = 0;
    for (size_t i = 0; i + strlen(part) <= len; i++) {
        if (memcmp(text + i, part, strlen(part)) == 0) {
            found = 1;
        }
    }
    CHECK(found);
}

static void one_shot(void) {
    hl_patch_file files[1] = {the_file()};
    hl_patch_options options = {0};
    hl_patch_result *result = NULL;
    hl_error *error = NULL;
    options.dialect = HL_PATCH_DIALECT_NATIVE;
    static const char TWICE[] = "-    x = 1\n+    x = 2\n";
    CHECK_STATUS(hl_apply_patch_body("a.py", 4, TWICE, strlen(TWICE), HL_V4A_MODE_DEFAULT, files,
                                     1, &options, &result, &error),
                 HL_STATUS_EDIT_REJECTED);
    CHECK(result == NULL);
    if (error != NULL) {
        check_message(error, "at lines 2 and 5");
        hl_error_free(error);
        error = NULL;
    }
    static const char ANCHORED[] = "@@ class B:\n-    x = 1\n+    x = 2\n";
    CHECK_STATUS(hl_apply_patch_body("a.py", 4, ANCHORED, strlen(ANCHORED), HL_V4A_MODE_DEFAULT,
                                     files, 1, &options, &result, &error),
                 HL_STATUS_OK);
    if (result != NULL) {
        hl_patch_file f;
        CHECK_STATUS(hl_patch_result_file(result, 0, &f), HL_STATUS_OK);
        CHECK_TEXT(f.content, f.content_len,
                   "class A:\r\n    x = 1\r\n\r\nclass B:\r\n    x = 2\r\n");
        hl_patch_result_free(result);
    }
}

static void streamed(void) {
    static const char BODY[] = "@@ class A:\n-    x = 1\n+    x = \"\xc3\xa9\"\n@@ class B:\n"
                               "-    x = 1\n+    x = 3\n";
    hl_native_body_applier *applier = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_native_body_applier_new(FILE_TEXT, strlen(FILE_TEXT), HL_V4A_MODE_DEFAULT,
                                            &applier, &error),
                 HL_STATUS_OK);
    if (applier == NULL) {
        return;
    }
    size_t total = strlen(BODY);
    int saw_first = 0;
    for (size_t at = 0; at < total; at += 5) {
        size_t n = total - at < 5 ? total - at : 5;
        CHECK_STATUS(hl_native_body_applier_push(applier, BODY + at, n, &error), HL_STATUS_OK);
        hl_text *preview = NULL;
        CHECK_STATUS(hl_native_body_applier_preview(applier, &preview), HL_STATUS_OK);
        if (preview != NULL) {
            const char *text;
            size_t len;
            CHECK_STATUS(hl_text_content(preview, &text, &len), HL_STATUS_OK);
            static const char FIRST[] = "class A:\r\n    x = \"\xc3\xa9\"\r\n";
            if (len >= strlen(FIRST) && memcmp(text, FIRST, strlen(FIRST)) == 0) {
                saw_first = 1;
            }
            hl_text_free(preview);
        }
    }
    CHECK(saw_first);
    hl_text *chunks = NULL;
    CHECK_STATUS(hl_native_body_applier_chunks(applier, &chunks), HL_STATUS_OK);
    if (chunks != NULL) {
        const char *text;
        size_t len;
        CHECK_STATUS(hl_text_content(chunks, &text, &len), HL_STATUS_OK);
        CHECK(len > 2 && text[0] == '[');
        hl_text_free(chunks);
    }
    hl_text *content = NULL;
    chunks = NULL;
    CHECK_STATUS(hl_native_body_applier_finish(applier, &content, &chunks, &error), HL_STATUS_OK);
    if (content != NULL) {
        const char *text;
        size_t len;
        CHECK_STATUS(hl_text_content(content, &text, &len), HL_STATUS_OK);
        CHECK_TEXT(text, len, "class A:\r\n    x = \"\xc3\xa9\"\r\n\r\nclass B:\r\n    x = 3\r\n");
        hl_text_free(content);
    }
    if (chunks != NULL) {
        const char *text;
        size_t len;
        CHECK_STATUS(hl_text_content(chunks, &text, &len), HL_STATUS_OK);
        static const char ANCHOR[] = "\"chosen_by\":\"anchor\"";
        int found = 0;
        for (size_t i = 0; i + strlen(ANCHOR) <= len; i++) {
            if (memcmp(text + i, ANCHOR, strlen(ANCHOR)) == 0) {
                found = 1;
            }
        }
        CHECK(found);
        hl_text_free(chunks);
    }
    CHECK_STATUS(hl_native_body_applier_push(applier, "x", 1, &error), HL_STATUS_ALREADY_FINISHED);
    if (error != NULL) {
        hl_error_free(error);
    }
    hl_native_body_applier_free(applier);
    hl_native_body_applier_free(NULL);
}

int main(void) {
    one_shot();
    streamed();
    return check_report();
}
