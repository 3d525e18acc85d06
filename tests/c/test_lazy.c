/* Lazy edits through the C API: hl_apply_lazy merges a snippet with `// ... existing code ...`
 * markers (the language from the path, or given by name), returns a snippet without markers as
 * the whole text, and refuses what it cannot place with the engine's codes (lazy_no_anchor,
 * lazy_ambiguous with its candidate places, invalid_language); hl_workspace_apply_lazy does the
 * same on a file, all or nothing, keeping its CRLF line endings. NULL arguments and invalid
 * UTF-8 get their statuses. Failing calls leave their out-parameters untouched (they hold
 * sentinels here). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

/* A pointer value no failing call may write (never dereferenced). */
#define SENTINEL_PTR(type) ((type)(uintptr_t)0x5e5e)

static const char FILE_GO[] =
    "package main\n\nfunc Start() error {\n\treturn nil\n}\n\nfunc Stop() error {\n\treturn nil\n}\n";

/* hl_apply_lazy on NUL-terminated texts; `path` and `lang` may be NULL (not given). */
static hl_status lazy(const char *snippet, const char *original, const char *path,
                      const char *lang, hl_text **text, hl_error **error) {
    return hl_apply_lazy(snippet, strlen(snippet), original, strlen(original), path,
                         path ? strlen(path) : 0, lang, lang ? strlen(lang) : 0, text, error);
}

/* Checks a merged text, then frees it. */
static void check_merged(hl_status status, hl_text *text, const char *want) {
    const char *content;
    size_t len;
    CHECK_STATUS(status, HL_STATUS_OK);
    if (status != HL_STATUS_OK) {
        return;
    }
    CHECK_STATUS(hl_text_content(text, &content, &len), HL_STATUS_OK);
    CHECK_TEXT(content, len, want);
    hl_text_free(text);
}

/* Checks a refusal's status and code (and that its message starts with `message`), then frees
 * it unless `keep`. */
static void check_refused(hl_status status, hl_status want, hl_text *text, hl_error *error,
                          const char *code, const char *message) {
    const char *s;
    size_t len;
    CHECK_STATUS(status, want);
    CHECK(text == SENTINEL_PTR(hl_text *));
    CHECK(error != NULL && error != SENTINEL_PTR(hl_error *));
    if (error == NULL || error == SENTINEL_PTR(hl_error *)) {
        return;
    }
    CHECK_STATUS(hl_error_code(error, &s, &len), HL_STATUS_OK);
    CHECK_TEXT(s, len, code);
    CHECK_STATUS(hl_error_message(error, &s, &len), HL_STATUS_OK);
    CHECK(len >= strlen(message) && memcmp(s, message, strlen(message)) == 0);
    hl_error_free(error);
}

static void merges_and_whole_files(void) {
    hl_text *text = NULL;
    hl_error *error = NULL;
    const char *snippet = "// ... existing code ...\nfunc Start() error {\n\tready = true\n"
                          "\treturn nil\n}\n\nfunc Stop() error {\n// ... existing code ...\n";
    const char *want = "package main\n\nfunc Start() error {\n\tready = true\n\treturn nil\n}\n\n"
                       "func Stop() error {\n\treturn nil\n}\n";
    /* Each call runs before `text` is read: C leaves the order of argument evaluation open. */
    hl_status status = lazy(snippet, FILE_GO, "main.go", NULL, &text, &error);
    check_merged(status, text, want);
    status = lazy(snippet, FILE_GO, NULL, "go", &text, &error);
    check_merged(status, text, want);
    /* No markers: the snippet is the whole text. In Python `//` starts no comment. */
    status = lazy(snippet, FILE_GO, "main.py", NULL, &text, &error);
    check_merged(status, text, snippet);
    status = lazy("", FILE_GO, "main.go", NULL, &text, &error);
    check_merged(status, text, "");
}

