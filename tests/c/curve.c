/* Curves: Hermite segments, splines, Catmull-Rom, polylines, Bézier, arc length. */
#include "check.h"

static void hermite_segment(void) {
    const float p0[3] = {0, 0, 0}, p1[3] = {4, 0, 2}, m0[3] = {1, 0, 0}, m1[3] = {0, 0, 3};
    const float ts[3] = {0.0f, 0.5f, 1.0f};
    float pos[9], der[9];
    float sentinel[9];
    int i;
    CHECK_STATUS(wf_hermite_segment_sample(p0, p1, m0, m1, ts, 3, pos, 3, der, 3), WF_STATUS_OK);
    for (i = 0; i < 3; ++i) {
        CHECK(pos[i] == p0[i]);
        CHECK(pos[6 + i] == p1[i]);
        CHECK(der[i] == m0[i]);
        CHECK(der[6 + i] == m1[i]);
    }
    /* Bad input: a clear status and nothing written. */
    for (i = 0; i < 9; ++i) sentinel[i] = -7.0f;
    CHECK_STATUS(wf_hermite_segment_sample(NULL, p1, m0, m1, ts, 3, sentinel, 3, NULL, 0),
                 WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_hermite_segment_sample(p0, p1, m0, m1, ts, 3, sentinel, 2, NULL, 0),
                 WF_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(wf_hermite_segment_sample(p0, p1, m0, m1, NULL, 3, sentinel, 3, NULL, 0),
                 WF_STATUS_NULL_POINTER);
    {
        const float bad_ts[2] = {0.5f, NAN};
        CHECK_STATUS(wf_hermite_segment_sample(p0, p1, m0, m1, bad_ts, 2, sentinel, 3, NULL, 0),
                     WF_STATUS_NON_FINITE);
    }
    for (i = 0; i < 9; ++i) CHECK(sentinel[i] == -7.0f);
    /* (NULL, 0) is a valid empty array. */
    CHECK_STATUS(wf_hermite_segment_sample(p0, p1, m0, m1, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
}

void wf_suite_curve(void) {
    hermite_segment();
}
