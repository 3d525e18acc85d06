/* Hostile files and inputs through the C API, on a mkdtemp directory: a FIFO, a device, a
 * directory where a file is expected, a symlink loop, a 0-byte file, a 2 GiB sparse file, an
 * immutable file (chattr +i, skipped with the reason where unsupported), bytes that are not
 * UTF-8 in paths and edits, NUL bytes, a 100 MB single line and 10^6 blocks in one diff. Each
 * call returns a status and a stable code with every file byte-identical, or succeeds; an
 * alarm bounds the whole run (none may hang). Prints `hostile <input> c <op>: <code>` lines, the
 * C rows of RELIABILITY.md's table. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static char root[] = "/tmp/hunkloom-c-hostile-XXXXXX";

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

/* A fingerprint of the tree's small regular files (an FNV-1a hash of names and bytes) and of
 * every other entry's type, size and modification time. */
static uint64_t tree(void) {
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "cd %s && find . -mindepth 1 -printf '%%p %%y %%s %%T@\\n' | sort", root);
    FILE *p = popen(cmd, "r");
    uint64_t h = 1469598103934665603ULL;
    int c;
    while (p != NULL && (c = fgetc(p)) != EOF) {
        h = (h ^ (uint64_t)(unsigned char)c) * 1099511628211ULL;
    }
    if (p != NULL) {
        pclose(p);
    }
    return h;
}

static int sh(const char *cmd) { return system(cmd) == 0; }

/* The code of a failed call (frees the error), or "ok". */
static const char *code_of(hl_status st, hl_error *error, char *buf, size_t cap) {
    if (st == HL_STATUS_OK) {
        return "ok";
    }
    if (error == NULL) {
        snprintf(buf, cap, "%s", hl_status_str((unsigned)st));
        return buf;
    }
    const char *code = NULL;
    size_t len = 0;
    CHECK_STATUS(hl_error_code(error, &code, &len), HL_STATUS_OK);
    snprintf(buf, cap, "%.*s", (int)len, code ? code : "");
    hl_error_free(error);
    return buf;
}

enum { OPS = 6 };
static const char *const OP_NAMES[OPS] = {"read", "str_replace", "apply_diff",
                                          "write", "apply_patch", "undo"};
static const char DIFF[] = "------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n";

/* Runs every workspace op on `name`, checks each code is `want` (undo may also say
 * nothing_to_undo; `read_ok` lets the read succeed) and the tree unchanged after each. */
static void every_op(const char *name, const char *label, const char *want, int read_ok) {
    for (int op = 0; op < OPS; op++) {
        hl_workspace *ws = NULL;
        hl_error *error = NULL;
        CHECK_STATUS(hl_workspace_open(root, strlen(root), NULL, &ws, &error), HL_STATUS_OK);
        if (ws == NULL) {
            return;
        }
        uint64_t before = tree();
        size_t n = strlen(name);
        hl_text *text = NULL;
        hl_edit_outcome *out = NULL;
        hl_patch_outcome *pout = NULL;
        if (op > 0 && op < 4) {
            hl_error *ignored = NULL;
            if (hl_workspace_read(ws, name, n, &text, &ignored) == HL_STATUS_OK) {
                hl_text_free(text);
                text = NULL;
            } else {
                hl_error_free(ignored);
            }
        }
        char patch[512];
        snprintf(patch, sizeof patch,
                 "*** Begin Patch\n*** Update File: %s\n@@\n-x\n+y\n*** End Patch\n", name);
        hl_status st;
        switch (op) {
        case 0: st = hl_workspace_read(ws, name, n, &text, &error); break;
        case 1: st = hl_workspace_str_replace(ws, name, n, "x", 1, "y", 1, false, &out, &error); break;
        case 2: st = hl_workspace_apply_diff(ws, name, n, DIFF, strlen(DIFF), NULL, &out, &error); break;
        case 3: st = hl_workspace_write(ws, name, n, "new\n", 4, &out, &error); break;
        case 4: st = hl_workspace_apply_patch(ws, patch, strlen(patch), NULL, &pout, &error); break;
        default: st = hl_workspace_undo(ws, name, n, &out, &error); break;
        }
        hl_text_free(text);
        hl_edit_outcome_free(out);
        hl_patch_outcome_free(pout);
        char buf[64];
        const char *code = code_of(st, error, buf, sizeof buf);
        int ok = strcmp(code, want) == 0 || (op == 5 && strcmp(code, "nothing_to_undo") == 0) ||
                 (op == 0 && read_ok && strcmp(code, "ok") == 0);
        if (!ok) {
            fprintf(stderr, "%s %s: %s, want %s\n", label, OP_NAMES[op], code, want);
        }
        CHECK(ok);
        if (st != HL_STATUS_OK) {
            CHECK(tree() == before);
        }
        printf("hostile %s c %s: %s, %s\n", label, OP_NAMES[op], code,
               st != HL_STATUS_OK ? "files unchanged" : op == 0 ? "read" : "applied");
        hl_workspace_free(ws);
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A file larger than the memory the process may have: in a child whose address space is
 * limited to what it uses plus 128 MB, reading a 512 MB (sparse) file returns
 * HL_STATUS_OUT_OF_MEMORY with code out_of_memory, and the child goes on to read a small file. */
static void out_of_memory(void) {
    hl_workspace_options options = {0};
    hl_workspace *ws = NULL;
    hl_error *error = NULL;
    hl_text *text = NULL;
    char path[600];
    snprintf(path, sizeof path, "%s/huge.bin", root);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)512 << 20) == 0);
    close(fd);
    put("tiny.txt", "a\n", 2);
    options.max_file_size = (uint64_t)1 << 30;
    CHECK_STATUS(hl_workspace_open(root, strlen(root), &options, &ws, &error), HL_STATUS_OK);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        FILE *status = fopen("/proc/self/status", "r");
        char line[256];
        long vm_kib = 0;
        while (status != NULL && fgets(line, sizeof line, status) != NULL) {
            if (strncmp(line, "VmSize:", 7) == 0) {
                vm_kib = strtol(line + 7, NULL, 10);
            }
        }
        if (status != NULL) {
            fclose(status);
        }
        struct rlimit limit;
        limit.rlim_cur = limit.rlim_max = ((rlim_t)vm_kib + 128 * 1024) * 1024;
        if (vm_kib == 0 || setrlimit(RLIMIT_AS, &limit) != 0) {
            _exit(2);
        }
        hl_status st = hl_workspace_read(ws, "huge.bin", 8, &text, &error);
        const char *code_text = NULL;
        size_t code_len = 0;
        int ok = st == HL_STATUS_OUT_OF_MEMORY && error != NULL &&
                 hl_error_code(error, &code_text, &code_len) == HL_STATUS_OK &&
                 code_len == 13 && memcmp(code_text, "out_of_memory", 13) == 0;
        hl_error_free(error);
        error = NULL;
        ok = ok && hl_workspace_read(ws, "tiny.txt", 8, &text, &error) == HL_STATUS_OK;
        hl_text_free(text);
        _exit(ok ? 0 : 1);
    }
    int code = -1;
    CHECK(child > 0 && waitpid(child, &code, 0) == child);
    CHECK(WIFEXITED(code) && WEXITSTATUS(code) == 0);
    printf("hostile 512MB-file-under-a-memory-limit c read: out_of_memory, went on\n");
    hl_workspace_free(ws);
    unlink(path);
}

