/* Apply a model's edit to a file on disk: stream it into a live view, write it through a
 * workspace, let a wrong edit be refused, and undo. Build it against an installed libhunkloom:
 *   cc -std=c11 edit_file.c $(pkg-config --cflags --libs hunkloom) -o edit_file
 * It prints what examples/expected.txt holds. */

#define _DEFAULT_SOURCE /* mkdtemp */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hunkloom.h>

static const char ORIGINAL[] = "def total(items):\r\n    return sum(items)\r\n";
static const char EDITED[] = "def total(items):\r\n    return sum(items, start=0)\r\n";

/* The whole of `path` (NUL-terminated, caller frees), or NULL. */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    char *text = calloc(1, 4096);
    if (text != NULL) (void)fread(text, 1, 4095, f);
    fclose(f);
    return text;
}

/* Reports a failed call (with its error, if it gave one) and exits. */
static void fail(const char *what, hl_error *error) {
    const char *message = "";
    size_t message_len = 0;
    if (error != NULL) hl_error_message(error, &message, &message_len);
    fprintf(stderr, "%s failed: %.*s\n", what, (int)message_len, message);
    exit(1);
}

/* `view` (with `*len` bytes, room for `cap`) with `update`'s splice applied. */
static void splice(char *view, size_t *len, size_t cap, const hl_update *u) {
    size_t tail = *len - u->start - u->removed;
    assert(u->start + u->inserted_len + tail < cap);
    memmove(view + u->start + u->inserted_len, view + u->start + u->removed, tail);
    memcpy(view + u->start, u->inserted, u->inserted_len);
    *len = u->start + u->inserted_len + tail;
}

int main(void) {
    /* A project with a Windows (CRLF) file, and the edit a model streams for it (LF, as models
     * write). */
    char root[] = "/tmp/project-XXXXXX";
    if (mkdtemp(root) == NULL) return 1;
    char file[64];
    snprintf(file, sizeof file, "%s/app.py", root);
    FILE *f = fopen(file, "wb");
    if (f == NULL) return 1;
    fputs(ORIGINAL, f);
    fclose(f);
    const char *diff = "<<<<<<< SEARCH\n    return sum(items)\n=======\n"
                       "    return sum(items, start=0)\n>>>>>>> REPLACE\n";
    size_t diff_len = strlen(diff);

    hl_workspace *ws = NULL;
    hl_error *error = NULL;
    if (hl_workspace_open(root, strlen(root), NULL, &ws, &error) != HL_STATUS_OK) fail("open", error);
    hl_text *original = NULL; /* an edit needs a read first */
    if (hl_workspace_read(ws, "app.py", 6, &original, &error) != HL_STATUS_OK) fail("read", error);
    const char *text;
    size_t text_len;
    hl_text_content(original, &text, &text_len);

    /* The live view starts from the applier's own preview (the original, in the native
     * dialect) and takes each update as a splice, as an editor's document would. */
    hl_applier_options options = {0};
    options.dialect = HL_DIALECT_NATIVE;
    hl_applier *applier = NULL;
    if (hl_applier_new(text, text_len, &options, &applier) != HL_STATUS_OK) fail("new", NULL);
    char view[4096];
    const char *preview;
    size_t view_len, preview_len, chunks = 0;
    hl_applier_preview(applier, &preview, &preview_len);
    memcpy(view, preview, preview_len);
    view_len = preview_len;
    for (size_t at = 0; at < diff_len; at += 16, chunks++) {
        size_t n = diff_len - at < 16 ? diff_len - at : 16;
        hl_update update;
        if (hl_applier_push(applier, diff + at, n, &update) != HL_STATUS_OK) fail("push", NULL);
        splice(view, &view_len, sizeof view, &update);
        hl_applier_preview(applier, &preview, &preview_len);
        assert(view_len == preview_len && memcmp(view, preview, view_len) == 0);
    }
    printf("streamed %zu chunks, the view equal to the applier's preview after each\n", chunks);
    hl_result *result = NULL;
    if (hl_applier_finish(applier, &result, &error) != HL_STATUS_OK) fail("finish", error);
    hl_block block;
    hl_result_block(result, 0, &block);
    printf("block 1: %s at line %zu (%.*s)\n",
           block.status == HL_BLOCK_APPLIED ? "applied" : "failed", block.start.line,
           (int)block.strategy_len, block.strategy);
    hl_result_free(result);
    hl_applier_free(applier);
    hl_text_free(original);

    /* The same edit written to disk: atomically, keeping the file's encoding and line endings. */
    hl_edit_outcome *outcome = NULL;
    if (hl_workspace_apply_diff(ws, "app.py", 6, diff, diff_len, NULL, &outcome, &error) !=
        HL_STATUS_OK) {
        fail("apply_diff", error);
    }
    hl_edit_outcome_free(outcome);
    char *bytes = read_file(file);
    assert(bytes != NULL && strcmp(bytes, EDITED) == 0);
    free(bytes);
    printf("app.py: edit written, CRLF line endings kept\n");

    /* A wrong edit is refused with a stable code and a message the model can act on. */
    const char *wrong =
        "<<<<<<< SEARCH\n    return total(items)\n=======\n    pass\n>>>>>>> REPLACE\n";
    if (hl_workspace_apply_diff(ws, "app.py", 6, wrong, strlen(wrong), NULL, &outcome, &error) !=
        HL_STATUS_OK) {
        const char *code;
        size_t code_len;
        hl_error_code(error, &code, &code_len);
        printf("refused: %.*s\n", (int)code_len, code);
        hl_error_free(error);
    }

    if (hl_workspace_undo(ws, "app.py", 6, &outcome, &error) != HL_STATUS_OK) fail("undo", error);
    hl_edit_outcome_free(outcome);
    bytes = read_file(file);
    assert(bytes != NULL && strcmp(bytes, ORIGINAL) == 0);
    free(bytes);
    printf("undo: app.py has its original bytes again\n");

    hl_workspace_free(ws);
    remove(file);
    remove(root);
    return 0;
}
