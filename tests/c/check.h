/* Tiny test helpers shared by the C tests: CHECK counts, and check_report() prints
 * "N passed, M failed" and gives the exit status. */
#ifndef HUNKLOOM_TEST_CHECK_H
#define HUNKLOOM_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

#include "hunkloom.h"

static int check_passed;
static int check_failed;

/* Records one check; on failure prints where and what. */
#define CHECK(cond)                                                                          \
    do {                                                                                     \
        if (cond) {                                                                          \
            check_passed++;                                                                  \
        } else {                                                                             \
            check_failed++;                                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);         \
        }                                                                                    \
    } while (0)

/* Checks that `call` returns status `want`, printing both names if not. */
#define CHECK_STATUS(call, want)                                                             \
    do {                                                                                     \
        hl_status got_ = (call);                                                             \
        if (got_ == (want)) {                                                                \
            check_passed++;                                                                  \
        } else {                                                                             \
            check_failed++;                                                                  \
            fprintf(stderr, "%s:%d: %s\n  returned %s (%d), want %s (%d)\n", __FILE__,       \
                    __LINE__, #call, hl_status_str((unsigned)got_), (int)got_,               \
                    hl_status_str((unsigned)(want)), (int)(want));                           \
        }                                                                                    \
    } while (0)

/* Checks that the library text (ptr, len) equals the C string `want` and is NUL-terminated. */
#define CHECK_TEXT(ptr, len, want)                                                           \
    do {                                                                                     \
        const char *p_ = (ptr);                                                              \
        size_t n_ = (len);                                                                   \
        const char *w_ = (want);                                                             \
        if (p_ != NULL && n_ == strlen(w_) && memcmp(p_, w_, n_) == 0 && p_[n_] == '\0') {   \
            check_passed++;                                                                  \
        } else {                                                                             \
            check_failed++;                                                                  \
            fprintf(stderr, "%s:%d: text %s\n  is   \"%.*s\"\n  want \"%s\"\n", __FILE__,    \
                    __LINE__, #ptr, p_ ? (int)n_ : 0, p_ ? p_ : "", w_);                     \
        }                                                                                    \
    } while (0)

/* Prints the summary line; returns the process exit status. */
static inline int check_report(void) {
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed == 0 ? 0 : 1;
}

#endif