/* A 100 MB line edited at its end, and 10^6 blocks in one diff. */
static void big_inputs(void) {
    size_t size = (size_t)100 << 20;
    char *line = malloc(size + 3);
    CHECK(line != NULL);
    if (line == NULL) {
        return;
    }
    memset(line, 'a', size);
    memcpy(line + size, "END", 3);
    put("big.txt", line, size + 3);
    free(line);
    hl_workspace *ws = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_workspace_open(root, strlen(root), NULL, &ws, &error), HL_STATUS_OK);
    double t = now();
    hl_text *text = NULL;
    hl_edit_outcome *out = NULL;
    CHECK_STATUS(hl_workspace_read(ws, "big.txt", 7, &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    CHECK_STATUS(hl_workspace_str_replace(ws, "big.txt", 7, "aEND", 4, "aFIN", 4, false, &out, &error),
                 HL_STATUS_OK);
    hl_edit_outcome_free(out);
    printf("hostile 100MB-line c str_replace: ok, applied in %.1f s\n", now() - t);
    char *path = in_root("big.txt");
    FILE *f = fopen(path, "rb");
    char tail[5] = {0};
    CHECK(f != NULL && fseek(f, -4, SEEK_END) == 0 && fread(tail, 1, 4, f) == 4);
    CHECK(strcmp(tail, "aFIN") == 0);
    if (f != NULL) {
        fclose(f);
    }
    unlink(path);
    free(path);

    size_t blocks = 1000000;
    size_t cap_o = blocks * 32, cap_d = blocks * 96, no = 0, nd = 0;
    char *original = malloc(cap_o), *diff = malloc(cap_d);
    CHECK(original != NULL && diff != NULL);
    if (original == NULL || diff == NULL) {
        free(original);
        free(diff);
        hl_workspace_free(ws);
        return;
    }
    for (size_t i = 0; i < blocks; i++) {
        no += (size_t)snprintf(original + no, cap_o - no, "let v%zu = f(%zu);\n", i, i);
        nd += (size_t)snprintf(diff + nd, cap_d - nd,
                               "------- SEARCH\nlet v%zu = f(%zu);\n=======\nlet v%zu = g(%zu);\n"
                               "+++++++ REPLACE\n",
                               i, i, i, i);
    }
    put("m.rs", original, no);
    t = now();
    CHECK_STATUS(hl_workspace_read(ws, "m.rs", 4, &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    out = NULL;
    CHECK_STATUS(hl_workspace_apply_diff(ws, "m.rs", 4, diff, nd, NULL, &out, &error), HL_STATUS_OK);
    hl_edit_outcome_free(out);
    printf("hostile 10^6-blocks c apply_diff: ok, applied in %.1f s\n", now() - t);
    CHECK_STATUS(hl_workspace_read(ws, "m.rs", 4, &text, &error), HL_STATUS_OK);
    const char *s = NULL;
    size_t len = 0;
    if (text != NULL && hl_text_content(text, &s, &len) == HL_STATUS_OK) {
        CHECK(len == no && strstr(s, "f(") == NULL && strstr(s, "let v999999 = g(999999);") != NULL);
    }
    hl_text_free(text);
    free(original);
    free(diff);
    hl_workspace_free(ws);
}

int main(void) {
    /* Nothing may hang: the whole program is bounded. */
    alarm(300);
    if (mkdtemp(root) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkfifo %s/fifo && mkdir %s/sub && ln -s loop2 %s/loop1 && "
                              "ln -s loop1 %s/loop2", root, root, root, root);
    CHECK(sh(cmd));
    every_op("fifo", "fifo", "io_error", 0);
    every_op("sub", "directory", "io_error", 0);
    every_op("loop1", "symlink-loop", "io_error", 0);
    snprintf(cmd, sizeof cmd, "mknod %s/null c 1 3 2>/dev/null", root);
    if (sh(cmd)) {
        every_op("null", "device", "io_error", 0);
    } else {
        printf("hostile device c: skipped (mknod needs root)\n");
    }
    put("empty", "", 0);
    snprintf(cmd, sizeof cmd, "truncate -s 2G %s/sparse", root);
    CHECK(sh(cmd));
    double t = now();
    every_op("sparse", "sparse-2GiB", "file_too_large", 0);
    CHECK(now() - t < 10);
    put("binary.txt", "caf\xe9\0 x\n", 8);
    every_op("binary.txt", "invalid-UTF-8-binary-content", "unsupported_encoding", 0);
    put("a.txt", "x\n", 2);
    snprintf(cmd, sizeof cmd, "chattr +i %s/a.txt 2>/dev/null", root);
    if (sh(cmd)) {
        every_op("a.txt", "immutable-file", "io_error", 1);
        snprintf(cmd, sizeof cmd, "chattr -i %s/a.txt", root);
        CHECK(sh(cmd));
    } else {
        printf("hostile immutable-file c: skipped (chattr +i is not supported here)\n");
    }

    /* Bytes that are not UTF-8 in a path or an edit: HL_STATUS_INVALID_UTF8, nothing read. */
    hl_workspace *ws = NULL;
    hl_error *error = NULL;
    CHECK_STATUS(hl_workspace_open(root, strlen(root), NULL, &ws, &error), HL_STATUS_OK);
    uint64_t before = tree();
    hl_text *text = NULL;
    hl_edit_outcome *out = NULL;
    CHECK_STATUS(hl_workspace_read(ws, "bad-\xff", 5, &text, &error), HL_STATUS_INVALID_UTF8);
    printf("hostile non-UTF-8-path c read: HL_STATUS_INVALID_UTF8, files unchanged\n");
    CHECK_STATUS(hl_workspace_read(ws, "a.txt", 5, &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    static const char bad_diff[] = "------- SEARCH\nx\xff\n=======\ny\n+++++++ REPLACE\n";
    CHECK_STATUS(hl_workspace_apply_diff(ws, "a.txt", 5, bad_diff, sizeof bad_diff - 1, NULL, &out, &error),
                 HL_STATUS_INVALID_UTF8);
    printf("hostile invalid-UTF-8-diff c apply_diff: HL_STATUS_INVALID_UTF8, files unchanged\n");
    /* A NUL inside a path (given with its length): refused before any system call. */
    hl_status st = hl_workspace_read(ws, "a\0b", 3, &text, &error);
    char buf[64];
    const char *code = code_of(st, st == HL_STATUS_OK ? NULL : error, buf, sizeof buf);
    printf("hostile NUL-in-path c read: %s, files unchanged\n", code);
    CHECK(strcmp(code, "io_error") == 0);
    CHECK(tree() == before);
    /* NUL bytes in text are text. */
    put("nul.txt", "a\0b\n", 4);
    CHECK_STATUS(hl_workspace_read(ws, "nul.txt", 7, &text, &error), HL_STATUS_OK);
    hl_text_free(text);
    CHECK_STATUS(hl_workspace_str_replace(ws, "nul.txt", 7, "a\0b", 3, "c\0d", 3, false, &out, &error),
                 HL_STATUS_OK);
    hl_edit_outcome_free(out);
    printf("hostile NUL-in-content c str_replace: ok, applied\n");
    hl_workspace_free(ws);

    if (getenv("HUNKLOOM_SKIP_BIG") == NULL) {
        big_inputs();
        out_of_memory();
    } else {
        printf("hostile 100MB-line, 10^6-blocks c: skipped here (HUNKLOOM_SKIP_BIG: under valgrind or "
               "ASan; make test-c runs them natively)\n");
    }

    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK(sh(cmd));
    return check_report();
}
