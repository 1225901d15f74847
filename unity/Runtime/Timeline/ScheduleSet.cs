using System;
using System.Collections.Generic;
using UnityEngine;
using Wayfarer.Native;

namespace Wayfarer.Timeline
{
    /// <summary>
    /// Many NPCs' schedules (<c>WfScheduleSet</c>): each NPC's position is a pure function of world
    /// time — be at distance d[i] along a shared path at time t[i] — so time may run backwards,
    /// jump, or run fast (Majora's Mask). One call evaluates every NPC.
    /// </summary>
    public sealed class ScheduleSet : IDisposable
    {
        readonly NativeHandle handle;

        /// <summary>The length of every path added, by index (to name the range in errors).</summary>
        readonly List<float> pathLengths = new List<float>();

        /// <summary>An empty set.</summary>
        public unsafe ScheduleSet()
        {
            IntPtr raw;
            Wf.Check(NativeMethods.wf_schedule_set_new(&raw), "wf_schedule_set_new");
            handle = new NativeHandle(raw, FreeSet, "ScheduleSet");
        }

        static void FreeSet(IntPtr p)
        {
            NativeMethods.wf_schedule_set_free(p);
        }

        /// <summary>True once disposed.</summary>
        public bool IsDisposed
        {
            get { return handle.IsClosed; }
        }

        /// <summary>Copies <paramref name="path"/> into the set; NPCs refer to it by the returned index.
        /// The MotionPath may be disposed afterwards.</summary>
        public unsafe int AddPath(MotionPath path)
        {
            uint index;
            Wf.Check(NativeMethods.wf_schedule_set_add_path(handle.Ptr, path.RawHandle, &index), "wf_schedule_set_add_path");
            pathLengths.Add(path.Length);
            GC.KeepAlive(path);
            return Wf.Int(index, "path index");
        }

        /// <summary>
        /// Adds an NPC on path <paramref name="pathIndex"/> that is at <c>distances[i]</c> at
        /// <c>times[i]</c> (strictly increasing, legs of at least 1e-9 s; equal consecutive distances
        /// = a hold). A distance may be up to 4 × FLT_EPSILON (1.19e-7) × the path's length past either
        /// end of [0, length] (a length summed in floats) and is then taken as that end; farther is an
        /// error naming the key and the range. <paramref name="legEase"/> is null or one flag per leg
        /// (keys − 1). Returns the NPC index.
        /// </summary>
        public unsafe int AddNpc(int pathIndex, double[] times, float[] distances, Ease[] legEase = null,
            Wrap wrap = Wrap.Clamp)
        {
            if (Wf.Len(times) != Wf.Len(distances))
            {
                throw new ArgumentException("times (" + Wf.Len(times) + ") and distances (" + Wf.Len(distances)
                    + ") must have the same length", "distances");
            }
            uint npc;
            WfStatus status;
            fixed (double* t = times)
            fixed (float* d = distances)
            fixed (Ease* e = legEase)
            {
                status = NativeMethods.wf_schedule_set_add_npc(handle.Ptr, Wf.Index(pathIndex, "pathIndex"), t, d,
                    Wf.Size(Wf.Len(times)), (uint*)e, Wf.Size(Wf.Len(legEase)),
                    (uint)wrap, &npc);
            }
            GC.KeepAlive(handle);
            if (status != WfStatus.Ok)
            {
                throw KeyError(status, "wf_schedule_set_add_npc", pathIndex, times, distances);
            }
            return Wf.Int(npc, "NPC index");
        }

        /// <summary>Seed 001's case: the whole path from <paramref name="startTime"/> to
        /// <paramref name="endTime"/> (at least 1e-9 s later) at constant speed. Returns the NPC index.</summary>
        public unsafe int AddNpc(int pathIndex, double startTime, double endTime, Wrap wrap = Wrap.Clamp)
        {
            uint npc;
            WfStatus status = NativeMethods.wf_schedule_set_add_npc_simple(handle.Ptr, Wf.Index(pathIndex, "pathIndex"),
                startTime, endTime, (uint)wrap, &npc);
            GC.KeepAlive(handle);
            if (status != WfStatus.Ok)
            {
                throw KeyError(status, "wf_schedule_set_add_npc_simple", pathIndex, new[] { startTime, endTime }, null);
            }
            return Wf.Int(npc, "NPC index");
        }

