/* Curves: Hermite segments, splines, Catmull-Rom, polylines, Bézier, ballistic, arc length. */
#include <stdint.h>

#include "check.h"

#define SENTINEL (-7.0f)
#define BUF 64 /* points */

static float buf[3 * BUF];

static void fill_sentinel(void) {
    int i;
    for (i = 0; i < 3 * BUF; ++i) buf[i] = SENTINEL;
}

/* Every float of the output buffer still holds the sentinel. */
static int untouched(void) {
    int i;
    for (i = 0; i < 3 * BUF; ++i)
        if (buf[i] != SENTINEL) return 0;
    return 1;
}

/* A bad call: the expected status and nothing written. */
#define CHECK_REJECTS(call, expected) \
    do {                              \
        fill_sentinel();              \
        CHECK_STATUS(call, expected); \
        CHECK(untouched());           \
    } while (0)

static double dist(const float *a, const float *b) {
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static void hermite_segment(void) {
    const float p0[3] = {0, 0, 0}, p1[3] = {4, 0, 2}, m0[3] = {1, 0, 0}, m1[3] = {0, 0, 3};
    const float ts[3] = {0.0f, 0.5f, 1.0f};
    const float bad_ts[2] = {0.5f, NAN};
    float pos[9], der[9];
    int i;
    CHECK_STATUS(wf_hermite_segment_eval(p0, p1, m0, m1, ts, 3, pos, 3, der, 3), WF_STATUS_OK);
    for (i = 0; i < 3; ++i) {
        CHECK(pos[i] == p0[i]);
        CHECK(pos[6 + i] == p1[i]);
        CHECK(der[i] == m0[i]);
        CHECK(der[6 + i] == m1[i]);
    }
    CHECK_REJECTS(wf_hermite_segment_eval(NULL, p1, m0, m1, ts, 3, buf, BUF, NULL, 0),
                  WF_STATUS_NULL_POINTER);
    CHECK_REJECTS(wf_hermite_segment_eval(p0, p1, m0, m1, ts, 3, buf, 2, NULL, 0),
                  WF_STATUS_BUFFER_TOO_SMALL);
    CHECK_REJECTS(wf_hermite_segment_eval(p0, p1, m0, m1, ts, 3, buf, BUF, buf + 30, 2),
                  WF_STATUS_BUFFER_TOO_SMALL);
    CHECK_REJECTS(wf_hermite_segment_eval(p0, p1, m0, m1, NULL, 3, buf, BUF, NULL, 0),
                  WF_STATUS_NULL_POINTER);
    CHECK_REJECTS(wf_hermite_segment_eval(p0, p1, m0, m1, bad_ts, 2, buf, BUF, NULL, 0),
                  WF_STATUS_NON_FINITE);
    CHECK_REJECTS(wf_hermite_segment_eval(p0, p1, m0, m1, ts, SIZE_MAX / 2, buf, BUF, NULL, 0),
                  WF_STATUS_INVALID_COUNT);
    /* (NULL, 0) is a valid empty array. */
    CHECK_STATUS(wf_hermite_segment_eval(p0, p1, m0, m1, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
}

static const float knots[4 * 3] = {0, 0, 0, 3, 0, 1, 6, 1, 0, 9, 0, 2};
static const float tangents[4 * 3] = {2, 0, 0, 2, 0, 1, 1, 0, -1, 3, 0, 0};

static void hermite_spline(void) {
    float len = -1.0f;
    int s;
    for (s = 0; s < 2; ++s) {
        fill_sentinel();
        CHECK_STATUS(wf_hermite_spline_sample(knots, 4, tangents, 4, 10, (uint32_t)s, buf, BUF),
                     WF_STATUS_OK);
        CHECK(dist(buf, knots) < 1e-6);
        CHECK(dist(buf + 27, knots + 9) < 1e-5);
        CHECK(buf[30] == SENTINEL); /* exactly 10 points written */
    }
    CHECK_STATUS(wf_hermite_spline_length(knots, 4, tangents, 4, &len), WF_STATUS_OK);
    CHECK(len > 9.0f && len < 20.0f); /* longer than the chord (~9.3) */
    CHECK_REJECTS(wf_hermite_spline_sample(knots, 4, tangents, 3, 10, 0, buf, BUF),
                  WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_hermite_spline_sample(knots, 4, NULL, 4, 10, 0, buf, BUF),
                  WF_STATUS_NULL_POINTER);
    CHECK_REJECTS(wf_hermite_spline_sample(knots, 1, tangents, 1, 10, 0, buf, BUF),
                  WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_hermite_spline_sample(knots, 4, tangents, 4, 1, 0, buf, BUF),
                  WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_hermite_spline_sample(knots, 4, tangents, 4, 0, 0, buf, BUF),
                  WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_hermite_spline_sample(knots, 4, tangents, 4, 10, 2, buf, BUF),
                  WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_hermite_spline_sample(knots, 4, tangents, 4, 10, 0, buf, 9),
                  WF_STATUS_BUFFER_TOO_SMALL);
    CHECK_REJECTS(wf_hermite_spline_sample(knots, 4, tangents, 4, SIZE_MAX / 2, 0, buf, BUF),
                  WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_hermite_spline_sample(knots, SIZE_MAX / 2, tangents, 4, 10, 0, buf, BUF),
                  WF_STATUS_INVALID_COUNT);
    len = SENTINEL;
    CHECK_STATUS(wf_hermite_spline_length(knots, 4, tangents, 2, &len), WF_STATUS_INVALID_COUNT);
    CHECK(len == SENTINEL);
    CHECK_STATUS(wf_hermite_spline_length(knots, 4, tangents, 4, NULL), WF_STATUS_NULL_POINTER);
}

static void catmull_rom(void) {
    const float dup[4 * 3] = {1, 2, 3, 1, 2, 3, 5, 2, 3, 5, 2, 3};
    const float alphas[3] = {0.0f, 0.5f, 1.0f};
    float len = SENTINEL;
    int a, i;
    for (a = 0; a < 3; ++a) {
        fill_sentinel();
        CHECK_STATUS(wf_catmull_rom_sample(knots, 4, alphas[a], 0.0f, 7, WF_SPACING_ARC_LENGTH,
                                           buf, BUF),
                     WF_STATUS_OK);
        CHECK(dist(buf, knots) < 1e-6);
        CHECK(dist(buf + 18, knots + 9) < 1e-5);
        /* Duplicate points: finite output, ends on the points. */
        CHECK_STATUS(wf_catmull_rom_sample(dup, 4, alphas[a], 0.5f, 9, WF_SPACING_PARAMETER,
                                           buf, BUF),
                     WF_STATUS_OK);
        for (i = 0; i < 27; ++i) CHECK(isfinite(buf[i]));
        CHECK(dist(buf + 24, dup + 9) < 1e-6);
    }
    CHECK_STATUS(wf_catmull_rom_length(knots, 4, 0.5f, 0.0f, &len), WF_STATUS_OK);
    CHECK(len > 9.0f && len < 20.0f);
    CHECK_REJECTS(wf_catmull_rom_sample(knots, 4, 1.5f, 0.0f, 7, 0, buf, BUF),
                  WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_catmull_rom_sample(knots, 4, 0.5f, -0.1f, 7, 0, buf, BUF),
                  WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_catmull_rom_sample(knots, 4, NAN, 0.0f, 7, 0, buf, BUF), WF_STATUS_NON_FINITE);
    CHECK_REJECTS(wf_catmull_rom_sample(knots, 4, 0.5f, INFINITY, 7, 0, buf, BUF),
                  WF_STATUS_NON_FINITE);
    CHECK_REJECTS(wf_catmull_rom_sample(NULL, 4, 0.5f, 0.0f, 7, 0, buf, BUF),
                  WF_STATUS_NULL_POINTER);
    CHECK_REJECTS(wf_catmull_rom_sample(knots, 4, 0.5f, 0.0f, 7, 99, buf, BUF),
                  WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_catmull_rom_sample(knots, 4, 0.5f, 0.0f, 7, 0, NULL, 7),
                  WF_STATUS_NULL_POINTER);
    len = SENTINEL;
    CHECK_STATUS(wf_catmull_rom_length(knots, 4, 2.0f, 0.0f, &len), WF_STATUS_INVALID_ARGUMENT);
    CHECK(len == SENTINEL);
}

static void polyline(void) {
    const float pts[3 * 3] = {0, 0, 0, 3, 0, 4, 3, 10, 4};
    const float same[3 * 3] = {1, 2, 3, 1, 2, 3, 1, 2, 3};
    float nan_pts[3 * 3] = {0, 0, 0, 3, 0, 4, 3, 10, 4};
    float len = SENTINEL;
    int i;
    CHECK_STATUS(wf_polyline_length(pts, 3, &len), WF_STATUS_OK);
    CHECK_NEAR(len, 15.0, 1e-5);
    /* 4 samples even in arc length: every 5 units. */
    CHECK_STATUS(wf_polyline_sample(pts, 3, 4, WF_SPACING_ARC_LENGTH, buf, BUF), WF_STATUS_OK);
    CHECK(dist(buf + 3, (const float[3]){3, 0, 4}) < 1e-5);
    CHECK(dist(buf + 6, (const float[3]){3, 5, 4}) < 1e-5);
    CHECK(dist(buf + 9, pts + 6) < 1e-6);
    /* Zero length: arc-length sampling returns the point, never NaN. */
    CHECK_STATUS(wf_polyline_sample(same, 3, 5, WF_SPACING_ARC_LENGTH, buf, BUF), WF_STATUS_OK);
    for (i = 0; i < 15; ++i) CHECK(buf[i] == same[i % 3]);
    CHECK_STATUS(wf_polyline_length(same, 3, &len), WF_STATUS_OK);
    CHECK(len == 0.0f);
    nan_pts[4] = INFINITY;
    CHECK_REJECTS(wf_polyline_sample(nan_pts, 3, 4, 0, buf, BUF), WF_STATUS_NON_FINITE);
    CHECK_REJECTS(wf_polyline_sample(pts, 1, 4, 0, buf, BUF), WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_polyline_sample(NULL, 3, 4, 0, buf, BUF), WF_STATUS_NULL_POINTER);
    CHECK_REJECTS(wf_polyline_sample(pts, 3, 4, 0, buf, 3), WF_STATUS_BUFFER_TOO_SMALL);
    len = SENTINEL;
    CHECK_STATUS(wf_polyline_length(pts, SIZE_MAX / 2, &len), WF_STATUS_INVALID_COUNT);
    CHECK(len == SENTINEL);
}

static void bezier(void) {
    float cps[66 * 3];
    const float ts[4] = {0.0f, 0.25f, 0.5f, 1.0f};
    const float bad_ts[1] = {NAN};
    float pos[12], der[12];
    int i;
    for (i = 0; i < 66; ++i) {
        cps[3 * i] = (float)i;
        cps[3 * i + 1] = (float)((i * 7) % 5);
        cps[3 * i + 2] = 0.5f * (float)i;
    }
    /* Quadratic: B(1/2) = (P0 + 2 P1 + P2) / 4, B'(0) = 2 (P1 - P0). */
    CHECK_STATUS(wf_bezier_eval(cps, 3, ts, 4, pos, 4, der, 4), WF_STATUS_OK);
    for (i = 0; i < 3; ++i) {
        CHECK(pos[i] == cps[i]);
        CHECK(pos[9 + i] == cps[6 + i]);
        CHECK_NEAR(pos[6 + i], (cps[i] + 2 * cps[3 + i] + cps[6 + i]) / 4, 1e-6);
        CHECK_NEAR(der[i], 2 * (cps[3 + i] - cps[i]), 1e-6);
    }
    /* GetBezierList difference: sample 0 is t = 0 (the start point). */
    fill_sentinel();
    CHECK_STATUS(wf_bezier_sample(cps, 21, 5, WF_SPACING_PARAMETER, buf, BUF), WF_STATUS_OK);
    CHECK(dist(buf, cps) == 0.0);
    CHECK(dist(buf + 12, cps + 60) == 0.0);
    CHECK(buf[15] == SENTINEL);
    CHECK_STATUS(wf_bezier_sample(cps, 65, 5, WF_SPACING_ARC_LENGTH, buf, BUF), WF_STATUS_OK);
    CHECK(dist(buf + 12, cps + 192) < 1e-4);
    CHECK_REJECTS(wf_bezier_sample(cps, 66, 5, 0, buf, BUF), WF_STATUS_INVALID_COUNT); /* degree 65 */
    CHECK_REJECTS(wf_bezier_sample(cps, 1, 5, 0, buf, BUF), WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_bezier_sample(cps, 4, 1, 0, buf, BUF), WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_bezier_sample(cps, 4, 5, 7, buf, BUF), WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_bezier_sample(cps, 4, 5, 0, buf, 4), WF_STATUS_BUFFER_TOO_SMALL);
    CHECK_REJECTS(wf_bezier_sample(NULL, 4, 5, 0, buf, BUF), WF_STATUS_NULL_POINTER);
    CHECK_REJECTS(wf_bezier_eval(cps, 66, ts, 4, buf, BUF, NULL, 0), WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_bezier_eval(cps, 4, bad_ts, 1, buf, BUF, NULL, 0), WF_STATUS_NON_FINITE);
    CHECK_REJECTS(wf_bezier_eval(cps, 4, ts, 4, buf, 3, NULL, 0), WF_STATUS_BUFFER_TOO_SMALL);
    CHECK_REJECTS(wf_bezier_eval(cps, 4, ts, 4, buf, BUF, buf + 60, 1), WF_STATUS_BUFFER_TOO_SMALL);
    CHECK_REJECTS(wf_bezier_eval(cps, 4, NULL, 4, buf, BUF, NULL, 0), WF_STATUS_NULL_POINTER);
    CHECK_REJECTS(wf_bezier_eval(cps, SIZE_MAX / 2, ts, 4, buf, BUF, NULL, 0),
                  WF_STATUS_INVALID_COUNT);
    CHECK_STATUS(wf_bezier_eval(cps, 4, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
}

static void bezier_chain(void) {
    /* A quadratic then a cubic sharing cps[2]: 1 + 2 + 3 = 6 control points. */
    const float cps[6 * 3] = {0, 0, 0, 1, 2, 0, 2, 0, 0, 3, -2, 0, 4, 2, 0, 5, 0, 0};
    const uint32_t degrees[2] = {2, 3};
    const uint32_t zero[2] = {2, 0};
    const uint32_t big[1] = {65};
    const uint32_t wrong[2] = {2, 2};
    float len = SENTINEL;
    fill_sentinel();
    CHECK_STATUS(wf_bezier_chain_sample(cps, 6, degrees, 2, 3, WF_SPACING_PARAMETER, buf, BUF),
                 WF_STATUS_OK);
    CHECK(dist(buf, cps) == 0.0);
    CHECK(dist(buf + 3, cps + 6) == 0.0); /* the middle sample is the joint */
    CHECK(dist(buf + 6, cps + 15) == 0.0);
    CHECK(buf[9] == SENTINEL);
    CHECK_STATUS(wf_bezier_chain_length(cps, 6, degrees, 2, &len), WF_STATUS_OK);
    CHECK(len > 5.0f && len < 20.0f);
    CHECK_REJECTS(wf_bezier_chain_sample(cps, 6, wrong, 2, 3, 0, buf, BUF), WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_bezier_chain_sample(cps, 3, zero, 2, 3, 0, buf, BUF),
                  WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_bezier_chain_sample(cps, 6, big, 1, 3, 0, buf, BUF), WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_bezier_chain_sample(cps, 6, NULL, 2, 3, 0, buf, BUF), WF_STATUS_NULL_POINTER);
    CHECK_REJECTS(wf_bezier_chain_sample(cps, 6, degrees, 0, 3, 0, buf, BUF),
                  WF_STATUS_INVALID_COUNT);
    CHECK_REJECTS(wf_bezier_chain_sample(cps, 6, degrees, 2, 3, 5, buf, BUF),
                  WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_bezier_chain_sample(cps, 6, degrees, 2, 3, 1, buf, 2),
                  WF_STATUS_BUFFER_TOO_SMALL);
    len = SENTINEL;
    CHECK_STATUS(wf_bezier_chain_length(cps, 6, wrong, 2, &len), WF_STATUS_INVALID_COUNT);
    CHECK_STATUS(wf_bezier_chain_length(cps, 6, degrees, SIZE_MAX / 2, &len),
                 WF_STATUS_INVALID_COUNT);
    CHECK(len == SENTINEL);
}

static void ballistic(void) {
    const float start[3] = {0, 1.5f, 0}, vel[3] = {3, 4, 1};
    const float below[3] = {0, -1, 0};
    size_t count = 0;
    uint32_t degrees[3] = {2, 2, 2};
    int k;
    fill_sentinel();
    CHECK_STATUS(wf_ballistic_bezier(start, vel, 9.81f, 0.0f, 0.6f, 2, buf, BUF, &count),
                 WF_STATUS_OK);
    CHECK(count == 7);
    CHECK(buf[21] == SENTINEL);
    CHECK(dist(buf, start) == 0.0);
    for (k = 1; k <= 3; ++k) CHECK(buf[3 * (2 * k) + 1] == 0.0f); /* landings on y = 0 */
    /* The arc's apex-side control point: P1 = P0 + v * T / 2, so its y is above the start. */
    CHECK(buf[4] > start[1]);
    {
        /* The control points feed wf_bezier_chain_sample directly. */
        float pts[3 * 5];
        float chain[3 * 7];
        int i;
        for (i = 0; i < 21; ++i) chain[i] = buf[i];
        CHECK_STATUS(wf_bezier_chain_sample(chain, 7, degrees, 3, 5, 0, pts, 5), WF_STATUS_OK);
        CHECK(dist(pts + 12, chain + 18) == 0.0);
    }
    /* e = 0: later arcs are three copies of the landing point. */
    CHECK_STATUS(wf_ballistic_bezier(start, vel, 9.81f, 0.0f, 0.0f, 1, buf, BUF, NULL),
                 WF_STATUS_OK);
    CHECK(dist(buf + 6, buf + 9) == 0.0 && dist(buf + 9, buf + 12) == 0.0);
    CHECK_REJECTS(wf_ballistic_bezier(below, vel, 9.81f, 0.0f, 0.6f, 2, buf, BUF, NULL),
                  WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_ballistic_bezier(start, vel, 0.0f, 0.0f, 0.6f, 2, buf, BUF, NULL),
                  WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_ballistic_bezier(start, vel, 9.81f, 0.0f, 1.2f, 2, buf, BUF, NULL),
                  WF_STATUS_INVALID_ARGUMENT);
    CHECK_REJECTS(wf_ballistic_bezier(start, vel, NAN, 0.0f, 0.6f, 2, buf, BUF, NULL),
                  WF_STATUS_NON_FINITE);
    CHECK_REJECTS(wf_ballistic_bezier(NULL, vel, 9.81f, 0.0f, 0.6f, 2, buf, BUF, NULL),
                  WF_STATUS_NULL_POINTER);
    count = 12345;
    CHECK_REJECTS(wf_ballistic_bezier(start, vel, 9.81f, 0.0f, 0.6f, 2, buf, 6, &count),
                  WF_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 12345);
    CHECK_REJECTS(wf_ballistic_bezier(start, vel, 9.81f, 0.0f, 0.6f, 4000000000u, buf, BUF, &count),
                  WF_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 12345);
}

void wf_suite_curve(void) {
    hermite_segment();
    hermite_spline();
    catmull_rom();
    polyline();
    bezier();
    bezier_chain();
    ballistic();
}
