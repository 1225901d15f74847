using System;
using System.Collections.Generic;
using System.Diagnostics;
using UnityEngine;
using Wayfarer.Crowd;
using Wayfarer.Curves;
using Wayfarer.Timeline;

namespace Wayfarer.Bench
{
    /// <summary>
    /// The same work done by managed C# written the way the seeds do it, and by one batched
    /// wayfarer call, under Mono. Not a test: prints per-item times and the ratio.
    /// </summary>
    public static class Program
    {
        static readonly List<string[]> Rows = new List<string[]>();

        public static int Main(string[] args)
        {
            double seconds = args.Length > 0 ? double.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 0.4;
            var mono = Type.GetType("Mono.Runtime");
            var display = mono == null ? null : mono.GetMethod("GetDisplayName", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static);
            string runtime = display == null ? ".NET " + Environment.Version : "Mono " + display.Invoke(null, null);
            Console.WriteLine("wayfarer " + Wf.Version + " under " + runtime + ", " + seconds + " s per measurement");
            Hermite(seconds);
            Bezier(seconds);
            Schedules(seconds);
            Crowd(seconds);
            Retarget(seconds);
            Background();
            Console.WriteLine();
            Console.WriteLine("| work | seed-style C# | wayfarer (one batched call) | speed-up |");
            Console.WriteLine("| --- | ---: | ---: | ---: |");
            foreach (var r in Rows) Console.WriteLine("| " + string.Join(" | ", r) + " |");
            return 0;
        }

        /// <summary>Seconds per call of <paramref name="work"/>, repeated for at least <paramref name="seconds"/>.</summary>
        static double Time(Action work, double seconds)
        {
            work();
            var sw = Stopwatch.StartNew();
            long calls = 0;
            do
            {
                work();
                calls++;
            } while (sw.Elapsed.TotalSeconds < seconds);
            return sw.Elapsed.TotalSeconds / calls;
        }

        static string Ns(double s)
        {
            double ns = s * 1e9;
            return ns >= 1e6 ? (ns / 1e6).ToString("F2") + " ms" : ns >= 1e3 ? (ns / 1e3).ToString("F2") + " µs" : ns.ToString("F1") + " ns";
        }

        static void Report(string work, string unit, double managed, double native, int items)
        {
            string m = Ns(managed / items) + "/" + unit, n = Ns(native / items) + "/" + unit;
            string ratio = (managed / native).ToString("F1") + "×";
            Console.WriteLine(string.Format("{0,-48} managed {1,14}   wayfarer {2,14}   {3,8}", work, m, n, ratio));
            Rows.Add(new[] { work, m, n, ratio });
        }

        // ---- seed 000: BeanFollower.GetPoint, one Hermite point per call --------------------------

        static Vector3 SeedHermite(Vector3 p0, Vector3 p1, Vector3 m0, Vector3 m1, float t)
        {
            t = Mathf.Clamp01(t);
            float u = 1 - t;
            float h00 = (1 + 2 * t) * u * u;
            float h01 = t * t * (3 - 2 * t);
            float h10 = t * u * u;
            float h11 = t * t * (t - 1);
            return h00 * p0 + h10 * m0 + h01 * p1 + h11 * m1;
        }

        static unsafe void Hermite(double seconds)
        {
            const int n = 100000;
            var ts = new float[n];
            for (int i = 0; i < n; i++) ts[i] = i / (n - 1f);
            var outp = new Vector3[n];
            Vector3 p0 = new Vector3(0, 0, 0), p1 = new Vector3(4, 0, 2), m0 = new Vector3(1, 0, 0), m1 = new Vector3(0, 0, 3);
            double managed = Time(() =>
            {
                for (int i = 0; i < n; i++) outp[i] = SeedHermite(p0, p1, m0, m1, ts[i]);
            }, seconds);
            double native = Time(() => HermiteSegment.Evaluate(p0, p1, m0, m1, ts, outp), seconds);
            Report("Hermite point (seed 000 GetPoint), 100k", "point", managed, native, n);
            double perCall = Time(() =>
            {
                for (int i = 0; i < 10000; i++) outp[i] = HermiteSegment.Evaluate(p0, p1, m0, m1, ts[i]);
            }, seconds);
            Report("  same, one P/Invoke per point (don't)", "point", managed, perCall * n / 10000, n);
        }