        /// <summary>Former <c>uint</c> form of <see cref="AddNpc(int, double[], float[], Ease[], Wrap)"/>.</summary>
        [Obsolete("Indices are int: use AddNpc(int, double[], float[], Ease[], Wrap).")]
        public uint AddNpc(uint pathIndex, double[] times, float[] distances, Ease[] legEase, Wrap wrap)
        {
            return (uint)AddNpc(Wf.Int(pathIndex, "pathIndex"), times, distances, legEase, wrap);
        }

        /// <summary>Former <c>uint</c> form of <see cref="AddNpc(int, double, double, Wrap)"/>.</summary>
        [Obsolete("Indices are int: use AddNpc(int, double, double, Wrap).")]
        public uint AddNpc(uint pathIndex, double startTime, double endTime, Wrap wrap)
        {
            return (uint)AddNpc(Wf.Int(pathIndex, "pathIndex"), startTime, endTime, wrap);
        }

        /// <summary>The exception for a refused schedule: the native status text, and for the cases
        /// the caller can fix, which argument (key index and value) and the range it must be in.</summary>
        WayfarerException KeyError(WfStatus status, string function, int pathIndex, double[] times, float[] distances)
        {
            string detail = null;
            if (status == WfStatus.OutOfRange)
            {
                detail = "pathIndex = " + pathIndex + " names no path (the set has " + pathLengths.Count + ")";
            }
            else if (status == WfStatus.DistanceOutOfRange && distances != null && pathIndex < pathLengths.Count)
            {
                float length = pathLengths[pathIndex];
                double slack = 4.0 * FloatEpsilon * length;
                for (int i = 0; i < distances.Length; i++)
                {
                    if (!(distances[i] >= -slack && distances[i] <= length + slack))
                    {
                        detail = "distances[" + i + "] = " + distances[i].ToString("R") + " is outside [0, " + length.ToString("R")
                            + "] (path " + pathIndex + "'s length, ± " + slack.ToString("G3") + ")";
                        break;
                    }
                }
            }
            else if (status == WfStatus.InvalidKeyTime && times != null)
            {
                for (int i = 0; i + 1 < times.Length; i++)
                {
                    if (!(times[i + 1] - times[i] >= MinLegSeconds))
                    {
                        detail = "times[" + (i + 1) + "] − times[" + i + "] = " + (times[i + 1] - times[i]).ToString("R")
                            + " s is outside [1e-9, ∞) s";
                        break;
                    }
                }
            }
            return new WayfarerException(status, function, detail);
        }

        /// <summary>The shortest leg a schedule accepts, in seconds (as the native library checks it).</summary>
        public const double MinLegSeconds = 1e-9;

        /// <summary>FLT_EPSILON: the distance tolerance is 4 × this × the path's length.</summary>
        const double FloatEpsilon = 1.1920928955078125e-7;

        /// <summary>Number of NPCs added so far.</summary>
        public unsafe int NpcCount
        {
            get
            {
                UIntPtr n;
                Wf.Check(NativeMethods.wf_schedule_set_npc_count(handle.Ptr, &n), "wf_schedule_set_npc_count");
                return Wf.Int((ulong)n, "NPC count");
            }
        }

        /// <summary>Every NPC at world time <paramref name="time"/>. An output that is null (or empty:
        /// C# pins an empty array as NULL) is not computed; any other must hold at least
        /// <see cref="NpcCount"/> elements.</summary>
        public unsafe void Evaluate(double time, Vector3[] positions, Vector3[] forwards = null,
            Vector3[] velocities = null, NpcState[] states = null)
        {
            fixed (Vector3* p = positions)
            fixed (Vector3* f = forwards)
            fixed (Vector3* v = velocities)
            fixed (NpcState* s = states)
            {
                Wf.Check(NativeMethods.wf_schedule_set_evaluate(handle.Ptr, time,
                    (float*)p, Wf.Size(Wf.Len(positions)), (float*)f, Wf.Size(Wf.Len(forwards)),
                    (float*)v, Wf.Size(Wf.Len(velocities)), (uint*)s, Wf.Size(Wf.Len(states))),
                    "wf_schedule_set_evaluate");
            }
            GC.KeepAlive(handle);
        }

        /// <summary>Hint slots <see cref="EvaluateHinted"/> needs: 2 per NPC.</summary>
        public int HintCount
        {
            get { return 2 * NpcCount; }
        }

