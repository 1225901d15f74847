using System;
using UnityEngine;
using Wayfarer.Crowd;
using Wayfarer.Native;

namespace Wayfarer.Tests
{
    public static class CrowdTests
    {
        [Test]
        public static void YawConventionIsUnitys()
        {
            Assert.Near(0.0, CrowdSimulation.YawOf(Vector3.forward), 1e-6, "+Z = 0");
            Assert.Near(Math.PI / 2, CrowdSimulation.YawOf(Vector3.right), 1e-6, "+X = +90°");
            Assert.Near(Vector3.right, CrowdSimulation.ForwardOf((float)(Math.PI / 2)), 1e-6, "inverse");
            // Same as Unity's Y rotation.
            Assert.Near(Quaternion.Euler(0, 90, 0) * Vector3.forward, CrowdSimulation.ForwardOf((float)(Math.PI / 2)), 1e-5, "Quaternion.Euler");
        }

        [Test]
        public static void LoneAgentWalksStraightAtSpeedAndArrives()
        {
            using (var crowd = new CrowdSimulation(4))
            {
                uint id = crowd.AddAgent(new Vector3(0, 0, 0), (float)(Math.PI / 2), 2f, 0.5f);
                crowd.SetTarget(id, new Vector3(10, 0, 0), 0.25f);
                var ids = new[] { id };
                var pos = new Vector3[1];
                var yaw = new float[1];
                var st = new AgentState[1];
                crowd.Step(0.5f);
                crowd.ReadAgents(ids, 1, pos, yaw, st);
                Assert.Near(new Vector3(1, 0, 0), pos[0], 1e-3, "speed × dt along its heading");
                Assert.Near(Math.PI / 2, yaw[0], 1e-4, "still facing the target");
                Assert.Equal(AgentState.Moving, st[0], "moving");
                for (int i = 0; i < 20; i++) crowd.Step(0.5f);
                crowd.ReadAgents(ids, 1, pos, yaw, st);
                Assert.Equal(AgentState.Arrived, st[0], "arrived");
                Assert.True(Vector3.Distance(pos[0], new Vector3(10, 0, 0)) <= 0.25f + 1e-3, "within the arrival radius: " + pos[0]);
                Assert.Equal(1, crowd.AgentCount, "count");
            }
        }

