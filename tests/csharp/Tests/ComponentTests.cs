using System;
using UnityEngine;
using Wayfarer.Components;
using Wayfarer.Crowd;
using Wayfarer.Curves;
using Wayfarer.Timeline;

namespace Wayfarer.Tests
{
    /// <summary>The MonoBehaviours' logic, driven the way Unity drives it (Awake, OnEnable, Start, Update…).</summary>
    public static class ComponentTests
    {
        internal static BeanFollower Bean(PathEnd end, float speed)
        {
            var bean = new GameObject("bean").AddComponent<BeanFollower>();
            bean.transform.rotation = Quaternion.LookRotation(Vector3.right);
            Ref.Set(bean, "_checkpoints", new[]
            {
                Ref.Point("a", new Vector3(5, 0, 0), Vector3.right),
                Ref.Point("b", new Vector3(10, 0, 5), Vector3.forward),
            });
            Ref.Set(bean, "_speed", speed);
            Ref.Set(bean, "_end", end);
            Ref.Send(bean, "Awake");
            return bean;
        }

        [Test]
        public static void BeanFollowerMovesAtConstantSpeedAndStops()
        {
            var bean = Bean(PathEnd.Stop, 2f);
            Assert.True(bean.Path != null, "path built once in Awake");
            float length = bean.Path.Length;
            // The same curve as the seed's GetPoint chain: starts at the bean, ends at the last checkpoint.
            Assert.Near(Vector3.zero, bean.transform.position, 1e-5, "starts where it stands");
            Time.deltaTime = 0.02f;
            Vector3 previous = bean.transform.position;
            int frames = 0;
            while (!bean.Finished && frames < 10000)
            {
                Ref.Send(bean, "Update");
                frames++;
                float step = Vector3.Distance(previous, bean.transform.position);
                if (!bean.Finished)
                {
                    // Never stalls, never jumps: every frame covers speed × dt (chord ≤ arc, so within 1%).
                    Assert.Near(0.04, step, 0.0004, "frame " + frames + " step");
                }
                previous = bean.transform.position;
            }
            Assert.Near(Math.Ceiling(length / 0.04), frames, 1.0, "frames = length / (speed × dt)");
            Assert.Near(new Vector3(10, 0, 5), bean.transform.position, 1e-4, "stops at the last checkpoint");
            Assert.Near(Vector3.forward, bean.transform.forward, 1e-3, "facing along the path (the checkpoint's forward)");
            Ref.Send(bean, "Update");
            Assert.Near(new Vector3(10, 0, 5), bean.transform.position, 1e-4, "stays stopped");
            Ref.Send(bean, "OnDestroy");
            Assert.True(bean.Path == null, "path freed");
        }

        [Test]
        public static void BeanFollowerLoopsAndPingPongs()
        {
            var loop = Bean(PathEnd.Loop, 3f);
            float loopLength = loop.Path.Length;
            var ping = Bean(PathEnd.PingPong, 3f);
            float length = ping.Path.Length;
            Assert.True(loopLength > length, "a loop is closed back to the start");
            float dt = 0.1f;
            int frames = (int)Math.Ceiling(length * 1.5 / (3f * dt));
            for (int i = 0; i < frames; i++)
            {
                loop.Advance(dt);
                ping.Advance(dt);
            }
            double travelled = frames * 3.0 * dt;
            Assert.Near(travelled % loopLength, loop.Distance, 1e-3, "loop distance wraps");
            Assert.Equal(-1, ping.Direction, "ping-pong: walking back");
            Assert.Near(2 * length - travelled, ping.Distance, 1e-3, "ping-pong distance");
            Assert.True(!loop.Finished && !ping.Finished, "neither ever finishes");
            // A huge frame (a hitch) is fine: no stall, no runaway.
            ping.Advance(1000f);
            Assert.True(ping.Distance >= 0 && ping.Distance <= length, "stays on the path");
        }

        [Test]
        public static void BeanFollowerWithTooFewPointsWarnsAndIdles()
        {
            var bean = new GameObject("lonely").AddComponent<BeanFollower>();
            Ref.Set(bean, "_startFromHere", false);
            Ref.Set(bean, "_checkpoints", new[] { Ref.Point("a", Vector3.one) });
            Ref.Send(bean, "Awake");
            Assert.True(bean.Path == null, "no path");
            Assert.True(Debug.Messages.Count == 1 && Debug.Messages[0].StartsWith("warning"), "one warning");
            Ref.Send(bean, "Update");
        }

        internal static ScheduledWaypoint Waypoint(Vector3 p, double time, float hold)
        {
            return new ScheduledWaypoint { point = Ref.Point("w", p), arrivalTime = time, holdSeconds = hold };
        }

