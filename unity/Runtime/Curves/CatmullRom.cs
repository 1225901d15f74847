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
    /// A Catmull-Rom spline through every point. <c>alpha</c> 0 = uniform, 0.5 = centripetal (no
    /// cusps or self-loops), 1 = chordal; <c>tension</c> 0 = classic, 1 = straight segments.
    /// </summary>
    public static class CatmullRom
    {
        /// <summary>The centripetal parameterisation (alpha = 0.5), the usual choice for paths.</summary>
        public const float Centripetal = 0.5f;

        /// <summary>Writes <paramref name="sampleCount"/> (≥ 2) points, both ends included.</summary>
        public static unsafe void Sample(Vector3[] points, float alpha, float tension, int sampleCount, Spacing spacing, Vector3[] output)
        {
            fixed (Vector3* p = points)
            fixed (Vector3* o = output)
            {
                Sample(p, Wf.Len(points), alpha, tension, sampleCount, spacing, o, Wf.Len(output));
            }
        }

        /// <summary>Pointer form (counts and capacity in points).</summary>
        public static unsafe void Sample(Vector3* points, int pointCount, float alpha, float tension, int sampleCount,
            Spacing spacing, Vector3* output, int outputCapacity)
        {
            Wf.Check(NativeMethods.wf_catmull_rom_sample((float*)points, Wf.Count(pointCount, "pointCount"), alpha, tension,
                Wf.Count(sampleCount, "sampleCount"), (uint)spacing, (float*)output, Wf.Count(outputCapacity, "outputCapacity")), "wf_catmull_rom_sample");
        }

        /// <summary>The spline's arc length.</summary>
        public static unsafe float Length(Vector3[] points, float alpha, float tension)
        {
            float length;
            fixed (Vector3* p = points)
            {
                Wf.Check(NativeMethods.wf_catmull_rom_length((float*)p, Wf.Size(Wf.Len(points)), alpha, tension, &length),
                    "wf_catmull_rom_length");
            }
            return length;
        }

#if UNITY_2019_4_OR_NEWER
        /// <summary>NativeArray form (no copies).</summary>
        public static unsafe void Sample(NativeArray<Vector3> points, float alpha, float tension, int sampleCount,
            Spacing spacing, NativeArray<Vector3> output)
        {
            Sample((Vector3*)points.GetUnsafeReadOnlyPtr(), points.Length, alpha, tension, sampleCount, spacing,
                (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
#if WAYFARER_MATHEMATICS
        /// <summary>Unity.Mathematics form (no copies).</summary>
        public static unsafe void Sample(NativeArray<float3> points, float alpha, float tension, int sampleCount,
            Spacing spacing, NativeArray<float3> output)
        {
            Sample((Vector3*)points.GetUnsafeReadOnlyPtr(), points.Length, alpha, tension, sampleCount, spacing,
                (Vector3*)output.GetUnsafePtr(), output.Length);
        }
#endif
    }
}