static void refusals(void) {
    hl_text *text = SENTINEL_PTR(hl_text *);
    hl_error *error = NULL;
    hl_match match;
    size_t count = 0;
    hl_status status = lazy("// ...\nfunc Restart() error {\n\trestart()\n// ...\n", FILE_GO,
                            "main.go", NULL, &text, &error);
    check_refused(status, HL_STATUS_EDIT_REJECTED, text, error, "lazy_no_anchor",
                  "segment 1 (snippet lines 2-3) cannot be placed");

    error = NULL;
    status = lazy("// ...\n\treturn nil\n\tdone()\n// ...\n", FILE_GO, "main.go", NULL, &text,
                  &error);
    CHECK_STATUS(status, HL_STATUS_EDIT_REJECTED);
    CHECK(text == SENTINEL_PTR(hl_text *));
    if (error != NULL) {
        CHECK_STATUS(hl_error_match_count(error, &count), HL_STATUS_OK);
        CHECK(count == 2);
        CHECK_STATUS(hl_error_match(error, 1, &match), HL_STATUS_OK);
        CHECK(match.start.line == 8 && match.last_line == 8);
        CHECK_STATUS(hl_error_match(error, 2, &match), HL_STATUS_OUT_OF_RANGE);
    }
    check_refused(status, HL_STATUS_EDIT_REJECTED, text, error, "lazy_ambiguous",
                  "segment 1 (snippet lines 2-3) cannot be placed: its last line `done()` occurs "
                  "nowhere in the file, and its first line `return nil` occurs at 2 places");

    error = NULL;
    status = lazy("// ...\nx\n", FILE_GO, NULL, "cobol", &text, &error);
    check_refused(status, HL_STATUS_INVALID_OPTION, text, error, "invalid_language",
                  "unknown language 'cobol'");

    /* The binding's own statuses: no hl_error, nothing written. */
    error = SENTINEL_PTR(hl_error *);
    CHECK_STATUS(hl_apply_lazy(NULL, 3, FILE_GO, strlen(FILE_GO), NULL, 0, NULL, 0, &text, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(lazy("x", FILE_GO, NULL, NULL, NULL, &error), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(lazy("\xff", FILE_GO, NULL, NULL, &text, &error), HL_STATUS_INVALID_UTF8);
    CHECK(text == SENTINEL_PTR(hl_text *) && error == SENTINEL_PTR(hl_error *));
}

static char root[] = "/tmp/hunkloom-c-lazy-XXXXXX";

/* Writes (bytes, len) to root/name, or reads root/name into buf (returns its length). */
static size_t file_io(const char *name, const char *bytes, size_t len, char *buf, size_t cap) {
    char path[128];
    size_t got = 0;
    snprintf(path, sizeof path, "%s/%s", root, name);
    FILE *f = fopen(path, bytes != NULL ? "wb" : "rb");
    CHECK(f != NULL);
    if (f == NULL) {
        return 0;
    }
    if (bytes != NULL) {
        CHECK(fwrite(bytes, 1, len, f) == len);
    } else {
        got = fread(buf, 1, cap, f);
    }
    fclose(f);
    return got;
}

static void workspace(void) {
    static const char crlf[] = "def a():\r\n    return 1\r\n\r\ndef b():\r\n    return 2\r\n";
    static const char merged[] =
        "def a():\r\n    return 1\r\n\r\ndef b():\r\n    log()\r\n    return 2\r\n";
    const char *snippet = "# ...\ndef b():\n    log()\n    return 2\n";
    char buf[256];
    hl_workspace *ws = NULL;
    hl_edit_outcome *outcome = SENTINEL_PTR(hl_edit_outcome *);
    hl_error *error = NULL;
    CHECK(mkdtemp(root) != NULL);
    file_io("m.py", crlf, sizeof crlf - 1, NULL, 0);
    CHECK_STATUS(hl_workspace_open(root, strlen(root), NULL, &ws, &error), HL_STATUS_OK);
    if (ws == NULL) {
        return;
    }
    CHECK_STATUS(hl_workspace_apply_lazy(ws, "m.py", 4, snippet, strlen(snippet), NULL, 0,
                                         &outcome, &error),
                 HL_STATUS_STALE_FILE);
    CHECK(outcome == SENTINEL_PTR(hl_edit_outcome *));
    hl_error_free(error);
    error = NULL;
    hl_text *text = NULL;
    CHECK_STATUS(hl_workspace_read(ws, "m.py", 4, &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    CHECK_STATUS(hl_workspace_apply_lazy(ws, "m.py", 4, snippet, strlen(snippet), NULL, 0,
                                         &outcome, &error),
                 HL_STATUS_OK);
    CHECK(outcome != SENTINEL_PTR(hl_edit_outcome *));
    hl_edit_outcome_free(outcome);
    CHECK(file_io("m.py", NULL, 0, buf, sizeof buf) == sizeof merged - 1);
    CHECK(memcmp(buf, merged, sizeof merged - 1) == 0);
    /* Refused: nothing written. */
    outcome = SENTINEL_PTR(hl_edit_outcome *);
    const char *floating = "# ...\ndef c():\n    pass\n# ...\n";
    CHECK_STATUS(hl_workspace_apply_lazy(ws, "m.py", 4, floating, strlen(floating), "py", 2,
                                         &outcome, &error),
                 HL_STATUS_EDIT_REJECTED);
    CHECK(outcome == SENTINEL_PTR(hl_edit_outcome *));
    hl_error_free(error);
    CHECK(file_io("m.py", NULL, 0, buf, sizeof buf) == sizeof merged - 1);
    CHECK(memcmp(buf, merged, sizeof merged - 1) == 0);
    hl_workspace_free(ws);
    snprintf(buf, sizeof buf, "%s/m.py", root);
    unlink(buf);
    rmdir(root);
}

int main(void) {
    merges_and_whole_files();
    refusals();
    workspace();
    return check_report();
}
