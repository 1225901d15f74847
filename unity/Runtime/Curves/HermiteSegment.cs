using System;
using UnityEngine;
using Wayfarer.Native;

namespace Wayfarer.Curves
{
    /// <summary>
    /// One cubic Hermite segment from <c>p0</c> to <c>p1</c> with end tangents <c>m0</c>, <c>m1</c>
    /// (BeanFollower's <c>GetPoint</c>): p(t) = (2t³−3t²+1)p0 + (t³−2t²+t)m0 + (−2t³+3t²)p1 + (t³−t²)m1.
    /// </summary>
    public static class HermiteSegment
    {
        /// <summary>Positions (and optionally first derivatives) at every <c>ts[i]</c>, clamped to [0, 1].
        /// Writes <c>ts.Length</c> points; <paramref name="derivatives"/> may be null.</summary>
        public static unsafe void Evaluate(Vector3 p0, Vector3 p1, Vector3 m0, Vector3 m1, float[] ts,
            Vector3[] positions, Vector3[] derivatives = null)
        {
            fixed (float* t = ts)
            fixed (Vector3* pos = positions)
            fixed (Vector3* der = derivatives)
            {
                Evaluate(p0, p1, m0, m1, t, Wf.Len(ts), pos, Wf.Len(positions), der, Wf.Len(derivatives));
            }
        }

        /// <summary>Pointer form of <see cref="Evaluate(Vector3, Vector3, Vector3, Vector3, float[], Vector3[], Vector3[])"/>
        /// (capacities in points; <paramref name="derivatives"/> may be null).</summary>
        public static unsafe void Evaluate(Vector3 p0, Vector3 p1, Vector3 m0, Vector3 m1, float* ts, int count,
            Vector3* positions, int positionsCapacity, Vector3* derivatives, int derivativesCapacity)
        {
            Wf.Check(NativeMethods.wf_hermite_segment_eval((float*)&p0, (float*)&p1, (float*)&m0, (float*)&m1,
                ts, Wf.Count(count, "count"), (float*)positions, Wf.Count(positionsCapacity, "positionsCapacity"),
                (float*)derivatives, Wf.Count(derivativesCapacity, "derivativesCapacity")), "wf_hermite_segment_eval");
        }

        /// <summary>Former name of <see cref="Evaluate(Vector3, Vector3, Vector3, Vector3, float[], Vector3[], Vector3[])"/>.</summary>
        [Obsolete("Renamed to Evaluate (positions at these parameters).")]
        public static void Sample(Vector3 p0, Vector3 p1, Vector3 m0, Vector3 m1, float[] ts,
            Vector3[] positions, Vector3[] derivatives = null)
        {
            Evaluate(p0, p1, m0, m1, ts, positions, derivatives);
        }

        /// <summary>Former name of the pointer form of <c>Evaluate</c>.</summary>
        [Obsolete("Renamed to Evaluate (positions at these parameters).")]
        public static unsafe void Sample(Vector3 p0, Vector3 p1, Vector3 m0, Vector3 m1, float* ts, int count,
            Vector3* positions, int positionsCapacity, Vector3* derivatives, int derivativesCapacity)
        {
            Evaluate(p0, p1, m0, m1, ts, count, positions, positionsCapacity, derivatives, derivativesCapacity);
        }

        /// <summary>The single point at parameter <paramref name="t"/> (clamped to [0, 1]).</summary>
        public static unsafe Vector3 Evaluate(Vector3 p0, Vector3 p1, Vector3 m0, Vector3 m1, float t)
        {
            Vector3 result;
            Evaluate(p0, p1, m0, m1, &t, 1, &result, 1, null, 0);
            return result;
        }
    }
}
