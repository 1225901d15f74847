using System;
using UnityEngine;
using Wayfarer.Native;
#if UNITY_2019_4_OR_NEWER
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
#endif

namespace Wayfarer.Timeline
{
    /// <summary>
    /// A curve with its arc-length table precomputed once (<c>WfPath</c>): sample it by distance
    /// travelled, at constant speed, as often as you like. Built from a polyline, a Hermite spline,
    /// a Catmull-Rom spline or a Bézier chain. Dispose it (or let the finalizer free it).
    /// </summary>
    public sealed class MotionPath : IDisposable
    {
        readonly NativeHandle handle;

        /// <summary>Total arc length, in the points' units.</summary>
        public float Length { get; private set; }

        MotionPath(IntPtr raw)
        {
            handle = new NativeHandle(raw, FreePath, "MotionPath");
            float length;
            unsafe
            {
                Wf.Check(NativeMethods.wf_path_length(raw, &length), "wf_path_length");
            }
            Length = length;
        }

        static void FreePath(IntPtr p)
        {
            NativeMethods.wf_path_free(p);
        }

        /// <summary>True once disposed.</summary>
        public bool IsDisposed
        {
            get { return handle.IsClosed; }
        }

        /// <summary>The raw <c>WfPath*</c> (valid until Dispose), for <see cref="NativeMethods"/> calls.</summary>
        public IntPtr RawHandle
        {
            get { return handle.Ptr; }
        }

        /// <summary>Straight segments through the points (at least 2).</summary>
        public static unsafe MotionPath FromPolyline(Vector3[] points)
        {
            IntPtr raw;
            fixed (Vector3* p = points)
            {
                Wf.Check(NativeMethods.wf_path_new_polyline((float*)p, Wf.Size(Wf.Len(points)), &raw), "wf_path_new_polyline");
            }
            return new MotionPath(raw);
        }

        /// <summary>A Hermite spline: one tangent per point (BeanFollower: checkpoint forward × speed).</summary>
        public static unsafe MotionPath FromHermite(Vector3[] points, Vector3[] tangents)
        {
            IntPtr raw;
            fixed (Vector3* p = points)
            fixed (Vector3* m = tangents)
            {
                Wf.Check(NativeMethods.wf_path_new_hermite((float*)p, Wf.Size(Wf.Len(points)), (float*)m,
                    Wf.Size(Wf.Len(tangents)), &raw), "wf_path_new_hermite");
            }
            return new MotionPath(raw);
        }

        /// <summary>A Catmull-Rom spline through the points (alpha 0.5 = centripetal).</summary>
        public static unsafe MotionPath FromCatmullRom(Vector3[] points, float alpha, float tension)
        {
            IntPtr raw;
            fixed (Vector3* p = points)
            {
                Wf.Check(NativeMethods.wf_path_new_catmull_rom((float*)p, Wf.Size(Wf.Len(points)), alpha, tension, &raw),
                    "wf_path_new_catmull_rom");
            }
            return new MotionPath(raw);
        }

        /// <summary>A chain of Bézier pieces (<c>controlPoints.Length == 1 + sum(degrees)</c>).</summary>
        public static unsafe MotionPath FromBezierChain(Vector3[] controlPoints, uint[] degrees)
        {
            IntPtr raw;
            fixed (Vector3* c = controlPoints)
            fixed (uint* d = degrees)
            {
                Wf.Check(NativeMethods.wf_path_new_bezier_chain((float*)c, Wf.Size(Wf.Len(controlPoints)), d,
                    Wf.Size(Wf.Len(degrees)), &raw), "wf_path_new_bezier_chain");
            }
            return new MotionPath(raw);
        }

        /// <summary>Position and unit forward at every arc-length distance (clamped to [0, Length]).
        /// Writes <c>distances.Length</c> points; <paramref name="forwards"/> may be null.</summary>
        public unsafe void AtDistances(float[] distances, Vector3[] positions, Vector3[] forwards = null)
        {
            fixed (float* d = distances)
            fixed (Vector3* p = positions)
            fixed (Vector3* f = forwards)
            {
                AtDistances(d, Wf.Len(distances), p, Wf.Len(positions), f, Wf.Len(forwards));
            }
        }

