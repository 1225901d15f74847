/* Crowd: handle lifecycle, agents, obstacles, step, reads, and every kind of bad input. */
#include "check.h"

static void fill(float *v, int n, float x) {
    int i;
    for (i = 0; i < n; ++i) v[i] = x;
}

static int all_equal(const float *v, int n, float x) {
    int i;
    for (i = 0; i < n; ++i)
        if (v[i] != x) return 0;
    return 1;
}

static void lifecycle_and_bad_handles(void) {
    WfCrowd *crowd = NULL;
    size_t count = 99;
    CHECK_STATUS(wf_crowd_new(4, NULL), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_new((size_t)1 << 30, &crowd), WF_STATUS_INVALID_COUNT);
    CHECK(crowd == NULL);
    CHECK_STATUS(wf_crowd_new(4, &crowd), WF_STATUS_OK);
    CHECK(crowd != NULL);
    CHECK_STATUS(wf_crowd_agent_count(crowd, &count), WF_STATUS_OK);
    CHECK(count == 0);
    CHECK_STATUS(wf_crowd_agent_count(NULL, &count), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_agent_count(crowd, NULL), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_step(NULL, 0.1f, 1), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_remove_agent(NULL, 0), WF_STATUS_NULL_POINTER);
    wf_crowd_free(crowd);
    wf_crowd_free(NULL);
}

