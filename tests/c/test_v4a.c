/* V4A per-file bodies through the C API: hl_apply_v4a in both modes (the OpenAI Agents SDK's
 * output, CRLF normalisation, create mode without a final newline), its failures with the
 * reference's exact messages and codes, an unknown mode, NULL arguments and invalid UTF-8; and
 * hl_apply_patch_body, the same body read by the Codex dialect for one file. Each failing call
 * must leave its out-parameters untouched (they hold sentinels here). */
#include <stdint.h>

#include "check.h"

/* A pointer value no failing call may write (never dereferenced). */
#define SENTINEL_PTR(type) ((type)(uintptr_t)0x5e5e)

/* hl_apply_v4a on NUL-terminated texts. */
static hl_status apply(const char *input, const char *diff, hl_v4a_mode mode, hl_text **out,
                       hl_error **error) {
    return hl_apply_v4a(input, strlen(input), diff, strlen(diff), mode, out, error);
}

/* Checks a successful call's text, then frees it. */
static void check_applied(const char *input, const char *diff, hl_v4a_mode mode,
                          const char *want) {
    hl_text *out = SENTINEL_PTR(hl_text *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    const char *text;
    size_t len;
    CHECK_STATUS(apply(input, diff, mode, &out, &error), HL_STATUS_OK);
    CHECK(error == SENTINEL_PTR(hl_error *));
    if (out == SENTINEL_PTR(hl_text *) || out == NULL) {
        CHECK(0);
        return;
    }
    CHECK_STATUS(hl_text_content(out, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, want);
    hl_text_free(out);
}

/* Checks a failing call's status, code and exact message, and that `*result` was not written. */
static void check_refused(const char *input, const char *diff, hl_v4a_mode mode, hl_status want,
                          const char *code, const char *message) {
    hl_text *out = SENTINEL_PTR(hl_text *);
    hl_error *error = NULL;
    const char *text;
    size_t len;
    CHECK_STATUS(apply(input, diff, mode, &out, &error), want);
    CHECK(out == SENTINEL_PTR(hl_text *));
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

static void test_apply_v4a(void) {
    /* A stacked anchor narrows the search to the second class; the CRLF file stays CRLF. */
    check_applied("class A:\r\n    def f():\r\n        x\r\nclass B:\r\n    def f():\r\n        x\r\n",
                  "@@ class B:\n@@     def f():\n-        x\n+        y\n", HL_V4A_MODE_DEFAULT,
                  "class A:\r\n    def f():\r\n        x\r\nclass B:\r\n    def f():\r\n        y\r\n");
    /* A single anchor that is not found is ignored. */
    check_applied("a\nb\n", "@@ nowhere\n-b\n+B\n", HL_V4A_MODE_DEFAULT, "a\nB\n");
    /* Create mode: the `+` lines without a final newline; the input is ignored. */
    check_applied("ignored", "+one\n+two\n", HL_V4A_MODE_CREATE, "one\ntwo");
    check_applied("", "", HL_V4A_MODE_CREATE, "");

    check_refused("a\nb\n", "-c\n+d\n", HL_V4A_MODE_DEFAULT, HL_STATUS_EDIT_REJECTED,
                  "patch_context_not_found", "Invalid Context 0:\nc");
    check_refused("a\n", "@@ x\n@@ y\n-a\n", HL_V4A_MODE_DEFAULT, HL_STATUS_EDIT_REJECTED,
                  "patch_context_not_found", "Invalid Anchor 0:\nx");
    check_refused("a\n", "@@", HL_V4A_MODE_DEFAULT, HL_STATUS_EDIT_REJECTED, "invalid_patch_hunk",
                  "Nothing in this section - index=1 *** End Patch");
    check_refused("", " x\n", HL_V4A_MODE_CREATE, HL_STATUS_EDIT_REJECTED, "invalid_patch_hunk",
                  "Invalid Add File Line:  x");
    check_refused("a\n", "", 7, HL_STATUS_INVALID_OPTION, "invalid_dialect",
                  "unknown V4A mode '7': expected one of default, create");

    /* Binding-level failures: no error object, nothing written. */
    hl_text *out = SENTINEL_PTR(hl_text *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    CHECK_STATUS(hl_apply_v4a(NULL, 3, "", 0, HL_V4A_MODE_DEFAULT, &out, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_apply_v4a("a", 1, "\xff", 1, HL_V4A_MODE_DEFAULT, &out, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_apply_v4a("a", 1, "", 0, HL_V4A_MODE_DEFAULT, NULL, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_apply_v4a("a", 1, "", 0, HL_V4A_MODE_DEFAULT, &out, NULL),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK(out == SENTINEL_PTR(hl_text *) && error == SENTINEL_PTR(hl_error *));
    /* (NULL, 0) is the empty text: an empty body gives the input back. */
    CHECK_STATUS(hl_apply_v4a("x\r\ny", 4, NULL, 0, HL_V4A_MODE_DEFAULT, &out, &error),
                 HL_STATUS_OK);
    if (out != SENTINEL_PTR(hl_text *) && out != NULL) {
        const char *text;
        size_t len;
        CHECK_STATUS(hl_text_content(out, &text, &len), HL_STATUS_OK);
        CHECK_TEXT(text, len, "x\r\ny");
        hl_text_free(out);
    } else {
        CHECK(0);
    }
}

static void test_apply_patch_body(void) {
    const char *path = "app.py";
    const char *content = "def f():\n    return 1\n";
    const char *body = "@@ def f():\n-    return 1\n+    return 2\n";
    hl_patch_file files[1] = {{path, strlen(path), content, strlen(content)}};
    hl_patch_result *result = SENTINEL_PTR(hl_patch_result *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    hl_patch_file file;
    size_t count = 0;
    CHECK_STATUS(hl_apply_patch_body(path, strlen(path), body, strlen(body), HL_V4A_MODE_DEFAULT,
                                     files, 1, NULL, &result, &error),
                 HL_STATUS_OK);
    CHECK(error == SENTINEL_PTR(hl_error *));
    if (result != SENTINEL_PTR(hl_patch_result *) && result != NULL) {
        CHECK_STATUS(hl_patch_result_file_count(result, &count), HL_STATUS_OK);
        CHECK(count == 1);
        CHECK_STATUS(hl_patch_result_file(result, 0, &file), HL_STATUS_OK);
        CHECK_TEXT(file.path, file.path_len, "app.py");
        CHECK_TEXT(file.content, file.content_len, "def f():\n    return 2\n");
        hl_patch_result_free(result);
    } else {
        CHECK(0);
    }

    /* Codex's reading differs: a single anchor that is not found is an error there. */
    const char *wrong = "@@ def g():\n-    return 1\n+    return 2\n";
    const char *text;
    size_t len;
    result = SENTINEL_PTR(hl_patch_result *);
    error = NULL;
    CHECK_STATUS(hl_apply_patch_body(path, strlen(path), wrong, strlen(wrong), HL_V4A_MODE_DEFAULT,
                                     files, 1, NULL, &result, &error),
                 HL_STATUS_EDIT_REJECTED);
    CHECK(result == SENTINEL_PTR(hl_patch_result *));
    if (error != NULL) {
        CHECK_STATUS(hl_error_code(error, &text, &len), HL_STATUS_OK);
        CHECK_TEXT(text, len, "patch_context_not_found");
        CHECK_STATUS(hl_error_message(error, &text, &len), HL_STATUS_OK);
        CHECK_TEXT(text, len, "Failed to find context 'def g():' in app.py");
        hl_error_free(error);
    } else {
        CHECK(0);
    }

    /* A body is for the Codex dialect only. */
    hl_patch_options options = {0};
    options.dialect = HL_PATCH_DIALECT_CLINE;
    error = NULL;
    CHECK_STATUS(hl_apply_patch_body(path, strlen(path), body, strlen(body), HL_V4A_MODE_DEFAULT,
                                     files, 1, &options, &result, &error),
                 HL_STATUS_INVALID_OPTION);
    CHECK(result == SENTINEL_PTR(hl_patch_result *));
    if (error != NULL) {
        CHECK_STATUS(hl_error_code(error, &text, &len), HL_STATUS_OK);
        CHECK_TEXT(text, len, "invalid_dialect");
        hl_error_free(error);
    } else {
        CHECK(0);
    }
}

int main(void) {
    test_apply_v4a();
    test_apply_patch_body();
    return check_report();
}
