/* A text-editor call streamed through the C API (hl_text_editor_stream_*), on a mkdtemp
 * directory: a create whose JSON arrives one byte at a time (so UTF-8 characters and \u escapes
 * are cut), the updates rebuilding the preview on the host's side, the command and path once
 * known, nothing written before finish, the result JSON, a stream that outlives its editor, JSON
 * that is not an object answered as an error result, the statuses (NULL arguments, an unknown
 * text, already finished), an editor with HL_DURABILITY_NONE, and toolset streams
 * (hl_toolset_stream_new): the anthropic set's editor tool previewed and freed after its toolset,
 * a native apply_diff call previewed and run at finish, an unknown tool's result. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static char root[] = "/tmp/hunkloom-c-es-XXXXXX";

/* Finishes `stream`; returns the result JSON (freed by the caller with free()) or NULL. */
static char *finish(hl_edit_stream *stream) {
    hl_text *result = NULL;
    hl_error *error = NULL;
    const char *json;
    size_t len;
    char *copy = NULL;
    CHECK_STATUS(hl_text_editor_stream_finish(stream, &result, &error), HL_STATUS_OK);
    if (result == NULL) {
        return NULL;
    }
    CHECK_STATUS(hl_text_content(result, &json, &len), HL_STATUS_OK);
    copy = malloc(len + 1);
    if (copy != NULL) {
        memcpy(copy, json, len + 1);
    }
    hl_text_free(result);
    return copy;
}

