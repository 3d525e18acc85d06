/* The text-editor tool through the C API, on a mkdtemp directory: create, view, str_replace and
 * undo_edit as JSON text in and out (native profile, relative paths), a model's mistake as an
 * is_error result, a host's mistake (input that is not a JSON object) refused with code
 * invalid_input and the out-parameter untouched, an unknown profile refused, the anthropic
 * profile's absolute-path rule, and the schema. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

/* A pointer value no failing call may write (never dereferenced). */
#define SENTINEL_PTR(type) ((type)(uintptr_t)0x5e5e)

static char root[] = "/tmp/hunkloom-c-te-XXXXXX";

/* Calls the editor with the JSON text `input`; returns the result's JSON (freed by the caller
 * with free()) or NULL if the call failed. */
static char *call(hl_text_editor *editor, const char *input) {
    hl_text *result = SENTINEL_PTR(hl_text *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    const char *json;
    size_t len;
    char *copy;
    hl_status status = hl_text_editor_call(editor, input, strlen(input), &result, &error);
    CHECK_STATUS(status, HL_STATUS_OK);
    CHECK(error == SENTINEL_PTR(hl_error *));
    if (status != HL_STATUS_OK) {
        return NULL;
    }
    CHECK_STATUS(hl_text_content(result, &json, &len), HL_STATUS_OK);
    CHECK(json[len] == '\0');
    copy = malloc(len + 1);
    if (copy != NULL) {
        memcpy(copy, json, len + 1);
    }
    hl_text_free(result);
    return copy;
}

/* Whether the result JSON `json` holds `part` (the tests look for `"key":value` pairs). */
static int has(const char *json, const char *part) {
    return json != NULL && strstr(json, part) != NULL;
}

/* Checks a refused call: status, the error's code, and the out-parameter kept its sentinel
 * (the call's status is taken first: C leaves the order of argument evaluation open). */
static void check_refused(hl_status status, hl_status want, hl_error *error, int untouched,
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

int main(void) {
    hl_text_editor *editor = NULL;
    hl_error *error = NULL;
    hl_text *out = SENTINEL_PTR(hl_text *);
    hl_text_editor *none = SENTINEL_PTR(hl_text_editor *);
    hl_status status;
    char *json;
    const char *text;
    size_t len;
    FILE *f;
    char buf[64] = {0};

    if (mkdtemp(root) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    CHECK_STATUS(hl_text_editor_new(root, strlen(root), HL_PROFILE_DEFAULT, NULL, &editor, &error),
                 HL_STATUS_OK);
    if (editor == NULL) {
        return check_report();
    }

    json = call(editor, "{\"command\": \"create\", \"path\": \"app.py\", \"file_text\": \"x = 1\\n\"}");
    CHECK(has(json, "\"is_error\":false"));
    CHECK(has(json, "\"new_content\":\"x = 1\\n\""));
    free(json);

    /* native: an edit needs a view first (a result, not a failure). */
    json = call(editor, "{\"command\": \"str_replace\", \"path\": \"app.py\", \"old_str\": \"y\"}");
    CHECK(has(json, "\"is_error\":true"));
    CHECK(has(json, "\"code\":\"not_found\"") || has(json, "\"code\":\"not_read\""));
    free(json);
    json = call(editor, "{\"command\": \"view\", \"path\": \"app.py\"}");
    CHECK(has(json, "1\\tx = 1"));
    free(json);
    json = call(editor,
                "{\"command\": \"str_replace\", \"path\": \"app.py\", \"old_str\": \"x = 1\", "
                "\"new_str\": \"x = 2\"}");
    CHECK(has(json, "\"is_error\":false"));
    CHECK(has(json, "\"old_content\":\"x = 1\\n\""));
    CHECK(has(json, "\"new_content\":\"x = 2\\n\""));
    free(json);
    {
        char *path = malloc(strlen(root) + 8);
        if (path != NULL) {
            snprintf(path, strlen(root) + 8, "%s/app.py", root);
            f = fopen(path, "rb");
            CHECK(f != NULL);
            if (f != NULL) {
                CHECK(fread(buf, 1, sizeof buf - 1, f) == 6);
                CHECK(strcmp(buf, "x = 2\n") == 0);
                fclose(f);
            }
            json = call(editor, "{\"command\": \"undo_edit\", \"path\": \"app.py\"}");
            CHECK(has(json, "\"is_error\":false"));
            free(json);
            f = fopen(path, "rb");
            memset(buf, 0, sizeof buf);
            if (f != NULL) {
                CHECK(fread(buf, 1, sizeof buf - 1, f) == 6);
                CHECK(strcmp(buf, "x = 1\n") == 0);
                fclose(f);
            }
            json = call(editor, "{\"command\": \"create\", \"path\": \"../escape.txt\", "
                                "\"file_text\": \"no\"}");
            CHECK(has(json, "\"code\":\"path_outside_root\""));
            free(json);
            unlink(path);
            free(path);
        }
    }

    /* A host's mistake: the input is not a JSON object. */
    error = SENTINEL_PTR(hl_error *);
    status = hl_text_editor_call(editor, "[1]", 3, &out, &error);
    check_refused(status, HL_STATUS_INVALID_OPTION, error, out == SENTINEL_PTR(hl_text *),
                  "invalid_input");
    error = SENTINEL_PTR(hl_error *);
    status = hl_text_editor_call(editor, "{\"com", 5, &out, &error);
    check_refused(status, HL_STATUS_INVALID_OPTION, error, out == SENTINEL_PTR(hl_text *),
                  "invalid_input");
    error = SENTINEL_PTR(hl_error *);
    CHECK_STATUS(hl_text_editor_call(editor, "\xff", 1, &out, &error), HL_STATUS_INVALID_UTF8);
    CHECK(out == SENTINEL_PTR(hl_text *) && error == SENTINEL_PTR(hl_error *));
    CHECK_STATUS(hl_text_editor_call(NULL, "{}", 2, &out, &error), HL_STATUS_NULL_ARGUMENT);
    hl_text_editor_free(editor);
    hl_text_editor_free(NULL);

    /* An unknown profile; the anthropic profile wants absolute paths. */
    error = SENTINEL_PTR(hl_error *);
    status = hl_text_editor_new(root, strlen(root), 99, NULL, &none, &error);
    check_refused(status, HL_STATUS_INVALID_OPTION, error, none == SENTINEL_PTR(hl_text_editor *),
                  "invalid_profile");
    {
        hl_text_editor_options opts = {0};
        opts.require_read = HL_REQUIRE_READ_NO;
        editor = NULL;
        CHECK_STATUS(hl_text_editor_new(root, strlen(root), HL_PROFILE_ANTHROPIC, &opts, &editor,
                                        &error),
                     HL_STATUS_OK);
        json = editor ? call(editor, "{\"command\": \"view\", \"path\": \"app.py\"}") : NULL;
        CHECK(has(json, "\"code\":\"relative_path\""));
        free(json);
        hl_text_editor_free(editor);
    }

    /* The tool's definition, renamed as Anthropic's newest editor (no undo_edit). */
    CHECK_STATUS(hl_text_editor_schema(HL_PROFILE_ANTHROPIC, "str_replace_based_edit_tool", 27,
                                       &out, &error),
                 HL_STATUS_OK);
    CHECK_STATUS(hl_text_content(out, &text, &len), HL_STATUS_OK);
    CHECK(strstr(text, "\"name\":\"str_replace_based_edit_tool\"") != NULL);
    CHECK(strstr(text, "undo_edit") == NULL);
    hl_text_free(out);

    rmdir(root);
    return check_report();
}