        [Test]
        public static void ScheduleFollowerFollowsTheClockBothWays()
        {
            var clock = new GameObject("clock").AddComponent<WorldClock>();
            Ref.Send(clock, "OnEnable");
            var npc = new GameObject("npc").AddComponent<ScheduleFollower>();
            npc.SetSchedule(new[]
            {
                Waypoint(new Vector3(0, 0, 0), 0, 0),
                Waypoint(new Vector3(6, 0, 0), 6, 2),
                Waypoint(new Vector3(6, 0, 4), 12, 0),
            }, PathShape.Polyline, Wrap.Clamp, false);
            int passedForward = 0, passedBack = 0;
            npc.WaypointPassed += (f, index, dir) =>
            {
                if (dir > 0) passedForward++;
                else passedBack++;
            };
            Ref.Send(npc, "Awake");
            Ref.Send(npc, "OnEnable");
            Ref.Send(npc, "Start");
            Assert.Equal(1, clock.FollowerCount, "registered once");
            clock.Advance(3f);
            Assert.Near(new Vector3(3, 0, 0), npc.transform.position, 1e-4, "t = 3");
            Assert.Equal(NpcState.Moving, npc.State, "moving");
            Assert.Near(Vector3.right, npc.transform.forward, 1e-3, "faces along the path");
            clock.Advance(4f);
            Assert.Near(new Vector3(6, 0, 0), npc.transform.position, 1e-4, "t = 7: holding at the corner");
            Assert.Equal(NpcState.Holding, npc.State, "holding");
            clock.TimeScale = -1f;
            clock.Advance(5f);
            Assert.Near(new Vector3(2, 0, 0), npc.transform.position, 1e-4, "rewound to t = 2");
            Assert.True(passedBack >= 1, "rewinding past the corner raises a backward crossing");
            clock.TimeScale = 50f;
            clock.Advance(1f);
            Assert.Near(new Vector3(6, 0, 4), npc.transform.position, 1e-4, "t = 52: done");
            Assert.Equal(NpcState.After, npc.State, "after");
            Assert.True(passedForward >= 2, "fast-forward crossed the corner and the end");
            clock.Now = 10.0;
            clock.Apply();
            Assert.Near(new Vector3(6, 0, 2), npc.transform.position, 1e-4, "jump to t = 10 (leg at 2 m/s)");
            Ref.Send(npc, "OnDisable");
            Assert.Equal(0, clock.FollowerCount, "unregistered");
            Ref.Send(npc, "OnDestroy");
            Ref.Send(clock, "OnDestroy");
        }

        [Test]
        public static void ScheduleFollowerRejectsNonIncreasingTimes()
        {
            var npc = new GameObject("npc").AddComponent<ScheduleFollower>();
            npc.SetSchedule(new[] { Waypoint(Vector3.zero, 5, 3), Waypoint(Vector3.one, 6, 0) }, PathShape.Polyline, Wrap.Clamp, false);
            Ref.Send(npc, "Awake");
            Assert.True(npc.Path == null, "not built");
            Assert.True(Debug.Messages.Exists(m => m.StartsWith("error") && m.Contains("strictly increase")), "explains why");
        }

        [Test]
        public static void BezierTrajectoryFillsTheLineAndFollowsItsControls()
        {
            var go = new GameObject("ball");
            var line = go.AddComponent<LineRenderer>();
            var traj = go.AddComponent<BezierTrajectory>();
            var controls = new[]
            {
                Ref.Point("c0", new Vector3(0, 1, 0)), Ref.Point("c1", new Vector3(1, 2, 0)), Ref.Point("c2", new Vector3(2, 0, 0)),
                Ref.Point("c3", new Vector3(3, 1.5f, 0)), Ref.Point("c4", new Vector3(4, 0, 0)),
            };
            Ref.Set(traj, "_controlPoints", controls);
            Ref.Set(traj, "_samples", 17);
            Ref.Send(traj, "OnEnable");
            Ref.Send(traj, "Update");
            Assert.Equal(17, line.positionCount, "sample count");
            var c = new Vector3[5];
            for (int i = 0; i < 5; i++) c[i] = controls[i].position;
            for (int i = 0; i < 17; i++) Assert.Near(Ref.Bezier(c, i / 16.0), line.GetPosition(i), 1e-4, "degree-4 curve, sample " + i);
            // Two quadratic pieces (seed 002's bounce).
            Ref.Set(traj, "_pieceDegrees", new[] { 2, 2 });
            Ref.Send(traj, "Update");
            Assert.Near(c[2], line.GetPosition(8), 1e-4, "the bounce point is the middle sample (parameter spacing)");
            controls[4].position = new Vector3(5, 0, 0);
            Ref.Send(traj, "Update");
            Assert.Near(new Vector3(5, 0, 0), line.GetPosition(16), 1e-4, "follows a moved control point");
            // Code-driven: a ballistic chain.
            var pts = new Vector3[Ballistic.ControlCount(1)];
            int n = Ballistic.Trajectory(new Vector3(0, 1, 0), new Vector3(2, 3, 0), 9.81f, 0f, 0.6f, 1, pts);
            var degrees = new uint[2];
            Ballistic.FillDegrees(degrees, 1);
            traj.SetControlPoints(pts, n, degrees);
            Assert.Near(pts[n - 1], line.GetPosition(16), 1e-4, "ends where the ball lands the second time");
            // A broken setup warns once instead of throwing every frame.
            Ref.Set(traj, "_pieceDegrees", new[] { 3, 3 });
            traj.SetControlPoints(pts, n, new uint[] { 3, 3 });
            traj.Refresh(true);
            Assert.Equal(1, Debug.Messages.FindAll(m => m.StartsWith("warning")).Count, "warned once");
            Ref.Set(traj, "_pieceDegrees", new[] { 2, 2 });
            traj.UseTransforms();
            Assert.Near(new Vector3(5, 0, 0), line.GetPosition(16), 1e-4, "back to the transforms");
        }

        internal static CrowdManager Manager()
        {
            var m = new GameObject("crowd").AddComponent<CrowdManager>();
            Ref.Send(m, "Awake");
            Ref.Send(m, "OnEnable");
            return m;
        }