        // ---- seed 002: GetBezierList / GetBeizerPoint, a List per recursion level -----------------

        static Vector3 SeedBezierPoint(List<Vector3> points, float t)
        {
            if (points.Count <= 1) return points[0];
            var next = new List<Vector3>();
            for (int i = 0; i < points.Count - 1; i++) next.Add((1 - t) * points[i] + t * points[i + 1]);
            return SeedBezierPoint(next, t);
        }

        static List<Vector3> SeedBezierList(List<Vector3> controls, float count)
        {
            var path = new List<Vector3>();
            for (int i = 1; i <= count; i++) path.Add(SeedBezierPoint(controls, i / count));
            return path;
        }

        static void Bezier(double seconds)
        {
            const int samples = 1000;
            var controls = new[] { new Vector3(0, 1, 0), new Vector3(1, 3, 0.5f), new Vector3(2, 0, 1), new Vector3(3, 2, 1), new Vector3(4, 0.5f, 0), new Vector3(5, 0, 0) };
            var list = new List<Vector3>(controls);
            var outp = new Vector3[samples];
            double managed = Time(() => SeedBezierList(list, samples), seconds);
            double native = Time(() => BezierCurve.Sample(controls, samples, Spacing.Parameter, outp), seconds);
            Report("Bézier degree 5 (seed 002 GetBezierList), 1000", "point", managed, native, samples);
        }

        // ---- seed 001: CalculateNPCPosition, linear scan per NPC per frame ------------------------

        sealed class SeedPath
        {
            public Vector3[] Points;
            public float LineLength;
        }

        static Vector3 SeedNpcPosition(SeedPath path, float start, float end, float time)
        {
            float normalized = (time - start) / (end - start);
            float dividedLength = path.LineLength / path.Points.Length;
            float along = path.LineLength * normalized;
            int closest = 0;
            for (int i = 0; i < path.Points.Length; i++)
            {
                if (along >= dividedLength * (i + 1)) closest = i;
            }
            closest = Math.Min(closest, path.Points.Length - 2);
            float t = (along - dividedLength * (closest + 1)) / (dividedLength * (closest + 2) - dividedLength * (closest + 1));
            return Vector3.Lerp(path.Points[closest], path.Points[closest + 1], t);
        }

        static void Schedules(double seconds)
        {
            const int npcs = 1000, points = 32;
            var rng = new System.Random(1);
            var pts = new Vector3[points];
            for (int i = 0; i < points; i++) pts[i] = new Vector3(i * 2f + (float)rng.NextDouble(), 0, (float)rng.NextDouble() * 5f);
            var seedPath = new SeedPath { Points = pts, LineLength = Polyline.Length(pts) };
            var outp = new Vector3[npcs];
            var starts = new float[npcs];
            for (int i = 0; i < npcs; i++) starts[i] = i * 0.37f;
            float now = 500f;
            double managed = Time(() =>
            {
                for (int i = 0; i < npcs; i++) outp[i] = SeedNpcPosition(seedPath, starts[i], starts[i] + 600f, now);
            }, seconds);
            using (var path = MotionPath.FromPolyline(pts))
            using (var set = new ScheduleSet())
            {
                int p = set.AddPath(path);
                for (int i = 0; i < npcs; i++) set.AddNpc(p, starts[i], starts[i] + 600.0, Wrap.Clamp);
                double native = Time(() => set.Evaluate(now, outp), seconds);
                Report("Timed NPC position (seed 001), 1000 NPCs × 32 pts", "NPC", managed, native, npcs);
                // A running clock: coherent times, each NPC's key search resumes where it stopped.
                var hints = new uint[set.HintCount];
                double clock = 500.0;
                double hinted = Time(() =>
                {
                    clock += 0.016;
                    set.EvaluateHinted(clock, hints, outp);
                }, seconds);
                Report("  same, per-frame clock with hints", "NPC", managed, hinted, npcs);
            }
        }

