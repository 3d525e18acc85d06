/* The tool operations and content fixes through the C API: hl_str_replace (curly-quote
 * normalisation, every error with its code and exact message, a missing file vs an empty one),
 * hl_insert in both conventions, Roo's hl_insert_content with its validation errors, hl_write
 * and each fix, NULL arguments and invalid UTF-8. Each failing call must leave its
 * out-parameters untouched (they hold sentinels here). */
#include <math.h>
#include <stdint.h>

#include "check.h"

/* A pointer value no failing call may write (never dereferenced). */
#define SENTINEL_PTR(type) ((type)(uintptr_t)0x5e5e)
#define SENTINEL 0x5e5eu

/* UTF-8 of the curly quotes and the replacement character. */
#define LDQUO "\xe2\x80\x9c"
#define RDQUO "\xe2\x80\x9d"
#define RSQUO "\xe2\x80\x99"
#define FFFD "\xef\xbf\xbd"

/* Checks an engine error's status, code and message, then frees it. */
static void check_error(hl_status status, hl_status want, hl_error *error, const char *code,
                        const char *message) {
    const char *text;
    size_t len;
    CHECK_STATUS(status, want);
    CHECK(error != NULL && error != SENTINEL_PTR(hl_error *));
    if (error == NULL || error == SENTINEL_PTR(hl_error *)) {
        return;
    }
    CHECK_STATUS(hl_error_code(error, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, code);
    CHECK_STATUS(hl_error_message(error, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, message);
    hl_error_free(error);
}

/* Runs `call` (which writes the local `error`), then checks the status, code and message. The call
 * is made before `error` is read: C leaves the order of argument evaluation unspecified. */
#define CHECK_ERROR(call, want, code, message)                                               \
    do {                                                                                     \
        error = NULL;                                                                        \
        hl_status status_ = (call);                                                          \
        check_error(status_, (want), error, (code), (message));                              \
    } while (0)

/* hl_str_replace on NUL-terminated texts; `content` NULL is a missing file. */
static hl_status str_replace(const char *content, const char *old_text, const char *new_text,
                             bool replace_all, const char *path, hl_edit **edit,
                             hl_error **error) {
    return hl_str_replace(content, content ? strlen(content) : 0, content != NULL, old_text,
                          strlen(old_text), new_text, strlen(new_text), replace_all, path,
                          path ? strlen(path) : 0, edit, error);
}

/* Checks an edit's content, replacements and first line range, then frees it. */
static void check_edit(hl_edit *edit, const char *content, size_t replacements, size_t start,
                       size_t end) {
    const char *text;
    size_t len, count;
    hl_line_range range;
    CHECK(edit != NULL && edit != SENTINEL_PTR(hl_edit *));
    if (edit == NULL || edit == SENTINEL_PTR(hl_edit *)) {
        return;
    }
    CHECK_STATUS(hl_edit_content(edit, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, content);
    CHECK_STATUS(hl_edit_replacements(edit, &count), HL_STATUS_OK);
    CHECK(count == replacements);
    CHECK_STATUS(hl_edit_first_line_range(edit, &range), HL_STATUS_OK);
    CHECK(range.start == start && range.end == end);
    hl_edit_free(edit);
}

/* Checks that an edit has exactly the one normalisation `name`. */
static void check_one_normalization(const hl_edit *edit, const char *name) {
    const char *text = SENTINEL_PTR(const char *);
    size_t len = SENTINEL, count = SENTINEL;
    CHECK_STATUS(hl_edit_normalization_count(edit, &count), HL_STATUS_OK);
    CHECK(count == 1);
    CHECK_STATUS(hl_edit_normalization_name(edit, 0, &text, &len), HL_STATUS_OK);
    CHECK_TEXT(text, len, name);
    text = SENTINEL_PTR(const char *);
    len = SENTINEL;
    CHECK_STATUS(hl_edit_normalization_name(edit, 1, &text, &len), HL_STATUS_OUT_OF_RANGE);
    CHECK(text == SENTINEL_PTR(const char *) && len == SENTINEL);
}

/* Checks a hl_text's content, then frees it. */
static void check_text(hl_text *text, const char *want) {
    const char *content;
    size_t len;
    CHECK(text != NULL && text != SENTINEL_PTR(hl_text *));
    if (text == NULL || text == SENTINEL_PTR(hl_text *)) {
        return;
    }
    CHECK_STATUS(hl_text_content(text, &content, &len), HL_STATUS_OK);
    CHECK_TEXT(content, len, want);
    hl_text_free(text);
}

static void str_replace_success(void) {
    /* The file has curly quotes, the model typed straight ones: the file's style is kept. */
    static const char file[] = "print(" LDQUO "hi" RDQUO ")\nit" RSQUO "s\n";
    hl_edit *edit = NULL;
    hl_error *error = SENTINEL_PTR(hl_error *);
    CHECK_STATUS(str_replace(file, "print(\"hi\")", "print(\"bye\")", false, "a.py", &edit, &error),
                 HL_STATUS_OK);
    CHECK(error == SENTINEL_PTR(hl_error *));
    check_one_normalization(edit, "curly_quotes");
    check_edit(edit, "print(" LDQUO "bye" RDQUO ")\nit" RSQUO "s\n", 1, 1, 1);

    /* An apostrophe between letters is U+2019. */
    edit = NULL;
    CHECK_STATUS(str_replace(file, "it's", "it's not", false, NULL, &edit, &error), HL_STATUS_OK);
    check_edit(edit, "print(" LDQUO "hi" RDQUO ")\nit" RSQUO "s not\n", 1, 2, 2);

    /* Exact match: no normalisation; replace_all counts non-overlapping matches. */
    edit = NULL;
    CHECK_STATUS(str_replace("aaa\nb\n", "aa", "x", true, NULL, &edit, &error), HL_STATUS_OK);
    size_t count = SENTINEL;
    CHECK_STATUS(hl_edit_normalization_count(edit, &count), HL_STATUS_OK);
    CHECK(count == 0);
    check_edit(edit, "xa\nb\n", 1, 1, 1);

    /* Trailing whitespace is stripped, except in Markdown. */
    edit = NULL;
    CHECK_STATUS(str_replace("a\nb\n", "b", "c  ", false, "x.py", &edit, &error), HL_STATUS_OK);
    check_one_normalization(edit, "trailing_whitespace");
    check_edit(edit, "a\nc\n", 1, 2, 2);
    edit = NULL;
    CHECK_STATUS(str_replace("a\nb\n", "b", "c  ", false, "README.md", &edit, &error),
                 HL_STATUS_OK);
    check_edit(edit, "a\nc  \n", 1, 2, 2);

    /* A missing file and an existing empty one are both created by an empty old text. */
    edit = NULL;
    CHECK_STATUS(str_replace(NULL, "", "new\n", false, NULL, &edit, &error), HL_STATUS_OK);
    check_edit(edit, "new\n", 1, 1, 1);
    edit = NULL;
    CHECK_STATUS(hl_str_replace(NULL, 0, true, NULL, 0, "new\n", 4, false, NULL, 0, &edit, &error),
                 HL_STATUS_OK);
    check_edit(edit, "new\n", 1, 1, 1);
    CHECK(error == SENTINEL_PTR(hl_error *));
}

static void str_replace_errors(void) {
    hl_edit *edit = SENTINEL_PTR(hl_edit *);
    hl_error *error = NULL;
    CHECK_ERROR(str_replace("a\n", "a", "a", false, NULL, &edit, &error), HL_STATUS_EDIT_REJECTED,
                "old_equals_new",
                "No changes to make: old_string and new_string are exactly the same.");
    CHECK_ERROR(str_replace("a\n", "", "b", false, NULL, &edit, &error), HL_STATUS_EDIT_REJECTED,
                "file_exists", "Cannot create new file - file already exists.");
    CHECK_ERROR(str_replace(NULL, "a", "b", false, NULL, &edit, &error), HL_STATUS_EDIT_REJECTED,
                "file_not_found", "File does not exist.");
    /* The same old text on an existing empty file is not found in it (not a missing file). */
    CHECK_ERROR(hl_str_replace("", 0, true, "a", 1, "b", 1, false, NULL, 0, &edit, &error),
                HL_STATUS_EDIT_REJECTED, "not_found",
                "String to replace not found in file.\nString: a");
    CHECK_ERROR(str_replace("abc\n", "x\ny", "z", false, NULL, &edit, &error),
                HL_STATUS_EDIT_REJECTED, "not_found",
                "String to replace not found in file.\nString: x\ny");
    CHECK_ERROR(str_replace("a a a\n", "a", "b", false, NULL, &edit, &error),
                HL_STATUS_EDIT_REJECTED, "multiple_matches",
                "Found 3 matches of the string to replace, but replace_all is false. To replace "
                "all occurrences, set replace_all to true. To replace only one occurrence, please "
                "provide more context to uniquely identify the instance.");
    CHECK(edit == SENTINEL_PTR(hl_edit *));

    /* Missing with content is contradictory: refused, nothing written. */
    error = SENTINEL_PTR(hl_error *);
    CHECK_STATUS(hl_str_replace("x", 1, false, "", 0, "y", 1, false, NULL, 0, &edit, &error),
                 HL_STATUS_OUT_OF_RANGE);
    CHECK(edit == SENTINEL_PTR(hl_edit *) && error == SENTINEL_PTR(hl_error *));
}

static void insert(void) {
    static const char file[] = "a\r\nb\r\n";
    hl_edit *edit = NULL;
    hl_error *error = SENTINEL_PTR(hl_error *);
    /* After line 1 (Anthropic), before line 1 (Roo); inserted lines take the file's \r\n. */
    CHECK_STATUS(hl_insert(file, strlen(file), 1, "x\ny", 3, HL_INSERT_AFTER, &edit, &error),
                 HL_STATUS_OK);
    check_edit(edit, "a\r\nx\r\ny\r\nb\r\n", 1, 2, 3);
    edit = NULL;
    CHECK_STATUS(hl_insert(file, strlen(file), 1, "x", 1, HL_INSERT_BEFORE, &edit, &error),
                 HL_STATUS_OK);
    check_edit(edit, "x\r\na\r\nb\r\n", 1, 1, 1);
    /* 0: at the top after, appended before. */
    edit = NULL;
    CHECK_STATUS(hl_insert(file, strlen(file), 0, "x", 1, HL_INSERT_AFTER, &edit, &error),
                 HL_STATUS_OK);
    check_edit(edit, "x\r\na\r\nb\r\n", 1, 1, 1);
    edit = NULL;
    CHECK_STATUS(hl_insert(file, strlen(file), 0, "x", 1, HL_INSERT_BEFORE, &edit, &error),
                 HL_STATUS_OK);
    check_edit(edit, "a\r\nb\r\nx\r\n", 1, 3, 3);
    CHECK(error == SENTINEL_PTR(hl_error *));

    /* Past the end: an error after, an append before. */
    edit = SENTINEL_PTR(hl_edit *);
    CHECK_ERROR(hl_insert(file, strlen(file), 3, "x", 1, HL_INSERT_AFTER, &edit, &error),
                HL_STATUS_EDIT_REJECTED, "invalid_line",
                "Invalid `insert_line` parameter: 3. It should be within the range of lines of "
                "the file: [0, 2]");
    CHECK_ERROR(hl_insert(file, strlen(file), 1, "x", 1, 7, &edit, &error),
                HL_STATUS_INVALID_OPTION, "invalid_convention",
                "unknown insert convention '7': expected one of before, after");
    CHECK(edit == SENTINEL_PTR(hl_edit *));
    edit = NULL;
    CHECK_STATUS(hl_insert(file, strlen(file), 3, "x", 1, HL_INSERT_BEFORE, &edit, &error),
                 HL_STATUS_OK);
    check_edit(edit, "a\r\nb\r\nx\r\n", 1, 3, 3);
}

static void insert_content(void) {
    hl_text *text = NULL;
    hl_edit_type type = SENTINEL;
    hl_error *error = SENTINEL_PTR(hl_error *);
    /* A missing file is created; line 1 or 0 only. */
    CHECK_STATUS(
        hl_insert_content(NULL, 0, false, "1", 1, "Hello", 5, &text, &type, &error), HL_STATUS_OK);
    CHECK(type == HL_EDIT_TYPE_CREATE);
    check_text(text, "Hello");
    /* An existing file: Roo joins with \n even in a \r\n file. */
    text = NULL;
    CHECK_STATUS(hl_insert_content("a\r\nb", 4, true, " 2abc", 5, "X", 1, &text, &type, &error),
                 HL_STATUS_OK);
    CHECK(type == HL_EDIT_TYPE_MODIFY);
    check_text(text, "a\r\nX\nb");
    /* The native protocol's number; 1.5 behaves like 1; 0 appends. */
    text = NULL;
    type = SENTINEL;
    CHECK_STATUS(
        hl_insert_content_number("a\nb", 3, true, 1.5, "X", 1, &text, &type, &error), HL_STATUS_OK);
    CHECK(type == HL_EDIT_TYPE_MODIFY);
    check_text(text, "X\na\nb");
    text = NULL;
    CHECK_STATUS(
        hl_insert_content_number("a\n", 2, true, 0, "X", 1, &text, &type, &error), HL_STATUS_OK);
    check_text(text, "a\n\nX");
    /* An existing empty file is modified, not created. */
    text = NULL;
    CHECK_STATUS(hl_insert_content("", 0, true, "1", 1, "X", 1, &text, &type, &error),
                 HL_STATUS_OK);
    CHECK(type == HL_EDIT_TYPE_MODIFY);
    check_text(text, "X\n");
    CHECK(error == SENTINEL_PTR(hl_error *));

    /* Roo's validation. */
    static const char bad_line[] = "Invalid line number. Must be a non-negative integer.";
    text = SENTINEL_PTR(hl_text *);
    type = SENTINEL;
    CHECK_ERROR(hl_insert_content("a", 1, true, "abc", 3, "X", 1, &text, &type, &error),
                HL_STATUS_EDIT_REJECTED, "invalid_line_number", bad_line);
    CHECK_ERROR(hl_insert_content("a", 1, true, NULL, 0, "X", 1, &text, &type, &error),
                HL_STATUS_EDIT_REJECTED, "invalid_line_number", bad_line);
    CHECK_ERROR(hl_insert_content_number("a", 1, true, -1, "X", 1, &text, &type, &error),
                HL_STATUS_EDIT_REJECTED, "invalid_line_number", bad_line);
    CHECK_ERROR(hl_insert_content_number("a", 1, true, NAN, "X", 1, &text, &type, &error),
                HL_STATUS_EDIT_REJECTED, "invalid_line_number", bad_line);
    CHECK_ERROR(hl_insert_content(NULL, 0, false, "5", 1, "X", 1, &text, &type, &error),
                HL_STATUS_EDIT_REJECTED, "invalid_line_for_new_file",
                "Cannot insert content at line 5 into a non-existent file. For new files, 'line' "
                "must be 0 (to append) or 1 (to insert at the beginning).");
    error = SENTINEL_PTR(hl_error *);
    CHECK_STATUS(hl_insert_content("x", 1, false, "1", 1, "X", 1, &text, &type, &error),
                 HL_STATUS_OUT_OF_RANGE);
    CHECK(text == SENTINEL_PTR(hl_text *) && type == SENTINEL &&
          error == SENTINEL_PTR(hl_error *));
}

static void write_and_fixes(void) {
    static const char model[] = "```js\nif (a &lt; b) go();" FFFD "\n```";
    hl_text *text = NULL;
    hl_fix fixes = SENTINEL;
    CHECK_STATUS(hl_write(model, strlen(model), "src/a.js", 8, "gpt-4o", 6, &text, &fixes),
                 HL_STATUS_OK);
    check_text(text, "if (a < b) go();");
    CHECK(fixes == (HL_FIX_STRIP_MARKDOWN_FENCES | HL_FIX_MODEL_HTML_ESCAPING |
                    HL_FIX_REMOVE_INVALID_CHARS));
    CHECK(strcmp(hl_fix_name(HL_FIX_STRIP_MARKDOWN_FENCES), "strip_markdown_fences") == 0);
    CHECK(strcmp(hl_fix_name(HL_FIX_MODEL_HTML_ESCAPING), "fix_model_html_escaping") == 0);
    CHECK(strcmp(hl_fix_name(HL_FIX_REMOVE_INVALID_CHARS), "remove_invalid_chars") == 0);
    CHECK(hl_fix_name(0) == NULL);
    CHECK(hl_fix_name(HL_FIX_STRIP_MARKDOWN_FENCES | HL_FIX_REMOVE_INVALID_CHARS) == NULL);

    /* Claude models get only the fence stripping; XML keeps its entities. */
    text = NULL;
    CHECK_STATUS(hl_write(model, strlen(model), NULL, 0, "claude-sonnet-4", 15, &text, &fixes),
                 HL_STATUS_OK);
    check_text(text, "if (a &lt; b) go();" FFFD);
    CHECK(fixes == HL_FIX_STRIP_MARKDOWN_FENCES);
    text = NULL;
    CHECK_STATUS(hl_write("&lt;a/&gt;", 10, "x.XML", 5, NULL, 0, &text, &fixes), HL_STATUS_OK);
    check_text(text, "&lt;a/&gt;");
    CHECK(fixes == 0);

    /* Each fix on its own. */
    text = NULL;
    CHECK_STATUS(hl_strip_markdown_fences("```\nx\n```", 9, &text), HL_STATUS_OK);
    check_text(text, "x");
    text = NULL;
    CHECK_STATUS(hl_fix_model_html_escaping("&lt;&amp;gt;&quot;", 18, &text), HL_STATUS_OK);
    check_text(text, "<&gt;\"");
    text = NULL;
    CHECK_STATUS(hl_remove_invalid_chars("a" FFFD "b", 5, &text), HL_STATUS_OK);
    check_text(text, "ab");
    text = NULL;
    CHECK_STATUS(hl_apply_model_content_fixes("x &gt; 5" FFFD, 11, "gemini-2.0", 10, NULL, 0,
                                              &text),
                 HL_STATUS_OK);
    check_text(text, "x > 5");
    text = NULL;
    CHECK_STATUS(hl_apply_model_content_fixes("x &gt; 5" FFFD, 11, "claude-3", 8, NULL, 0, &text),
                 HL_STATUS_OK);
    check_text(text, "x &gt; 5" FFFD);
    text = NULL;
    CHECK_STATUS(hl_apply_model_content_fixes("&gt;" FFFD, 7, NULL, 0, "a.xml", 5, &text),
                 HL_STATUS_OK);
    check_text(text, "&gt;");
}

static void invalid_utf8(void) {
    static const char bad[] = "a\xff";
    hl_edit *edit = SENTINEL_PTR(hl_edit *);
    hl_text *text = SENTINEL_PTR(hl_text *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    hl_edit_type type = SENTINEL;
    hl_fix fixes = SENTINEL;
    CHECK_STATUS(hl_str_replace(bad, 2, true, "a", 1, "b", 1, false, NULL, 0, &edit, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_str_replace("a", 1, true, bad, 2, "b", 1, false, NULL, 0, &edit, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_str_replace("a", 1, true, "a", 1, bad, 2, false, NULL, 0, &edit, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_str_replace("a", 1, true, "a", 1, "b", 1, false, bad, 2, &edit, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_insert(bad, 2, 0, "x", 1, HL_INSERT_AFTER, &edit, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_insert("a", 1, 0, bad, 2, HL_INSERT_AFTER, &edit, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_insert_content(bad, 2, true, "1", 1, "x", 1, &text, &type, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_insert_content("a", 1, true, bad, 2, "x", 1, &text, &type, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_insert_content_number("a", 1, true, 1, bad, 2, &text, &type, &error),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_write(bad, 2, NULL, 0, NULL, 0, &text, &fixes), HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_write("a", 1, bad, 2, NULL, 0, &text, &fixes), HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_write("a", 1, NULL, 0, bad, 2, &text, &fixes), HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_apply_model_content_fixes(bad, 2, NULL, 0, NULL, 0, &text),
                 HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_strip_markdown_fences(bad, 2, &text), HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_fix_model_html_escaping(bad, 2, &text), HL_STATUS_INVALID_UTF8);
    CHECK_STATUS(hl_remove_invalid_chars(bad, 2, &text), HL_STATUS_INVALID_UTF8);
    CHECK(edit == SENTINEL_PTR(hl_edit *) && text == SENTINEL_PTR(hl_text *));
    CHECK(error == SENTINEL_PTR(hl_error *) && type == SENTINEL && fixes == SENTINEL);
}

static void null_arguments(void) {
    hl_edit *edit = SENTINEL_PTR(hl_edit *);
    hl_text *text = SENTINEL_PTR(hl_text *);
    hl_error *error = SENTINEL_PTR(hl_error *);
    hl_edit_type type = SENTINEL;
    hl_fix fixes = SENTINEL;

    CHECK_STATUS(hl_str_replace(NULL, 1, true, "a", 1, "b", 1, false, NULL, 0, &edit, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_str_replace("a", 1, true, NULL, 1, "b", 1, false, NULL, 0, &edit, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_str_replace("a", 1, true, "a", 1, NULL, 1, false, NULL, 0, &edit, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_str_replace("a", 1, true, "a", 1, "b", 1, false, NULL, 3, &edit, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_str_replace("a", 1, true, "a", 1, "b", 1, false, NULL, 0, NULL, &error),
                 HL_STATUS_NULL_ARGUMENT);
    /* No place for the error: a status, even for a call the engine would reject. */
    CHECK_STATUS(hl_str_replace("a", 1, true, "a", 1, "a", 1, false, NULL, 0, &edit, NULL),
                 HL_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(hl_insert(NULL, 1, 0, "x", 1, HL_INSERT_AFTER, &edit, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert("a", 1, 0, NULL, 1, HL_INSERT_AFTER, &edit, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert("a", 1, 0, "x", 1, HL_INSERT_AFTER, NULL, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert("a", 1, 0, "x", 1, HL_INSERT_AFTER, &edit, NULL),
                 HL_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(hl_insert_content(NULL, 1, true, "1", 1, "x", 1, &text, &type, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content("a", 1, true, NULL, 1, "x", 1, &text, &type, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content("a", 1, true, "1", 1, NULL, 1, &text, &type, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content("a", 1, true, "1", 1, "x", 1, NULL, &type, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content("a", 1, true, "1", 1, "x", 1, &text, NULL, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content("a", 1, true, "1", 1, "x", 1, &text, &type, NULL),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content_number(NULL, 1, true, 1, "x", 1, &text, &type, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content_number("a", 1, true, 1, NULL, 1, &text, &type, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content_number("a", 1, true, 1, "x", 1, NULL, &type, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content_number("a", 1, true, 1, "x", 1, &text, NULL, &error),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_insert_content_number("a", 1, true, 1, "x", 1, &text, &type, NULL),
                 HL_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(hl_write(NULL, 1, NULL, 0, NULL, 0, &text, &fixes), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_write("a", 1, NULL, 1, NULL, 0, &text, &fixes), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_write("a", 1, NULL, 0, NULL, 1, &text, &fixes), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_write("a", 1, NULL, 0, NULL, 0, NULL, &fixes), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_write("a", 1, NULL, 0, NULL, 0, &text, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_apply_model_content_fixes(NULL, 1, NULL, 0, NULL, 0, &text),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_apply_model_content_fixes("a", 1, NULL, 1, NULL, 0, &text),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_apply_model_content_fixes("a", 1, NULL, 0, NULL, 1, &text),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_apply_model_content_fixes("a", 1, NULL, 0, NULL, 0, NULL),
                 HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_strip_markdown_fences(NULL, 1, &text), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_strip_markdown_fences("a", 1, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_fix_model_html_escaping(NULL, 1, &text), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_fix_model_html_escaping("a", 1, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_remove_invalid_chars(NULL, 1, &text), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_remove_invalid_chars("a", 1, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK(edit == SENTINEL_PTR(hl_edit *) && text == SENTINEL_PTR(hl_text *));
    CHECK(error == SENTINEL_PTR(hl_error *) && type == SENTINEL && fixes == SENTINEL);

    /* The accessors. */
    hl_edit *live = NULL;
    hl_error *no_error = NULL;
    CHECK_STATUS(str_replace("a", "a", "b", false, NULL, &live, &no_error), HL_STATUS_OK);
    const char *p = SENTINEL_PTR(const char *);
    size_t n = SENTINEL;
    hl_line_range range = {SENTINEL, SENTINEL};
    CHECK_STATUS(hl_edit_content(NULL, &p, &n), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_content(live, NULL, &n), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_content(live, &p, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_replacements(NULL, &n), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_replacements(live, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_normalization_count(NULL, &n), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_normalization_count(live, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_normalization_name(NULL, 0, &p, &n), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_normalization_name(live, 0, NULL, &n), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_normalization_name(live, 0, &p, NULL), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_first_line_range(NULL, &range), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_edit_first_line_range(live, NULL), HL_STATUS_NULL_ARGUMENT);
    hl_edit_free(live);
    hl_text *owned = NULL;
    CHECK_STATUS(hl_remove_invalid_chars("a", 1, &owned), HL_STATUS_OK);
    CHECK_STATUS(hl_text_content(NULL, &p, &n), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_text_content(owned, NULL, &n), HL_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(hl_text_content(owned, &p, NULL), HL_STATUS_NULL_ARGUMENT);
    hl_text_free(owned);
    CHECK(p == SENTINEL_PTR(const char *) && n == SENTINEL);
    CHECK(range.start == SENTINEL && range.end == SENTINEL);

    /* (NULL, 0) is the empty text; the free functions accept NULL. */
    owned = NULL;
    CHECK_STATUS(hl_strip_markdown_fences(NULL, 0, &owned), HL_STATUS_OK);
    check_text(owned, "");
    hl_edit_free(NULL);
    hl_text_free(NULL);
}

int main(void) {
    str_replace_success();
    str_replace_errors();
    insert();
    insert_content();
    write_and_fixes();
    invalid_utf8();
    null_arguments();
    return check_report();
}