static void agents(void) {
    WfCrowd *crowd = NULL;
    const float p0[3] = {0, 0, 0}, p1[3] = {10, 1, 0}, target[3] = {10, 0, 0};
    const float nan_p[3] = {0, NAN, 0};
    uint32_t a = 0, b = 0, c = 0, d = 0, e = 99;
    float pos[6], yaws[2], sentinel[6];
    uint32_t states[2], kinds[2], hit_ids[2];
    float points[6], normals[6];
    size_t count = 0;
    int i;

    CHECK_STATUS(wf_crowd_new(3, &crowd), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_agent(crowd, p0, 0.0f, 1.5f, 0.4f, &a), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_agent(crowd, p1, 3.0f, 1.5f, 0.4f, &b), WF_STATUS_OK);
    CHECK(a != b);
    /* Bad agent input: nothing added, id untouched. */
    CHECK_STATUS(wf_crowd_add_agent(crowd, NULL, 0.0f, 1.0f, 0.4f, &e), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_add_agent(crowd, nan_p, 0.0f, 1.0f, 0.4f, &e), WF_STATUS_NON_FINITE);
    CHECK_STATUS(wf_crowd_add_agent(crowd, p0, NAN, 1.0f, 0.4f, &e), WF_STATUS_NON_FINITE);
    CHECK_STATUS(wf_crowd_add_agent(crowd, p0, 0.0f, 1.0f, 0.0f, &e), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_add_agent(crowd, p0, 0.0f, 1.0f, -1.0f, &e), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_add_agent(crowd, p0, 0.0f, -1.0f, 0.4f, &e), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_add_agent(crowd, p0, 0.0f, 1.0f, 0.4f, NULL), WF_STATUS_NULL_POINTER);
    CHECK(e == 99);
    CHECK_STATUS(wf_crowd_agent_count(crowd, &count), WF_STATUS_OK);
    CHECK(count == 2);
    /* Capacity: a full crowd grows, so the third and the fourth fit. */
    CHECK_STATUS(wf_crowd_add_agent(crowd, target, 0.0f, 1.0f, 0.4f, &c), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_agent(crowd, target, 0.0f, 1.0f, 0.4f, &d), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_remove_agent(crowd, d), WF_STATUS_OK);
    /* Removed ids are refused; the slot is reused under a new id. */
    CHECK_STATUS(wf_crowd_remove_agent(crowd, c), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_remove_agent(crowd, c), WF_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(wf_crowd_set_target(crowd, c, target, 0.5f), WF_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(wf_crowd_add_agent(crowd, target, 0.0f, 1.0f, 0.4f, &d), WF_STATUS_OK);
    CHECK(d != c);
    CHECK_STATUS(wf_crowd_remove_agent(crowd, d), WF_STATUS_OK);

    /* Setters and their bad input. */
    CHECK_STATUS(wf_crowd_set_target(crowd, a, target, 0.5f), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_target(crowd, a, NULL, 0.5f), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_set_target(crowd, a, target, -1.0f), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_target(crowd, a, nan_p, 0.5f), WF_STATUS_NON_FINITE);
    CHECK_STATUS(wf_crowd_set_steering(crowd, a, 6.0f, 5.0f, 1.5f, 1.5f), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_steering(crowd, a, 0.0f, 5.0f, 1.5f, 1.5f), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_steering(crowd, a, 6.0f, 5.0f, 4.0f, 1.5f), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_steering(crowd, a, 6.0f, INFINITY, 1.5f, 1.5f), WF_STATUS_NON_FINITE);
    CHECK_STATUS(wf_crowd_set_steering(crowd, 12345u, 6.0f, 5.0f, 1.5f, 1.5f), WF_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(wf_crowd_set_priority(crowd, a, 2.0f, 1u, 0xffffffffu), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_priority(crowd, a, NAN, 1u, 1u), WF_STATUS_NON_FINITE);
    CHECK_STATUS(wf_crowd_set_speed(crowd, a, 1.4f, 0.35f), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_speed(crowd, a, 1.4f, 0.0f), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_defaults(crowd, 6.0f, 4.0f, 1.7f, 1.5f, 0.3f), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_defaults(crowd, -6.0f, 4.0f, 1.7f, 1.5f, 0.3f), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_defaults(NULL, 6.0f, 4.0f, 1.7f, 1.5f, 0.3f), WF_STATUS_NULL_POINTER);
    {
        const float corners[6] = {3, 0, 3, 6, 0, 3};
        const float bad_corners[3] = {3, 0, NAN};
        CHECK_STATUS(wf_crowd_set_waypoints(crowd, a, corners, 2), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_set_waypoints(crowd, a, NULL, 2), WF_STATUS_NULL_POINTER);
        CHECK_STATUS(wf_crowd_set_waypoints(crowd, a, bad_corners, 1), WF_STATUS_NON_FINITE);
        CHECK_STATUS(wf_crowd_set_waypoints(crowd, a, NULL, 0), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_set_waypoints(crowd, a, corners, 2), WF_STATUS_OK);
    }
    CHECK_STATUS(wf_crowd_set_route_mode(crowd, a, WF_ROUTE_WAYPOINTS), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_route_mode(crowd, a, 7u), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_route_mode(crowd, a, WF_ROUTE_PLANNED), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_route_mode(crowd, a, WF_ROUTE_DIRECT), WF_STATUS_OK);

    /* Step: bad dt refused, good dt moves agent a toward its target. */
    CHECK_STATUS(wf_crowd_step(crowd, 0.0f, 1), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_step(crowd, -0.1f, 1), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_step(crowd, NAN, 1), WF_STATUS_NON_FINITE);
    CHECK_STATUS(wf_crowd_step(crowd, 100.0f, 1), WF_STATUS_INVALID_ARGUMENT);
    for (i = 0; i < 20; ++i) CHECK_STATUS(wf_crowd_step(crowd, 0.05f, 2), WF_STATUS_OK);
    {
        const uint32_t ids[2] = {a, b};
        CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, pos, 2, yaws, 2, states, 2), WF_STATUS_OK);
        CHECK(pos[0] > 0.5f); /* walked toward +x */
        CHECK(pos[1] == 0.0f); /* y carried */
        CHECK(pos[4] == 1.0f);
        CHECK(states[0] == WF_AGENT_MOVING || states[0] == WF_AGENT_BLOCKED);
        CHECK(states[1] == WF_AGENT_ARRIVED); /* b stands at its own target */
        CHECK_STATUS(wf_crowd_read_hits(crowd, ids, 2, kinds, 2, hit_ids, 2, points, 2, normals, 2),
                     WF_STATUS_OK);
        CHECK(kinds[0] <= WF_HIT_AGENT);
        CHECK(kinds[1] == WF_HIT_NONE);
        /* Optional outputs may be NULL. */
        CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, NULL, 0, yaws, 2, NULL, 0), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_read_hits(crowd, ids, 2, NULL, 0, NULL, 0, NULL, 0, normals, 2),
                     WF_STATUS_OK);
        /* Bad reads: clear status and nothing written. */
        fill(sentinel, 6, -7.0f);
        CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, sentinel, 1, NULL, 0, NULL, 0),
                     WF_STATUS_BUFFER_TOO_SMALL);
        CHECK_STATUS(wf_crowd_read_agents(crowd, NULL, 2, sentinel, 2, NULL, 0, NULL, 0),
                     WF_STATUS_NULL_POINTER);
        {
            const uint32_t bad_ids[2] = {a, c};
            CHECK_STATUS(wf_crowd_read_agents(crowd, bad_ids, 2, sentinel, 2, NULL, 0, NULL, 0),
                         WF_STATUS_OUT_OF_RANGE);
            CHECK_STATUS(wf_crowd_read_hits(crowd, bad_ids, 2, NULL, 0, NULL, 0, sentinel, 2, NULL, 0),
                         WF_STATUS_OUT_OF_RANGE);
        }
        CHECK_STATUS(wf_crowd_read_hits(crowd, ids, 2, NULL, 0, NULL, 0, sentinel, 1, NULL, 0),
                     WF_STATUS_BUFFER_TOO_SMALL);
        CHECK(all_equal(sentinel, 6, -7.0f));
        CHECK_STATUS(wf_crowd_read_agents(crowd, NULL, 0, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
    }

    /* Velocities: a walks toward +x on the ground plane; b stands at its target. */
    {
        const uint32_t ids[2] = {a, b}, bad_ids[2] = {a, 777u};
        float vel[6];
        CHECK_STATUS(wf_crowd_read_velocities(crowd, ids, 2, vel, 2), WF_STATUS_OK);
        CHECK(vel[0] > 0.5f && vel[0] <= 1.4f * 1.00001f);
        CHECK(vel[1] == 0.0f);
        CHECK(vel[3] == 0.0f && vel[4] == 0.0f && vel[5] == 0.0f);
        fill(sentinel, 6, -7.0f);
        CHECK_STATUS(wf_crowd_read_velocities(crowd, ids, 2, sentinel, 1), WF_STATUS_BUFFER_TOO_SMALL);
        CHECK_STATUS(wf_crowd_read_velocities(crowd, bad_ids, 2, sentinel, 2), WF_STATUS_OUT_OF_RANGE);
        CHECK_STATUS(wf_crowd_read_velocities(crowd, ids, 2, NULL, 2), WF_STATUS_NULL_POINTER);
        CHECK_STATUS(wf_crowd_read_velocities(crowd, NULL, 2, sentinel, 2), WF_STATUS_NULL_POINTER);
        CHECK_STATUS(wf_crowd_read_velocities(NULL, ids, 2, sentinel, 2), WF_STATUS_NULL_POINTER);
        CHECK(all_equal(sentinel, 6, -7.0f));
        CHECK_STATUS(wf_crowd_read_velocities(crowd, NULL, 0, NULL, 0), WF_STATUS_OK);
    }

    /* Batch targets: all or nothing; a target an agent already has changes nothing. */
    {
        const uint32_t ids[2] = {a, b}, bad_ids[2] = {b, 777u};
        const float to[6] = {10, 0, 0, 10, 1, 0}; /* a's target again, b's own place */
        const float away[6] = {-10, 0, 0, 10, 1, 8};
        const float nan_to[6] = {-10, 0, 0, NAN, 1, 8};
        const float radii[2] = {0.5f, 0.4f}, bad_radii[2] = {0.5f, -0.4f};
        /* (NULL, 0) radii: each keeps its arrival radius. */
        CHECK_STATUS(wf_crowd_set_targets(crowd, ids, 2, to, 2, NULL, 0), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, NULL, 0, NULL, 0, states, 2), WF_STATUS_OK);
        CHECK(states[1] == WF_AGENT_ARRIVED); /* b's own place again: still arrived */
        CHECK_STATUS(wf_crowd_set_targets(crowd, ids, 2, away, 1, NULL, 0), WF_STATUS_INVALID_COUNT);
        CHECK_STATUS(wf_crowd_set_targets(crowd, ids, 2, away, 2, radii, 1), WF_STATUS_INVALID_COUNT);
        CHECK_STATUS(wf_crowd_set_targets(crowd, ids, 2, nan_to, 2, NULL, 0), WF_STATUS_NON_FINITE);
        CHECK_STATUS(wf_crowd_set_targets(crowd, ids, 2, away, 2, bad_radii, 2), WF_STATUS_INVALID_ARGUMENT);
        CHECK_STATUS(wf_crowd_set_targets(crowd, bad_ids, 2, away, 2, NULL, 0), WF_STATUS_OUT_OF_RANGE);
        CHECK_STATUS(wf_crowd_set_targets(crowd, ids, 2, NULL, 2, NULL, 0), WF_STATUS_NULL_POINTER);
        CHECK_STATUS(wf_crowd_set_targets(NULL, ids, 2, away, 2, NULL, 0), WF_STATUS_NULL_POINTER);
        CHECK_STATUS(wf_crowd_set_targets(crowd, NULL, 0, NULL, 0, NULL, 0), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, NULL, 0, NULL, 0, states, 2), WF_STATUS_OK);
        CHECK(states[1] == WF_AGENT_ARRIVED); /* the refused batches did not send b away */
        CHECK_STATUS(wf_crowd_set_targets(crowd, ids, 2, away, 2, NULL, 0), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, NULL, 0, NULL, 0, states, 2), WF_STATUS_OK);
        CHECK(states[1] == WF_AGENT_MOVING); /* sent away: walks on */
        CHECK_STATUS(wf_crowd_set_targets(crowd, ids, 2, to, 2, radii, 2), WF_STATUS_OK);
    }

    /* Teleport: a NaN flags that agent INVALID, the other still moves. */
    {
        const uint32_t ids[2] = {a, b};
        const float to[6] = {NAN, 0, 0, 20, 0, 20};
        const float good[6] = {1, 0, 1, 20, 0, 20};
        const float y2[2] = {0.5f, 1.0f};
        CHECK_STATUS(wf_crowd_set_positions(crowd, ids, 2, to, 2, NULL, 0), WF_STATUS_NON_FINITE);
        CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, pos, 2, NULL, 0, states, 2), WF_STATUS_OK);
        CHECK(states[0] == WF_AGENT_INVALID);
        CHECK(pos[3] == 20.0f && pos[5] == 20.0f);
        CHECK(pos[0] == pos[0]); /* the stored position stays finite */
        CHECK_STATUS(wf_crowd_step(crowd, 0.1f, 1), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, NULL, 0, NULL, 0, states, 2), WF_STATUS_OK);
        CHECK(states[0] == WF_AGENT_INVALID);
        CHECK_STATUS(wf_crowd_set_positions(crowd, ids, 2, good, 2, y2, 2), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, pos, 2, yaws, 2, states, 2), WF_STATUS_OK);
        CHECK(states[0] != WF_AGENT_INVALID);
        CHECK(pos[0] == 1.0f && yaws[1] == 1.0f);
        CHECK_STATUS(wf_crowd_set_positions(crowd, ids, 2, good, 1, NULL, 0), WF_STATUS_INVALID_COUNT);
        CHECK_STATUS(wf_crowd_set_positions(crowd, ids, 2, good, 2, y2, 1), WF_STATUS_INVALID_COUNT);
        {
            const uint32_t bad_ids[2] = {b, 777u};
            CHECK_STATUS(wf_crowd_set_positions(crowd, bad_ids, 2, good, 2, NULL, 0),
                         WF_STATUS_OUT_OF_RANGE);
            CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 2, pos, 2, NULL, 0, NULL, 0), WF_STATUS_OK);
            CHECK(pos[3] == 20.0f); /* b not moved by the refused call */
        }
    }
    wf_crowd_free(crowd);
}

