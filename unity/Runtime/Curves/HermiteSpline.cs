using UnityEngine;
using Wayfarer.Native;
#if UNITY_2019_4_OR_NEWER
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
#endif
#if WAYFARER_MATHEMATICS
using Unity.Mathematics;
#endif

namespace Wayfarer.Curves
{
    /// <summary>
    /// A C¹ spline of cubic Hermite segments through <c>points</c> with one tangent per point
    /// (BeanFollower: checkpoint forward × speed). Stateless, one-shot; for repeated sampling
    /// build a <see cref="Wayfarer.Timeline.MotionPath"/> once.
    /// </summary>
    public static class HermiteSpline
    {
        /// <summary>Writes <paramref name="sampleCount"/> (≥ 2) points, both ends included, to <paramref name="output"/>.</summary>
        public static unsafe void Sample(Vector3[] points, Vector3[] tangents, int sampleCount, Spacing spacing, Vector3[] output)
        {
            fixed (Vector3* p = points)
            fixed (Vector3* m = tangents)
            fixed (Vector3* o = output)
            {
                Sample(p, Wf.Len(points), m, Wf.Len(tangents), sampleCount, spacing, o, Wf.Len(output));
            }
        }

        /// <summary>Pointer form (counts and capacity in points).</summary>
        public static unsafe void Sample(Vector3* points, int pointCount, Vector3* tangents, int tangentCount,
            int sampleCount, Spacing spacing, Vector3* output, int outputCapacity)
        {
            Wf.Check(NativeMethods.wf_hermite_spline_sample((float*)points, Wf.Count(pointCount, "pointCount"), (float*)tangents,
                Wf.Count(tangentCount, "tangentCount"), Wf.Count(sampleCount, "sampleCount"), (uint)spacing, (float*)output, Wf.Count(outputCapacity, "outputCapacity")),
                "wf_hermite_spline_sample");
        }

        /// <summary>The spline's arc length.</summary>
        public static unsafe float Length(Vector3[] points, Vector3[] tangents)
        {
            float length;
            fixed (Vector3* p = points)
            fixed (Vector3* m = tangents)
            {
                Wf.Check(NativeMethods.wf_hermite_spline_length((float*)p, Wf.Size(Wf.Len(points)), (float*)m,
                    Wf.Size(Wf.Len(tangents)), &length), "wf_hermite_spline_length");
            }
            return length;
        }

#if UNITY_2019_4_OR_NEWER
        /// <summary>NativeArray form (no copies).</summary>
        public static unsafe void Sample(NativeArray<Vector3> points, NativeArray<Vector3> tangents, int sampleCount,
            Spacing spacing, NativeArray<Vector3> output)
        {
            Sample((Vector3*)points.GetUnsafeReadOnlyPtr(), points.Length, (Vector3*)tangents.GetUnsafeReadOnlyPtr(),
                tangents.Length, sampleCount, spacing, (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
#if WAYFARER_MATHEMATICS
        /// <summary>Unity.Mathematics form (float3 has Vector3's layout; no copies).</summary>
        public static unsafe void Sample(NativeArray<float3> points, NativeArray<float3> tangents, int sampleCount,
            Spacing spacing, NativeArray<float3> output)
        {
            Sample((Vector3*)points.GetUnsafeReadOnlyPtr(), points.Length, (Vector3*)tangents.GetUnsafeReadOnlyPtr(),
                tangents.Length, sampleCount, spacing, (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
    }
}
