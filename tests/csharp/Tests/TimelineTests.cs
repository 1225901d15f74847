using System;
using UnityEngine;
using Wayfarer.Native;
using Wayfarer.Timeline;

namespace Wayfarer.Tests
{
    public static class TimelineTests
    {
        static readonly Vector3[] LPath = { new Vector3(0, 0, 0), new Vector3(6, 0, 0), new Vector3(6, 0, 4) };

        [Test]
        public static void PolylinePathSamplesByDistance()
        {
            using (var path = MotionPath.FromPolyline(LPath))
            {
                Assert.Near(10.0, path.Length, 1e-5, "length");
                var d = new[] { 0f, 2.5f, 6f, 8f, 10f, 12f, -3f };
                var pos = new Vector3[d.Length];
                var fwd = new Vector3[d.Length];
                path.AtDistances(d, pos, fwd);
                for (int i = 0; i < d.Length; i++)
                {
                    Assert.Near(Ref.PolylineAt(LPath, Math.Max(0, Math.Min(10, d[i]))), pos[i], 1e-5, "distance " + d[i]);
                    Assert.Near(1.0, fwd[i].magnitude, 1e-4, "unit forward " + i);
                }
                Assert.Near(new Vector3(1, 0, 0), fwd[1], 1e-5, "first leg forward");
                Assert.Near(new Vector3(0, 0, 1), fwd[3], 1e-5, "second leg forward");
                Vector3 p, f;
                path.AtDistance(8f, out p, out f);
                Assert.Near(new Vector3(6, 0, 2), p, 1e-5, "single sample");
                Assert.Near(new Vector3(6, 0, 2), path.PositionAt(8f), 1e-5, "PositionAt");
            }
        }

        [Test]
        public static void NearestFindsTheGlobalClosestPoint()
        {
            using (var path = MotionPath.FromPolyline(LPath))
            {
                var q = new[] { new Vector3(3, 5, -1), new Vector3(9, 0, 3), new Vector3(-4, 0, 0) };
                var d = new float[3];
                var pts = new Vector3[3];
                path.Nearest(q, d, pts);
                Assert.Near(3.0, d[0], 1e-4, "above the first leg");
                Assert.Near(new Vector3(3, 0, 0), pts[0], 1e-4, "point 0");
                Assert.Near(9.0, d[1], 1e-4, "beside the second leg");
                Assert.Near(0.0, d[2], 1e-4, "before the start");
                Vector3 onPath;
                Assert.Near(9.0, path.Nearest(new Vector3(9, 0, 3), out onPath), 1e-4, "single");
            }
        }

        [Test]
        public static void HermitePathIsConstantSpeed()
        {
            var pts = new[] { new Vector3(0, 0, 0), new Vector3(5, 0, 5), new Vector3(10, 0, 0) };
            var tan = new[] { new Vector3(0, 0, 8), new Vector3(8, 0, 0), new Vector3(0, 0, -8) };
            using (var path = MotionPath.FromHermite(pts, tan))
            {
                Assert.Near(Curves.HermiteSpline.Length(pts, tan), path.Length, 1e-3, "same length as the one-shot spline");
                const int n = 300;
                var d = new float[n];
                for (int i = 0; i < n; i++) d[i] = path.Length * i / (n - 1);
                var pos = new Vector3[n];
                path.AtDistances(d, pos);
                double step = path.Length / (n - 1);
                for (int i = 1; i < n; i++) Assert.Near(step, Vector3.Distance(pos[i - 1], pos[i]), step * 0.01, "step " + i);
            }
        }