static void obstacles(void) {
    WfCrowd *crowd = NULL;
    const float c[3] = {5, 0, 0}, lo[3] = {-1, 0, -1}, hi[3] = {1, 0, 1};
    const float wa[3] = {0, 0, 5}, wb[3] = {5, 0, 5}, nanv[3] = {NAN, 0, 0};
    uint32_t o1 = 0, o2 = 0, o3 = 0, o4 = 0, untouched = 42;
    uint32_t agent = 0;
    const float start[3] = {-4, 0, 0.05f}, goal[3] = {12, 0, 0};
    float pos[3];
    uint32_t kind = 9, hit = 0;
    int i, saw_box = 0;
    CHECK_STATUS(wf_crowd_new(8, &crowd), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_circle(crowd, c, 1.0f, &o1), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_box(crowd, lo, hi, &o2), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_oriented_box(crowd, wb, 1.0f, 0.5f, 0.3f, &o3), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_wall(crowd, wa, wb, &o4), WF_STATUS_OK);
    CHECK(o1 != o2 && o2 != o3 && o3 != o4);
    CHECK_STATUS(wf_crowd_add_circle(crowd, c, 0.0f, &untouched), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_add_circle(crowd, nanv, 1.0f, &untouched), WF_STATUS_NON_FINITE);
    CHECK_STATUS(wf_crowd_add_circle(crowd, NULL, 1.0f, &untouched), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_add_circle(crowd, c, 1.0f, NULL), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_add_box(crowd, hi, lo, &untouched), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_add_box(crowd, lo, NULL, &untouched), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_add_oriented_box(crowd, c, -1.0f, 1.0f, 0.0f, &untouched),
                 WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_add_oriented_box(crowd, c, 1.0f, 1.0f, INFINITY, &untouched),
                 WF_STATUS_NON_FINITE);
    CHECK_STATUS(wf_crowd_add_wall(crowd, wa, wa, &untouched), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_add_wall(crowd, wa, nanv, &untouched), WF_STATUS_NON_FINITE);
    CHECK(untouched == 42);
    CHECK_STATUS(wf_crowd_remove_obstacle(crowd, o3), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_remove_obstacle(crowd, o3), WF_STATUS_OUT_OF_RANGE);
    CHECK_STATUS(wf_crowd_remove_obstacle(NULL, o1), WF_STATUS_NULL_POINTER);

    /* An agent walking through the box and circle reaches its goal without entering them. */
    CHECK_STATUS(wf_crowd_add_agent(crowd, start, 1.5707964f, 1.5f, 0.4f, &agent), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_target(crowd, agent, goal, 0.3f), WF_STATUS_OK);
    for (i = 0; i < 400; ++i) {
        CHECK_STATUS(wf_crowd_step(crowd, 0.05f, 1), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_read_agents(crowd, &agent, 1, pos, 1, NULL, 0, NULL, 0), WF_STATUS_OK);
        /* Outside the box grown by the radius (minus a hair) and the circle. */
        if (fabsf(pos[0]) < 1.0f && fabsf(pos[2]) < 1.0f) CHECK(0);
        CHECK((pos[0] - 5) * (pos[0] - 5) + pos[2] * pos[2] >= 1.4f * 1.4f - 1e-3f);
        CHECK_STATUS(wf_crowd_read_hits(crowd, &agent, 1, &kind, 1, &hit, 1, NULL, 0, NULL, 0),
                     WF_STATUS_OK);
        if (kind == WF_HIT_OBSTACLE && hit == o2) saw_box = 1;
    }
    CHECK(saw_box);
    CHECK_NEAR(pos[0], 12.0f, 0.31f);
    wf_crowd_free(crowd);
}

