/* The C harness: includes the generated header, links the static library and calls every
 * export, bad input included. Prints "N passed, N failed" and exits non-zero on failure. */
#include "check.h"

int wf_checks_passed = 0;
int wf_checks_failed = 0;

#define WF_RUN_SUITE(name)                          \
    do {                                            \
        int before_ = wf_checks_failed;             \
        wf_suite_##name();                          \
        printf("suite %-10s %s\n", #name,           \
               wf_checks_failed == before_ ? "ok" : "FAILED"); \
    } while (0);

int main(void) {
    WF_SUITES(WF_RUN_SUITE)
    printf("%d passed, %d failed\n", wf_checks_passed, wf_checks_failed);
    return wf_checks_failed == 0 ? 0 : 1;
}
