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
    /// One Bézier curve of any degree (control count − 1, up to 64): seed 002's GetBezierList
    /// without the per-level lists, and with t = 0 included.
    /// </summary>
    public static class BezierCurve
    {
        /// <summary>Writes <paramref name="sampleCount"/> (≥ 2) points, both ends included.</summary>
        public static unsafe void Sample(Vector3[] controlPoints, int sampleCount, Spacing spacing, Vector3[] output)
        {
            fixed (Vector3* c = controlPoints)
            fixed (Vector3* o = output)
            {
                Sample(c, Wf.Len(controlPoints), sampleCount, spacing, o, Wf.Len(output));
            }
        }

        /// <summary>Pointer form (counts and capacity in points).</summary>
        public static unsafe void Sample(Vector3* controlPoints, int controlCount, int sampleCount, Spacing spacing,
            Vector3* output, int outputCapacity)
        {
            Wf.Check(NativeMethods.wf_bezier_sample((float*)controlPoints, Wf.Count(controlCount, "controlCount"), Wf.Count(sampleCount, "sampleCount"),
                (uint)spacing, (float*)output, Wf.Count(outputCapacity, "outputCapacity")), "wf_bezier_sample");
        }

        /// <summary>Positions (and optionally derivatives) at the given parameters, clamped to [0, 1].</summary>
        public static unsafe void Evaluate(Vector3[] controlPoints, float[] ts, Vector3[] positions, Vector3[] derivatives = null)
        {
            fixed (Vector3* c = controlPoints)
            fixed (float* t = ts)
            fixed (Vector3* p = positions)
            fixed (Vector3* d = derivatives)
            {
                Wf.Check(NativeMethods.wf_bezier_eval((float*)c, Wf.Size(Wf.Len(controlPoints)), t, Wf.Size(Wf.Len(ts)),
                    (float*)p, Wf.Size(Wf.Len(positions)), (float*)d, Wf.Size(Wf.Len(derivatives))), "wf_bezier_eval");
            }
        }

#if UNITY_2019_4_OR_NEWER
        /// <summary>NativeArray form (no copies).</summary>
        public static unsafe void Sample(NativeArray<Vector3> controlPoints, int sampleCount, Spacing spacing, NativeArray<Vector3> output)
        {
            Sample((Vector3*)controlPoints.GetUnsafeReadOnlyPtr(), controlPoints.Length, sampleCount, spacing,
                (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
#if WAYFARER_MATHEMATICS
        /// <summary>Unity.Mathematics form (no copies).</summary>
        public static unsafe void Sample(NativeArray<float3> controlPoints, int sampleCount, Spacing spacing, NativeArray<float3> output)
        {
            Sample((Vector3*)controlPoints.GetUnsafeReadOnlyPtr(), controlPoints.Length, sampleCount, spacing,
                (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
    }
}