        internal static ObstacleAvoidance Agent(CrowdManager manager, Vector3 at, Vector3 target, bool debugLine)
        {
            var go = new GameObject("agent");
            go.transform.position = at;
            go.transform.rotation = Quaternion.LookRotation(Vector3.forward);
            var agent = go.AddComponent<ObstacleAvoidance>();
            agent.Target = Ref.Point("target", target);
            agent.Configure(2f, 360f, 2f, 4f, 120f, 0.4f, 0.3f);
            if (debugLine)
            {
                Ref.Set(agent, "_debugLine", go.AddComponent<LineRenderer>());
                agent.DrawDebugLine = true;
            }
            agent.SetManager(manager);
            Ref.Send(agent, "OnEnable");
            Ref.Send(agent, "Start");
            return agent;
        }

        [Test]
        public static void CrowdManagerStepsAgentsAroundColliderObstacles()
        {
            var manager = Manager();
            var rockGo = new GameObject("rock");
            var sphere = rockGo.AddComponent<SphereCollider>();
            sphere.radius = 0.75f;
            rockGo.transform.localScale = new Vector3(2, 2, 2);
            var rock = rockGo.AddComponent<CrowdObstacle>();
            rock.SetManager(manager);
            var wallGo = new GameObject("wall");
            wallGo.transform.position = new Vector3(6, 0, 0);
            wallGo.AddComponent<BoxCollider>().size = new Vector3(1, 2, 6);
            wallGo.AddComponent<CrowdObstacle>().SetManager(manager);
            var pillarGo = new GameObject("pillar");
            pillarGo.transform.position = new Vector3(-6, 0, 0);
            pillarGo.AddComponent<CapsuleCollider>().direction = 2;
            pillarGo.AddComponent<CrowdObstacle>().SetManager(manager);
            Assert.Equal(1, rock.ShapeCount, "sphere = one circle");
            Assert.Equal(3, pillarGo.GetComponent<CrowdObstacle>().ShapeCount, "lying capsule = box + two circles");

            var agent = Agent(manager, new Vector3(0, 0.5f, -8), new Vector3(0.2f, 0, 8), true);
            Assert.Equal(1, manager.AgentCount, "registered");
            Assert.True(agent.IsRegistered, "agent knows");
            bool hitSeen = false;
            Time.deltaTime = 0.05f;
            for (int i = 0; i < 600 && agent.State != AgentState.Arrived; i++)
            {
                Ref.Send(manager, "Update");
                Vector3 p = agent.transform.position;
                Assert.Near(0.5, p.y, 1e-6, "keeps its height");
                Assert.True(new Vector3(p.x, 0, p.z).magnitude >= 1.5f + 0.4f - 0.05f, "frame " + i + ": inside the rock at " + p);
                if (agent.LastHit == HitKind.Obstacle)
                {
                    hitSeen = true;
                    var line = agent.GetComponent<LineRenderer>();
                    Assert.True(line.enabled, "debug line on while avoiding");
                    Assert.Near(agent.HitPoint, line.GetPosition(1), 1e-6, "line ends at the hit point");
                }
            }
            Assert.True(hitSeen, "the rock was seen");
            Assert.Equal(AgentState.Arrived, agent.State, "arrived");
            Assert.True(Debug.RaysDrawn > 0, "the seed's Debug.DrawRay of the repel direction");
            // Transform rotation is the crowd's yaw.
            Assert.Near(1.0, agent.transform.forward.magnitude, 1e-4, "unit forward");
            Assert.Near(0.0, agent.transform.forward.y, 1e-5, "yaw only");

            // A moving target is followed.
            agent.Target.position = new Vector3(3, 0, 4);
            for (int i = 0; i < 400 && Vector3.Distance(agent.transform.position, new Vector3(3, 0.5f, 4)) > 0.4f; i++) Ref.Send(manager, "Update");
            Assert.True(Vector3.Distance(agent.transform.position, new Vector3(3, 0.5f, 4)) <= 0.4f, "walked to the moved target");

            // A hitch longer than the library's longest step is clamped, not an exception.
            manager.Step(30f);

            Ref.Send(agent, "OnDisable");
            Assert.Equal(0, manager.AgentCount, "unregistered");
            Ref.Send(manager, "OnDestroy");
        }

        [Test]
        public static void CrowdManagerSendsMovedTargetsAndDrivesTheAnimator()
        {
            var manager = Manager();
            var leader = Ref.Point("leader", new Vector3(0, 0, 10));
            var agents = new ObstacleAvoidance[8];
            for (int i = 0; i < agents.Length; i++)
            {
                agents[i] = Agent(manager, new Vector3(3f * i - 10f, 0, -10), new Vector3(0, 0, 10), false);
                agents[i].Target = leader;
            }
            var animator = agents[0].gameObject.AddComponent<Animator>();
            agents[0].Animator = animator;
            agents[0].SpeedParameter = "Walk";
            Assert.Equal(0f, agents[0].Velocity.magnitude, "standing before the first step");
            Time.deltaTime = 0.05f;
            for (int frame = 0; frame < 40; frame++)
            {
                Ref.Send(manager, "Update");
            }
            float speed = animator.GetFloat("Walk");
            Assert.True(speed > 1f && speed <= 2f * 1.00001f, "the Animator gets the walking speed: " + speed);
            Assert.Near(agents[0].Velocity.magnitude, speed, 1e-6, "the same as Velocity");
            Assert.True(agents[0].Velocity.z > 0.5f, "walking toward the leader: " + agents[0].Velocity);
            // The leader walks off to the side: every follower turns after it (their targets are sent in one batch).
            for (int frame = 0; frame < 400; frame++)
            {
                leader.position = new Vector3(Mathf.Min(12f, 0.05f * frame), 0, 10);
                Ref.Send(manager, "Update");
            }
            foreach (var a in agents)
            {
                Assert.True(Vector3.Distance(a.transform.position, leader.position) < 4f,
                    "followed the moving leader to " + a.transform.position);
            }
            Ref.Send(manager, "OnDestroy");
        }

