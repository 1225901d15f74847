#if UNITY_2019_4_OR_NEWER
using Unity.Collections;
using UnityEngine;
using Wayfarer.Curves;
using Wayfarer.Timeline;
#if WAYFARER_MATHEMATICS
using Unity.Mathematics;
#endif

namespace Wayfarer.Tests
{
    /// <summary>The NativeArray / float3 overloads write the same results as the Vector3[] ones, in place.</summary>
    public static class NativeArrayTests
    {
        [Test]
        public static void NativeArrayOverloadsMatchArrays()
        {
            var pts = new[] { new Vector3(0, 0, 0), new Vector3(3, 0, 1), new Vector3(5, 1, 4), new Vector3(2, 0, 6) };
            var tan = new[] { new Vector3(2, 0, 0), new Vector3(1, 0, 2), new Vector3(-1, 0, 2), new Vector3(-2, 0, 0) };
            const int n = 50;
            var expected = new Vector3[n];
            HermiteSpline.Sample(pts, tan, n, Spacing.ArcLength, expected);
            var np = new NativeArray<Vector3>(pts.Length, Allocator.Persistent);
            var nt = new NativeArray<Vector3>(tan.Length, Allocator.Persistent);
            var no = new NativeArray<Vector3>(n, Allocator.Persistent);
            try
            {
                for (int i = 0; i < pts.Length; i++)
                {
                    np[i] = pts[i];
                    nt[i] = tan[i];
                }
                HermiteSpline.Sample(np, nt, n, Spacing.ArcLength, no);
                for (int i = 0; i < n; i++) Assert.True(no[i].Equals(expected[i]), "Hermite sample " + i);

                CatmullRom.Sample(pts, 0.5f, 0f, n, Spacing.Parameter, expected);
                CatmullRom.Sample(np, 0.5f, 0f, n, Spacing.Parameter, no);
                for (int i = 0; i < n; i++) Assert.True(no[i].Equals(expected[i]), "Catmull-Rom sample " + i);

                Polyline.Sample(pts, n, Spacing.ArcLength, expected);
                Polyline.Sample(np, n, Spacing.ArcLength, no);
                for (int i = 0; i < n; i++) Assert.True(no[i].Equals(expected[i]), "polyline sample " + i);

                BezierCurve.Sample(pts, n, Spacing.Parameter, expected);
                BezierCurve.Sample(np, n, Spacing.Parameter, no);
                for (int i = 0; i < n; i++) Assert.True(no[i].Equals(expected[i]), "Bézier sample " + i);

                var deg = new NativeArray<uint>(1, Allocator.Persistent);
                deg[0] = 3;
                BezierChain.Sample(pts, new uint[] { 3 }, n, Spacing.ArcLength, expected);
                BezierChain.Sample(np, deg, n, Spacing.ArcLength, no);
                deg.Dispose();
                for (int i = 0; i < n; i++) Assert.True(no[i].Equals(expected[i]), "chain sample " + i);

                using (var path = MotionPath.FromPolyline(pts))
                {
                    var d = new NativeArray<float>(n, Allocator.Persistent);
                    var fw = new NativeArray<Vector3>(n, Allocator.Persistent);
                    var ds = new float[n];
                    for (int i = 0; i < n; i++) d[i] = ds[i] = path.Length * i / (n - 1);
                    path.Sample(ds, expected);
                    path.Sample(d, no, fw);
                    for (int i = 0; i < n; i++) Assert.True(no[i].Equals(expected[i]), "path sample " + i);
                    path.Sample(d, no, default(NativeArray<Vector3>));
                    d.Dispose();
                    fw.Dispose();
                }
#if WAYFARER_MATHEMATICS
                var fp = new NativeArray<float3>(pts.Length, Allocator.Persistent);
                var fo = new NativeArray<float3>(n, Allocator.Persistent);
                for (int i = 0; i < pts.Length; i++) fp[i] = new float3(pts[i].x, pts[i].y, pts[i].z);
                Polyline.Sample(pts, n, Spacing.ArcLength, expected);
                Polyline.Sample(fp, n, Spacing.ArcLength, fo);
                for (int i = 0; i < n; i++) Assert.True(fo[i].x == expected[i].x && fo[i].y == expected[i].y && fo[i].z == expected[i].z, "float3 sample " + i);
                fp.Dispose();
                fo.Dispose();
#endif
            }
            finally
            {
                np.Dispose();
                nt.Dispose();
                no.Dispose();
            }
        }
    }
}
#endif