        // ---- seed 003: per-agent FOV + raycast normal × repelForce + Slerp, every agent --------------

        struct SeedAgent
        {
            public Vector3 Position;
            public Quaternion Rotation;
            public Vector3 Target;
        }

        static void SeedAvoidanceStep(SeedAgent[] agents, Vector3[] obstacles, float obstacleRadius, float dt)
        {
            const float speed = 2f, rotateSpeed = 4f, repelForce = 1.5f, fov = 4f, halfAngle = 60f, radius = 0.4f;
            for (int a = 0; a < agents.Length; a++)
            {
                Vector3 origin = agents[a].Position;
                Vector3 forward = agents[a].Rotation * Vector3.forward;
                Vector3 direction = (agents[a].Target - origin).normalized;
                // The FOV trigger: every obstacle and agent in range and inside the cone.
                for (int o = 0; o < obstacles.Length + agents.Length; o++)
                {
                    if (o == obstacles.Length + a) continue;
                    Vector3 center = o < obstacles.Length ? obstacles[o] : agents[o - obstacles.Length].Position;
                    float r = o < obstacles.Length ? obstacleRadius : radius;
                    Vector3 to = center - origin;
                    float dist = to.magnitude;
                    if (dist > fov + r || dist < 1e-6f) continue;
                    if (Vector3.Dot(forward, to / dist) < Mathf.Cos(halfAngle * Mathf.Deg2Rad)) continue;
                    // Raycast toward it: ray-sphere hit point, normal.
                    Vector3 dir = to / dist;
                    float b = Vector3.Dot(dir, to);
                    float c = to.sqrMagnitude - r * r;
                    float disc = b * b - c;
                    float hitT = disc > 0 ? b - Mathf.Sqrt(disc) : b;
                    Vector3 hit = origin + dir * Mathf.Max(0f, hitT);
                    Vector3 normal = (hit - center).normalized;
                    direction = dir + normal * repelForce;
                }
                direction.y = 0;
                if (direction.sqrMagnitude > 1e-8f)
                {
                    agents[a].Rotation = Quaternion.Slerp(agents[a].Rotation, Quaternion.LookRotation(direction), rotateSpeed * dt);
                }
                agents[a].Position = origin + (agents[a].Rotation * Vector3.forward) * speed * dt;
            }
        }

        static void Crowd(double seconds)
        {
            const int n = 1000, obstacleCount = 40;
            const float dt = 0.02f;
            var rng = new System.Random(3);
            var agents = new SeedAgent[n];
            var obstacles = new Vector3[obstacleCount];
            for (int i = 0; i < obstacleCount; i++) obstacles[i] = new Vector3((float)rng.NextDouble() * 100f - 50f, 0, (float)rng.NextDouble() * 100f - 50f);
            using (var crowd = new CrowdSimulation(n))
            {
                for (int i = 0; i < obstacleCount; i++) crowd.AddCircle(obstacles[i], 1f);
                // Agents spread over a 100 m square, each walking to a random point of it (moderate
                // density, the common game case; the antipodal circle is a jam test, not a speed test).
                for (int i = 0; i < n; i++)
                {
                    var p = new Vector3((float)rng.NextDouble() * 100f - 50f, 0, (float)rng.NextDouble() * 100f - 50f);
                    var t = new Vector3((float)rng.NextDouble() * 100f - 50f, 0, (float)rng.NextDouble() * 100f - 50f);
                    agents[i] = new SeedAgent { Position = p, Rotation = Quaternion.LookRotation(t - p), Target = t };
                    uint id = crowd.AddAgent(p, CrowdSimulation.YawOf(t - p), 2f, 0.4f);
                    crowd.SetTarget(id, t, 0.5f);
                    crowd.SetSteering(id, 4f, 4f, 60f * Mathf.Deg2Rad, 1.5f);
                }
                double managed = Time(() => SeedAvoidanceStep(agents, obstacles, 1f, dt), seconds);
                double native = Time(() => crowd.Step(dt, 1), seconds);
                Report("Avoidance step (seed 003), 1000 agents, 1 thread", "agent", managed, native, n);
                double native2 = Time(() => crowd.Step(dt, 2), seconds);
                Report("  same, wf_crowd_step with 2 threads", "agent", managed, native2, n);
            }
        }