        static void Wall(CrowdManager manager, Vector3 center, Vector3 size)
        {
            var go = new GameObject("wall");
            go.transform.position = center;
            go.AddComponent<BoxCollider>().size = size;
            go.AddComponent<CrowdObstacle>().SetManager(manager);
        }

        /// <summary>Frames until <paramref name="agent"/> arrives (or <paramref name="frames"/>), calling
        /// <paramref name="watch"/> after each.</summary>
        static int Run(CrowdManager manager, ObstacleAvoidance agent, int frames, Action watch = null)
        {
            Time.deltaTime = 0.05f;
            for (int i = 0; i < frames; i++)
            {
                Ref.Send(manager, "Update");
                if (watch != null) watch();
                if (agent.State == AgentState.Arrived) return i;
            }
            return frames;
        }

        [Test]
        public static void PlannedRouteLeavesADeadEndThatDirectSteeringSticksIn()
        {
            int[] frames = new int[2];
            foreach (var route in new[] { AgentRoute.Direct, AgentRoute.Planned })
            {
                // A cup open toward -z round the agent; its target lies beyond the cup's bottom.
                var manager = Manager();
                Wall(manager, new Vector3(0, 0, 3), new Vector3(8, 2, 0.5f));
                Wall(manager, new Vector3(-4, 0, 0), new Vector3(0.5f, 2, 6.5f));
                Wall(manager, new Vector3(4, 0, 0), new Vector3(0.5f, 2, 6.5f));
                var agent = Agent(manager, Vector3.zero, new Vector3(0, 0, 10), false);
                agent.Route = route;
                Assert.Equal(route, agent.Route, "route kept");
                frames[(int)route] = Run(manager, agent, 1200);
                Ref.Send(manager, "OnDestroy");
            }
            Assert.True(frames[1] < 1200, "planned: arrived in " + frames[1] + " frames");
            Assert.True(frames[0] == 1200, "direct steering alone stays in the cup (arrived in " + frames[0] + " frames)");
        }

        [Test]
        public static void NavMeshRouteWalksThePathsCornersAndRepathsWhenTheTargetMoves()
        {
            var corners = new[] { new Vector3(6, 0, 0), new Vector3(6, 0, 10) };
            UnityEngine.AI.NavMesh.Router = (a, b) => new[] { a, corners[0], corners[1], b };
            try
            {
                var manager = Manager();
                var agent = Agent(manager, Vector3.zero, new Vector3(0, 0, 10), false);
                agent.Route = AgentRoute.NavMesh;
                int calls = UnityEngine.AI.NavMesh.Calls;
                float[] nearest = { float.MaxValue, float.MaxValue };
                Action watch = () =>
                {
                    for (int k = 0; k < 2; k++)
                        nearest[k] = Mathf.Min(nearest[k], Vector3.Distance(agent.transform.position, corners[k]));
                };
                Run(manager, agent, 2);
                Assert.Equal(calls + 1, UnityEngine.AI.NavMesh.Calls, "one path when the route is set");
                agent.Target.position = new Vector3(0.1f, 0, 10);
                Run(manager, agent, 1);
                Assert.Equal(calls + 1, UnityEngine.AI.NavMesh.Calls, "a target moved less than the repath distance: same path");
                agent.Target.position = new Vector3(0, 0, 10);
                int arrived = Run(manager, agent, 800, watch);
                Assert.True(arrived < 800, "arrived along the path");
                Assert.True(nearest[0] < 1f && nearest[1] < 1f, "passed by both corners: " + nearest[0] + ", " + nearest[1]);
                agent.Target.position = new Vector3(0, 0, 20);
                Run(manager, agent, 1);
                Assert.Equal(calls + 2, UnityEngine.AI.NavMesh.Calls, "moved past the repath distance: a new path");
                // No path: a warning, and the agent walks straight at its target.
                UnityEngine.AI.NavMesh.Router = (a, b) => null;
                var lost = Agent(manager, new Vector3(-20, 0, 0), new Vector3(-20, 0, 6), false);
                lost.Route = AgentRoute.NavMesh;
                float widest = 0f;
                int got = Run(manager, lost, 400, () => widest = Mathf.Max(widest, Mathf.Abs(lost.transform.position.x + 20f)));
                Assert.True(got < 400 && widest < 1e-3f, "walked straight (off by " + widest + ")");
                Assert.True(Debug.Messages.Exists(m => m.StartsWith("warning") && m.Contains("no NavMesh path")), "says why");
                Ref.Send(manager, "OnDestroy");
            }
            finally
            {
                UnityEngine.AI.NavMesh.Router = (a, b) => new[] { a, b };
            }
        }

