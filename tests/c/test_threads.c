/* Many threads on one hl_workspace and on one hl_text_editor at once, as a C host running a
 * model's parallel tool calls does: every edit of its own line lands, of two edits of one line
 * exactly one lands and the other fails with a status and a code, nothing is lost. Runs under
 * valgrind and ASan+UBSan like the other C tests. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define S(s) (s), strlen(s)
#define THREADS 16
#define FUNCTIONS 64

static char root[] = "/tmp/hunkloom-c-threads-XXXXXX";
static char file_path[sizeof root + 16];

/* The file: FUNCTIONS small functions four lines apart, each `return` line unique. */
static void write_module(void) {
    FILE *f = fopen(file_path, "wb");
    for (int i = 0; i < FUNCTIONS; i++) {
        fprintf(f, "def f%d(x):\n    y = x + %d\n    return y * %d\n\n", i, i, i);
    }
    fclose(f);
}

static char *read_all(void) {
    FILE *f = fopen(file_path, "rb");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

struct job {
    hl_workspace *ws;
    hl_text_editor *editor;
    int line;
    int who;
    hl_status status;
    char code[32];
};

static pthread_barrier_t start;

static void *edit_line(void *arg) {
    struct job *job = arg;
    char old_text[64], new_text[64];
    snprintf(old_text, sizeof old_text, "    return y * %d\n", job->line);
    snprintf(new_text, sizeof new_text, "    return y * %d  # t%d\n", job->line, job->who);
    hl_edit_outcome *outcome = NULL;
    hl_error *error = NULL;
    pthread_barrier_wait(&start);
    job->status = hl_workspace_str_replace(job->ws, S("m.py"), S(old_text), S(new_text), false,
                                           &outcome, &error);
    job->code[0] = '\0';
    if (job->status == HL_STATUS_OK) {
        hl_edit_outcome_free(outcome);
    } else if (error != NULL) {
        const char *code = NULL;
        size_t len = 0;
        if (hl_error_code(error, &code, &len) == HL_STATUS_OK && len < sizeof job->code) {
            memcpy(job->code, code, len);
            job->code[len] = '\0';
        }
        hl_error_free(error);
    }
    return NULL;
}

static void *editor_call(void *arg) {
    struct job *job = arg;
    char input[256];
    snprintf(input, sizeof input,
             "{\"command\": \"str_replace\", \"path\": \"%s\", \"old_str\": \"    return y * "
             "%d\\n\", \"new_str\": \"    return y * %d  # e\\n\"}",
             file_path, job->line, job->line);
    hl_text *result = NULL;
    hl_error *error = NULL;
    pthread_barrier_wait(&start);
    job->status = hl_text_editor_call(job->editor, S(input), &result, &error);
    job->code[0] = '\0';
    if (job->status == HL_STATUS_OK) {
        const char *text = NULL;
        size_t len = 0;
        hl_text_content(result, &text, &len);
        if (strstr(text, "\"is_error\":false") == NULL) {
            snprintf(job->code, sizeof job->code, "is_error");
        }
        hl_text_free(result);
    } else {
        hl_error_free(error);
    }
    return NULL;
}

/* Runs `body` on THREADS threads released together. */
static void together(struct job *jobs, void *(*body)(void *)) {
    pthread_t threads[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int t = 0; t < THREADS; t++) pthread_create(&threads[t], NULL, body, &jobs[t]);
    for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&start);
}