        /// <summary>Pointer form (capacities in points; <paramref name="forwards"/> may be null).</summary>
        public unsafe void AtDistances(float* distances, int count, Vector3* positions, int positionsCapacity,
            Vector3* forwards, int forwardsCapacity)
        {
            Wf.Check(NativeMethods.wf_path_at_distances(handle.Ptr, distances, Wf.Count(count, "count"), (float*)positions,
                Wf.Count(positionsCapacity, "positionsCapacity"), (float*)forwards,
                Wf.Count(forwardsCapacity, "forwardsCapacity")), "wf_path_at_distances");
            GC.KeepAlive(handle);
        }

        /// <summary>The point and unit forward at one distance along the path (allocates nothing).</summary>
        public unsafe void AtDistance(float distance, out Vector3 position, out Vector3 forward)
        {
            Vector3 p, f;
            AtDistances(&distance, 1, &p, 1, &f, 1);
            position = p;
            forward = f;
        }

        /// <summary>Former name of <see cref="AtDistances(float[], Vector3[], Vector3[])"/>.</summary>
        [Obsolete("Renamed to AtDistances (positions at these arc-length distances).")]
        public void Sample(float[] distances, Vector3[] positions, Vector3[] forwards = null)
        {
            AtDistances(distances, positions, forwards);
        }

        /// <summary>Former name of the pointer form of <c>AtDistances</c>.</summary>
        [Obsolete("Renamed to AtDistances (positions at these arc-length distances).")]
        public unsafe void Sample(float* distances, int count, Vector3* positions, int positionsCapacity,
            Vector3* forwards, int forwardsCapacity)
        {
            AtDistances(distances, count, positions, positionsCapacity, forwards, forwardsCapacity);
        }

        /// <summary>Former name of <see cref="AtDistance"/>.</summary>
        [Obsolete("Renamed to AtDistance.")]
        public void Sample(float distance, out Vector3 position, out Vector3 forward)
        {
            AtDistance(distance, out position, out forward);
        }

        /// <summary>The point at one distance along the path.</summary>
        public unsafe Vector3 PositionAt(float distance)
        {
            Vector3 p;
            AtDistances(&distance, 1, &p, 1, null, 0);
            return p;
        }

        /// <summary>For every query point, the distance along the path of the nearest path point and
        /// that point (<paramref name="points"/> may be null).</summary>
        public unsafe void Nearest(Vector3[] queries, float[] distances, Vector3[] points = null)
        {
            fixed (Vector3* q = queries)
            fixed (float* d = distances)
            fixed (Vector3* p = points)
            {
                Wf.Check(NativeMethods.wf_path_nearest(handle.Ptr, (float*)q, Wf.Size(Wf.Len(queries)), d,
                    Wf.Size(Wf.Len(distances)), (float*)p, Wf.Size(Wf.Len(points))), "wf_path_nearest");
            }
            GC.KeepAlive(handle);
        }

        /// <summary>Distance along the path of the point nearest to <paramref name="query"/>.</summary>
        public unsafe float Nearest(Vector3 query, out Vector3 point)
        {
            float d;
            Vector3 p;
            Wf.Check(NativeMethods.wf_path_nearest(handle.Ptr, (float*)&query, Wf.Size(1), &d, Wf.Size(1), (float*)&p,
                Wf.Size(1)), "wf_path_nearest");
            GC.KeepAlive(handle);
            point = p;
            return d;
        }

#if UNITY_2019_4_OR_NEWER
        /// <summary>NativeArray form (no copies); <paramref name="forwards"/> may be default (not created).</summary>
        public unsafe void AtDistances(NativeArray<float> distances, NativeArray<Vector3> positions, NativeArray<Vector3> forwards = default(NativeArray<Vector3>))
        {
            AtDistances((float*)distances.GetUnsafeReadOnlyPtr(), distances.Length, (Vector3*)positions.GetUnsafePtr(),
                positions.Length, forwards.IsCreated ? (Vector3*)forwards.GetUnsafePtr() : null,
                forwards.IsCreated ? forwards.Length : 0);
        }

        /// <summary>Former name of the NativeArray form of <c>AtDistances</c>.</summary>
        [Obsolete("Renamed to AtDistances (positions at these arc-length distances).")]
        public void Sample(NativeArray<float> distances, NativeArray<Vector3> positions, NativeArray<Vector3> forwards)
        {
            AtDistances(distances, positions, forwards);
        }
#endif

        /// <summary>Frees the native path. Safe to call twice.</summary>
        public void Dispose()
        {
            handle.Dispose();
        }
    }
}