        [Test]
        public static void NavMeshPartialPathWalksToItsEndAndInvalidPathWalksStraight()
        {
            // Partial: the path stops at (6, 0, 4), short of the target; the agent walks there and says so.
            var reachable = new Vector3(6, 0, 4);
            UnityEngine.AI.NavMesh.Router = (a, b) => new[] { a, new Vector3(6, 0, 0), reachable };
            UnityEngine.AI.NavMesh.RoutedStatus = UnityEngine.AI.NavMeshPathStatus.PathPartial;
            try
            {
                var manager = Manager();
                var agent = Agent(manager, Vector3.zero, new Vector3(0, 0, 10), false);
                agent.Route = AgentRoute.NavMesh;
                int arrived = Run(manager, agent, 800);
                Assert.True(agent.PathIsPartial, "the path is reported partial");
                Assert.True(Vector3.Distance(agent.PathEnd, reachable) < 1e-4f, "its end is the path's last corner");
                Assert.True(arrived < 800 && Vector3.Distance(agent.transform.position, reachable) < 1f,
                    "arrived at the reachable end, not the target: " + agent.transform.position);
                Assert.True(Debug.Messages.Exists(m => m.StartsWith("warning") && m.Contains("is partial")), "says so");
                // The NavMesh changed and the path is complete again: the goal is the target once more.
                UnityEngine.AI.NavMesh.RoutedStatus = UnityEngine.AI.NavMeshPathStatus.PathComplete;
                agent.RefreshRoute();
                Run(manager, agent, 800);
                Assert.True(!agent.PathIsPartial, "complete after the refresh");
                Assert.True(Vector3.Distance(agent.transform.position, new Vector3(0, 0, 10)) < 1f,
                    "then walks on to the target: " + agent.transform.position);

                // Invalid: corners are ignored, the agent walks straight at the target and a warning says why.
                UnityEngine.AI.NavMesh.RoutedStatus = UnityEngine.AI.NavMeshPathStatus.PathInvalid;
                UnityEngine.AI.NavMesh.Router = (a, b) => new[] { a, new Vector3(30, 0, 0), b };
                var lost = Agent(manager, new Vector3(-20, 0, 0), new Vector3(-20, 0, 6), false);
                lost.Route = AgentRoute.NavMesh;
                float widest = 0f;
                int got = Run(manager, lost, 400, () => widest = Mathf.Max(widest, Mathf.Abs(lost.transform.position.x + 20f)));
                Assert.True(got < 400 && widest < 1e-3f, "walked straight (off by " + widest + ")");
                Assert.True(Debug.Messages.Exists(m => m.StartsWith("warning") && m.Contains("no NavMesh path") && m.Contains("PathInvalid")), "says why");
                Ref.Send(manager, "OnDestroy");
            }
            finally
            {
                UnityEngine.AI.NavMesh.Router = (a, b) => new[] { a, b };
                UnityEngine.AI.NavMesh.RoutedStatus = UnityEngine.AI.NavMeshPathStatus.PathComplete;
            }
        }

        [Test]
        public static void NavMeshPathLongerThanTheCornerBufferIsReadWhole()
        {
            // 40 corners (the buffer starts at 16): a zigzag whose far corners the agent must pass.
            var corners = new Vector3[40];
            for (int i = 0; i < corners.Length; i++)
            {
                corners[i] = new Vector3(i % 2 == 0 ? 0f : 3f, 0f, 2f * i);
            }
            UnityEngine.AI.NavMesh.Router = (a, b) => corners;
            try
            {
                var manager = Manager();
                var agent = Agent(manager, corners[0], corners[39], false);
                agent.Route = AgentRoute.NavMesh;
                float nearest = float.MaxValue;
                int arrived = Run(manager, agent, 3000, () => nearest = Mathf.Min(nearest, Vector3.Distance(agent.transform.position, corners[37])));
                Assert.True(arrived < 3000, "arrived");
                Assert.True(nearest < 1f, "passed corner 37 of 40: " + nearest);
                Ref.Send(manager, "OnDestroy");
            }
            finally
            {
                UnityEngine.AI.NavMesh.Router = (a, b) => new[] { a, b };
            }
        }

        [Test]
        public static void MissingPluginIsReportedOnceWithTheFix()
        {
            var missing = typeof(BezierTrajectory).Assembly.GetType("Wayfarer.Components.MissingPlugin");
            var report = missing.GetMethod("Report", System.Reflection.BindingFlags.Static | System.Reflection.BindingFlags.NonPublic);
            var isMissing = missing.GetMethod("Is", System.Reflection.BindingFlags.Static | System.Reflection.BindingFlags.NonPublic);
            Assert.True((bool)isMissing.Invoke(null, new object[] { new DllNotFoundException("wayfarer") }), "DllNotFoundException");
            Assert.True(!(bool)isMissing.Invoke(null, new object[] { new InvalidOperationException() }), "other exceptions");
            int before = Debug.Messages.Count;
            for (int i = 0; i < 3; i++)
            {
                report.Invoke(null, new object[] { new DllNotFoundException("wayfarer"), null });
            }
            var said = Debug.Messages.GetRange(before, Debug.Messages.Count - before);
            Assert.Equal(1, said.Count, "one warning for three failures");
            Assert.True(said[0].StartsWith("warning") && said[0].Contains("build-plugin.sh") && said[0].Contains("tarball"),
                "says how to build or install it: " + said[0]);
        }

