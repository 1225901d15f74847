using System;
using UnityEngine;
using Wayfarer.Curves;
using Wayfarer.Native;

namespace Wayfarer.Tests
{
    public static class CurveTests
    {
        static readonly Vector3 P0 = new Vector3(0, 0, 0), P1 = new Vector3(4, 0, 2), M0 = new Vector3(1, 0, 0), M1 = new Vector3(0, 0, 3);

        [Test]
        public static void HermiteSegmentMatchesDoubleReference()
        {
            const int n = 101;
            var ts = new float[n];
            for (int i = 0; i < n; i++) ts[i] = i / (n - 1f);
            var pos = new Vector3[n];
            var der = new Vector3[n];
            HermiteSegment.Evaluate(P0, P1, M0, M1, ts, pos, der);
            for (int i = 0; i < n; i++)
            {
                Assert.Near(Ref.Hermite(P0, P1, M0, M1, ts[i]), pos[i], 1e-5, "p(" + ts[i] + ")");
                // Derivative vs a central difference of the double reference (one-sided at the ends).
                double h = 1e-4, t0 = Math.Max(0, ts[i] - h), t1 = Math.Min(1, ts[i] + h);
                Vector3 fd = (Ref.Hermite(P0, P1, M0, M1, t1) - Ref.Hermite(P0, P1, M0, M1, t0)) / (float)(t1 - t0);
                Assert.Near(fd, der[i], 2e-2, "p'(" + ts[i] + ")");
            }
            Assert.Near(P0, pos[0], 0, "starts at p0");
            Assert.Near(P1, pos[n - 1], 1e-6, "ends at p1");
            Assert.Near(M0, der[0], 1e-6, "leaves with m0");
            Assert.Near(M1, der[n - 1], 1e-5, "arrives with m1");
            Assert.Near(Ref.Hermite(P0, P1, M0, M1, 0.3), HermiteSegment.Evaluate(P0, P1, M0, M1, 0.3f), 1e-5, "Evaluate");
            Assert.Near(P1, HermiteSegment.Evaluate(P0, P1, M0, M1, 7f), 1e-6, "t clamped to 1");
        }

        [Test]
        public static void HermiteSegmentRejectsBadInputAndLeavesOutputUntouched()
        {
            var sentinel = new Vector3(-7, -7, -7);
            var pos = new[] { sentinel, sentinel };
            Assert.Fails(WfStatus.NonFinite, () => HermiteSegment.Evaluate(new Vector3(float.NaN, 0, 0), P1, M0, M1, new[] { 0f, 1f }, pos), "NaN point");
            Assert.Fails(WfStatus.NonFinite, () => HermiteSegment.Evaluate(P0, P1, M0, M1, new[] { 0f, float.PositiveInfinity }, pos), "Inf t");
            Assert.Fails(WfStatus.BufferTooSmall, () => HermiteSegment.Evaluate(P0, P1, M0, M1, new[] { 0f, 0.5f, 1f }, pos), "3 into 2");
            Assert.Fails(WfStatus.BufferTooSmall, () => HermiteSegment.Evaluate(P0, P1, M0, M1, new[] { 0f, 1f }, pos, new Vector3[1]), "derivatives too small");
            Assert.True(pos[0].Equals(sentinel) && pos[1].Equals(sentinel), "nothing written on failure");
            HermiteSegment.Evaluate(P0, P1, M0, M1, new float[0], new Vector3[0]);
            HermiteSegment.Evaluate(P0, P1, M0, M1, null, null);
            // Counts are int; a negative one is refused in C# with the argument's name.
            try
            {
                BezierCurve.Sample(new[] { P0, P1 }, -3, Spacing.Parameter, new Vector3[4]);
                throw new Exception("no exception for a negative sample count");
            }
            catch (ArgumentOutOfRangeException e)
            {
                Assert.Equal("sampleCount", e.ParamName, "names the argument");
            }
        }

        [Test]
        public static void HermiteSplineHitsItsKnotsAndMatchesSegments()
        {
            var pts = new[] { new Vector3(0, 0, 0), new Vector3(3, 0, 1), new Vector3(5, 1, 4), new Vector3(2, 0, 6) };
            var tan = new[] { new Vector3(2, 0, 0), new Vector3(1, 0, 2), new Vector3(-1, 0, 2), new Vector3(-2, 0, 0) };
            const int perSegment = 8;
            int samples = perSegment * (pts.Length - 1) + 1;
            var outp = new Vector3[samples];
            HermiteSpline.Sample(pts, tan, samples, Spacing.Parameter, outp);
            for (int j = 0; j < samples; j++)
            {
                int seg = Math.Min(j / perSegment, pts.Length - 2);
                double t = (j - seg * perSegment) / (double)perSegment;
                Assert.Near(Ref.Hermite(pts[seg], pts[seg + 1], tan[seg], tan[seg + 1], t), outp[j], 1e-4, "sample " + j);
            }
            // Arc-length spacing: consecutive samples equally far apart (fine sampling, so chord ≈ arc).
            const int fine = 400;
            var even = new Vector3[fine];
            HermiteSpline.Sample(pts, tan, fine, Spacing.ArcLength, even);
            float length = HermiteSpline.Length(pts, tan);
            double step = length / (fine - 1);
            for (int j = 1; j < fine; j++)
            {
                Assert.Near(step, Vector3.Distance(even[j - 1], even[j]), step * 0.01, "even step " + j);
            }
            Assert.Near(pts[0], even[0], 1e-5, "first");
            Assert.Near(pts[3], even[fine - 1], 1e-4, "last");
        }

