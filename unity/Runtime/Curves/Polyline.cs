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
    /// <summary>Straight segments through every point (NavMesh corners, seed 001's path).</summary>
    public static class Polyline
    {
        /// <summary>Writes <paramref name="sampleCount"/> (≥ 2) points, both ends included.</summary>
        public static unsafe void Sample(Vector3[] points, int sampleCount, Spacing spacing, Vector3[] output)
        {
            fixed (Vector3* p = points)
            fixed (Vector3* o = output)
            {
                Sample(p, Wf.Len(points), sampleCount, spacing, o, Wf.Len(output));
            }
        }

        /// <summary>Pointer form (counts and capacity in points).</summary>
        public static unsafe void Sample(Vector3* points, int pointCount, int sampleCount, Spacing spacing,
            Vector3* output, int outputCapacity)
        {
            Wf.Check(NativeMethods.wf_polyline_sample((float*)points, Wf.Count(pointCount, "pointCount"), Wf.Count(sampleCount, "sampleCount"),
                (uint)spacing, (float*)output, Wf.Count(outputCapacity, "outputCapacity")), "wf_polyline_sample");
        }

        /// <summary>Total length (sum of segment lengths).</summary>
        public static unsafe float Length(Vector3[] points)
        {
            float length;
            fixed (Vector3* p = points)
            {
                Wf.Check(NativeMethods.wf_polyline_length((float*)p, Wf.Size(Wf.Len(points)), &length), "wf_polyline_length");
            }
            return length;
        }

#if UNITY_2019_4_OR_NEWER
        /// <summary>NativeArray form (no copies).</summary>
        public static unsafe void Sample(NativeArray<Vector3> points, int sampleCount, Spacing spacing, NativeArray<Vector3> output)
        {
            Sample((Vector3*)points.GetUnsafeReadOnlyPtr(), points.Length, sampleCount, spacing,
                (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
#if WAYFARER_MATHEMATICS
        /// <summary>Unity.Mathematics form (no copies).</summary>
        public static unsafe void Sample(NativeArray<float3> points, int sampleCount, Spacing spacing, NativeArray<float3> output)
        {
            Sample((Vector3*)points.GetUnsafeReadOnlyPtr(), points.Length, sampleCount, spacing,
                (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
    }
}