static void route_budget(void) {
    WfCrowd *crowd = NULL;
    size_t budget = 0, untouched = 77;
    CHECK_STATUS(wf_crowd_new(4, &crowd), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_route_budget(crowd, &budget), WF_STATUS_OK);
    CHECK(budget == 4); /* the default */
    CHECK_STATUS(wf_crowd_set_route_budget(crowd, 64), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_route_budget(crowd, 1), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_route_budget(crowd, &budget), WF_STATUS_OK);
    CHECK(budget == 1);
    /* Refused: NULL handle, 0, more than 64; the budget stays 1. */
    CHECK_STATUS(wf_crowd_set_route_budget(NULL, 2), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_set_route_budget(crowd, 0), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_route_budget(crowd, 65), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_route_budget(crowd, (size_t)-1), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_route_budget(NULL, &untouched), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_route_budget(crowd, NULL), WF_STATUS_NULL_POINTER);
    CHECK(untouched == 77);
    CHECK_STATUS(wf_crowd_route_budget(crowd, &budget), WF_STATUS_OK);
    CHECK(budget == 1);
    wf_crowd_free(crowd);
}

/* A crowd round a wall, one planned agent walking past it: its position, yaw and state after
 * 150 steps, baked at load or not. */
static void walk_past_a_wall(int bake, float pos[3], float *yaw, uint32_t *state) {
    WfCrowd *crowd = NULL;
    uint32_t id = 0, box = 0;
    const float lo[3] = {-1.0f, 0.0f, -3.0f}, hi[3] = {1.0f, 0.0f, 3.0f};
    const float from[3] = {-5.0f, 0.0f, 0.5f}, to[3] = {5.0f, 0.0f, 0.0f};
    int i;
    CHECK_STATUS(wf_crowd_new(4, &crowd), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_box(crowd, lo, hi, &box), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_agent(crowd, from, 1.57f, 1.5f, 0.4f, &id), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_target(crowd, id, to, 0.3f), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_route_mode(crowd, id, WF_ROUTE_PLANNED), WF_STATUS_OK);
    if (bake) {
        CHECK_STATUS(wf_crowd_bake_routes(crowd), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_bake_routes(crowd), WF_STATUS_OK); /* nothing left to do */
    }
    for (i = 0; i < 150; ++i) CHECK_STATUS(wf_crowd_step(crowd, 0.1f, 1), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_read_agents(crowd, &id, 1, pos, 1, yaw, 1, state, 1), WF_STATUS_OK);
    wf_crowd_free(crowd);
}