        [Test]
        public static void GoalQueuesReportEachGoalAndDespawnAtTheLast()
        {
            using (var crowd = new CrowdSimulation(1))
            {
                uint id = crowd.AddAgent(Vector3.zero, 0f, 2f, 0.3f);
                var goals = new[] { new Vector3(0, 0, 2), new Vector3(2, 0, 2), new Vector3(2, 0, 0) };
                crowd.SetGoals(id, goals, new[] { 0.2f, 0.2f, 0.2f }, onArrival: OnArrival.Despawn, count: 2);
                Assert.Equal(1, crowd.GoalsLeft(id), "one goal after the current");
                crowd.PushGoal(id, goals[2], 0.2f);
                Assert.Equal(2, crowd.GoalsLeft(id), "pushed");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.PushGoal(id, goals[2], -1f), "negative radius");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetOnArrival(id, (OnArrival)9), "unknown behaviour");
                CrowdEvent[] events = null;
                var seen = new System.Collections.Generic.List<CrowdEvent>();
                for (int i = 0; i < 200 && crowd.AgentCount > 0; i++)
                {
                    crowd.Step(0.05f);
                    int n = crowd.ReadEvents(ref events);
                    for (int k = 0; k < n; k++) seen.Add(events[k]);
                }
                Assert.Equal(4, seen.Count, "three goals reached, one despawn");
                for (int k = 0; k < 3; k++)
                {
                    Assert.Equal(CrowdEventKind.GoalReached, seen[k].Kind, "reached " + k);
                    Assert.Equal(k, seen[k].Goal, "goal index");
                    Assert.True(Vector3.Distance(seen[k].Position, goals[k]) <= 0.2f + 1e-3f, "at goal " + k);
                }
                Assert.Equal(CrowdEventKind.Despawned, seen[3].Kind, "left");
                Assert.Equal(id, seen[3].Agent, "its id");
                Assert.Equal(0, crowd.AgentCount, "gone");
            }
        }

        [Test]
        public static void DefaultsApplyToNewAgents()
        {
            using (var crowd = new CrowdSimulation(2))
            {
                crowd.SetDefaults((float)(Math.PI / 4), 3f, 0.5f, 1f, 0.25f);
                uint id = crowd.AddAgent(Vector3.zero, 0f, 1f, 0.5f);
                crowd.SetTarget(id, new Vector3(10, 0, 0), 0.25f);
                crowd.Step(0.1f);
                var yaw = new float[1];
                crowd.ReadAgents(new[] { id }, 1, null, yaw, null);
                Assert.True(yaw[0] > 0 && yaw[0] <= Math.PI / 4 * 0.1 + 1e-4, "default turn rate applies: " + yaw[0]);
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetDefaults(-1f, 3f, 0.5f, 1f, 0.25f), "turn rate must be > 0");
            }
        }

        [Test]
        public static void TurnRateIsLimited()
        {
            using (var crowd = new CrowdSimulation(1))
            {
                uint id = crowd.AddAgent(Vector3.zero, 0f, 1f, 0.5f);
                crowd.SetTarget(id, new Vector3(-10, 0, -10), 0.1f);
                crowd.SetSteering(id, (float)(Math.PI / 2), 3f, 1f, 1f);
                crowd.Step(0.1f);
                var yaw = new float[1];
                crowd.ReadAgents(new[] { id }, 1, null, yaw, null);
                Assert.True(Math.Abs(yaw[0]) <= Math.PI / 2 * 0.1 + 1e-4, "turned at most rate × dt: " + yaw[0]);
                Assert.True(Math.Abs(yaw[0]) > 1e-4, "but turned");
            }
        }

        [Test]
        public static void AgentSteersAroundAnObstacleWithoutEnteringIt()
        {
            using (var crowd = new CrowdSimulation(1))
            {
                uint id = crowd.AddAgent(new Vector3(0, 0, -8), 0f, 2f, 0.4f);
                crowd.SetTarget(id, new Vector3(0.3f, 0, 8), 0.3f);
                crowd.SetSteering(id, (float)Math.PI * 2, 4f, 1.2f, 2f);
                uint rock = crowd.AddCircle(Vector3.zero, 1.5f);
                var ids = new[] { id };
                var pos = new Vector3[1];
                var st = new AgentState[1];
                var kinds = new HitKind[1];
                var hitIds = new uint[1];
                bool sawIt = false;
                for (int i = 0; i < 400 && st[0] != AgentState.Arrived; i++)
                {
                    crowd.Step(0.05f);
                    crowd.ReadAgents(ids, 1, pos, null, st);
                    crowd.ReadHits(ids, 1, kinds, hitIds, null, null);
                    Vector3 flat = new Vector3(pos[0].x, 0, pos[0].z);
                    Assert.True(flat.magnitude >= 1.5f + 0.4f - 0.05f, "step " + i + ": inside the rock at " + pos[0]);
                    if (kinds[0] == HitKind.Obstacle)
                    {
                        sawIt = true;
                        Assert.Equal(rock, hitIds[0], "hit id is the rock");
                    }
                }
                Assert.True(sawIt, "the FOV cone saw the rock");
                Assert.Equal(AgentState.Arrived, st[0], "arrived behind it");
            }
        }

        [Test]
        public static void AgentsDoNotOverlap()
        {
            using (var crowd = new CrowdSimulation(16))
            {
                var ids = new uint[8];
                for (int i = 0; i < 4; i++)
                {
                    // Two lines walking through each other.
                    ids[i] = crowd.AddAgent(new Vector3(i * 1.5f, 0, -6), 0f, 1.5f, 0.4f);
                    crowd.SetTarget(ids[i], new Vector3(i * 1.5f, 0, 6), 0.3f);
                    ids[4 + i] = crowd.AddAgent(new Vector3(i * 1.5f + 0.2f, 0, 6), (float)Math.PI, 1.5f, 0.4f);
                    crowd.SetTarget(ids[4 + i], new Vector3(i * 1.5f + 0.2f, 0, -6), 0.3f);
                }
                var pos = new Vector3[8];
                for (int s = 0; s < 300; s++)
                {
                    crowd.Step(0.05f, 2);
                    crowd.ReadAgents(ids, 8, pos, null, null);
                    for (int a = 0; a < 8; a++)
                        for (int b = a + 1; b < 8; b++)
                        {
                            float d = Vector3.Distance(new Vector3(pos[a].x, 0, pos[a].z), new Vector3(pos[b].x, 0, pos[b].z));
                            Assert.True(d >= 0.8f - 0.1f, "step " + s + ": agents " + a + " and " + b + " overlap (" + d + ")");
                        }
                }
            }
        }

        [Test]
        public static void RouteBudgetIsSetAndBadBudgetsAreRefused()
        {
            using (var crowd = new CrowdSimulation(1))
            {
                Assert.Equal(CrowdSimulation.DefaultRouteBudget, crowd.RouteBudget, "default 4");
                crowd.SetRouteBudget(CrowdSimulation.MaxRouteBudget);
                crowd.SetRouteBudget(1);
                Assert.Equal(1, crowd.RouteBudget, "set");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetRouteBudget(0), "0 fields");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetRouteBudget(CrowdSimulation.MaxRouteBudget + 1), "over 64");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetRouteBudget(-1), "negative");
                Assert.Equal(1, crowd.RouteBudget, "refused calls change nothing");
            }
        }

        [Test]
        public static void ACrowdBakedAtLoadMovesExactlyAsOneThatIsNot()
        {
            using (var baked = new CrowdSimulation(4))
            using (var plain = new CrowdSimulation(4))
            {
                var crowds = new[] { baked, plain };
                var ids = new uint[2];
                for (int k = 0; k < 2; k++)
                {
                    crowds[k].AddBox(new Vector3(-1, 0, -3), new Vector3(1, 0, 3));
                    ids[k] = crowds[k].AddAgent(new Vector3(-5, 0, 0.5f), (float)(Math.PI / 2), 1.5f, 0.4f);
                    crowds[k].SetTarget(ids[k], new Vector3(5, 0, 0), 0.3f);
                    crowds[k].SetRouteMode(ids[k], RouteMode.Planned);
                }
                baked.BakeRoutes();
                baked.BakeRoutes(); // (nothing left to do)
                var pos = new[] { new Vector3[1], new Vector3[1] };
                var yaw = new[] { new float[1], new float[1] };
                var st = new[] { new AgentState[1], new AgentState[1] };
                for (int i = 0; i < 200; i++)
                {
                    for (int k = 0; k < 2; k++)
                    {
                        crowds[k].Step(0.1f);
                        crowds[k].ReadAgents(new[] { ids[k] }, 1, pos[k], yaw[k], st[k]);
                    }
                    Assert.Equal(pos[1][0], pos[0][0], "same position at step " + i);
                    Assert.Equal(yaw[1][0], yaw[0][0], "same yaw at step " + i);
                }
                Assert.Equal(AgentState.Arrived, st[0][0], "round the box to the target");
            }
        }

        [Test]
        public static void RouteCacheIsCappedAndBadCapsAreRefused()
        {
            using (var crowd = new CrowdSimulation(1))
            {
                Assert.Equal(CrowdSimulation.MaxRouteCache, crowd.RouteCache, "default 512");
                crowd.SetRouteCache(4);
                Assert.Equal(4, crowd.RouteCache, "set");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetRouteCache(0), "0 fields");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetRouteCache(CrowdSimulation.MaxRouteCache + 1), "over 512");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetRouteCache(-1), "negative");
                Assert.Equal(4, crowd.RouteCache, "refused calls change nothing");

                // A planned route round a wall still works with a cache of one field.
                crowd.SetRouteCache(1);
                crowd.AddBox(new Vector3(-1, 0, -3), new Vector3(1, 0, 3));
                uint id = crowd.AddAgent(new Vector3(-5, 0, 0), (float)(Math.PI / 2), 1.5f, 0.4f);
                crowd.SetTarget(id, new Vector3(5, 0, 0), 0.3f);
                crowd.SetRouteMode(id, RouteMode.Planned);
                var ids = new[] { id };
                var st = new AgentState[1];
                for (int i = 0; i < 600 && st[0] != AgentState.Arrived; i++)
                {
                    crowd.Step(0.05f);
                    crowd.ReadAgents(ids, 1, null, null, st);
                }
                Assert.Equal(AgentState.Arrived, st[0], "arrived round the wall");
            }
        }

        [Test]
        public static void SimdCapIsNeverExceededAndUnknownLevelsAreRefused()
        {
            var caps = new[] { Simd.Portable, Simd.Avx2, Simd.Avx512 };
            using (var crowd = new CrowdSimulation(1))
            {
                Assert.True(crowd.Simd <= Simd.Avx512, "default: no cap, got " + crowd.Simd);
                foreach (var cap in caps)
                {
                    crowd.SetSimd(cap);
                    Assert.True(crowd.Simd <= cap, "never above the cap " + cap + ", got " + crowd.Simd);
                }
                crowd.SetSimd(Simd.Portable);
                Assert.Equal(Simd.Portable, crowd.Simd, "every CPU has the portable code");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetSimd((Simd)3), "one past AVX-512");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetSimd((Simd)uint.MaxValue), "uint.MaxValue");
                Assert.Equal(Simd.Portable, crowd.Simd, "refused calls change nothing");
            }

            // Every cap gives the same bits: two lines crossing round a pillar.
            var runs = new Vector3[caps.Length][];
            for (int c = 0; c < caps.Length; c++)
            {
                using (var crowd = new CrowdSimulation(16))
                {
                    crowd.SetSimd(caps[c]);
                    var ids = new uint[16];
                    for (int k = 0; k < 16; k++)
                    {
                        float row = k / 8, col = k % 8;
                        ids[k] = crowd.AddAgent(new Vector3(col - 3.5f, 0, 8 * row - 4), 0f, 1.4f, 0.35f);
                        crowd.SetTarget(ids[k], new Vector3(3.5f - col, 0, 4 - 8 * row), 0.2f);
                    }
                    crowd.AddCircle(Vector3.zero, 0.8f);
                    for (int i = 0; i < 60; i++) crowd.Step(0.1f);
                    runs[c] = new Vector3[16];
                    crowd.ReadAgents(ids, 16, runs[c], null, null);
                }
            }
            for (int c = 1; c < caps.Length; c++)
            {
                for (int k = 0; k < 16; k++)
                {
                    Assert.True(runs[c][k].x.Equals(runs[0][k].x) && runs[c][k].z.Equals(runs[0][k].z),
                        caps[c] + " agent " + k + ": " + runs[c][k] + " vs portable " + runs[0][k]);
                }
            }
        }

        [Test]
        public static void BatchTargetsMatchSingleCallsAndVelocitiesFollowTheWalk()
        {
            using (var batch = new CrowdSimulation(8))
            using (var single = new CrowdSimulation(8))
            {
                // Pooled buffers longer than the count.
                var ids = new uint[12];
                var targets = new Vector3[12];
                var radii = new float[12];
                for (int i = 0; i < 6; i++)
                {
                    var at = new Vector3(2f * i, 0, 0);
                    ids[i] = batch.AddAgent(at, 0f, 1.5f, 0.4f);
                    Assert.Equal(ids[i], single.AddAgent(at, 0f, 1.5f, 0.4f), "same ids");
                    targets[i] = new Vector3(10f - 2f * i, 0, i % 2 == 0 ? 8f : -8f);
                    radii[i] = 0.2f + 0.05f * i;
                    single.SetTarget(ids[i], targets[i], radii[i]);
                }
                batch.SetTargets(ids, 6, targets, radii);
                var pb = new Vector3[6];
                var ps = new Vector3[6];
                for (int step = 0; step < 40; step++)
                {
                    batch.Step(0.1f);
                    single.Step(0.1f);
                    // Re-sending the same targets every step changes nothing.
                    batch.SetTargets(ids, 6, targets, null);
                }
                batch.ReadAgents(ids, 6, pb, null, null);
                single.ReadAgents(ids, 6, ps, null, null);
                for (int i = 0; i < 6; i++)
                {
                    Assert.Equal(ps[i], pb[i], "agent " + i + ": the batch walks as the single calls do");
                }
                var v = new Vector3[8];
                batch.ReadVelocities(ids, 6, v);
                for (int i = 0; i < 6; i++)
                {
                    Assert.Near(0.0, v[i].y, 0.0, "on the ground plane");
                    Assert.True(v[i].magnitude > 0.5f && v[i].magnitude <= 1.5f * 1.00001f, "walking speed " + v[i].magnitude);
                    Assert.True(Vector3.Dot(v[i], targets[i] - pb[i]) > 0f, "toward its target");
                }
                // All or nothing.
                var bad = (Vector3[])targets.Clone();
                bad[3] = new Vector3(float.NaN, 0, 0);
                targets[0] = new Vector3(-50, 0, -50);
                Assert.Fails(WfStatus.NonFinite, () => batch.SetTargets(ids, 6, bad, null), "NaN target");
                var badRadii = new float[6];
                badRadii[5] = -1f;
                Assert.Fails(WfStatus.InvalidArgument, () => batch.SetTargets(ids, 6, targets, badRadii), "negative radius");
                var unknown = (uint[])ids.Clone();
                unknown[4] = 99999u;
                Assert.Fails(WfStatus.OutOfRange, () => batch.SetTargets(unknown, 6, targets, null), "unknown id");
                Assert.Throws<ArgumentOutOfRangeException>(() => batch.SetTargets(ids, 6, new Vector3[5], null), "targets shorter than count");
                Assert.Throws<ArgumentOutOfRangeException>(() => batch.SetTargets(ids, 6, targets, new float[2]), "radii shorter than count");
                Assert.Throws<ArgumentOutOfRangeException>(() => batch.ReadVelocities(ids, 13, v), "count beyond the ids");
                Assert.Fails(WfStatus.BufferTooSmall, () => batch.ReadVelocities(ids, 6, new Vector3[5]), "velocities too short");
                batch.Step(0.1f);
                single.Step(0.1f);
                batch.ReadAgents(ids, 6, pb, null, null);
                single.ReadAgents(ids, 6, ps, null, null);
                Assert.Equal(ps[0], pb[0], "the refused batches sent nobody away");
                batch.SetTargets(ids, 0, null, null);
                // Teleporting from pooled buffers longer than the count.
                var to = new Vector3[12];
                to[0] = new Vector3(1, 0, 1);
                batch.SetPositions(ids, 1, to, new float[12]);
                batch.ReadAgents(ids, 1, pb, null, null);
                Assert.Equal(to[0], pb[0], "teleported");
            }
        }

        [Test]
        public static void RemovedIdsAndBadValuesAreRejected()
        {
            using (var crowd = new CrowdSimulation(2))
            {
                uint id = crowd.AddAgent(Vector3.zero, 0f, 1f, 0.5f);
                uint box = crowd.AddBox(new Vector3(2, 0, 2), new Vector3(3, 1, 3));
                crowd.AddOrientedBox(new Vector3(-3, 0, 0), 1f, 0.5f, 0.3f);
                crowd.AddWall(new Vector3(0, 0, 5), new Vector3(4, 0, 5));
                crowd.SetWaypoints(id, new[] { new Vector3(1, 0, 1), new Vector3(2, 0, 4) });
                crowd.SetRouteMode(id, RouteMode.Waypoints);
                crowd.SetPriority(id, 1f, 1u, 0xffffffffu);
                crowd.SetSpeed(id, 2f, 0.3f);
                crowd.SetPositions(new[] { id }, 1, new[] { new Vector3(0.5f, 0, 0) }, new[] { 0.5f });
                crowd.RemoveObstacle(box);
                Assert.Fails(WfStatus.OutOfRange, () => crowd.RemoveObstacle(box), "obstacle removed twice");
                crowd.RemoveAgent(id);
                Assert.Fails(WfStatus.OutOfRange, () => crowd.SetTarget(id, Vector3.one, 0.5f), "removed agent");
                Assert.Fails(WfStatus.OutOfRange, () => crowd.ReadAgents(new[] { id }, 1, new Vector3[1], null, null), "read removed");
                Assert.Equal(0, crowd.AgentCount, "none left");
                Assert.Fails(WfStatus.NonFinite, () => crowd.AddAgent(new Vector3(float.NaN, 0, 0), 0f, 1f, 0.5f), "NaN position");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.SetRouteMode(crowd.AddAgent(Vector3.zero, 0, 1, 0.5f), (RouteMode)9), "bad route mode");
                Assert.Fails(WfStatus.NonFinite, () => crowd.Step(float.NaN), "NaN dt");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.Step(0f), "dt must be > 0");
                Assert.Fails(WfStatus.InvalidArgument, () => crowd.Step(CrowdSimulation.MaxStep * 1.5f), "dt too long");
                crowd.Step(CrowdSimulation.MaxStep);
                Assert.Equal(2, crowd.Capacity, "capacity");
                crowd.AddAgent(Vector3.one, 0, 1, 0.5f);
                crowd.AddAgent(Vector3.one * 3, 0, 1, 0.5f);
                Assert.Equal(3, crowd.AgentCount, "a full crowd grows");
                Assert.Throws<ArgumentOutOfRangeException>(() => crowd.ReadAgents(new uint[1], 2, null, null, null), "count beyond the id array");
            }
            var c = new CrowdSimulation(1);
            c.Dispose();
            c.Dispose();
            Assert.Throws<ObjectDisposedException>(() => c.Step(0.1f), "use after dispose");
        }
    }
}