        [Test]
        public static void WaypointRouteVisitsItsTransformsInOrder()
        {
            var manager = Manager();
            var agent = Agent(manager, Vector3.zero, new Vector3(0, 0, 10), false);
            var points = new[] { Ref.Point("w0", new Vector3(-5, 0, 3)), Ref.Point("w1", new Vector3(5, 0, 7)) };
            agent.Waypoints = points;
            agent.Route = AgentRoute.Waypoints;
            var changes = new System.Collections.Generic.List<string>();
            agent.StateChanged += (who, was) => changes.Add(was + ">" + who.State);
            Run(manager, agent, 1);
            int lines = Gizmos.LinesDrawn;
            Ref.Send(agent, "OnDrawGizmos");
            Assert.True(Gizmos.LinesDrawn - lines >= 13 + 2, "the route's corners drawn after the FOV cone");
            int next = 0;
            int arrived = Run(manager, agent, 1000, () =>
            {
                if (next < 2 && Vector3.Distance(agent.transform.position, points[next].position) < 1f) next++;
            });
            Assert.True(arrived < 1000, "arrived");
            Assert.Equal(2, next, "passed both waypoints, in order");
            Assert.True(changes.Count >= 1 && changes[changes.Count - 1] == "Moving>Arrived",
                "StateChanged told of the arrival: " + string.Join(", ", changes.ToArray()));
            Ref.Send(manager, "OnDestroy");
        }

        [Test]
        public static void AvoidLayersAndPriorityReachTheCrowd()
        {
            float[] widest = new float[2];
            for (int pass = 0; pass < 2; pass++)
            {
                var manager = Manager();
                var a = Agent(manager, new Vector3(0, 0, -5), new Vector3(0, 0, 5), false);
                var b = Agent(manager, new Vector3(0, 0, 5), new Vector3(0, 0, -5), false);
                b.Priority = 1f;
                Assert.Near(1.0, b.Priority, 0.0, "priority kept");
                if (pass == 1)
                {
                    // Neither avoids the other's layer: they walk straight through each other.
                    a.AvoidLayers = 0;
                    b.Layers = 2;
                    b.AvoidLayers = 2;
                }
                Run(manager, a, 300, () => widest[pass] = Mathf.Max(widest[pass], Mathf.Abs(a.transform.position.x)));
                Ref.Send(manager, "OnDestroy");
            }
            Assert.True(widest[0] > 0.2f, "avoiding: stepped aside by " + widest[0]);
            Assert.True(widest[1] < 1e-4f, "masked out: straight on (off by " + widest[1] + ")");
        }

        [Test]
        public static void WallPointsFenceAnArena()
        {
            var manager = Manager();
            var arena = new GameObject("arena");
            arena.transform.position = new Vector3(100, 0, 0);
            var walls = arena.AddComponent<CrowdObstacle>();
            // A 10 m square (a repeated corner adds no wall), closed.
            walls.WallPoints = new[]
            {
                new Vector3(-5, 0, -5), new Vector3(5, 0, -5), new Vector3(5, 0, -5), new Vector3(5, 0, 5), new Vector3(-5, 0, 5),
            };
            walls.ClosedLoop = true;
            walls.SetManager(manager);
            Assert.Equal(4, walls.ShapeCount, "four walls");
            walls.ClosedLoop = false;
            Assert.Equal(3, walls.ShapeCount, "open: three (applied at once)");
            walls.ClosedLoop = true;
            Assert.Equal(4, walls.ShapeCount, "closed again");
            int lines = Gizmos.LinesDrawn;
            Ref.Send(walls, "OnDrawGizmos");
            Assert.Equal(lines + 5, Gizmos.LinesDrawn, "each wall drawn (the repeated corner's zero-length one too)");
            // Agents inside, sent far outside: they press against the walls and never cross them.
            var agents = new ObstacleAvoidance[6];
            for (int i = 0; i < agents.Length; i++)
            {
                float a = i * Mathf.PI / 3f;
                agents[i] = Agent(manager, new Vector3(100 + 2 * Mathf.Cos(a), 0, 2 * Mathf.Sin(a)),
                    new Vector3(100 + 30 * Mathf.Cos(a), 0, 30 * Mathf.Sin(a)), false);
            }
            float widest = 0f;
            Run(manager, agents[0], 400, () =>
            {
                foreach (var a in agents)
                {
                    Vector3 p = a.transform.position;
                    widest = Mathf.Max(widest, Mathf.Max(Mathf.Abs(p.x - 100), Mathf.Abs(p.z)));
                }
            });
            Assert.True(widest > 4f && widest <= 5f - 0.4f + 1e-3f, "pressed against the walls, never through: " + widest);
            Ref.Send(manager, "OnDestroy");
        }

        /// <summary>A manager with agents crossing a square through each other's paths.</summary>
        internal static CrowdManager CrossingCrowd(int n, out ObstacleAvoidance[] agents)
        {
            var manager = Manager();
            agents = new ObstacleAvoidance[n];
            for (int i = 0; i < n; i++)
            {
                float a = 2f * Mathf.PI * i / n;
                var at = new Vector3(8f * Mathf.Cos(a), 0, 8f * Mathf.Sin(a));
                agents[i] = Agent(manager, at, -at, i == 0);
            }
            return manager;
        }

