#if UNITY_2019_4_OR_NEWER
using Unity.Collections;
using UnityEngine;
using Wayfarer.Crowd;
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
                    path.AtDistances(ds, expected);
                    path.AtDistances(d, no, fw);
                    for (int i = 0; i < n; i++) Assert.True(no[i].Equals(expected[i]), "path sample " + i);
                    path.AtDistances(d, no, default(NativeArray<Vector3>));
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

        [Test]
        public static void CrowdNativeArrayOverloadsMatchArrays()
        {
            const int n = 5;
            using (var arrays = new CrowdSimulation(n))
            using (var natives = new CrowdSimulation(n))
            {
                var ids = new uint[n];
                var targets = new Vector3[n];
                var radii = new float[n];
                var nIds = new NativeArray<uint>(n + 2, Allocator.Persistent);
                var nTargets = new NativeArray<Vector3>(n, Allocator.Persistent);
                var nRadii = new NativeArray<float>(n, Allocator.Persistent);
                var nPos = new NativeArray<Vector3>(n, Allocator.Persistent);
                var nYaw = new NativeArray<float>(n, Allocator.Persistent);
                var nState = new NativeArray<AgentState>(n, Allocator.Persistent);
                var nVel = new NativeArray<Vector3>(n, Allocator.Persistent);
                try
                {
                    for (int i = 0; i < n; i++)
                    {
                        var at = new Vector3(3f * i, 0, 0);
                        ids[i] = arrays.AddAgent(at, 0f, 1.5f, 0.4f);
                        nIds[i] = natives.AddAgent(at, 0f, 1.5f, 0.4f);
                        targets[i] = new Vector3(12f - 3f * i, 0, 9f);
                        nTargets[i] = targets[i];
                        radii[i] = nRadii[i] = 0.3f;
                    }
                    arrays.SetTargets(ids, n, targets, radii);
                    natives.SetTargets(nIds, n, nTargets, nRadii);
                    arrays.SetPositions(ids, 1, new[] { new Vector3(0, 0, -1) }, null);
                    var one = new NativeArray<Vector3>(1, Allocator.Persistent);
                    one[0] = new Vector3(0, 0, -1);
                    natives.SetPositions(nIds, 1, one, default(NativeArray<float>));
                    one.Dispose();
                    for (int step = 0; step < 30; step++)
                    {
                        arrays.Step(0.1f);
                        natives.Step(0.1f);
                    }
                    var pos = new Vector3[n];
                    var yaw = new float[n];
                    var st = new AgentState[n];
                    var vel = new Vector3[n];
                    arrays.ReadAgents(ids, n, pos, yaw, st);
                    arrays.ReadVelocities(ids, n, vel);
                    natives.ReadAgents(nIds, n, nPos, nYaw, nState);
                    natives.ReadVelocities(nIds, n, nVel);
                    for (int i = 0; i < n; i++)
                    {
                        Assert.True(nPos[i].Equals(pos[i]) && nYaw[i] == yaw[i] && nState[i] == st[i] && nVel[i].Equals(vel[i]),
                            "agent " + i + " read the same through NativeArrays");
                    }
                    natives.ReadAgents(nIds, n, default(NativeArray<Vector3>), nYaw, default(NativeArray<AgentState>));
                    Assert.Throws<System.ArgumentOutOfRangeException>(() => natives.ReadVelocities(nIds, n + 3, nVel), "count past the ids");
                    var shortVel = new NativeArray<Vector3>(n - 1, Allocator.Persistent);
                    Assert.Fails(Wayfarer.Native.WfStatus.BufferTooSmall, () => natives.ReadVelocities(nIds, n, shortVel), "velocities shorter than the count");
                    shortVel.Dispose();
#if WAYFARER_MATHEMATICS
                    var f3 = new NativeArray<float3>(n, Allocator.Persistent);
                    natives.ReadAgents(nIds, n, f3, default(NativeArray<float>), default(NativeArray<AgentState>));
                    for (int i = 0; i < n; i++) Assert.True(f3[i].x == pos[i].x && f3[i].z == pos[i].z, "float3 position " + i);
                    natives.ReadVelocities(nIds, n, f3);
                    for (int i = 0; i < n; i++) Assert.True(f3[i].x == vel[i].x && f3[i].z == vel[i].z, "float3 velocity " + i);
                    for (int i = 0; i < n; i++) f3[i] = new float3(0, 0, -9);
                    natives.SetTargets(nIds, n, f3, default(NativeArray<float>));
                    natives.SetPositions(nIds, 1, f3, default(NativeArray<float>));
                    natives.ReadAgents(nIds, 1, nPos, default(NativeArray<float>), default(NativeArray<AgentState>));
                    Assert.True(nPos[0].Equals(new Vector3(0, 0, -9)), "float3 teleport");
                    f3.Dispose();
#endif
                }
                finally
                {
                    nIds.Dispose();
                    nTargets.Dispose();
                    nRadii.Dispose();
                    nPos.Dispose();
                    nYaw.Dispose();
                    nState.Dispose();
                    nVel.Dispose();
                }
            }
        }
    }
}
#endif