        /// <summary>
        /// <see cref="Evaluate"/> for frame-to-frame coherent times: <paramref name="hints"/> (at least
        /// <see cref="HintCount"/> entries, start with zeros, any value is safe) is read and updated so
        /// each NPC's key search starts where it ended last frame. Results are bit-identical.
        /// </summary>
        public unsafe void EvaluateHinted(double time, uint[] hints, Vector3[] positions, Vector3[] forwards = null,
            Vector3[] velocities = null, NpcState[] states = null)
        {
            fixed (uint* h = hints)
            fixed (Vector3* p = positions)
            fixed (Vector3* f = forwards)
            fixed (Vector3* v = velocities)
            fixed (NpcState* s = states)
            {
                Wf.Check(NativeMethods.wf_schedule_set_evaluate_hinted(handle.Ptr, time, h, Wf.Size(Wf.Len(hints)),
                    (float*)p, Wf.Size(Wf.Len(positions)), (float*)f, Wf.Size(Wf.Len(forwards)),
                    (float*)v, Wf.Size(Wf.Len(velocities)), (uint*)s, Wf.Size(Wf.Len(states))),
                    "wf_schedule_set_evaluate_hinted");
            }
            GC.KeepAlive(handle);
        }

        /// <summary>Every NPC at its own time (<c>times.Length == NpcCount</c>); outputs as in <see cref="Evaluate"/>.</summary>
        public unsafe void EvaluateTimes(double[] times, Vector3[] positions, Vector3[] forwards = null,
            Vector3[] velocities = null, NpcState[] states = null)
        {
            fixed (double* t = times)
            fixed (Vector3* p = positions)
            fixed (Vector3* f = forwards)
            fixed (Vector3* v = velocities)
            fixed (NpcState* s = states)
            {
                Wf.Check(NativeMethods.wf_schedule_set_evaluate_times(handle.Ptr, t, Wf.Size(Wf.Len(times)),
                    (float*)p, Wf.Size(Wf.Len(positions)), (float*)f, Wf.Size(Wf.Len(forwards)),
                    (float*)v, Wf.Size(Wf.Len(velocities)), (uint*)s, Wf.Size(Wf.Len(states))),
                    "wf_schedule_set_evaluate_times");
            }
            GC.KeepAlive(handle);
        }

        /// <summary>
        /// The waypoint (key) crossings between two world times (either order) into
        /// <paramref name="buffer"/>, growing it if needed (the only allocation). Returns the count.
        /// </summary>
        public unsafe int Crossings(double fromTime, double toTime, CrossingBuffer buffer)
        {
            for (;;)
            {
                UIntPtr n;
                WfStatus status;
                fixed (int* npcs = buffer.Npcs)
                fixed (int* keys = buffer.Keys)
                fixed (int* dirs = buffer.Directions)
                {
                    status = NativeMethods.wf_schedule_set_crossings(handle.Ptr, fromTime, toTime, (uint*)npcs, (uint*)keys,
                        dirs, Wf.Size(buffer.Capacity), &n);
                }
                if (status == WfStatus.BufferTooSmall)
                {
                    buffer.Grow(Wf.Int((ulong)n, "crossing count"));
                    continue;
                }
                Wf.Check(status, "wf_schedule_set_crossings");
                buffer.Count = Wf.Int((ulong)n, "crossing count");
                GC.KeepAlive(handle);
                return buffer.Count;
            }
        }

        /// <summary>Frees the native set. Safe to call twice.</summary>
        public void Dispose()
        {
            handle.Dispose();
        }
    }

    /// <summary>Reusable output of <see cref="ScheduleSet.Crossings"/>: crossing i is NPC
    /// <c>Npcs[i]</c> passing key <c>Keys[i]</c> in direction <c>Directions[i]</c> (+1 forward in time, −1 rewinding).</summary>
    public sealed class CrossingBuffer
    {
        /// <summary>NPC index of each crossing.</summary>
        public int[] Npcs;
        /// <summary>Key (waypoint) index of each crossing.</summary>
        public int[] Keys;
        /// <summary>+1 when time moved forward across the key, −1 when it moved back.</summary>
        public int[] Directions;
        /// <summary>Crossings written by the last call.</summary>
        public int Count;

        /// <summary>A buffer for up to <paramref name="capacity"/> crossings (it grows when needed).</summary>
        public CrossingBuffer(int capacity)
        {
            Npcs = new int[capacity];
            Keys = new int[capacity];
            Directions = new int[capacity];
        }

        /// <summary>Current capacity in crossings.</summary>
        public int Capacity
        {
            get { return Npcs.Length; }
        }

        internal void Grow(int needed)
        {
            int size = Math.Max(needed, Capacity * 2);
            Npcs = new int[size];
            Keys = new int[size];
            Directions = new int[size];
        }
    }
}