        [Test]
        public static void PathHandlesDisposeCleanly()
        {
            var path = MotionPath.FromPolyline(LPath);
            Assert.True(!path.IsDisposed, "live");
            path.Dispose();
            path.Dispose();
            Assert.True(path.IsDisposed, "disposed");
            Assert.Throws<ObjectDisposedException>(() => path.PositionAt(1f), "use after dispose");
            // Finalizer path: many undisposed paths are freed by the GC without crashing.
            for (int i = 0; i < 200; i++) MotionPath.FromPolyline(LPath);
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        [Test]
        public static void PathRejectsBadInput()
        {
            Assert.Fails(WfStatus.InvalidCount, () => MotionPath.FromPolyline(new[] { Vector3.zero }), "one point");
            Assert.Fails(WfStatus.NonFinite, () => MotionPath.FromPolyline(new[] { Vector3.zero, new Vector3(float.NaN, 0, 0) }), "NaN");
            Assert.Fails(WfStatus.InvalidCount, () => MotionPath.FromHermite(LPath, new Vector3[2]), "tangent count");
            Assert.Fails(WfStatus.InvalidCount, () => MotionPath.FromBezierChain(LPath, new uint[] { 3 }), "degrees vs control count");
            using (var path = MotionPath.FromPolyline(LPath))
            {
                var sentinel = new Vector3(-9, -9, -9);
                var pos = new[] { sentinel };
                Assert.Fails(WfStatus.BufferTooSmall, () => path.AtDistances(new[] { 1f, 2f }, pos), "capacity");
                Assert.Fails(WfStatus.NonFinite, () => path.AtDistances(new[] { float.NaN }, pos), "NaN distance");
                Assert.True(pos[0].Equals(sentinel), "untouched");
            }
        }

        [Test]
        public static void SimpleScheduleWalksTheRealArcLength()
        {
            // Seed 001's case, with its two bugs fixed: segments of different lengths (6 and 4) and
            // start == end time are both fine.
            using (var path = MotionPath.FromPolyline(LPath))
            using (var set = new ScheduleSet())
            {
                int p = set.AddPath(path);
                int clamp = set.AddNpc(p, 100.0, 110.0, Wrap.Clamp);
                int loop = set.AddNpc(p, 100.0, 110.0, Wrap.Loop);
                int ping = set.AddNpc(p, 100.0, 110.0, Wrap.PingPong);
                Assert.Equal(3, set.NpcCount, "count");
                var pos = new Vector3[3];
                var fwd = new Vector3[3];
                var vel = new Vector3[3];
                var st = new NpcState[3];
                set.Evaluate(105.0, pos, fwd, vel, st);
                Assert.Near(new Vector3(5, 0, 0), pos[clamp], 1e-4, "half time = half the length (not half the points)");
                Assert.Equal(NpcState.Moving, st[clamp], "moving");
                Assert.Near(1.0, vel[clamp].magnitude, 1e-3, "speed = length / duration");
                set.Evaluate(108.0, pos, null, null, st);
                Assert.Near(new Vector3(6, 0, 2), pos[clamp], 1e-4, "on the short leg");
                set.Evaluate(90.0, pos, null, null, st);
                Assert.Near(LPath[0], pos[clamp], 1e-5, "before: at the start");
                Assert.Equal(NpcState.Before, st[clamp], "before");
                set.Evaluate(200.0, pos, null, null, st);
                Assert.Near(LPath[2], pos[clamp], 1e-5, "after: at the end");
                Assert.Equal(NpcState.After, st[clamp], "after");
                set.Evaluate(113.0, pos, null, null, st);
                Assert.Near(new Vector3(3, 0, 0), pos[loop], 1e-3, "loop: 3 s into the second lap");
                Assert.Near(new Vector3(6, 0, 1), pos[ping], 1e-3, "ping-pong: 3 s back from the end (distance 7)");
                // Time is a pure function: going back gives the same answer.
                set.Evaluate(105.0, pos, null, null, null);
                Assert.Near(new Vector3(5, 0, 0), pos[clamp], 1e-4, "rewind");
            }
        }

        [Test]
        public static void KeyedScheduleHoldsAndEvaluatesPerNpcTimes()
        {
            using (var path = MotionPath.FromPolyline(LPath))
            using (var set = new ScheduleSet())
            {
                int p = set.AddPath(path);
                // Walk 6 m in 6 s, wait 4 s at the corner, walk 4 m in 2 s.
                var times = new[] { 0.0, 6.0, 10.0, 12.0 };
                var dist = new[] { 0f, 6f, 6f, 10f };
                set.AddNpc(p, times, dist, null, Wrap.Clamp);
                set.AddNpc(p, times, dist, new[] { Ease.InOut, Ease.None, Ease.InOut }, Wrap.Clamp);
                var pos = new Vector3[2];
                var st = new NpcState[2];
                set.Evaluate(8.0, pos, null, null, st);
                Assert.Near(new Vector3(6, 0, 0), pos[0], 1e-4, "holding at the corner");
                Assert.Equal(NpcState.Holding, st[0], "holding");
                set.Evaluate(11.0, pos, null, null, st);
                Assert.Near(new Vector3(6, 0, 2), pos[0], 1e-4, "second leg at 2 m/s");
                set.Evaluate(3.0, pos, null, null, st);
                Assert.Near(new Vector3(3, 0, 0), pos[0], 1e-4, "linear leg midpoint");
                Assert.Near(new Vector3(3, 0, 0), pos[1], 1e-3, "eased leg midpoint (symmetric ease)");
                set.Evaluate(1.0, pos, null, null, st);
                Assert.True(pos[1].x < pos[0].x, "ease-in starts slower");
                // Hinted evaluation over a coherent sweep equals the stateless one.
                var hints = new uint[set.HintCount];
                var plain = new Vector3[2];
                for (double t = -1; t < 14; t += 0.37)
                {
                    set.EvaluateHinted(t, hints, pos, null, null, st);
                    set.Evaluate(t, plain);
                    Assert.True(pos[0].Equals(plain[0]) && pos[1].Equals(plain[1]), "hinted = stateless at " + t);
                }
                Assert.Fails(WfStatus.BufferTooSmall, () => set.EvaluateHinted(1.0, new uint[3], pos), "2 hints per NPC");
                set.EvaluateTimes(new[] { 3.0, 12.0 }, pos, null, null, st);
                Assert.Near(new Vector3(3, 0, 0), pos[0], 1e-4, "own time 3 s");
                Assert.Near(LPath[2], pos[1], 1e-4, "own time 12 s");
                Assert.Fails(WfStatus.InvalidCount, () => set.EvaluateTimes(new[] { 1.0 }, pos), "one time per NPC");
            }
        }

        [Test]
        public static void CrossingsGrowTheBufferAndReportDirection()
        {
            using (var path = MotionPath.FromPolyline(LPath))
            using (var set = new ScheduleSet())
            {
                int p = set.AddPath(path);
                for (int i = 0; i < 5; i++) set.AddNpc(p, new[] { 0.0, 5.0, 10.0 }, new[] { 0f, 6f, 10f }, null, Wrap.Clamp);
                var buffer = new CrossingBuffer(1);
                int n = set.Crossings(2.0, 7.0, buffer);
                Assert.Equal(5, n, "every NPC passes key 1 once");
                Assert.True(buffer.Capacity >= 5, "grown");
                for (int i = 0; i < n; i++)
                {
                    Assert.Equal(1, buffer.Keys[i], "key 1");
                    Assert.Equal(1, buffer.Directions[i], "forward");
                }
                n = set.Crossings(7.0, 2.0, buffer);
                Assert.Equal(5, n, "rewinding crosses it again");
                Assert.Equal(-1, buffer.Directions[0], "backward");
                Assert.Equal(0, set.Crossings(6.0, 7.0, buffer), "nothing between keys");
            }
        }

        [Test]
        public static void ScheduleRejectsBadInput()
        {
            using (var path = MotionPath.FromPolyline(LPath))
            using (var set = new ScheduleSet())
            {
                int p = set.AddPath(path);
                Assert.Fails(WfStatus.OutOfRange, () => set.AddNpc(p + 5, 0.0, 1.0, Wrap.Clamp), "unknown path");
                Assert.Fails(WfStatus.InvalidArgument, () => set.AddNpc(p, 0.0, 1.0, (Wrap)7), "bad wrap");
                Assert.Fails(WfStatus.NonFinite, () => set.AddNpc(p, double.NaN, 1.0, Wrap.Clamp), "NaN time");
                Assert.Fails(WfStatus.InvalidKeyTime, () => set.AddNpc(p, new[] { 0.0, 0.0 }, new[] { 0f, 1f }, null, Wrap.Clamp), "times not increasing");
                Assert.Fails(WfStatus.InvalidKeyTime, () => set.AddNpc(p, 3.0, 3.0 + 1e-12), "a leg shorter than 1e-9 s");
                Assert.Throws<ArgumentOutOfRangeException>(() => set.AddNpc(-1, 0.0, 1.0), "negative path index");
                // A length summed in floats may be a few ulps past the path's: it is the end.
                float summed = path.Length * (1f + 2f * 1.1920929e-7f);
                int npc = set.AddNpc(p, new[] { 0.0, 1.0 }, new[] { 0f, summed });
                var atEnd = new Vector3[npc + 1];
                set.Evaluate(2.0, atEnd);
                Assert.Near(LPath[LPath.Length - 1], atEnd[npc], 1e-5, "clamped to the end");
                // Farther: the message names the argument, its value and the range.
                try
                {
                    set.AddNpc(p, new[] { 0.0, 1.0, 2.0 }, new[] { 0f, 1f, path.Length + 0.01f });
                    throw new Exception("no exception for a distance past the end");
                }
                catch (WayfarerException e)
                {
                    Assert.Equal(WfStatus.DistanceOutOfRange, e.Status, "status");
                    Assert.True(e.Message.Contains("distances[2] = ") && e.Message.Contains("is outside [0, " + path.Length.ToString("R") + "]"),
                        "message names the key and the range: " + e.Message);
                }
                Assert.Equal(1, set.NpcCount, "only the clamped NPC was added");
                set.AddNpc(p, 0.0, 1.0, Wrap.Clamp);
                set.AddNpc(p, 0.0, 2.0);
                Assert.Fails(WfStatus.BufferTooSmall, () => set.Evaluate(0.5, new Vector3[2]), "room for two of three");
                set.Dispose();
                set.Dispose();
                Assert.Throws<ObjectDisposedException>(() => set.Evaluate(0.5, new Vector3[1]), "use after dispose");
            }
        }
    }
}