        [Test]
        public static void BackgroundStepsAreTheSameStepsPlacedOneFrameLate()
        {
            const int n = 12, frames = 120;
            ObstacleAvoidance[] sync, back;
            var syncManager = CrossingCrowd(n, out sync);
            var backManager = CrossingCrowd(n, out back);
            backManager.StepInBackground = true;
            var expected = new Vector3[frames, n];
            Time.deltaTime = 0.05f;
            for (int f = 0; f < frames; f++)
            {
                Ref.Send(syncManager, "Update");
                Ref.Send(backManager, "Update");
                for (int i = 0; i < n; i++)
                {
                    expected[f, i] = sync[i].transform.position;
                    if (f > 0)
                    {
                        Assert.True(back[i].transform.position.Equals(expected[f - 1, i]),
                            "frame " + f + ", agent " + i + ": the synchronous step of the frame before");
                    }
                }
            }
            // Getting the crowd waits for the step in flight: a teleport then never overlaps a step.
            backManager.Simulation.SetPositions(new[] { back[0].AgentId }, 1, new[] { new Vector3(20, 0, 20) }, null);
            // An agent joining while a step is in flight waits for it and walks with the others.
            var late = Agent(backManager, new Vector3(0, 0, -30), new Vector3(0, 0, -20), false);
            Ref.Send(backManager, "Update");
            Assert.True(back[0].transform.position.Equals(new Vector3(20, 0, 20)), "the teleport placed");
            for (int f = 0; f < 200; f++) Ref.Send(backManager, "Update");
            Assert.True(Vector3.Distance(late.transform.position, new Vector3(0, 0, -20)) <= 0.3f + 1e-3f, "the late agent arrived");
            // Switching back places the step in flight, then steps in the frame again.
            backManager.StepInBackground = false;
            Ref.Send(backManager, "Update");
            Ref.Send(backManager, "OnDestroy");
            Ref.Send(syncManager, "OnDestroy");
        }

        [Test]
        public static void ANaNTargetHoldsBackNoOtherAgent()
        {
            var manager = Manager();
            var good = Agent(manager, new Vector3(0, 0, 0), new Vector3(0, 0, 5), false);
            var bad = Agent(manager, new Vector3(5, 0, 0), new Vector3(5, 0, 5), false);
            Time.deltaTime = 0.05f;
            Ref.Send(manager, "Update");
            int errors = Debug.Messages.FindAll(m => m.StartsWith("error")).Count;
            // Both targets move in the same frame, one of them to NaN (a broken transform).
            good.Target.position = new Vector3(-5, 0, 5);
            bad.Target.position = new Vector3(float.NaN, 0, 5);
            for (int f = 0; f < 300; f++) Ref.Send(manager, "Update");
            Assert.True(Vector3.Distance(good.transform.position, new Vector3(-5, 0, 5)) <= 0.3f + 1e-3f,
                "the good agent got its new target: " + good.transform.position);
            Assert.True(Debug.Messages.FindAll(m => m.StartsWith("error") && m.Contains("refused")).Count > errors, "the NaN target logged");
            Assert.True(Vector3.Distance(bad.transform.position, new Vector3(5, 0, 5)) <= 0.3f + 1e-3f, "the other kept its last target");
            // Fixed again: sent again, walked to.
            bad.Target.position = new Vector3(8, 0, 5);
            for (int f = 0; f < 200; f++) Ref.Send(manager, "Update");
            Assert.True(Vector3.Distance(bad.transform.position, new Vector3(8, 0, 5)) <= 0.3f + 1e-3f, "walked to the mended target");
            Ref.Send(manager, "OnDestroy");
        }

        [Test]
        public static void CrowdManagerGrowsPastItsCapacity()
        {
            var manager = new GameObject("small").AddComponent<CrowdManager>();
            manager.Capacity = 2;
            Ref.Send(manager, "Awake");
            var a = Agent(manager, new Vector3(0, 0, 0), new Vector3(0, 0, 5), false);
            var b = Agent(manager, new Vector3(2, 0, 0), new Vector3(2, 0, 5), false);
            var c = Agent(manager, new Vector3(4, 0, 0), new Vector3(4, 0, 5), false);
            Assert.True(a.IsRegistered && b.IsRegistered && c.IsRegistered, "a third agent fits a crowd made for two");
            Assert.Equal(3, manager.AgentCount, "three agents");
            Assert.Throws<InvalidOperationException>(() => manager.Capacity = 5, "capacity fixed once the crowd exists");
            Ref.Send(manager, "OnDestroy");
        }

        [Test]
        public static void AgentsWalkTheirGoalsAndDespawnThroughTheManager()
        {
            var manager = Manager();
            var a = Agent(manager, new Vector3(0, 0, 0), new Vector3(0, 0, 5), false);
            var b = Agent(manager, new Vector3(3, 0, 0), new Vector3(3, 0, 5), false);
            var reached = new System.Collections.Generic.List<int>();
            ObstacleAvoidance gone = null;
            a.GoalReached += (agent, goal) => reached.Add(goal);
            a.Despawned += agent => gone = agent;
            Assert.Throws<ArgumentException>(() => a.SetGoals(new Vector3[0]), "no goals");
            Assert.Throws<ArgumentOutOfRangeException>(() => a.SetGoals(new[] { Vector3.one }, OnArrival.Stop, -1f), "negative wait");
            a.SetGoals(new[] { new Vector3(0, 0, 2), new Vector3(-2, 0, 2) }, OnArrival.Despawn);
            Time.deltaTime = 0.05f;
            for (int i = 0; i < 200 && gone == null; i++)
            {
                Ref.Send(manager, "Update");
            }
            Assert.True(gone == a, "despawned at its last goal");
            Assert.Equal(2, reached.Count, "both goals reached");
            Assert.Equal(0, reached[0], "first goal");
            Assert.Equal(1, reached[1], "second goal");
            Assert.True(!a.IsRegistered && !a.gameObject.activeSelf, "left the manager, GameObject deactivated");
            Assert.Equal(1, manager.AgentCount, "the other agent stays");
            Assert.True(b.IsRegistered, "b still stepped");
            for (int i = 0; i < 100; i++)
            {
                Ref.Send(manager, "Update");
            }
            Assert.Equal(AgentState.Arrived, b.State, "b walked on to its target");
            Ref.Send(manager, "OnDestroy");
        }

