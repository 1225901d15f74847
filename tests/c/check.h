/* Minimal check macros for the C harness: every CHECK counts as one passed or failed check. */
#ifndef WF_CHECK_H
#define WF_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wayfarer.h"

extern int wf_checks_passed;
extern int wf_checks_failed;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            wf_checks_passed++;                                                      \
        } else {                                                                     \
            wf_checks_failed++;                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

/* The call must return `expected`; prints both statuses' names when it does not. */
#define CHECK_STATUS(call, expected)                                                    \
    do {                                                                                \
        WfStatus got_ = (call);                                                         \
        if (got_ == (expected)) {                                                       \
            wf_checks_passed++;                                                         \
        } else {                                                                        \
            wf_checks_failed++;                                                         \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected %s\n", __FILE__,      \
                    __LINE__, #call, (int)got_, wf_status_str(got_), #expected);        \
        }                                                                               \
    } while (0)

#define CHECK_NEAR(a, b, tol) CHECK(fabs((double)(a) - (double)(b)) <= (double)(tol))

/* The test suites, one per source file (tests/c/<name>.c defines wf_suite_<name>). */
#define WF_SUITES(X) X(core) X(curve) X(timeline) X(crowd)

#define WF_DECLARE_SUITE(name) void wf_suite_##name(void);
WF_SUITES(WF_DECLARE_SUITE)

#endif