static void bake_routes(void) {
    WfCrowd *crowd = NULL;
    float pos[2][3], yaw[2];
    uint32_t state[2];
    CHECK_STATUS(wf_crowd_bake_routes(NULL), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_new(1, &crowd), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_bake_routes(crowd), WF_STATUS_OK); /* no obstacles: nothing to do */
    wf_crowd_free(crowd);
    /* Baked or not, the same bits; round the wall to the target. */
    walk_past_a_wall(1, pos[0], &yaw[0], &state[0]);
    walk_past_a_wall(0, pos[1], &yaw[1], &state[1]);
    CHECK(memcmp(pos[0], pos[1], sizeof pos[0]) == 0);
    CHECK(memcmp(&yaw[0], &yaw[1], sizeof yaw[0]) == 0);
    CHECK(state[0] == state[1] && state[0] == WF_AGENT_ARRIVED);
}

static void route_cache(void) {
    WfCrowd *crowd = NULL;
    const float lo[3] = {-1, 0, -3}, hi[3] = {1, 0, 3};
    const float start[3] = {-5, 0, 0}, goal[3] = {5, 0, 0};
    uint32_t box = 0, agent = 0, state = 9;
    size_t cap = 0, untouched = 77;
    int i;
    CHECK_STATUS(wf_crowd_new(4, &crowd), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_route_cache(crowd, &cap), WF_STATUS_OK);
    CHECK(cap == 512); /* the default */
    CHECK_STATUS(wf_crowd_set_route_cache(crowd, 4), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_route_cache(crowd, &cap), WF_STATUS_OK);
    CHECK(cap == 4);
    /* Refused: NULL handle, 0, more than 512; the cap stays 4. */
    CHECK_STATUS(wf_crowd_set_route_cache(NULL, 4), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_set_route_cache(crowd, 0), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_route_cache(crowd, 513), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_route_cache(crowd, (size_t)-1), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_route_cache(NULL, &untouched), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_route_cache(crowd, NULL), WF_STATUS_NULL_POINTER);
    CHECK(untouched == 77);
    CHECK_STATUS(wf_crowd_route_cache(crowd, &cap), WF_STATUS_OK);
    CHECK(cap == 4);
    CHECK_STATUS(wf_crowd_set_route_cache(crowd, 512), WF_STATUS_OK);

    /* A planned route round a wall still works with a cache of one field. */
    CHECK_STATUS(wf_crowd_set_route_cache(crowd, 1), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_box(crowd, lo, hi, &box), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_add_agent(crowd, start, 1.5707964f, 1.5f, 0.4f, &agent), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_target(crowd, agent, goal, 0.3f), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_route_mode(crowd, agent, WF_ROUTE_PLANNED), WF_STATUS_OK);
    for (i = 0; i < 600 && state != WF_AGENT_ARRIVED; ++i) {
        CHECK_STATUS(wf_crowd_step(crowd, 0.05f, 1), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_read_agents(crowd, &agent, 1, NULL, 0, NULL, 0, &state, 1),
                     WF_STATUS_OK);
    }
    CHECK(state == WF_AGENT_ARRIVED);
    wf_crowd_free(crowd);
}

