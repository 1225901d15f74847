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
    /// Bézier pieces joined end to end (seed 002's ping-pong ball: two pieces). Shared end points
    /// are given once, so <c>controlPoints.Length == 1 + sum(degrees)</c>.
    /// </summary>
    public static class BezierChain
    {
        /// <summary>The number of control points a chain with these piece degrees needs.</summary>
        public static int ControlCount(uint[] degrees)
        {
            int n = 1;
            for (int i = 0; i < Wf.Len(degrees); i++)
            {
                n += (int)degrees[i];
            }
            return n;
        }

        /// <summary>Writes <paramref name="sampleCount"/> (≥ 2) points over the whole chain, both ends included.</summary>
        public static unsafe void Sample(Vector3[] controlPoints, uint[] degrees, int sampleCount, Spacing spacing, Vector3[] output)
        {
            fixed (Vector3* c = controlPoints)
            fixed (uint* d = degrees)
            fixed (Vector3* o = output)
            {
                Sample(c, Wf.Len(controlPoints), d, Wf.Len(degrees), sampleCount, spacing, o, Wf.Len(output));
            }
        }

        /// <summary>Pointer form (counts and capacity in points / pieces).</summary>
        public static unsafe void Sample(Vector3* controlPoints, int controlCount, uint* degrees, int pieceCount,
            int sampleCount, Spacing spacing, Vector3* output, int outputCapacity)
        {
            Wf.Check(NativeMethods.wf_bezier_chain_sample((float*)controlPoints, Wf.Count(controlCount, "controlCount"), degrees,
                Wf.Count(pieceCount, "pieceCount"), Wf.Count(sampleCount, "sampleCount"), (uint)spacing, (float*)output, Wf.Count(outputCapacity, "outputCapacity")),
                "wf_bezier_chain_sample");
        }

        /// <summary>Total arc length of the chain.</summary>
        public static unsafe float Length(Vector3[] controlPoints, uint[] degrees)
        {
            float length;
            fixed (Vector3* c = controlPoints)
            fixed (uint* d = degrees)
            {
                Wf.Check(NativeMethods.wf_bezier_chain_length((float*)c, Wf.Size(Wf.Len(controlPoints)), d,
                    Wf.Size(Wf.Len(degrees)), &length), "wf_bezier_chain_length");
            }
            return length;
        }

#if UNITY_2019_4_OR_NEWER
        /// <summary>NativeArray form (no copies).</summary>
        public static unsafe void Sample(NativeArray<Vector3> controlPoints, NativeArray<uint> degrees, int sampleCount,
            Spacing spacing, NativeArray<Vector3> output)
        {
            Sample((Vector3*)controlPoints.GetUnsafeReadOnlyPtr(), controlPoints.Length, (uint*)degrees.GetUnsafeReadOnlyPtr(),
                degrees.Length, sampleCount, spacing, (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
#if WAYFARER_MATHEMATICS
        /// <summary>Unity.Mathematics form (no copies).</summary>
        public static unsafe void Sample(NativeArray<float3> controlPoints, NativeArray<uint> degrees, int sampleCount,
            Spacing spacing, NativeArray<float3> output)
        {
            Sample((Vector3*)controlPoints.GetUnsafeReadOnlyPtr(), controlPoints.Length, (uint*)degrees.GetUnsafeReadOnlyPtr(),
                degrees.Length, sampleCount, spacing, (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
    }
}
