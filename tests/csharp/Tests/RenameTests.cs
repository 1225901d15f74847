using System;
using UnityEngine;
using Wayfarer.Curves;
using Wayfarer.Native;
using Wayfarer.Timeline;

namespace Wayfarer.Tests
{
    /// <summary>The [Obsolete] names kept for one release forward to the new ones, with the same results.</summary>
    public static class RenameTests
    {
        static readonly Vector3[] LPath = { new Vector3(0, 0, 0), new Vector3(6, 0, 0), new Vector3(6, 0, 4) };

#pragma warning disable 618 // the obsolete members are what is tested here
        [Test]
        public static void ObsoleteNamesForwardToTheNewOnes()
        {
            Vector3 p0 = new Vector3(0, 0, 0), p1 = new Vector3(4, 0, 2), m0 = new Vector3(1, 0, 0), m1 = new Vector3(0, 0, 3);
            var ts = new[] { 0f, 0.25f, 0.5f, 1f };
            var a = new Vector3[4];
            var b = new Vector3[4];
            HermiteSegment.Evaluate(p0, p1, m0, m1, ts, a);
            HermiteSegment.Sample(p0, p1, m0, m1, ts, b);
            for (int i = 0; i < 4; i++) Assert.Equal(a[i], b[i], "HermiteSegment.Sample = Evaluate");

            using (var path = MotionPath.FromPolyline(LPath))
            using (var set = new ScheduleSet())
            {
                var ds = new[] { 0f, 3f, 8f, 10f };
                var fa = new Vector3[4];
                var fb = new Vector3[4];
                path.AtDistances(ds, a, fa);
                path.Sample(ds, b, fb);
                for (int i = 0; i < 4; i++)
                {
                    Assert.Equal(a[i], b[i], "MotionPath.Sample = AtDistances");
                    Assert.Equal(fa[i], fb[i], "forwards");
                }
                Vector3 p, f;
                path.Sample(8f, out p, out f);
                Assert.Equal(a[2], p, "MotionPath.Sample(d, out, out) = AtDistance");

                uint pi = (uint)set.AddPath(path);
                uint first = set.AddNpc(pi, 0.0, 10.0, Wrap.Clamp);
                uint second = set.AddNpc(pi, new[] { 0.0, 10.0 }, new[] { 0f, 10f }, null, Wrap.Clamp);
                Assert.Equal(0u, first, "uint AddNpc (simple)");
                Assert.Equal(1u, second, "uint AddNpc (keys)");
                Assert.Equal(2, set.NpcCount, "both added");
            }
        }
#pragma warning restore 618
    }
}