/* Steps a crowd of two crossing lines round a pillar at `cap`; writes positions and yaws. */
static void crossing_at(uint32_t cap, float *pos, float *yaws) {
    WfCrowd *crowd = NULL;
    const float pillar[3] = {0, 0, 0};
    uint32_t ids[16], pillar_id = 0;
    int k;
    CHECK_STATUS(wf_crowd_new(16, &crowd), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_set_simd(crowd, cap), WF_STATUS_OK);
    for (k = 0; k < 16; ++k) {
        const float row = (float)(k / 8), col = (float)(k % 8);
        const float from[3] = {col - 3.5f, 0, 8 * row - 4}, to[3] = {3.5f - col, 0, 4 - 8 * row};
        CHECK_STATUS(wf_crowd_add_agent(crowd, from, 0, 1.4f, 0.35f, &ids[k]), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_set_target(crowd, ids[k], to, 0.2f), WF_STATUS_OK);
    }
    CHECK_STATUS(wf_crowd_add_circle(crowd, pillar, 0.8f, &pillar_id), WF_STATUS_OK);
    for (k = 0; k < 60; ++k) CHECK_STATUS(wf_crowd_step(crowd, 0.1f, 1), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_read_agents(crowd, ids, 16, pos, 16, yaws, 16, NULL, 0), WF_STATUS_OK);
    wf_crowd_free(crowd);
}