        [Test]
        public static void StraightHermiteHasExactLength()
        {
            // Collinear tangents equal to the chord: p(t) = p0 + t (p1 − p0), length = |p1 − p0|.
            var pts = new[] { new Vector3(0, 0, 0), new Vector3(3, 0, 4) };
            var tan = new[] { new Vector3(3, 0, 4), new Vector3(3, 0, 4) };
            Assert.Near(5.0, HermiteSpline.Length(pts, tan), 1e-5, "length");
            Assert.Fails(WfStatus.InvalidCount, () => HermiteSpline.Length(pts, new[] { tan[0] }), "tangent count mismatch");
        }

        [Test]
        public static void PolylineLengthAndArcLengthSamples()
        {
            var pts = new[] { new Vector3(0, 0, 0), new Vector3(3, 0, 0), new Vector3(3, 0, 4), new Vector3(-2, 1, 4) };
            double length = Ref.PolylineLength(pts);
            Assert.Near(length, Polyline.Length(pts), 1e-4, "length");
            const int n = 25;
            var outp = new Vector3[n];
            Polyline.Sample(pts, n, Spacing.ArcLength, outp);
            for (int i = 0; i < n; i++)
            {
                Assert.Near(Ref.PolylineAt(pts, length * i / (n - 1)), outp[i], 1e-4, "sample " + i);
            }
            Assert.Fails(WfStatus.InvalidCount, () => Polyline.Sample(pts, 1, Spacing.ArcLength, outp), "one sample");
            Assert.Fails(WfStatus.InvalidArgument, () => Polyline.Sample(pts, 4, (Spacing)9, outp), "bad spacing");
            Assert.Fails(WfStatus.BufferTooSmall, () => Polyline.Sample(pts, n + 1, Spacing.ArcLength, outp), "too small");
        }

        [Test]
        public static void BezierMatchesBernsteinReferenceAtEveryDegree()
        {
            var rng = new System.Random(7);
            foreach (int degree in new[] { 1, 2, 3, 5, 9 })
            {
                var c = new Vector3[degree + 1];
                for (int i = 0; i <= degree; i++) c[i] = new Vector3((float)rng.NextDouble() * 10, (float)rng.NextDouble() * 10, (float)rng.NextDouble() * 10);
                const int n = 33;
                var outp = new Vector3[n];
                BezierCurve.Sample(c, n, Spacing.Parameter, outp);
                for (int i = 0; i < n; i++)
                {
                    Assert.Near(Ref.Bezier(c, i / (double)(n - 1)), outp[i], 1e-4, "degree " + degree + " sample " + i);
                }
                var ts = new[] { 0f, 0.25f, 0.5f, 1f };
                var p = new Vector3[4];
                var d = new Vector3[4];
                BezierCurve.Evaluate(c, ts, p, d);
                for (int i = 0; i < 4; i++) Assert.Near(Ref.Bezier(c, ts[i]), p[i], 1e-4, "eval " + i);
                Assert.Near((c[1] - c[0]) * degree, d[0], 1e-3, "B'(0) = n (c1 − c0)");
            }
        }

