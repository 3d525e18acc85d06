/* The file layer and multi-file patches through the C API, on a mkdtemp directory: open, write
 * (create), read, str_replace, an external change refused as stale_file, an unread file refused
 * as not_read, a path outside the root refused, undo, a CRLF file's bytes kept, and
 * hl_apply_patch on two in-memory files (and a path given twice refused). Failing calls must leave their out-parameters
 * untouched (they hold sentinels here). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

/* A pointer value no failing call may write (never dereferenced). */
#define SENTINEL_PTR(type) ((type)(uintptr_t)0x5e5e)

static char root[] = "/tmp/hunkloom-c-XXXXXX";

/* root/name as a new string (freed by the caller). */
static char *in_root(const char *name) {
    size_t n = strlen(root) + 1 + strlen(name) + 1;
    char *path = malloc(n);
    if (path != NULL) {
        snprintf(path, n, "%s/%s", root, name);
    }
    return path;
}

static void put(const char *name, const char *bytes, size_t len) {
    char *path = in_root(name);
    FILE *f = path ? fopen(path, "wb") : NULL;
    CHECK(f != NULL);
    if (f != NULL) {
        CHECK(fwrite(bytes, 1, len, f) == len);
        fclose(f);
    }
    free(path);
}

/* Whether the file's bytes are exactly (bytes, len). */
static int has_bytes(const char *name, const char *bytes, size_t len) {
    char buf[256];
    char *path = in_root(name);
    FILE *f = path ? fopen(path, "rb") : NULL;
    size_t got = 0;
    free(path);
    if (f == NULL) {
        return 0;
    }
    got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return got == len && memcmp(buf, bytes, len) == 0;
}

static void remove_file(const char *name) {
    char *path = in_root(name);
    if (path != NULL) {
        unlink(path);
    }
    free(path);
}