static void simd(void) {
    WfCrowd *crowd = NULL;
    const uint32_t caps[3] = {WF_SIMD_PORTABLE, WF_SIMD_AVX2, WF_SIMD_AVX512};
    uint32_t level = 77, untouched = 77;
    float pos[3][3 * 16], yaws[3][16];
    int i;
    CHECK_STATUS(wf_crowd_new(4, &crowd), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_simd(crowd, &level), WF_STATUS_OK);
    CHECK(level <= WF_SIMD_AVX512); /* the default: no cap, the best this CPU has */
    for (i = 0; i < 3; ++i) {
        CHECK_STATUS(wf_crowd_set_simd(crowd, caps[i]), WF_STATUS_OK);
        CHECK_STATUS(wf_crowd_simd(crowd, &level), WF_STATUS_OK);
        CHECK(level <= caps[i]); /* never above the cap */
    }
    CHECK_STATUS(wf_crowd_set_simd(crowd, WF_SIMD_PORTABLE), WF_STATUS_OK);
    CHECK_STATUS(wf_crowd_simd(crowd, &level), WF_STATUS_OK);
    CHECK(level == WF_SIMD_PORTABLE); /* every CPU has the portable code */
    /* Refused: NULL handle, unknown levels; the cap stays portable. */
    CHECK_STATUS(wf_crowd_set_simd(NULL, WF_SIMD_AVX2), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_set_simd(crowd, 3), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_set_simd(crowd, UINT32_MAX), WF_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(wf_crowd_simd(NULL, &untouched), WF_STATUS_NULL_POINTER);
    CHECK_STATUS(wf_crowd_simd(crowd, NULL), WF_STATUS_NULL_POINTER);
    CHECK(untouched == 77);
    CHECK_STATUS(wf_crowd_simd(crowd, &level), WF_STATUS_OK);
    CHECK(level == WF_SIMD_PORTABLE);
    wf_crowd_free(crowd);

    /* Every cap gives the same bits. */
    for (i = 0; i < 3; ++i) crossing_at(caps[i], pos[i], yaws[i]);
    for (i = 1; i < 3; ++i) {
        CHECK(memcmp(pos[0], pos[i], sizeof pos[0]) == 0);
        CHECK(memcmp(yaws[0], yaws[i], sizeof yaws[0]) == 0);
    }
}

void wf_suite_crowd(void) {
    lifecycle_and_bad_handles();
    agents();
    obstacles();
    route_cache();
    route_budget();
    bake_routes();
    simd();
}
