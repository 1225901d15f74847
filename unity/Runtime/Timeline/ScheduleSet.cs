using System;
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
        public unsafe uint AddPath(MotionPath path)
        {
            uint index;
            Wf.Check(NativeMethods.wf_schedule_set_add_path(handle.Ptr, path.RawHandle, &index), "wf_schedule_set_add_path");
            GC.KeepAlive(path);
            return index;
        }

        /// <summary>
        /// Adds an NPC on path <paramref name="pathIndex"/> that is at <c>distances[i]</c> at
        /// <c>times[i]</c> (strictly increasing; equal consecutive distances = a hold).
        /// <paramref name="legEase"/> is null or one flag per leg (keys − 1). Returns the NPC index.
        /// </summary>
        public unsafe uint AddNpc(uint pathIndex, double[] times, float[] distances, Ease[] legEase, Wrap wrap)
        {
            if (Wf.Len(times) != Wf.Len(distances))
            {
                throw new ArgumentException("times and distances must have the same length");
            }
            uint npc;
            fixed (double* t = times)
            fixed (float* d = distances)
            fixed (Ease* e = legEase)
            {
                Wf.Check(NativeMethods.wf_schedule_set_add_npc(handle.Ptr, pathIndex, t, d, Wf.Size(Wf.Len(times)),
                    (uint*)e, Wf.Size(Wf.Len(legEase)), (uint)wrap, &npc), "wf_schedule_set_add_npc");
            }
            return npc;
        }

        /// <summary>Seed 001's case: the whole path from <paramref name="startTime"/> to
        /// <paramref name="endTime"/> at constant speed. Returns the NPC index.</summary>
        public unsafe uint AddNpc(uint pathIndex, double startTime, double endTime, Wrap wrap)
        {
            uint npc;
            Wf.Check(NativeMethods.wf_schedule_set_add_npc_simple(handle.Ptr, pathIndex, startTime, endTime, (uint)wrap, &npc),
                "wf_schedule_set_add_npc_simple");
            return npc;
        }

        /// <summary>Number of NPCs added so far.</summary>
        public unsafe int NpcCount
        {
            get
            {
                UIntPtr n;
                Wf.Check(NativeMethods.wf_schedule_set_npc_count(handle.Ptr, &n), "wf_schedule_set_npc_count");
                return (int)(uint)n;
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
                fixed (uint* npcs = buffer.Npcs)
                fixed (uint* keys = buffer.Keys)
                fixed (int* dirs = buffer.Directions)
                {
                    status = NativeMethods.wf_schedule_set_crossings(handle.Ptr, fromTime, toTime, npcs, keys, dirs,
                        Wf.Size(buffer.Capacity), &n);
                }
                if (status == WfStatus.BufferTooSmall)
                {
                    buffer.Grow((int)(uint)n);
                    continue;
                }
                Wf.Check(status, "wf_schedule_set_crossings");
                buffer.Count = (int)(uint)n;
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
        public uint[] Npcs;
        /// <summary>Key (waypoint) index of each crossing.</summary>
        public uint[] Keys;
        /// <summary>+1 when time moved forward across the key, −1 when it moved back.</summary>
        public int[] Directions;
        /// <summary>Crossings written by the last call.</summary>
        public int Count;

        /// <summary>A buffer for up to <paramref name="capacity"/> crossings (it grows when needed).</summary>
        public CrossingBuffer(int capacity)
        {
            Npcs = new uint[capacity];
            Keys = new uint[capacity];
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
            Npcs = new uint[size];
            Keys = new uint[size];
            Directions = new int[size];
        }
    }
}