        // ---- CrowdManager: the main thread's share of a frame, stepping there or in the background ----

        /// <summary>Main-thread seconds per <c>CrowdManager.Step</c> over frames that do 3 ms of other work.</summary>
        static double MainThreadPerFrame(bool background)
        {
            const int n = 1000, frames = 300;
            var rng = new System.Random(5);
            var manager = new GameObject("crowd").AddComponent<Components.CrowdManager>();
            manager.Capacity = n;
            manager.StepInBackground = background;
            for (int i = 0; i < n; i++)
            {
                var go = new GameObject("agent");
                go.transform.position = new Vector3((float)rng.NextDouble() * 100f - 50f, 0, (float)rng.NextDouble() * 100f - 50f);
                var target = new GameObject("target").transform;
                target.position = new Vector3((float)rng.NextDouble() * 100f - 50f, 0, (float)rng.NextDouble() * 100f - 50f);
                var agent = go.AddComponent<Components.ObstacleAvoidance>();
                agent.Target = target;
                agent.Configure(2f, 230f, 1.5f, 4f, 120f, 0.4f, 0.5f);
                agent.SetManager(manager);
            }
            var frame = new Stopwatch();
            double main = 0;
            for (int f = 0; f < frames; f++)
            {
                frame.Restart();
                manager.Step(0.02f);
                main += frame.Elapsed.TotalSeconds;
                while (frame.Elapsed.TotalMilliseconds < 3.0) { } // the rest of the frame
            }
            manager.StepInBackground = false;
            manager.Complete();
            return main / frames;
        }

        static void Background()
        {
            double sync = MainThreadPerFrame(false);
            double back = MainThreadPerFrame(true);
            Report("CrowdManager frame, 1000 agents: main thread (baseline: step on it)", "frame", sync, back, 1);
        }

        // ---- a moving leader: every agent's target changes every frame ----------------------------

        static void Retarget(double seconds)
        {
            const int n = 10000;
            using (var crowd = new CrowdSimulation(n))
            {
                var ids = new uint[n];
                var a = new Vector3[n];
                var b = new Vector3[n];
                var radii = new float[n];
                for (int i = 0; i < n; i++)
                {
                    ids[i] = crowd.AddAgent(new Vector3(i % 100, 0, i / 100), 0f, 1.5f, 0.3f);
                    a[i] = new Vector3(50, 0, 200 + 0.001f * i);
                    b[i] = new Vector3(50.5f, 0, 200 + 0.001f * i);
                    radii[i] = 0.5f;
                }
                // Each call moves every target (alternating between two sets), so none is a repeat.
                int flip = 0;
                double single = Time(() =>
                {
                    var t = (flip++ & 1) == 0 ? a : b;
                    for (int i = 0; i < n; i++) crowd.SetTarget(ids[i], t[i], 0.5f);
                }, seconds);
                double batch = Time(() => crowd.SetTargets(ids, n, (flip++ & 1) == 0 ? a : b, radii), seconds);
                Report("Retarget 10 000 agents (baseline: SetTarget each)", "agent", single, batch, n);
            }
        }
    }
}
