/* Timeline: paths (arc length, sampling, nearest point) and schedule sets (keys, holds, easing,
 * wrap modes, hinted evaluation, crossings), bad input included. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

static void fill(float *v, size_t n, float x) {
    size_t i;
    for (i = 0; i < n; ++i) v[i] = x;
}

static int all_equal(const float *v, size_t n, float x) {
    size_t i;
    for (i = 0; i < n; ++i)
        if (v[i] != x) return 0;
    return 1;
}

/* An L: 0 -> (3,0,4) -> (3,0,4) duplicate -> (3,10,4); length 15. */
static const float L_POINTS[12] = {0, 0, 0, 3, 0, 4, 3, 0, 4, 3, 10, 4};

static void paths(void) {
    WfPath *path = NULL, *other = NULL;
    float len = -1.0f, pos[9], fwd[9], sentinel[9];
    const float ds[3] = {2.5f, 10.0f, 100.0f};
    CHECK_STATUS(wf_path_new_polyline(L_POINTS, 4, &path), WF_STATUS_OK);
    CHECK_STATUS(wf_path_length(path, &len), WF_STATUS_OK);
    CHECK_NEAR(len, 15.0, 1e-5);
    CHECK_STATUS(wf_path_at_distances(path, ds, 3, pos, 3, fwd, 3), WF_STATUS_OK);
    CHECK_NEAR(pos[0], 1.5, 1e-5);
    CHECK_NEAR(pos[2], 2.0, 1e-5);
    CHECK_NEAR(pos[4], 5.0, 1e-5); /* 10 m: 5 m up the vertical leg */
    CHECK_NEAR(pos[7], 10.0, 1e-6); /* clamped to the end */
    CHECK_NEAR(fwd[0], 0.6, 1e-5);
    CHECK_NEAR(fwd[2], 0.8, 1e-5);
    CHECK_NEAR(fwd[4], 1.0, 1e-5);
    /* forwards optional */
    CHECK_STATUS(wf_path_at_distances(path, ds, 3, pos, 3, NULL, 0), WF_STATUS_OK);

    {
        const float q[6] = {10, 0, 0, 3, 7, 9};
        float d[2], p[6];
        CHECK_STATUS(wf_path_nearest(path, q, 2, d, 2, p, 2), WF_STATUS_OK);
        /* (10,0,0) projects onto the first leg at t = 30/25 > 1 -> its end or the vertical leg:
         * the vertical leg's foot (3,0,4) at distance 5 is nearest (|(7,0,-4)| = 8.06). */
        CHECK_NEAR(d[0], 5.0, 1e-4);
        CHECK_NEAR(p[0], 3.0, 1e-4);
        CHECK_NEAR(d[1], 12.0, 1e-4);
        CHECK_NEAR(p[4], 7.0, 1e-4);
        CHECK_STATUS(wf_path_nearest(path, q, 2, d, 2, NULL, 0), WF_STATUS_OK);
        /* bad input */
        fill(sentinel, 9, -7.0f);
        CHECK_STATUS(wf_path_nearest(path, q, 2, sentinel, 1, NULL, 0), WF_STATUS_BUFFER_TOO_SMALL);
        CHECK_STATUS(wf_path_nearest(path, q, 2, sentinel, 2, sentinel + 2, 1),
                     WF_STATUS_BUFFER_TOO_SMALL);
        CHECK_STATUS(wf_path_nearest(NULL, q, 2, sentinel, 2, NULL, 0), WF_STATUS_NULL_POINTER);
        {
            const float bad[3] = {0, NAN, 0};
            CHECK_STATUS(wf_path_nearest(path, bad, 1, sentinel, 2, NULL, 0), WF_STATUS_NON_FINITE);
        }
        CHECK(all_equal(sentinel, 9, -7.0f));
    }

    /* Bad input to sample: nothing written. */
    fill(sentinel, 9, -7.0f);
    CHECK_STATUS(wf_path_at_distances(path, ds, 3, sentinel, 2, NULL, 0), WF_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(wf_path_at_distances(path, ds, 3, sentinel, 3, fwd, 2), WF_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(wf_path_at_distances(NULL, ds, 3, sentinel, 3, NULL, 0), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_path_at_distances(path, NULL, 3, sentinel, 3, NULL, 0), WF_STATUS_NULL_POINTER);
    {
        const float bad[2] = {1.0f, INFINITY};
        CHECK_STATUS(wf_path_at_distances(path, bad, 2, sentinel, 3, NULL, 0), WF_STATUS_NON_FINITE);
    }
    CHECK(all_equal(sentinel, 9, -7.0f));
    CHECK_STATUS(wf_path_at_distances(path, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
    CHECK_STATUS(wf_path_length(NULL, &len), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_path_length(path, NULL), WF_STATUS_NULL_POINTER);

    /* Zero-length path (all points equal): the point, never NaN; forward +Z. */
    {
        const float same[9] = {1, 2, 3, 1, 2, 3, 1, 2, 3};
        const float d1[2] = {0.0f, 5.0f};
        CHECK_STATUS(wf_path_new_polyline(same, 3, &other), WF_STATUS_OK);
        CHECK_STATUS(wf_path_length(other, &len), WF_STATUS_OK);
        CHECK(len == 0.0f);
        CHECK_STATUS(wf_path_at_distances(other, d1, 2, pos, 3, fwd, 3), WF_STATUS_OK);
        CHECK(pos[3] == 1.0f && pos[4] == 2.0f && pos[5] == 3.0f);
        CHECK(fwd[0] == 0.0f && fwd[1] == 0.0f && fwd[2] == 1.0f);
        wf_path_free(other);
        other = NULL;
    }

    /* The other constructors. */
    {
        const float pts[9] = {0, 0, 0, 4, 0, 2, 8, 0, 0};
        const float tan[9] = {4, 0, 0, 4, 0, 0, 4, 0, 0};
        const uint32_t degs[2] = {2, 1};
        const uint32_t bad_degs[2] = {2, 0};
        float l2 = 0.0f;
        CHECK_STATUS(wf_path_new_hermite(pts, 3, tan, 3, &other), WF_STATUS_OK);
        CHECK_STATUS(wf_path_length(other, &l2), WF_STATUS_OK);
        CHECK(l2 > 8.9f && l2 < 10.0f);
        wf_path_free(other);
        CHECK_STATUS(wf_path_new_catmull_rom(pts, 3, 0.5f, 0.0f, &other), WF_STATUS_OK);
        wf_path_free(other);
        CHECK_STATUS(wf_path_new_bezier_chain(pts, 3, degs + 1, 1, &other), WF_STATUS_INVALID_COUNT);
        CHECK_STATUS(wf_path_new_bezier_chain(pts, 3, degs, 1, &other), WF_STATUS_OK);
        CHECK_STATUS(wf_path_length(other, &l2), WF_STATUS_OK);
        CHECK(l2 > 8.0f && l2 < 9.5f);
        wf_path_free(other);
        other = NULL;
        CHECK_STATUS(wf_path_new_bezier_chain(pts, 3, bad_degs, 2, &other), WF_STATUS_INVALID_ARGUMENT);
        CHECK_STATUS(wf_path_new_bezier_chain(pts, 3, NULL, 1, &other), WF_STATUS_NULL_POINTER);
        CHECK_STATUS(wf_path_new_hermite(pts, 3, tan, 2, &other), WF_STATUS_INVALID_COUNT);
        CHECK_STATUS(wf_path_new_catmull_rom(pts, 3, 2.0f, 0.0f, &other), WF_STATUS_INVALID_ARGUMENT);
        CHECK_STATUS(wf_path_new_catmull_rom(pts, 3, NAN, 0.0f, &other), WF_STATUS_NON_FINITE);
        CHECK_STATUS(wf_path_new_polyline(pts, 1, &other), WF_STATUS_INVALID_COUNT);
        CHECK_STATUS(wf_path_new_polyline(pts, 3, NULL), WF_STATUS_NULL_POINTER);
        {
            const float nan_pts[6] = {0, 0, 0, NAN, 0, 0};
            CHECK_STATUS(wf_path_new_polyline(nan_pts, 2, &other), WF_STATUS_NON_FINITE);
        }
        CHECK(other == NULL);
    }
    wf_path_free(NULL);
    wf_path_free(path);
}

/* A set with one path (the L, length 15) and NPCs exercising every mode. */
static WfScheduleSet *make_set(void) {
    WfScheduleSet *set = NULL;
    WfPath *path = NULL;
    uint32_t pi = 99, npc = 99;
    CHECK_STATUS(wf_path_new_polyline(L_POINTS, 4, &path), WF_STATUS_OK);
    CHECK_STATUS(wf_schedule_set_new(&set), WF_STATUS_OK);
    CHECK_STATUS(wf_schedule_set_add_path(set, path, &pi), WF_STATUS_OK);
    CHECK(pi == 0);
    wf_path_free(path); /* the set holds a copy */
    /* NPC 0: simple, 0..15 s, clamp -> 1 m/s. */
    CHECK_STATUS(wf_schedule_set_add_npc_simple(set, 0, 0.0, 15.0, WF_WRAP_CLAMP, &npc), WF_STATUS_OK);
    CHECK(npc == 0);
    /* NPC 1: walk to 4 m by t=10, hold until 20, back to 0 by 30 with ease-in-out; loop. */
    {
        const double t[4] = {0.0, 10.0, 20.0, 30.0};
        const float d[4] = {0.0f, 4.0f, 4.0f, 0.0f};
        const uint32_t ease[3] = {WF_EASE_NONE, WF_EASE_NONE, WF_EASE_IN_OUT};
        CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, d, 4, ease, 3, WF_WRAP_LOOP, &npc), WF_STATUS_OK);
        CHECK(npc == 1);
    }
    /* NPC 2: simple ping-pong 100..115 s. */
    CHECK_STATUS(wf_schedule_set_add_npc_simple(set, 0, 100.0, 115.0, WF_WRAP_PING_PONG, &npc), WF_STATUS_OK);
    CHECK(npc == 2);
    return set;
}

static void schedules(void) {
    WfScheduleSet *set = make_set();
    size_t n = 0;
    float pos[9], fwd[9], vel[9], pos2[9];
    uint32_t st[3];
    CHECK_STATUS(wf_schedule_set_npc_count(set, &n), WF_STATUS_OK);
    CHECK(n == 3);

    /* t = 2.5: NPC 0 at (1.5, 0, 2) moving at 1 m/s along (0.6, 0, 0.8). */
    CHECK_STATUS(wf_schedule_set_evaluate(set, 2.5, pos, 3, fwd, 3, vel, 3, st, 3), WF_STATUS_OK);
    CHECK_NEAR(pos[0], 1.5, 1e-5);
    CHECK_NEAR(pos[2], 2.0, 1e-5);
    CHECK_NEAR(vel[0], 0.6, 1e-5);
    CHECK_NEAR(vel[2], 0.8, 1e-5);
    CHECK(st[0] == WF_NPC_MOVING);
    /* NPC 1 at 1 m (0.4 m/s); NPC 2 before its window in ping-pong: phi = (2.5 - 100) mod 30
     * = 22.5 > 15 -> on the way back, d = 30 - 22.5 = 7.5, 2.5 m up the vertical leg. */
    CHECK_NEAR(pos[3], 0.6, 1e-5);
    CHECK_NEAR(vel[3], 0.24, 1e-5);
    CHECK(st[1] == WF_NPC_MOVING);
    CHECK_NEAR(pos[7], 2.5, 1e-5);
    CHECK_NEAR(vel[7], -1.0, 1e-5);
    CHECK(st[2] == WF_NPC_MOVING);
    /* Positions and states only (forwards and velocities NULL): the cheaper path gives the same
     * bits as the full evaluation. */
    {
        uint32_t st2[3];
        CHECK_STATUS(wf_schedule_set_evaluate(set, 2.5, pos2, 3, NULL, 0, NULL, 0, st2, 3),
                     WF_STATUS_OK);
        CHECK(memcmp(pos, pos2, sizeof pos) == 0);
        CHECK(memcmp(st, st2, sizeof st) == 0);
    }

    /* Holding. */
    CHECK_STATUS(wf_schedule_set_evaluate(set, 15.0, pos, 3, fwd, 3, vel, 3, st, 3), WF_STATUS_OK);
    CHECK(st[1] == WF_NPC_HOLDING);
    CHECK(vel[3] == 0.0f && vel[4] == 0.0f && vel[5] == 0.0f);
    CHECK_NEAR(pos[3], 2.4, 1e-5);
    CHECK_NEAR(fwd[3], 0.6, 1e-5); /* faces the way it came */
    /* Ease in-out at the start of its leg: speed 0, facing back along the path. */
    CHECK_STATUS(wf_schedule_set_evaluate(set, 20.0, pos, 3, fwd, 3, vel, 3, st, 3), WF_STATUS_OK);
    CHECK(st[1] == WF_NPC_MOVING);
    CHECK_NEAR(vel[3], 0.0, 1e-7);
    CHECK_NEAR(fwd[3], -0.6, 1e-5);
    /* Mid-leg of the eased return: peak speed 1.5 x 4/10 = 0.6 m/s, position exact. */
    CHECK_STATUS(wf_schedule_set_evaluate(set, 25.0, pos, 3, NULL, 0, vel, 3, NULL, 0), WF_STATUS_OK);
    CHECK_NEAR(pos[3], 1.2, 1e-5);
    CHECK_NEAR(vel[3], -0.36, 1e-5);

    /* Clamp: before and after. */
    CHECK_STATUS(wf_schedule_set_evaluate(set, -5.0, pos, 3, NULL, 0, NULL, 0, st, 3), WF_STATUS_OK);
    CHECK(st[0] == WF_NPC_BEFORE);
    CHECK(pos[0] == 0.0f && pos[1] == 0.0f && pos[2] == 0.0f);
    CHECK_STATUS(wf_schedule_set_evaluate(set, 1e5, pos, 3, NULL, 0, NULL, 0, st, 3), WF_STATUS_OK);
    CHECK(st[0] == WF_NPC_AFTER);
    CHECK_NEAR(pos[1], 10.0, 1e-6);
    /* Loop: t and t + 30 k agree (exact multiples of the period). */
    CHECK_STATUS(wf_schedule_set_evaluate(set, 7.0, pos, 3, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
    CHECK_STATUS(wf_schedule_set_evaluate(set, 7.0 + 30.0 * 1000.0, pos2, 3, NULL, 0, NULL, 0, NULL, 0),
                 WF_STATUS_OK);
    CHECK_NEAR(pos[3], pos2[3], 1e-5);
    CHECK_NEAR(pos[5], pos2[5], 1e-5);
    /* Ping-pong: mirror times give the same point, velocities opposite. */
    {
        float va[9], vb[9];
        CHECK_STATUS(wf_schedule_set_evaluate(set, 104.0, pos, 3, NULL, 0, va, 3, NULL, 0), WF_STATUS_OK);
        CHECK_STATUS(wf_schedule_set_evaluate(set, 126.0, pos2, 3, NULL, 0, vb, 3, NULL, 0), WF_STATUS_OK);
        CHECK_NEAR(pos[6], pos2[6], 1e-5);
        CHECK_NEAR(pos[8], pos2[8], 1e-5);
        CHECK_NEAR(va[6], -vb[6], 1e-5);
        CHECK(va[6] > 0.0f);
    }

    /* Reversibility: stepping forwards then backwards lands on bit-identical points; hinted
     * evaluation equals the stateless one bit for bit. */
    {
        float a[9], b[9], c[9];
        uint32_t hints[6] = {0, 0, 0, 0, 0, 0};
        double t = 0.0;
        int k, same = 1;
        CHECK_STATUS(wf_schedule_set_evaluate(set, 12.34, a, 3, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
        for (k = 0; k < 2000; ++k) {
            t = k * 0.05;
            CHECK_STATUS(wf_schedule_set_evaluate(set, t, b, 3, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
            CHECK_STATUS(wf_schedule_set_evaluate_hinted(set, t, hints, 6, c, 3, NULL, 0, NULL, 0, NULL, 0),
                         WF_STATUS_OK);
            if (memcmp(b, c, sizeof b) != 0) same = 0;
        }
        for (k = 2000; k-- > 0;) {
            t = k * 0.05;
            CHECK_STATUS(wf_schedule_set_evaluate_hinted(set, t, hints, 6, c, 3, NULL, 0, NULL, 0, NULL, 0),
                         WF_STATUS_OK);
            CHECK_STATUS(wf_schedule_set_evaluate(set, t, b, 3, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
            if (memcmp(b, c, sizeof b) != 0) same = 0;
        }
        CHECK(same);
        CHECK_STATUS(wf_schedule_set_evaluate(set, 12.34, b, 3, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
        /* Garbage hints are safe and still exact. */
        hints[0] = 0xFFFFFFFFu;
        hints[1] = 123456789u;
        CHECK_STATUS(wf_schedule_set_evaluate_hinted(set, 12.34, hints, 6, c, 3, NULL, 0, NULL, 0, NULL, 0),
                     WF_STATUS_OK);
        CHECK(memcmp(a, c, sizeof a) == 0);
    }

    /* One time per NPC, plain and hinted. */
    {
        const double ts[3] = {2.5, 15.0, 104.0};
        float a[9], b[9];
        uint32_t sa[3], sb[3];
        uint32_t hints[6] = {0, 0, 0, 0, 0, 0};
        CHECK_STATUS(wf_schedule_set_evaluate_times(set, ts, 3, a, 3, NULL, 0, NULL, 0, sa, 3), WF_STATUS_OK);
        CHECK_NEAR(a[0], 1.5, 1e-5);
        CHECK(sa[1] == WF_NPC_HOLDING);
        CHECK_STATUS(wf_schedule_set_evaluate_times_hinted(set, ts, 3, hints, 6, b, 3, NULL, 0, NULL, 0, sb, 3),
                     WF_STATUS_OK);
        CHECK(memcmp(a, b, sizeof a) == 0);
        CHECK(memcmp(sa, sb, sizeof sa) == 0);
        CHECK_STATUS(wf_schedule_set_evaluate_times(set, ts, 2, a, 3, NULL, 0, NULL, 0, NULL, 0),
                     WF_STATUS_INVALID_COUNT);
    }

    /* Bad input: clear status, nothing written. */
    {
        float sentinel[9];
        uint32_t ssent[3] = {77, 77, 77};
        uint32_t hints[6] = {5, 5, 5, 5, 5, 5};
        const double bad_ts[3] = {1.0, NAN, 2.0};
        fill(sentinel, 9, -7.0f);
        CHECK_STATUS(wf_schedule_set_evaluate(set, NAN, sentinel, 3, NULL, 0, NULL, 0, ssent, 3), WF_STATUS_NON_FINITE);
        CHECK_STATUS(wf_schedule_set_evaluate(set, INFINITY, sentinel, 3, NULL, 0, NULL, 0, ssent, 3),
                     WF_STATUS_NON_FINITE);
        CHECK_STATUS(wf_schedule_set_evaluate(set, 1.0, sentinel, 3, NULL, 0, NULL, 0, ssent, 2),
                     WF_STATUS_BUFFER_TOO_SMALL);
        CHECK_STATUS(wf_schedule_set_evaluate(set, 1.0, sentinel, 2, NULL, 0, NULL, 0, ssent, 3),
                     WF_STATUS_BUFFER_TOO_SMALL);
        CHECK_STATUS(wf_schedule_set_evaluate(NULL, 1.0, sentinel, 3, NULL, 0, NULL, 0, ssent, 3),
                     WF_STATUS_NULL_POINTER);
        CHECK_STATUS(wf_schedule_set_evaluate_times(set, bad_ts, 3, sentinel, 3, NULL, 0, NULL, 0, ssent, 3),
                     WF_STATUS_NON_FINITE);
        CHECK_STATUS(wf_schedule_set_evaluate_hinted(set, 1.0, hints, 5, sentinel, 3, NULL, 0, NULL, 0, ssent, 3),
                     WF_STATUS_BUFFER_TOO_SMALL);
        CHECK_STATUS(wf_schedule_set_evaluate_hinted(set, 1.0, NULL, 6, sentinel, 3, NULL, 0, NULL, 0, ssent, 3),
                     WF_STATUS_NULL_POINTER);
        CHECK_STATUS(wf_schedule_set_evaluate_hinted(set, 1.0, hints, 6, sentinel, 3, NULL, 0, NULL, 0, ssent, 1),
                     WF_STATUS_BUFFER_TOO_SMALL);
        CHECK_STATUS(wf_schedule_set_evaluate_times_hinted(set, bad_ts, 3, hints, 6, sentinel, 3, NULL, 0, NULL, 0,
                                                           ssent, 3),
                     WF_STATUS_NON_FINITE);
        CHECK(all_equal(sentinel, 9, -7.0f));
        CHECK(ssent[0] == 77 && ssent[1] == 77 && ssent[2] == 77);
        CHECK(hints[0] == 5 && hints[5] == 5);
    }
    wf_schedule_set_free(set);
    wf_schedule_set_free(NULL);
}

static void add_npc_bad_input(void) {
    WfScheduleSet *set = make_set();
    uint32_t npc = 1234;
    size_t n = 0;
    const double t[3] = {0.0, 5.0, 9.0};
    const float d[3] = {0.0f, 4.0f, 4.0f};
    const uint32_t ease_ok[2] = {1, 2};
    const uint32_t ease_bad[2] = {1, 4};
    WfPath *empty = NULL;
    /* path index out of range */
    CHECK_STATUS(wf_schedule_set_add_npc(set, 1, t, d, 3, NULL, 0, WF_WRAP_CLAMP, &npc), WF_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(wf_schedule_set_add_npc_simple(set, 7, 0.0, 1.0, WF_WRAP_CLAMP, &npc), WF_STATUS_OUT_OF_RANGE);
    /* t_end == t_start, decreasing or equal key times */
    CHECK_STATUS(wf_schedule_set_add_npc_simple(set, 0, 3.0, 3.0, WF_WRAP_CLAMP, &npc), WF_STATUS_INVALID_KEY_TIME);
    CHECK_STATUS(wf_schedule_set_add_npc_simple(set, 0, 3.0, 1.0, WF_WRAP_CLAMP, &npc), WF_STATUS_INVALID_KEY_TIME);
    {
        const double eq[3] = {0.0, 5.0, 5.0};
        const double dec[3] = {0.0, 5.0, 4.0};
        CHECK_STATUS(wf_schedule_set_add_npc(set, 0, eq, d, 3, NULL, 0, WF_WRAP_CLAMP, &npc),
                     WF_STATUS_INVALID_KEY_TIME);
        CHECK_STATUS(wf_schedule_set_add_npc(set, 0, dec, d, 3, NULL, 0, WF_WRAP_CLAMP, &npc),
                     WF_STATUS_INVALID_KEY_TIME);
    }
    /* distances outside [0, length] or non-finite */
    {
        const float far[3] = {0.0f, 4.0f, 15.5f};
        const float neg[3] = {-0.1f, 4.0f, 4.0f};
        const float nan_d[3] = {0.0f, NAN, 4.0f};
        const double inf_t[3] = {0.0, 5.0, INFINITY};
        CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, far, 3, NULL, 0, WF_WRAP_CLAMP, &npc),
                     WF_STATUS_DISTANCE_OUT_OF_RANGE);
        CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, neg, 3, NULL, 0, WF_WRAP_CLAMP, &npc),
                     WF_STATUS_DISTANCE_OUT_OF_RANGE);
        CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, nan_d, 3, NULL, 0, WF_WRAP_CLAMP, &npc),
                     WF_STATUS_NON_FINITE);
        CHECK_STATUS(wf_schedule_set_add_npc(set, 0, inf_t, d, 3, NULL, 0, WF_WRAP_CLAMP, &npc),
                     WF_STATUS_NON_FINITE);
        CHECK_STATUS(wf_schedule_set_add_npc_simple(set, 0, NAN, 1.0, WF_WRAP_CLAMP, &npc), WF_STATUS_NON_FINITE);
    }
    /* Legs shorter than 1e-9 s (holds too) are refused. */
    {
        const double short_leg[3] = {0.0, 1.0e-10, 5.0};
        const double short_hold[3] = {0.0, 5.0, 5.0 + 1.0e-12};
        const float hold_d[3] = {0.0f, 4.0f, 4.0f};
        CHECK_STATUS(wf_schedule_set_add_npc(set, 0, short_leg, d, 3, NULL, 0, WF_WRAP_CLAMP, &npc),
                     WF_STATUS_INVALID_KEY_TIME);
        CHECK_STATUS(wf_schedule_set_add_npc(set, 0, short_hold, hold_d, 3, NULL, 0, WF_WRAP_CLAMP, &npc),
                     WF_STATUS_INVALID_KEY_TIME);
        CHECK_STATUS(wf_schedule_set_add_npc_simple(set, 0, 1.0, 1.0 + 1.0e-20, WF_WRAP_CLAMP, &npc),
                     WF_STATUS_INVALID_KEY_TIME);
    }
    /* counts, flags, wrap */
    CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, d, 1, NULL, 0, WF_WRAP_CLAMP, &npc), WF_STATUS_INVALID_COUNT);
    CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, d, 3, ease_ok, 1, WF_WRAP_CLAMP, &npc),
                 WF_STATUS_INVALID_COUNT);
    CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, d, 3, ease_bad, 2, WF_WRAP_CLAMP, &npc),
                 WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, d, 3, NULL, 0, 3u, &npc), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_schedule_set_add_npc_simple(set, 0, 0.0, 1.0, 9u, &npc), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_schedule_set_add_npc(set, 0, NULL, d, 3, NULL, 0, WF_WRAP_CLAMP, &npc), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_schedule_set_add_npc(NULL, 0, t, d, 3, NULL, 0, WF_WRAP_CLAMP, &npc), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_schedule_set_add_path(set, NULL, &npc), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_schedule_set_add_path(NULL, NULL, &npc), WF_STATUS_NULL_POINTER);
    /* Out-pointers of every add/new are required: NULL adds nothing. */
    CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, d, 3, NULL, 0, WF_WRAP_CLAMP, NULL), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_schedule_set_add_npc_simple(set, 0, 0.0, 1.0, WF_WRAP_CLAMP, NULL), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_schedule_set_new(NULL), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_schedule_set_npc_count(NULL, &n), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_schedule_set_npc_count(set, NULL), WF_STATUS_NULL_POINTER);
    CHECK(npc == 1234);
    CHECK_STATUS(wf_schedule_set_npc_count(set, &n), WF_STATUS_OK);
    CHECK(n == 3); /* nothing was added */
    CHECK_STATUS(wf_schedule_set_add_npc(set, 0, t, d, 3, ease_ok, 2, WF_WRAP_PING_PONG, &npc), WF_STATUS_OK);
    CHECK(npc == 3);

    /* A zero-length path: a hold at its point, never NaN. */
    {
        const float same[6] = {4, 5, 6, 4, 5, 6};
        float pos[12];
        uint32_t pi = 0, st[4];
        CHECK_STATUS(wf_path_new_polyline(same, 2, &empty), WF_STATUS_OK);
        CHECK_STATUS(wf_schedule_set_add_path(set, empty, NULL), WF_STATUS_NULL_POINTER);
        CHECK_STATUS(wf_schedule_set_add_path(set, empty, &pi), WF_STATUS_OK);
        CHECK(pi == 1);
        wf_path_free(empty);
        CHECK_STATUS(wf_schedule_set_add_npc_simple(set, pi, 0.0, 10.0, WF_WRAP_LOOP, &npc), WF_STATUS_OK);
        CHECK_STATUS(wf_schedule_set_evaluate(set, 3.0, NULL, 0, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
        {
            float p5[15], f5[15], v5[15];
            uint32_t s5[5];
            CHECK_STATUS(wf_schedule_set_evaluate(set, 3.0, p5, 5, f5, 5, v5, 5, s5, 5), WF_STATUS_OK);
            CHECK(p5[12] == 4.0f && p5[13] == 5.0f && p5[14] == 6.0f);
            CHECK(f5[14] == 1.0f && v5[12] == 0.0f);
            CHECK(s5[4] == WF_NPC_HOLDING);
        }
        (void)pos;
        (void)st;
    }
    wf_schedule_set_free(set);
}

static void crossings(void) {
    WfScheduleSet *set = make_set();
    uint32_t npcs[64], keys[64], npcs2[64], keys2[64];
    int32_t dirs[64], dirs2[64];
    size_t count = 0, count2 = 0, i;
    /* 0 -> 12 s: NPC 0 passes key 0 at t=0? No: (0, 12] excludes 0. NPC 1: key 1 at 10.
     * NPC 2 (ping-pong, t0 = 100, period 30): key 0 at 100 - 90 = 10 (back turn, -1). */
    CHECK_STATUS(wf_schedule_set_crossings(set, 0.0, 12.0, npcs, keys, dirs, 64, &count), WF_STATUS_OK);
    CHECK(count == 2);
    CHECK(npcs[0] == 1 && keys[0] == 1 && dirs[0] == 1);
    CHECK(npcs[1] == 2 && keys[1] == 0 && dirs[1] == -1);
    /* Backwards over the same interval: the same events reversed with opposite directions. */
    CHECK_STATUS(wf_schedule_set_crossings(set, 12.0, 0.0, npcs2, keys2, dirs2, 64, &count2), WF_STATUS_OK);
    CHECK(count2 == 2);
    CHECK(npcs2[0] == 1 && keys2[0] == 1 && dirs2[0] == -1);
    CHECK(npcs2[1] == 2 && keys2[1] == 0 && dirs2[1] == 1);
    /* -1 -> 31: NPC 0 keys 0 (t=0) and 1 (t=15). NPC 1 loops forever (period 30): t = 0 is a
     * period boundary too, so it reports key 3 then key 0 at t = 0, keys 1, 2 at 10, 20, and
     * key 3 then key 0 at t = 30. NPC 2: key 0 at 10 (-1), key 1 at 25 (+1). */
    CHECK_STATUS(wf_schedule_set_crossings(set, -1.0, 31.0, npcs, keys, dirs, 64, &count), WF_STATUS_OK);
    CHECK(count == 2 + 6 + 2);
    CHECK(npcs[0] == 0 && keys[0] == 0 && npcs[1] == 0 && keys[1] == 1);
    CHECK(npcs[2] == 1 && keys[2] == 3 && keys[3] == 0 && dirs[2] == 1); /* t = 0 */
    CHECK(keys[4] == 1 && keys[5] == 2 && keys[6] == 3 && keys[7] == 0); /* 10, 20, 30, 30 */
    CHECK(npcs[8] == 2 && keys[8] == 0 && dirs[8] == -1);
    CHECK(npcs[9] == 2 && keys[9] == 1 && dirs[9] == 1);
    CHECK_STATUS(wf_schedule_set_crossings(set, 31.0, -1.0, npcs2, keys2, dirs2, 64, &count2), WF_STATUS_OK);
    CHECK(count2 == count);
    {
        int mirrored = 1;
        /* Per NPC the order is reversed: compare NPC 1's block. */
        for (i = 0; i < 6; ++i)
            if (npcs2[2 + i] != 1 || keys2[2 + i] != keys[2 + 5 - i] || dirs2[2 + i] != -dirs[2 + 5 - i])
                mirrored = 0;
        CHECK(mirrored);
    }
    /* Additivity: (a, b] + (b, c] = (a, c]. */
    {
        size_t c1 = 0, c2 = 0, c3 = 0;
        CHECK_STATUS(wf_schedule_set_crossings(set, -3.0, 30.0, NULL, NULL, NULL, 64, &c1), WF_STATUS_OK);
        CHECK_STATUS(wf_schedule_set_crossings(set, 30.0, 75.0, NULL, NULL, NULL, 64, &c2), WF_STATUS_OK);
        CHECK_STATUS(wf_schedule_set_crossings(set, -3.0, 75.0, NULL, NULL, NULL, 64, &c3), WF_STATUS_OK);
        CHECK(c1 + c2 == c3);
    }
    /* Too small: status and the count needed, nothing else written. */
    for (i = 0; i < 64; ++i) {
        npcs2[i] = 555;
        dirs2[i] = 555;
    }
    count2 = 0;
    CHECK_STATUS(wf_schedule_set_crossings(set, -1.0, 31.0, npcs2, NULL, dirs2, 3, &count2),
                 WF_STATUS_BUFFER_TOO_SMALL);
    CHECK(count2 == count);
    CHECK(npcs2[0] == 555 && dirs2[0] == 555);
    /* A long skip (many loop periods) is counted without enumerating. */
    CHECK_STATUS(wf_schedule_set_crossings(set, 0.0, 3.0e6, NULL, NULL, NULL, 0, &count2),
                 WF_STATUS_BUFFER_TOO_SMALL);
    CHECK(count2 > 400000);
    /* Count only (every array NULL, any capacity): closed-form, however long the span. On a
     * 30 s loop, 1e15 s is 1.3e14 events; walking them would never return. */
    count2 = 0;
    CHECK_STATUS(wf_schedule_set_crossings(set, 0.0, 1.0e15, NULL, NULL, NULL, SIZE_MAX, &count2), WF_STATUS_OK);
    CHECK(count2 > (size_t)100000000000000ull);
    {
        size_t zero_cap = 0;
        CHECK_STATUS(wf_schedule_set_crossings(set, 0.0, 1.0e15, NULL, NULL, NULL, 0, &zero_cap),
                     WF_STATUS_BUFFER_TOO_SMALL);
        CHECK(zero_cap == count2);
    }
    /* Equal times: no events. */
    CHECK_STATUS(wf_schedule_set_crossings(set, 5.0, 5.0, npcs, keys, dirs, 0, &count), WF_STATUS_OK);
    CHECK(count == 0);
    /* Bad input. */
    count = 999;
    CHECK_STATUS(wf_schedule_set_crossings(set, NAN, 1.0, npcs, keys, dirs, 64, &count), WF_STATUS_NON_FINITE);
    CHECK_STATUS(wf_schedule_set_crossings(NULL, 0.0, 1.0, npcs, keys, dirs, 64, &count), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_schedule_set_crossings(set, 0.0, 1.0, npcs, keys, dirs, 64, NULL), WF_STATUS_NULL_POINTER);
    CHECK(count == 999);
    wf_schedule_set_free(set);
}

void wf_suite_timeline(void) {
    paths();
    schedules();
    add_npc_bad_input();
    crossings();
}