static void workspace_threads(void) {
    hl_workspace *ws = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_workspace_open(root, strlen(root), NULL, &ws, &error), HL_STATUS_OK);
    hl_text *text = NULL;

    /* Sixteen threads, sixteen different lines: all land. */
    write_module();
    CHECK_STATUS(hl_workspace_read(ws, S("m.py"), &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    struct job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) jobs[t] = (struct job){.ws = ws, .line = t * 4 + 1, .who = t};
    together(jobs, edit_line);
    int landed = 0;
    for (int t = 0; t < THREADS; t++) landed += jobs[t].status == HL_STATUS_OK;
    CHECK(landed == THREADS);
    char *after = read_all();
    for (int t = 0; t < THREADS; t++) {
        char want[64];
        snprintf(want, sizeof want, "    return y * %d  # t%d\n", t * 4 + 1, t);
        CHECK(strstr(after, want) != NULL);
    }
    free(after);
    printf("parallel c one hl_workspace, %d threads: %d/%d landed\n", THREADS, landed, THREADS);

    /* Eight pairs on eight lines: exactly one of each pair lands. */
    write_module();
    CHECK_STATUS(hl_workspace_read(ws, S("m.py"), &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    for (int t = 0; t < THREADS; t++) jobs[t] = (struct job){.ws = ws, .line = (t / 2) * 8 + 2, .who = t};
    together(jobs, edit_line);
    int pairs = 0;
    for (int p = 0; p < THREADS / 2; p++) {
        struct job *a = &jobs[2 * p], *b = &jobs[2 * p + 1];
        struct job *loser = a->status == HL_STATUS_OK ? b : a;
        bool one = (a->status == HL_STATUS_OK) != (b->status == HL_STATUS_OK);
        bool coded = strcmp(loser->code, "stale_file") == 0 || strcmp(loser->code, "not_found") == 0;
        CHECK(one && coded);
        pairs += one && coded;
    }
    printf("parallel c same-line pairs: %d/%d with exactly one winner\n", pairs, THREADS / 2);
    hl_workspace_free(ws);
}

/* The user's editor: saves a change of its lines USER_ROUNDS times by writing a temporary file
 * and renaming it over the file. A commit that swapped its file in over a save puts the save
 * back within microseconds, so a read missing the last save reads again (2 s at most). */
#define USER_ROUNDS 30
static const int user_lines[] = {1, 21, 41, 61};
static int user_lost;

static void *user_saves(void *arg) {
    (void)arg;
    char temp[sizeof file_path + 8];
    snprintf(temp, sizeof temp, "%s.user", file_path);
    for (int r = 0; r < USER_ROUNDS; r++) {
        char *seen = NULL;
        for (int waited = 0;; waited++) {
            seen = read_all();
            int all = 1;
            for (size_t k = 0; k < sizeof user_lines / sizeof *user_lines; k++) {
                char prev[64];
                if (r == 0) {
                    snprintf(prev, sizeof prev, "    y = x + %d\n", user_lines[k]);
                } else {
                    snprintf(prev, sizeof prev, "    y = x + %d  # user %d\n", user_lines[k], r - 1);
                }
                all &= strstr(seen, prev) != NULL;
            }
            if (all) break;
            free(seen);
            if (waited > 2000) {
                user_lost = 1;
                return NULL;
            }
            nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 1000000}, NULL);
        }
        FILE *out = fopen(temp, "wb");
        /* Rewrite each user line `    y = x + N...` with this round's tag. */
        const char *p = seen;
        while (*p) {
            const char *end = strchr(p, '\n');
            size_t len = end ? (size_t)(end - p + 1) : strlen(p);
            int n = -1, mine = 0;
            if (sscanf(p, "    y = x + %d", &n) == 1) {
                for (size_t k = 0; k < sizeof user_lines / sizeof *user_lines; k++) mine |= n == user_lines[k];
            }
            if (mine) {
                fprintf(out, "    y = x + %d  # user %d\n", n, r);
            } else {
                fwrite(p, 1, len, out);
            }
            p += len;
        }
        fclose(out);
        free(seen);
        rename(temp, file_path);
    }
    return NULL;
}

static void user_and_threads(void) {
    hl_workspace *ws = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_workspace_open(root, strlen(root), NULL, &ws, &error), HL_STATUS_OK);
    write_module();
    hl_text *text = NULL;
    CHECK_STATUS(hl_workspace_read(ws, S("m.py"), &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    pthread_t user;
    pthread_create(&user, NULL, user_saves, NULL);
    struct job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) jobs[t] = (struct job){.ws = ws, .line = t * 4 + 2, .who = t};
    together(jobs, edit_line);
    pthread_join(user, NULL);
    CHECK(!user_lost);
    char *after = read_all();
    for (size_t k = 0; k < sizeof user_lines / sizeof *user_lines; k++) {
        char want[64];
        snprintf(want, sizeof want, "    y = x + %d  # user %d\n", user_lines[k], USER_ROUNDS - 1);
        CHECK(strstr(after, want) != NULL);
    }
    free(after);
    int answered = 0;
    for (int t = 0; t < THREADS; t++) {
        bool fine = jobs[t].status == HL_STATUS_OK || strcmp(jobs[t].code, "stale_file") == 0;
        CHECK(fine);
        answered += fine;
    }
    printf("parallel c agents + user saving: %d/%d edits answered (ok or stale_file), %d/%d user saves "
           "kept, lost: %d\n", answered, THREADS, user_lost ? 0 : USER_ROUNDS, USER_ROUNDS, user_lost);
    hl_workspace_free(ws);
}

static void editor_threads(void) {
    hl_text_editor *editor = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_text_editor_new(root, strlen(root), HL_PROFILE_ANTHROPIC, NULL, &editor, &error),
                 HL_STATUS_OK);
    write_module();
    struct job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) jobs[t] = (struct job){.editor = editor, .line = t * 4 + 3};
    together(jobs, editor_call);
    int answered = 0;
    for (int t = 0; t < THREADS; t++) answered += jobs[t].status == HL_STATUS_OK && jobs[t].code[0] == '\0';
    CHECK(answered == THREADS);
    char *after = read_all();
    for (int t = 0; t < THREADS; t++) {
        char want[64];
        snprintf(want, sizeof want, "    return y * %d  # e\n", t * 4 + 3);
        CHECK(strstr(after, want) != NULL);
    }
    free(after);
    printf("parallel c one hl_text_editor (anthropic), %d threads: %d/%d landed\n", THREADS,
           answered, THREADS);
    hl_text_editor_free(editor);
}

int main(void) {
    if (mkdtemp(root) == NULL) return 2;
    snprintf(file_path, sizeof file_path, "%s/m.py", root);
    workspace_threads();
    editor_threads();
    user_and_threads();
    unlink(file_path);
    rmdir(root);
    return check_report();
}