        [Test]
        public static void CrowdManagerAppliesItsRouteBudget()
        {
            var manager = Manager();
            Assert.Equal(CrowdSimulation.DefaultRouteBudget, manager.RouteBudget, "default 4");
            manager.RouteBudget = 8;
            Agent(manager, Vector3.zero, new Vector3(0, 0, 5), false);
            Assert.Equal(8, manager.Simulation.RouteBudget, "applied when the crowd is made");
            manager.RouteBudget = 0;
            Assert.Equal(1, manager.RouteBudget, "clamped to 1");
            Assert.Equal(1, manager.Simulation.RouteBudget, "applied at once");
            manager.RouteBudget = 100000;
            Assert.Equal(CrowdSimulation.MaxRouteBudget, manager.Simulation.RouteBudget, "clamped to 64");
            // An Inspector edit is picked up by the next step.
            Ref.Set(manager, "_routeBudget", 2);
            manager.Step(0.05f);
            Assert.Equal(2, manager.Simulation.RouteBudget, "Inspector edit applied");
            Ref.Send(manager, "OnDestroy");
        }

        [Test]
        public static void CrowdManagerAppliesItsRouteCache()
        {
            var manager = Manager();
            Assert.Equal(CrowdSimulation.MaxRouteCache, manager.RouteCache, "default 512");
            manager.RouteCache = 8;
            Agent(manager, Vector3.zero, new Vector3(0, 0, 5), false);
            Assert.Equal(8, manager.Simulation.RouteCache, "applied when the crowd is made");
            manager.RouteCache = 0;
            Assert.Equal(1, manager.RouteCache, "clamped to 1");
            Assert.Equal(1, manager.Simulation.RouteCache, "applied at once");
            manager.RouteCache = 100000;
            Assert.Equal(CrowdSimulation.MaxRouteCache, manager.Simulation.RouteCache, "clamped to 512");
            // An Inspector edit is picked up by the next step.
            Ref.Set(manager, "_routeCache", 16);
            manager.Step(0.05f);
            Assert.Equal(16, manager.Simulation.RouteCache, "Inspector edit applied");
            Ref.Send(manager, "OnDestroy");
        }

        [Test]
        public static void CrowdManagerAppliesItsSimdCap()
        {
            var manager = Manager();
            Assert.Equal(Simd.Avx512, manager.Simd, "default: no cap");
            manager.Simd = Simd.Portable;
            Agent(manager, Vector3.zero, new Vector3(0, 0, 5), false);
            Assert.Equal(Simd.Portable, manager.Simulation.Simd, "applied when the crowd is made");
            manager.Simd = Simd.Avx2;
            Assert.True(manager.Simulation.Simd <= Simd.Avx2, "applied at once");
            manager.Simd = (Simd)7;
            Assert.Equal(Simd.Avx512, manager.Simd, "clamped to AVX-512");
            // An Inspector edit is picked up by the next step.
            Ref.Set(manager, "_simd", Simd.Portable);
            manager.Step(0.05f);
            Assert.Equal(Simd.Portable, manager.Simulation.Simd, "Inspector edit applied");
            Ref.Send(manager, "OnDestroy");
        }

        [Test]
        public static void GizmosDrawForEveryComponent()
        {
            var bean = Bean(PathEnd.Stop, 1f);
            Ref.Send(bean, "OnDrawGizmos");
            int afterBean = Gizmos.LinesDrawn;
            Assert.True(afterBean >= 63, "bean curve drawn");
            // Edit mode (no Awake yet): the curve comes from the checkpoints.
            var editBean = new GameObject("edit").AddComponent<BeanFollower>();
            Ref.Set(editBean, "_checkpoints", new[] { Ref.Point("a", new Vector3(3, 0, 3), Vector3.forward) });
            Ref.Send(editBean, "OnDrawGizmos");
            Assert.True(Gizmos.LinesDrawn > afterBean + 60, "edit-mode curve drawn");

            var npc = new GameObject("npc").AddComponent<ScheduleFollower>();
            npc.SetSchedule(new[] { Waypoint(Vector3.zero, 0, 1), Waypoint(Vector3.one, 5, 0) }, PathShape.CatmullRom, Wrap.Loop, true);
            Ref.Send(npc, "OnDrawGizmos");
            Ref.Send(npc, "Awake");
            int before = Gizmos.LinesDrawn;
            Ref.Send(npc, "OnDrawGizmos");
            Assert.True(Gizmos.LinesDrawn - before >= 63 && Gizmos.SpheresDrawn >= 4, "schedule drawn");

            var manager = Manager();
            var agent = Agent(manager, Vector3.zero, new Vector3(0, 0, 5), false);
            before = Gizmos.LinesDrawn;
            Ref.Send(agent, "OnDrawGizmos");
            Assert.True(Gizmos.LinesDrawn - before >= 13, "FOV cone drawn");
            Ref.Send(manager, "OnDestroy");
        }
    }
}