        [Test]
        public static void BezierChainIsItsPieces()
        {
            // Seed 002's ping-pong ball: two quadratic pieces sharing the bounce point.
            var c = new[] { new Vector3(0, 1, 0), new Vector3(1, 2, 0), new Vector3(2, 0, 0), new Vector3(3, 1.5f, 0), new Vector3(4, 0, 0) };
            var degrees = new uint[] { 2, 2 };
            Assert.Equal(5, BezierChain.ControlCount(degrees), "1 + sum(degrees)");
            const int n = 41;
            var outp = new Vector3[n];
            BezierChain.Sample(c, degrees, n, Spacing.ArcLength, outp);
            Assert.Near(c[0], outp[0], 1e-5, "starts at the first control point");
            Assert.Near(c[4], outp[n - 1], 1e-4, "ends at the last");
            // Every sample lies on one of the two pieces: nearest Bernstein parameter within tolerance.
            var a = new[] { c[0], c[1], c[2] };
            var b = new[] { c[2], c[3], c[4] };
            for (int i = 0; i < n; i++)
            {
                double best = double.MaxValue;
                for (int k = 0; k <= 4000; k++)
                {
                    double t = k / 4000.0;
                    best = Math.Min(best, Math.Min(Vector3.Distance(Ref.Bezier(a, t), outp[i]), Vector3.Distance(Ref.Bezier(b, t), outp[i])));
                }
                Assert.True(best < 2e-3, "sample " + i + " on the chain (" + best + ")");
            }
            float length = BezierChain.Length(c, degrees);
            double polyline = 0;
            for (int i = 1; i < n; i++) polyline += Vector3.Distance(outp[i - 1], outp[i]);
            Assert.True(length >= polyline - 1e-4 && length < polyline * 1.03, "length ≥ inscribed polyline, close to it");
            Assert.Near(BezierChain.Length(a, new uint[] { 2 }) + BezierChain.Length(b, new uint[] { 2 }), length, 1e-4, "length = sum of the pieces");
            Assert.Fails(WfStatus.InvalidCount, () => BezierChain.Sample(c, new uint[] { 2, 3 }, n, Spacing.Parameter, outp), "degrees do not add up");
        }

        [Test]
        public static void BallisticTrajectoryIsTheExactParabola()
        {
            var start = new Vector3(0, 2, 0);
            var v = new Vector3(3, 4, 1);
            const float g = 9.81f;
            const int bounces = 2;
            var controls = new Vector3[Ballistic.ControlCount(bounces)];
            int written = Ballistic.Trajectory(start, v, g, 0f, 0.5f, bounces, controls);
            Assert.Equal(1 + 2 * (bounces + 1), written, "control count");
            Assert.Near(start, controls[0], 1e-6, "starts at the launch point");
            // First landing: y0 + vy t − g t²/2 = 0.
            double t1 = (v.y + Math.Sqrt(v.y * v.y + 2 * g * start.y)) / g;
            Assert.Near(Ref.V(start.x + v.x * t1, 0, start.z + v.z * t1), controls[2], 1e-3, "first landing");
            // The quadratic's middle control point is where the launch and landing tangents meet.
            Assert.Near(Ref.V(start.x + v.x * t1 / 2, start.y + v.y * t1 / 2, start.z + v.z * t1 / 2), controls[1], 1e-3, "tangent intersection");
            // Points of the first arc are on the parabola: sample the Bézier at s = t/t1.
            var arc = new[] { controls[0], controls[1], controls[2] };
            for (int k = 0; k <= 10; k++)
            {
                double t = t1 * k / 10;
                Assert.Near(Ref.V(start.x + v.x * t, start.y + v.y * t - 0.5 * g * t * t, start.z + v.z * t), Ref.Bezier(arc, t / t1), 1e-3, "on the parabola at " + t);
            }
            for (int b = 1; b <= bounces + 1; b++) Assert.Near(0.0, controls[2 * b].y, 1e-4, "landing " + b + " on the ground");
            var degrees = new uint[bounces + 1];
            Ballistic.FillDegrees(degrees, bounces);
            Assert.Equal(written, BezierChain.ControlCount(degrees), "a chain of quadratics");
            Assert.Fails(WfStatus.BufferTooSmall, () => Ballistic.Trajectory(start, v, g, 0f, 0.5f, bounces, new Vector3[3]), "too small");
            Assert.Fails(WfStatus.InvalidArgument, () => Ballistic.Trajectory(start, v, -1f, 0f, 0.5f, 0, controls), "gravity must be > 0");
        }

        [Test]
        public static void CatmullRomPassesThroughItsPoints()
        {
            var pts = new[] { new Vector3(0, 0, 0), new Vector3(2, 0, 1), new Vector3(4, 0, 0), new Vector3(6, 0, 2) };
            foreach (float alpha in new[] { 0f, 0.5f, 1f })
            {
                const int perSegment = 10;
                int n = perSegment * 3 + 1;
                var outp = new Vector3[n];
                CatmullRom.Sample(pts, alpha, 0f, n, Spacing.Parameter, outp);
                for (int i = 0; i < pts.Length; i++) Assert.Near(pts[i], outp[i * perSegment], 1e-4, "alpha " + alpha + " knot " + i);
                float length = CatmullRom.Length(pts, alpha, 0f);
                Assert.True(length >= Ref.PolylineLength(pts) - 1e-4, "longer than the chords");
            }
            // Tension 1 = straight segments: the length is the polyline's.
            Assert.Near(Ref.PolylineLength(pts), CatmullRom.Length(pts, 0.5f, 1f), 1e-3, "tension 1");
            Assert.Fails(WfStatus.NonFinite, () => CatmullRom.Length(pts, float.NaN, 0f), "NaN alpha");
        }
    }
}