/* Checks a failure: status, that the out-parameter kept its sentinel, and the error's code. */
static void check_refused(hl_status status, hl_status want, int untouched, hl_error *error,
                          const char *code) {
    const char *text;
    size_t len;
    CHECK_STATUS(status, want);
    CHECK(untouched);
    CHECK(error != NULL && error != SENTINEL_PTR(hl_error *));
    if (error == NULL || error == SENTINEL_PTR(hl_error *)) {
        return;
    }
    CHECK_STATUS(hl_error_code(error, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, code);
    hl_error_free(error);
}

/* Checks a successful outcome's kind and content, then frees it. */
static void check_outcome(hl_status status, hl_edit_outcome *outcome, const char *kind,
                          const char *content) {
    const char *text;
    size_t len;
    bool exists = false;
    CHECK_STATUS(status, HL_STATUS_OK);
    if (status != HL_STATUS_OK) {
        return;
    }
    CHECK_STATUS(hl_edit_outcome_kind(outcome, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, kind);
    CHECK_STATUS(hl_edit_outcome_content(outcome, &text, &len, &exists), HL_STATUS_OK);
    CHECK(exists == (content != NULL));
    CHECK_TEXT(text, len, content ? content : "");
    hl_edit_outcome_free(outcome);
}

#define S(lit) (lit), (sizeof(lit) - 1)

static void workspace(void) {
    hl_workspace *ws = SENTINEL_PTR(hl_workspace *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    hl_edit_outcome *outcome = SENTINEL_PTR(hl_edit_outcome *);
    hl_text *text = SENTINEL_PTR(hl_text *);
    const char *p;
    size_t n;
    hl_status status;

    CHECK_STATUS(hl_workspace_open(root, strlen(root), NULL, &ws, &error), HL_STATUS_OK);
    CHECK(error == SENTINEL_PTR(hl_error *));
    if (ws == SENTINEL_PTR(hl_workspace *)) {
        return;
    }
    CHECK_STATUS(hl_workspace_root(ws, &p, &n), HL_STATUS_OK);
    CHECK(n > 0 && p[0] == '/' && p[n] == '\0');

    /* A new file needs no read. */
    status = hl_workspace_write(ws, S("a.txt"), S("one\ntwo\n"), &outcome, &error);
    check_outcome(status, outcome, "create", "one\ntwo\n");
    CHECK(has_bytes("a.txt", S("one\ntwo\n")));

    CHECK_STATUS(hl_workspace_read(ws, S("a.txt"), &text, &error), HL_STATUS_OK);
    CHECK_STATUS(hl_text_content(text, &p, &n), HL_STATUS_OK);
    CHECK_TEXT(p, n, "one\ntwo\n");
    hl_text_free(text);

    status = hl_workspace_str_replace(ws, S("a.txt"), S("two"), S("TWO"), false, &outcome,
                                      &error);
    {
        const hl_edit *edit = NULL;
        size_t replacements = 0;
        CHECK_STATUS(hl_edit_outcome_edit(outcome, &edit), HL_STATUS_OK);
        CHECK(edit != NULL);
        if (edit != NULL) {
            CHECK_STATUS(hl_edit_replacements(edit, &replacements), HL_STATUS_OK);
            CHECK(replacements == 1);
        }
    }
    check_outcome(status, outcome, "update", "one\nTWO\n");
    CHECK(has_bytes("a.txt", S("one\nTWO\n")));

    /* Someone else changes the file: refused until it is read again, nothing written. */
    put("a.txt", S("changed\n"));
    outcome = SENTINEL_PTR(hl_edit_outcome *);
    error = NULL;
    status = hl_workspace_str_replace(ws, S("a.txt"), S("changed"), S("x"), false, &outcome,
                                      &error);
    check_refused(status, HL_STATUS_STALE_FILE, outcome == SENTINEL_PTR(hl_edit_outcome *),
                  error, "stale_file");
    CHECK(has_bytes("a.txt", S("changed\n")));

    /* A file never read. */
    put("b.txt", S("b\n"));
    error = NULL;
    status = hl_workspace_write(ws, S("b.txt"), S("c\n"), &outcome, &error);
    check_refused(status, HL_STATUS_STALE_FILE, outcome == SENTINEL_PTR(hl_edit_outcome *),
                  error, "not_read");
    CHECK(has_bytes("b.txt", S("b\n")));

    /* Paths outside the root. */
    error = NULL;
    text = SENTINEL_PTR(hl_text *);
    status = hl_workspace_read(ws, S("../escape.txt"), &text, &error);
    check_refused(status, HL_STATUS_PATH_REFUSED, text == SENTINEL_PTR(hl_text *), error,
                  "path_outside_root");
    error = NULL;
    status = hl_workspace_write(ws, S("/tmp/hunkloom-c-outside.txt"), S("x"), &outcome,
                                &error);
    check_refused(status, HL_STATUS_PATH_REFUSED, outcome == SENTINEL_PTR(hl_edit_outcome *),
                  error, "path_outside_root");

    /* Invalid UTF-8 in a path: refused before any file access, no error handed over. */
    error = SENTINEL_PTR(hl_error *);
    CHECK_STATUS(hl_workspace_read(ws, S("a\xff.txt"), &text, &error), HL_STATUS_INVALID_UTF8);
    CHECK(text == SENTINEL_PTR(hl_text *) && error == SENTINEL_PTR(hl_error *));
    CHECK_STATUS(hl_workspace_read(NULL, S("a.txt"), &text, &error), HL_STATUS_NULL_ARGUMENT);

    /* Undo: read again, edit, take it back. */
    CHECK_STATUS(hl_workspace_read(ws, S("a.txt"), &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    status = hl_workspace_str_replace(ws, S("a.txt"), S("changed"), S("edited"), false,
                                      &outcome, &error);
    check_outcome(status, outcome, "update", "edited\n");
    status = hl_workspace_undo(ws, S("a.txt"), &outcome, &error);
    check_outcome(status, outcome, "update", "changed\n");
    CHECK(has_bytes("a.txt", S("changed\n")));
    /* The edit before that was overwritten by the external change: not undone. */
    error = NULL;
    outcome = SENTINEL_PTR(hl_edit_outcome *);
    status = hl_workspace_undo(ws, S("a.txt"), &outcome, &error);
    check_refused(status, HL_STATUS_STALE_FILE, outcome == SENTINEL_PTR(hl_edit_outcome *),
                  error, "stale_file");
    CHECK(has_bytes("a.txt", S("changed\n")));
    error = NULL;
    status = hl_workspace_undo(ws, S("b.txt"), &outcome, &error);
    check_refused(status, HL_STATUS_EDIT_REJECTED, outcome == SENTINEL_PTR(hl_edit_outcome *),
                  error, "nothing_to_undo");

    /* A CRLF file without a final newline: the model's LF text matches, the bytes keep CRLF. */
    put("crlf.txt", S("def f():\r\n    return 1\r\n# end"));
    CHECK_STATUS(hl_workspace_read(ws, S("crlf.txt"), &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    status = hl_workspace_str_replace(ws, S("crlf.txt"), S("def f():\n    return 1"),
                                      S("def f():\n    return 2"), false, &outcome, &error);
    CHECK_STATUS(status, HL_STATUS_OK);
    if (status == HL_STATUS_OK) {
        CHECK_STATUS(hl_edit_outcome_encoding(outcome, &p, &n), HL_STATUS_OK);
        CHECK_TEXT(p, n, "utf-8");
        hl_edit_outcome_free(outcome);
    }
    CHECK(has_bytes("crlf.txt", S("def f():\r\n    return 2\r\n# end")));

    /* A diff in the native dialect, with its report. */
    {
        const char *diff = "------- SEARCH\n# end\n=======\n# done\n+++++++ REPLACE\n";
        const hl_result *result = NULL;
        size_t blocks = 0;
        status = hl_workspace_apply_diff(ws, S("crlf.txt"), diff, strlen(diff), NULL, &outcome,
                                         &error);
        CHECK_STATUS(status, HL_STATUS_OK);
        if (status == HL_STATUS_OK) {
            CHECK_STATUS(hl_edit_outcome_result(outcome, &result), HL_STATUS_OK);
            CHECK(result != NULL);
            if (result != NULL) {
                CHECK_STATUS(hl_result_block_count(result, &blocks), HL_STATUS_OK);
                CHECK(blocks == 1);
            }
            hl_edit_outcome_free(outcome);
        }
        CHECK(has_bytes("crlf.txt", S("def f():\r\n    return 2\r\n# done")));
    }

    /* A multi-file patch on disk, all or nothing: the CRLF file keeps its endings. */
    {
        const char *text = "*** Begin Patch\n*** Update File: crlf.txt\n@@ def f():\n"
                           "-    return 2\n+    return 3\n*** Add File: added.txt\n+new\n"
                           "*** End Patch\n";
        const char *bad = "*** Begin Patch\n*** Add File: never.txt\n+x\n"
                          "*** Update File: crlf.txt\n@@\n-nope\n+x\n*** End Patch\n";
        hl_patch_outcome *patched = SENTINEL_PTR(hl_patch_outcome *);
        hl_patched_file file;
        size_t count = 0;
        status = hl_workspace_apply_patch(ws, text, strlen(text), NULL, &patched, &error);
        CHECK_STATUS(status, HL_STATUS_OK);
        if (status == HL_STATUS_OK) {
            CHECK_STATUS(hl_patch_outcome_file_count(patched, &count), HL_STATUS_OK);
            CHECK(count == 2);
            CHECK_STATUS(hl_patch_outcome_file(patched, 1, &file), HL_STATUS_OK);
            CHECK_TEXT(file.path, file.path_len, "added.txt");
            CHECK_TEXT(file.kind, file.kind_len, "create");
            CHECK(!file.has_old_content && file.has_new_content && file.changed);
            hl_patch_outcome_free(patched);
        }
        /* Codex's rule: an updated file ends with a line ending (here the file's own). */
        CHECK(has_bytes("crlf.txt", S("def f():\r\n    return 3\r\n# done\r\n")));
        CHECK(has_bytes("added.txt", S("new\n")));
        patched = SENTINEL_PTR(hl_patch_outcome *);
        error = NULL;
        status = hl_workspace_apply_patch(ws, bad, strlen(bad), NULL, &patched, &error);
        check_refused(status, HL_STATUS_EDIT_REJECTED, patched == SENTINEL_PTR(hl_patch_outcome *),
                      error, "patch_context_not_found");
        CHECK(!has_bytes("never.txt", S("x\n")));
        remove_file("added.txt");
    }

    hl_workspace_free(ws);
    hl_workspace_free(NULL);

    /* A root that does not exist. */
    {
        char *missing = in_root("missing-dir");
        ws = SENTINEL_PTR(hl_workspace *);
        error = NULL;
        status = hl_workspace_open(missing, strlen(missing), NULL, &ws, &error);
        check_refused(status, HL_STATUS_IO_ERROR, ws == SENTINEL_PTR(hl_workspace *), error,
                      "io_error");
        free(missing);
    }
    remove_file("a.txt");
    remove_file("b.txt");
    remove_file("crlf.txt");
}

static void patch(void) {
    const char *text = "*** Begin Patch\n"
                       "*** Update File: src/app.py\n"
                       "@@ def greet():\n"
                       "-    print('hi')\n"
                       "+    print('hello')\n"
                       "*** Delete File: old.txt\n"
                       "*** Add File: new.txt\n"
                       "+fresh\n"
                       "*** End Patch\n";
    hl_patch_file files[2] = {
        {S("src/app.py"), S("def greet():\r\n    print('hi')\r\n")},
        {S("old.txt"), S("bye\n")},
    };
    hl_patch_result *result = SENTINEL_PTR(hl_patch_result *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    hl_patch_file file;
    hl_patch_change change;
    size_t count = 0, hunk = 99;
    uint64_t fuzz = 99;
    const char *p;
    size_t n;

    CHECK_STATUS(hl_apply_patch(text, strlen(text), files, 2, NULL, &result, &error),
                 HL_STATUS_OK);
    CHECK(error == SENTINEL_PTR(hl_error *));
    if (result == SENTINEL_PTR(hl_patch_result *)) {
        return;
    }
    /* Files afterwards, by path: new.txt, src/app.py (CRLF kept). */
    CHECK_STATUS(hl_patch_result_file_count(result, &count), HL_STATUS_OK);
    CHECK(count == 2);
    CHECK_STATUS(hl_patch_result_file(result, 0, &file), HL_STATUS_OK);
    CHECK_TEXT(file.path, file.path_len, "new.txt");
    CHECK_TEXT(file.content, file.content_len, "fresh\n");
    CHECK_STATUS(hl_patch_result_file(result, 1, &file), HL_STATUS_OK);
    CHECK_TEXT(file.path, file.path_len, "src/app.py");
    CHECK_TEXT(file.content, file.content_len, "def greet():\r\n    print('hello')\r\n");
    file.path = NULL;
    CHECK_STATUS(hl_patch_result_file(result, 2, &file), HL_STATUS_OUT_OF_RANGE);
    CHECK(file.path == NULL);
    CHECK_STATUS(hl_patch_result_deleted_count(result, &count), HL_STATUS_OK);
    CHECK(count == 1);
    CHECK_STATUS(hl_patch_result_deleted(result, 0, &p, &n), HL_STATUS_OK);
    CHECK_TEXT(p, n, "old.txt");
    CHECK_STATUS(hl_patch_result_change_count(result, &count), HL_STATUS_OK);
    CHECK(count == 3);
    CHECK_STATUS(hl_patch_result_change(result, 0, &change), HL_STATUS_OK);
    CHECK(change.kind == HL_PATCH_CHANGE_UPDATE && !change.has_move_to);
    CHECK(change.start_line_count == 1 && change.start_lines[0] == 2);
    CHECK_STATUS(hl_patch_result_warning_count(result, &count), HL_STATUS_OK);
    CHECK(count == 0);
    CHECK_STATUS(hl_patch_result_fuzz(result, &fuzz), HL_STATUS_OK);
    CHECK(fuzz == 0);
    CHECK_STATUS(hl_patch_result_failure(result, &hunk, &error), HL_STATUS_OK);
    CHECK(error == NULL && hunk == 0);
    hl_patch_result_free(result);

    /* A hunk that does not fit: refused with the core's code; Cline skips it with a warning. */
    {
        const char *bad = "*** Begin Patch\n*** Update File: old.txt\n@@\n-nope\n+x\n"
                          "*** End Patch\n";
        hl_patch_options options = {0};
        const char *code;
        result = SENTINEL_PTR(hl_patch_result *);
        error = NULL;
        CHECK_STATUS(hl_apply_patch(bad, strlen(bad), files, 2, &options, &result, &error),
                     HL_STATUS_EDIT_REJECTED);
        CHECK(result == SENTINEL_PTR(hl_patch_result *) && error != NULL);
        if (error != NULL) {
            CHECK_STATUS(hl_error_code(error, &code, &n), HL_STATUS_OK);
            CHECK_TEXT(code, n, "patch_context_not_found");
            hl_error_free(error);
        }
        options.dialect = HL_PATCH_DIALECT_CLINE;
        error = SENTINEL_PTR(hl_error *);
        CHECK_STATUS(hl_apply_patch(bad, strlen(bad), files, 2, &options, &result, &error),
                     HL_STATUS_OK);
        CHECK(result != SENTINEL_PTR(hl_patch_result *) && error == SENTINEL_PTR(hl_error *));
        if (result != SENTINEL_PTR(hl_patch_result *)) {
            hl_patch_warning warning;
            CHECK_STATUS(hl_patch_result_warning_count(result, &count), HL_STATUS_OK);
            CHECK(count == 1);
            CHECK_STATUS(hl_patch_result_warning(result, 0, &warning), HL_STATUS_OK);
            CHECK_TEXT(warning.path, warning.path_len, "old.txt");
            CHECK(warning.has_chunk_index && warning.chunk_index == 0);
            hl_patch_result_free(result);
        }
        result = SENTINEL_PTR(hl_patch_result *);
        CHECK_STATUS(hl_apply_patch(bad, strlen(bad), NULL, 2, NULL, &result, &error),
                     HL_STATUS_NULL_ARGUMENT);
        CHECK(result == SENTINEL_PTR(hl_patch_result *) && error == SENTINEL_PTR(hl_error *));
    }

    /* A path given twice in files is refused, not resolved by keeping one of the entries. */
    {
        hl_patch_file twice[3] = {
            {S("src/app.py"), S("def greet():\r\n    print('hi')\r\n")},
            {S("old.txt"), S("bye\n")},
            {S("src/app.py"), S("other\n")},
        };
        const char *code, *message;
        result = SENTINEL_PTR(hl_patch_result *);
        error = NULL;
        CHECK_STATUS(hl_apply_patch(text, strlen(text), twice, 3, NULL, &result, &error),
                     HL_STATUS_EDIT_REJECTED);
        CHECK(result == SENTINEL_PTR(hl_patch_result *) && error != NULL);
        if (error != NULL) {
            CHECK_STATUS(hl_error_code(error, &code, &n), HL_STATUS_OK);
            CHECK_TEXT(code, n, "duplicate_patch_path");
            CHECK_STATUS(hl_error_message(error, &message, &n), HL_STATUS_OK);
            CHECK_TEXT(message, n, "the file src/app.py is given twice in files");
            hl_error_free(error);
        }
    }
}

int main(void) {
    if (mkdtemp(root) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    workspace();
    patch();
    if (rmdir(root) != 0) {
        perror("rmdir");
        check_failed++;
    }
    return check_report();
}