int main(void) {
    /* file_text "caf\u00e9 \u2603" as UTF-8 and one escape, then a newline escape. */
    const char *input = "{\"command\": \"create\", \"path\": \"new.txt\", "
                        "\"file_text\": \"caf\xc3\xa9 \\u2603\\nend\"}";
    const char *want = "caf\xc3\xa9 \xe2\x98\x83\nend";
    hl_text_editor *editor = NULL;
    hl_edit_stream *stream = NULL;
    hl_error *error = NULL;
    hl_update update;
    char shown[256] = {0};
    size_t shown_len = 0;
    const char *text;
    size_t len, i;
    char *json;

    if (mkdtemp(root) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    CHECK_STATUS(hl_text_editor_new(root, strlen(root), HL_PROFILE_DEFAULT, NULL, &editor, &error),
                 HL_STATUS_OK);
    if (editor == NULL) {
        return check_report();
    }
    CHECK_STATUS(hl_text_editor_stream_new(editor, &stream), HL_STATUS_OK);
    /* One byte at a time; the host follows the preview with each update. */
    for (i = 0; i < strlen(input); i++) {
        CHECK_STATUS(hl_text_editor_stream_push(stream, input + i, 1, &update), HL_STATUS_OK);
        CHECK(update.start + update.removed <= shown_len);
        CHECK(shown_len - update.removed + update.inserted_len < sizeof shown);
        memmove(shown + update.start + update.inserted_len, shown + update.start + update.removed,
                shown_len - update.start - update.removed);
        memcpy(shown + update.start, update.inserted, update.inserted_len);
        shown_len = shown_len - update.removed + update.inserted_len;
    }
    CHECK_STATUS(hl_text_editor_stream_text(stream, HL_STREAM_PREVIEW, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, want);
    CHECK(shown_len == strlen(want) && memcmp(shown, want, shown_len) == 0);
    CHECK_STATUS(hl_text_editor_stream_text(stream, HL_STREAM_COMMAND, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, "create");
    CHECK_STATUS(hl_text_editor_stream_text(stream, HL_STREAM_PATH, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, "new.txt");
    CHECK_STATUS(hl_text_editor_stream_text(stream, 7, &text, &len), HL_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(hl_text_editor_stream_text(stream, HL_STREAM_PREVIEW, NULL, &len),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_text_editor_stream_push(stream, NULL, 1, &update), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_text_editor_stream_push(stream, "\xff", 1, &update), HL_STATUS_INVALID_UTF8);

    /* Nothing is written before finish; the stream keeps the editor alive once it is freed. */
    {
        char path[64];
        snprintf(path, sizeof path, "%s/new.txt", root);
        CHECK(access(path, F_OK) != 0);
        hl_text_editor_free(editor);
        editor = NULL;
        json = finish(stream);
        CHECK(json != NULL && strstr(json, "\"is_error\":false") != NULL);
        CHECK(json != NULL && strstr(json, "File created successfully") != NULL);
        free(json);
        CHECK(access(path, F_OK) == 0);
        unlink(path);
    }
    CHECK_STATUS(hl_text_editor_stream_push(stream, "x", 1, &update), HL_STATUS_ALREADY_FINISHED);
    {
        hl_text *result = NULL;
        error = NULL;
        CHECK_STATUS(hl_text_editor_stream_finish(stream, &result, &error),
                     HL_STATUS_ALREADY_FINISHED);
        CHECK(result == NULL && error != NULL);
        hl_error_free(error);
    }
    hl_text_editor_stream_free(stream);

    /* JSON that is not a complete object: an error result, never a failure. */
    CHECK_STATUS(hl_text_editor_new(root, strlen(root), HL_PROFILE_ANTHROPIC, NULL, &editor, &error),
                 HL_STATUS_OK);
    CHECK_STATUS(hl_text_editor_stream_new(editor, &stream), HL_STATUS_OK);
    CHECK_STATUS(hl_text_editor_stream_push(stream, "{\"command\": \"vi", 15, &update),
                 HL_STATUS_OK);
    CHECK_STATUS(hl_text_editor_stream_text(stream, HL_STREAM_PREVIEW, &text, &len), HL_STATUS_OK);
    CHECK(text == NULL && len == 0);
    json = finish(stream);
    CHECK(json != NULL && strstr(json, "\"code\":\"invalid_arguments\"") != NULL);
    CHECK(json != NULL && strstr(json, "\"is_error\":true") != NULL);
    free(json);
    hl_text_editor_stream_free(stream);
    CHECK_STATUS(hl_text_editor_stream_new(NULL, &stream), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_text_editor_stream_new(editor, NULL), HL_STATUS_NULL_ARGUMENT);
    hl_text_editor_stream_free(NULL);
    hl_text_editor_free(editor);

    /* Durability: HL_DURABILITY_NONE writes without flushing; an unknown value is refused. */
    {
        hl_text_editor_options opts = {0};
        opts.durability = HL_DURABILITY_NONE;
        editor = NULL;
        CHECK_STATUS(hl_text_editor_new(root, strlen(root), HL_PROFILE_NATIVE, &opts, &editor, &error),
                     HL_STATUS_OK);
        CHECK_STATUS(hl_text_editor_stream_new(editor, &stream), HL_STATUS_OK);
        CHECK_STATUS(hl_text_editor_stream_push(stream, input, strlen(input), &update), HL_STATUS_OK);
        json = finish(stream);
        CHECK(json != NULL && strstr(json, "\"is_error\":false") != NULL);
        free(json);
        hl_text_editor_stream_free(stream);
        hl_text_editor_free(editor);
        {
            char path[64];
            snprintf(path, sizeof path, "%s/new.txt", root);
            CHECK(unlink(path) == 0);
        }
        opts.durability = 7;
        editor = NULL;
        CHECK_STATUS(hl_text_editor_new(root, strlen(root), HL_PROFILE_NATIVE, &opts, &editor, &error),
                     HL_STATUS_OUT_OF_RANGE);
        CHECK(editor == NULL);
    }

    /* Toolset streams: the same functions push, read and finish them. */
    {
        hl_toolset *toolset = NULL;
        char path[64], call[256];
        FILE *f;
        snprintf(path, sizeof path, "%s/a.py", root);
        f = fopen(path, "w");
        CHECK(f != NULL);
        if (f != NULL) {
            fputs("x = 1\ny = 2\n", f);
            fclose(f);
        }
        CHECK_STATUS(hl_toolset_new(root, strlen(root), "anthropic", 9, NULL, &toolset, &error),
                     HL_STATUS_OK);
        CHECK_STATUS(hl_toolset_stream_new(toolset, "str_replace_based_edit_tool", 27, &stream),
                     HL_STATUS_OK);
        snprintf(call, sizeof call,
                 "{\"command\": \"str_replace\", \"path\": \"%s\", \"old_str\": \"y = 2\", "
                 "\"new_str\": \"y = 3\"}",
                 path);
        for (i = 0; i < strlen(call); i += 5) {
            size_t n = strlen(call) - i < 5 ? strlen(call) - i : 5;
            CHECK_STATUS(hl_text_editor_stream_push(stream, call + i, n, &update), HL_STATUS_OK);
        }
        CHECK_STATUS(hl_text_editor_stream_text(stream, HL_STREAM_PREVIEW, &text, &len),
                     HL_STATUS_OK);
        CHECK_TEXT(text, len, "x = 1\ny = 3\n");
        hl_toolset_free(toolset);
        json = finish(stream);
        CHECK(json != NULL && strstr(json, "\"is_error\":false") != NULL);
        free(json);
        hl_text_editor_stream_free(stream);

        toolset = NULL;
        CHECK_STATUS(hl_toolset_new(root, strlen(root), NULL, 0, NULL, &toolset, &error),
                     HL_STATUS_OK);
        {
            /* The native set asks for a read before an edit. */
            hl_text *read = NULL;
            CHECK_STATUS(hl_toolset_call(toolset, "read_file", 9, "{\"path\": \"a.py\"}", 16,
                                         &read, &error),
                         HL_STATUS_OK);
            hl_text_free(read);
        }
        CHECK_STATUS(hl_toolset_stream_new(toolset, "apply_diff", 10, &stream), HL_STATUS_OK);
        {
            const char *diff = "{\"path\": \"a.py\", \"diff\": \"<<<<<<< SEARCH\\nx = 1\\n"
                               "=======\\nx = 0\\n>>>>>>> REPLACE\\n\"}";
            CHECK_STATUS(hl_text_editor_stream_push(stream, diff, strlen(diff), &update),
                         HL_STATUS_OK);
        }
        /* The native apply_diff previews what it will write. */
        CHECK_STATUS(hl_text_editor_stream_text(stream, HL_STREAM_PREVIEW, &text, &len),
                     HL_STATUS_OK);
        CHECK_TEXT(text, len, "x = 0\ny = 3\n");
        json = finish(stream);
        CHECK(json != NULL && strstr(json, "\"is_error\":false") != NULL);
        free(json);
        hl_text_editor_stream_free(stream);
        CHECK_STATUS(hl_toolset_stream_new(toolset, "no_such_tool", 12, &stream), HL_STATUS_OK);
        CHECK_STATUS(hl_text_editor_stream_push(stream, "{}", 2, &update), HL_STATUS_OK);
        json = finish(stream);
        CHECK(json != NULL && strstr(json, "\"code\":\"unknown_tool\"") != NULL);
        free(json);
        hl_text_editor_stream_free(stream);
        CHECK_STATUS(hl_toolset_stream_new(toolset, "\xff", 1, &stream), HL_STATUS_INVALID_UTF8);
        CHECK_STATUS(hl_toolset_stream_new(NULL, "a", 1, &stream), HL_STATUS_NULL_ARGUMENT);
        hl_toolset_free(toolset);
        f = fopen(path, "r");
        CHECK(f != NULL);
        if (f != NULL) {
            char got[32] = {0};
            CHECK(fread(got, 1, sizeof got - 1, f) > 0);
            CHECK(strcmp(got, "x = 0\ny = 3\n") == 0);
            fclose(f);
        }
        unlink(path);
    }
    rmdir(root);
    return check_report();
}
