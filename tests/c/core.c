/* Status strings and version. */
#include "check.h"

void wf_suite_core(void) {
    int s;
    for (s = 0; s <= WF_STATUS_PANIC; ++s) {
        const char *msg = wf_status_str(s);
        CHECK(msg != NULL && strlen(msg) > 0);
    }
    CHECK(strcmp(wf_status_str(-1), "unknown status") == 0);
    CHECK(strcmp(wf_status_str(WF_STATUS_OK), "ok") == 0);
    CHECK(wf_version() != NULL && strchr(wf_version(), '.') != NULL);
}
