/* aider replies through the C API: hl_apply_patch in HL_PATCH_DIALECT_AIDER (a block that
 * edits a file and one that creates a file; a block that matches nothing, with aider's text),
 * and hl_aider_applier streaming the same reply in 5-byte pieces (cutting a UTF-8 character),
 * its per-file preview, and finish. Run under valgrind and the sanitizers by make test-c. */
#include <stdint.h>

#include "check.h"

static const char REPLY[] =
    "Here it is.\n\napp.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = \"\xc3\xa9\"\n"
    ">>>>>>> REPLACE\n```\n\nnew.py\n```python\n<<<<<<< SEARCH\n=======\nprint()\n"
    ">>>>>>> REPLACE\n```\n";

/* The one chat file. */
static hl_patch_file chat_file(void) {
    hl_patch_file f;
    f.path = "app.py";
    f.path_len = strlen(f.path);
    f.content = "x = 1\ny = 2\n";
    f.content_len = strlen(f.content);
    return f;
}

/* Checks that `result` holds `path` with `content`. */
static void check_file(const hl_patch_result *result, const char *path, const char *content) {
    size_t count = 0;
    int seen = 0;
    CHECK_STATUS(hl_patch_result_file_count(result, &count), HL_STATUS_OK);
    for (size_t i = 0; i < count; i++) {
        hl_patch_file f;
        CHECK_STATUS(hl_patch_result_file(result, i, &f), HL_STATUS_OK);
        if (f.path_len == strlen(path) && memcmp(f.path, path, f.path_len) == 0) {
            CHECK_TEXT(f.content, f.content_len, content);
            seen = 1;
        }
    }
    CHECK(seen);
}

static void one_shot(void) {
    hl_patch_file files[1] = {chat_file()};
    hl_patch_options options = {0};
    hl_patch_result *result = NULL;
    hl_error *error = NULL;
    options.dialect = HL_PATCH_DIALECT_AIDER;
    CHECK_STATUS(hl_apply_patch(REPLY, strlen(REPLY), files, 1, &options, &result, &error),
                 HL_STATUS_OK);
    if (result != NULL) {
        check_file(result, "app.py", "x = \"\xc3\xa9\"\ny = 2\n");
        check_file(result, "new.py", "print()\n");
        hl_patch_result_free(result);
    }
    /* A block that matches nothing: aider's own text, nothing applied. */
    static const char MISS[] = "app.py\n```\n<<<<<<< SEARCH\nq = 9\n=======\nq = 8\n>>>>>>> REPLACE\n```\n";
    result = NULL;
    CHECK_STATUS(hl_apply_patch(MISS, strlen(MISS), files, 1, &options, &result, &error),
                 HL_STATUS_EDIT_REJECTED);
    CHECK(result == NULL);
    if (error != NULL) {
        const char *text;
        size_t len;
        CHECK_STATUS(hl_error_message(error, &text, &len), HL_STATUS_OK);
        static const char HEAD[] = "# 1 SEARCH/REPLACE block failed to match!\n";
        CHECK(len > strlen(HEAD) && memcmp(text, HEAD, strlen(HEAD)) == 0);
        hl_error_free(error);
    }
}

static void streamed(void) {
    hl_patch_file files[1] = {chat_file()};
    hl_aider_applier *applier = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_aider_applier_new(files, 1, NULL, &applier, &error), HL_STATUS_OK);
    if (applier == NULL) {
        return;
    }
    size_t total = strlen(REPLY), changed_app = 0;
    for (size_t at = 0; at < total; at += 5) {
        size_t n = total - at < 5 ? total - at : 5, changed = 0;
        CHECK_STATUS(hl_aider_applier_push(applier, REPLY + at, n, &changed, &error), HL_STATUS_OK);
        for (size_t i = 0; i < changed; i++) {
            const char *path;
            size_t len;
            CHECK_STATUS(hl_aider_applier_changed(applier, i, &path, &len), HL_STATUS_OK);
            if (len == 6 && memcmp(path, "app.py", 6) == 0) {
                changed_app++;
            }
        }
    }
    CHECK(changed_app == 1);
    hl_text *preview = NULL;
    CHECK_STATUS(hl_aider_applier_preview(applier, "app.py", 6, &preview), HL_STATUS_OK);
    if (preview != NULL) {
        const char *text;
        size_t len;
        CHECK_STATUS(hl_text_content(preview, &text, &len), HL_STATUS_OK);
        CHECK_TEXT(text, len, "x = \"\xc3\xa9\"\ny = 2\n");
        hl_text_free(preview);
    }
    preview = (hl_text *)(uintptr_t)0x5e5e;
    CHECK_STATUS(hl_aider_applier_preview(applier, "nope.py", 7, &preview), HL_STATUS_OK);
    CHECK(preview == NULL);
    hl_patch_result *result = NULL;
    CHECK_STATUS(hl_aider_applier_finish(applier, &result, &error), HL_STATUS_OK);
    if (result != NULL) {
        check_file(result, "new.py", "print()\n");
        hl_patch_result_free(result);
    }
    size_t changed = 0;
    CHECK_STATUS(hl_aider_applier_push(applier, "x", 1, &changed, &error), HL_STATUS_ALREADY_FINISHED);
    if (error != NULL) {
        hl_error_free(error);
    }
    hl_aider_applier_free(applier);
}

int main(void) {
    one_shot();
    streamed();
    return check_report();
}
