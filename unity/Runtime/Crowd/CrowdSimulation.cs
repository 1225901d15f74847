using System;
using UnityEngine;
using Wayfarer.Native;
#if UNITY_2019_4_OR_NEWER
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
#endif
#if WAYFARER_MATHEMATICS
using Unity.Mathematics;
#endif

namespace Wayfarer.Crowd
{
    /// <summary>
    /// A crowd of agents walking to targets on the XZ plane (Y up) around obstacles and each other
    /// (<c>WfCrowd</c>): seed 003's FOV cone + hit normal × repel force + limited turn rate, for every
    /// agent in one <see cref="Step"/>. Yaw is Unity's Y rotation in radians: forward = (sin yaw, 0, cos yaw).
    /// </summary>
    public sealed class CrowdSimulation : IDisposable
    {
        readonly NativeHandle handle;

        /// <summary>The longest step <see cref="Step"/> accepts, in seconds (longer ones are refused;
        /// steps over 0.1 s are split into sub-steps natively).</summary>
        public const float MaxStep = 6.4f;

        /// <summary>The default and the largest <see cref="SetRouteCache"/>: 512 distance fields.</summary>
        public const int MaxRouteCache = 512;

        /// <summary>The default <see cref="SetRouteBudget"/>: 4 distance fields per sub-step.</summary>
        public const int DefaultRouteBudget = 4;

        /// <summary>The largest <see cref="SetRouteBudget"/>: 64 distance fields per sub-step.</summary>
        public const int MaxRouteBudget = 64;

        /// <summary>
        /// A crowd with room for <paramref name="agentCapacity"/> agents and as many obstacles (at least
        /// 1024). Everything a step needs is allocated here, so stepping allocates nothing. Adding more
        /// grows the crowd (doubling, up to 4 194 304 agents and as many obstacles; past that adding fails
        /// with <c>InvalidCount</c>); the step after a growth may allocate once.
        /// </summary>
        public unsafe CrowdSimulation(int agentCapacity)
        {
            if (agentCapacity < 0)
            {
                throw new ArgumentOutOfRangeException("agentCapacity");
            }
            IntPtr raw;
            Wf.Check(NativeMethods.wf_crowd_new(Wf.Size(agentCapacity), &raw), "wf_crowd_new");
            handle = new NativeHandle(raw, FreeCrowd, "CrowdSimulation");
            Capacity = agentCapacity;
        }

        // Scratch of ReadEvents, grown as needed and reused.
        uint[] eventKinds, eventAgents, eventGoals;
        Vector3[] eventPositions;

        /// <summary>The room for agents the crowd was made with (it grows past it as agents are added).</summary>
        public int Capacity { get; private set; }

        static void FreeCrowd(IntPtr p)
        {
            NativeMethods.wf_crowd_free(p);
        }

        /// <summary>True once disposed.</summary>
        public bool IsDisposed
        {
            get { return handle.IsClosed; }
        }

        /// <summary>Unity's yaw (radians) of a direction on the XZ plane.</summary>
        public static float YawOf(Vector3 forward)
        {
            return (float)Math.Atan2(forward.x, forward.z);
        }

        /// <summary>The unit XZ direction of a yaw (radians).</summary>
        public static Vector3 ForwardOf(float yaw)
        {
            return new Vector3((float)Math.Sin(yaw), 0f, (float)Math.Cos(yaw));
        }

        /// <summary>Steering given to agents added from now on: turn rate (rad/s), FOV range and half
        /// angle (radians), repel force, arrival radius. Library defaults: 2π, 4, 100°, 1.5, 0.25.</summary>
        public void SetDefaults(float maxTurnRate, float fovRange, float fovHalfAngle, float repelForce, float arrivalRadius)
        {
            Wf.Check(NativeMethods.wf_crowd_set_defaults(handle.Ptr, maxTurnRate, fovRange, fovHalfAngle, repelForce,
                arrivalRadius), "wf_crowd_set_defaults");
        }

        /// <summary>
        /// Caps the memory of planned routes (<see cref="RouteMode.Planned"/>): at most
        /// <paramref name="maxFields"/> distance fields are cached (the least recently used dropped at
        /// once when the cap is lowered). Each holds 4 bytes per planning cell (about 65 536 cells
        /// at most: 256 KiB), so the cache holds at most maxFields × cells × 4 bytes: 128 MiB at the
        /// default <see cref="MaxRouteCache"/> (a field made stale by an obstacle change also holds a
        /// repair list under an eighth of its size: 144 MiB at most). A full cache makes room for a new field only by
        /// dropping one unused for two route updates (20 sub-steps), never one agents are following: with
        /// more distinct goals in use than the cap, the goals asked for first keep their fields, and the
        /// other agents search ways of their own within the route budget's search share (see
        /// <see cref="SetRouteBudget"/>), and walk straight at their targets beyond it, until a field falls
        /// out of use. 1..<see cref="MaxRouteCache"/>; anything else throws
        /// <see cref="WayfarerException"/> with <c>InvalidArgument</c> and changes nothing.
        /// </summary>
        public void SetRouteCache(int maxFields)
        {
            Wf.Check(NativeMethods.wf_crowd_set_route_cache(handle.Ptr, Wf.Size(maxFields)), "wf_crowd_set_route_cache");
        }

        /// <summary>
        /// Bounds the route planning done per sub-step (<see cref="RouteMode.Planned"/>): at most
        /// <paramref name="fieldsPerStep"/> distance fields are computed, or stale ones repaired, in each
        /// (<see cref="DefaultRouteBudget"/> unless set). A field costs up to about 1 ms on the finest
        /// planning grid (65 536 cells), so the budget bounds the planner's share of a frame, as
        /// <c>NavMesh.pathfindingIterationsPerFrame</c> does for Unity's NavMesh: lower keeps frames short
        /// when many agents plan to goals of their own, higher gets routes sooner. An agent waiting for a
        /// field may search a way of its own (A* from its goal to where it stands); a sub-step's searches
        /// take at most fieldsPerStep × cells / 16 cells, in turns when they run out, and agents beyond them
        /// walk straight at their targets meanwhile. 1..<see cref="MaxRouteBudget"/>; anything else throws
        /// <see cref="WayfarerException"/> with <c>InvalidArgument</c> and changes nothing.
        /// </summary>
        public void SetRouteBudget(int fieldsPerStep)
        {
            Wf.Check(NativeMethods.wf_crowd_set_route_budget(handle.Ptr, Wf.Size(fieldsPerStep)), "wf_crowd_set_route_budget");
        }

        /// <summary>The budget of distance fields per sub-step (<see cref="SetRouteBudget"/>; <see cref="DefaultRouteBudget"/> unless set).</summary>
        public unsafe int RouteBudget
        {
            get
            {
                UIntPtr n;
                Wf.Check(NativeMethods.wf_crowd_route_budget(handle.Ptr, &n), "wf_crowd_route_budget");
                return (int)(uint)n;
            }
        }

        /// <summary>
        /// Builds the route planner's grid now, over the obstacles as they are, as a NavMesh is baked at a
        /// level's load: call it once the level's obstacles are added (a loading screen, <c>Start</c>), and
        /// the first step with a planned agent routes at once instead of first building the whole grid (a
        /// few milliseconds on the finest grid); a rebuild under way is finished. Obstacles changed later are
        /// applied by the steps as usual, and nothing else changes: a crowd baked just before its first step
        /// moves exactly as one that is not.
        /// </summary>
        public void BakeRoutes()
        {
            Wf.Check(NativeMethods.wf_crowd_bake_routes(handle.Ptr), "wf_crowd_bake_routes");
        }

        /// <summary>The cap on cached distance fields (<see cref="SetRouteCache"/>; <see cref="MaxRouteCache"/> unless lowered).</summary>
        public unsafe int RouteCache
        {
            get
            {
                UIntPtr n;
                Wf.Check(NativeMethods.wf_crowd_route_cache(handle.Ptr, &n), "wf_crowd_route_cache");
                return (int)(uint)n;
            }
        }

        /// <summary>
        /// Caps the instruction sets the step's lane kernels (candidate scan, neighbour cull, batched
        /// turns) may use; the crowd runs the best level this CPU has up to <paramref name="cap"/>
        /// (<see cref="CrowdSimulation.Simd"/> reports it). Every level gives exactly the same results: capping is for
        /// comparisons, and for CPUs that lower their clock under AVX-512 (cap at <see cref="Wayfarer.Crowd.Simd.Avx2"/>
        /// there if the rest of the frame suffers). The default is <see cref="Wayfarer.Crowd.Simd.Avx512"/>
        /// (no cap). A value outside the enum throws <see cref="WayfarerException"/> with
        /// <c>InvalidArgument</c> and changes nothing.
        /// </summary>
        public void SetSimd(Simd cap)
        {
            Wf.Check(NativeMethods.wf_crowd_set_simd(handle.Ptr, (uint)cap), "wf_crowd_set_simd");
        }

        /// <summary>The level the step's lane kernels run at: the cap given to <see cref="SetSimd"/>
        /// (<see cref="Wayfarer.Crowd.Simd.Avx512"/> unless lowered), lowered to what this CPU supports, so
        /// never above the cap.</summary>
        public unsafe Simd Simd
        {
            get
            {
                uint level;
                Wf.Check(NativeMethods.wf_crowd_simd(handle.Ptr, &level), "wf_crowd_simd");
                return (Simd)level;
            }
        }

        /// <summary>Adds an agent; returns its id (stable until removed). A full crowd grows; one holding
        /// 4 194 304 agents throws <see cref="WayfarerException"/> with <c>InvalidCount</c>.</summary>
        public unsafe uint AddAgent(Vector3 position, float yaw, float speed, float radius)
        {
            uint id;
            Wf.Check(NativeMethods.wf_crowd_add_agent(handle.Ptr, (float*)&position, yaw, speed, radius, &id), "wf_crowd_add_agent");
            return id;
        }

        /// <summary>Removes an agent; its id names nothing afterwards.</summary>
        public void RemoveAgent(uint id)
        {
            Wf.Check(NativeMethods.wf_crowd_remove_agent(handle.Ptr, id), "wf_crowd_remove_agent");
        }

        /// <summary>Where the agent walks to; it stops within <paramref name="arrivalRadius"/> of it (of the
        /// nearest point it can reach, when the target lies inside an obstacle or too close to one). The target
        /// and radius it already has change nothing (send it every frame freely); many agents: <see cref="SetTargets(uint[], int, Vector3[], float[])"/>.</summary>
        public unsafe void SetTarget(uint id, Vector3 target, float arrivalRadius)
        {
            Wf.Check(NativeMethods.wf_crowd_set_target(handle.Ptr, id, (float*)&target, arrivalRadius), "wf_crowd_set_target");
        }

        /// <summary>
        /// <see cref="SetTarget"/> for the first <paramref name="count"/> agents of <paramref name="ids"/> in one
        /// native call: agent <c>ids[i]</c> walks to <c>targets[i]</c>, stopping within <c>arrivalRadii[i]</c>
        /// (<paramref name="arrivalRadii"/> null: each keeps its arrival radius). The arrays may be longer than
        /// <paramref name="count"/> (pooled buffers). All or nothing: a bad id, target or radius throws and no agent
        /// changes. A target and radius an agent already has change nothing, so sending every agent's target every
        /// frame costs one call and keeps settled agents settled.
        /// </summary>
        public unsafe void SetTargets(uint[] ids, int count, Vector3[] targets, float[] arrivalRadii)
        {
            Wf.Fits(ids, count, "count");
            Wf.Fits(targets, count, "count");
            if (arrivalRadii != null)
            {
                Wf.Fits(arrivalRadii, count, "count");
            }
            fixed (uint* i = ids)
            fixed (Vector3* t = targets)
            fixed (float* r = arrivalRadii)
            {
                // An empty radii array pins to NULL, as null does: with count 0 the same call.
                SetTargets(i, count, t, r);
            }
        }

        /// <summary>Seed 003's steering: turn rate (rad/s), FOV range and half angle (radians), repel force.</summary>
        public void SetSteering(uint id, float maxTurnRate, float fovRange, float fovHalfAngle, float repelForce)
        {
            Wf.Check(NativeMethods.wf_crowd_set_steering(handle.Ptr, id, maxTurnRate, fovRange, fovHalfAngle, repelForce),
                "wf_crowd_set_steering");
        }

        /// <summary>Who gives way (higher priority keeps its line), its layer bit and the layers it avoids.</summary>
        public void SetPriority(uint id, float priority, uint layer, uint mask)
        {
            Wf.Check(NativeMethods.wf_crowd_set_priority(handle.Ptr, id, priority, layer, mask), "wf_crowd_set_priority");
        }

        /// <summary>Walking speed (units/s) and body radius.</summary>
        public void SetSpeed(uint id, float speed, float radius)
        {
            Wf.Check(NativeMethods.wf_crowd_set_speed(handle.Ptr, id, speed, radius), "wf_crowd_set_speed");
        }

        /// <summary>Corners to walk through (used with <see cref="RouteMode.Waypoints"/>).</summary>
        public unsafe void SetWaypoints(uint id, Vector3[] corners)
        {
            fixed (Vector3* c = corners)
            {
                Wf.Check(NativeMethods.wf_crowd_set_waypoints(handle.Ptr, id, (float*)c, Wf.Size(Wf.Len(corners))),
                    "wf_crowd_set_waypoints");
            }
        }

        /// <summary>The first <paramref name="count"/> of <paramref name="corners"/> as the agent's waypoints (a pooled
        /// buffer longer than the route; 0: none).</summary>
        public unsafe void SetWaypoints(uint id, Vector3[] corners, int count)
        {
            Wf.Fits(corners, count, "count");
            fixed (Vector3* c = corners)
            {
                Wf.Check(NativeMethods.wf_crowd_set_waypoints(handle.Ptr, id, (float*)c, Wf.Size(count)),
                    "wf_crowd_set_waypoints");
            }
            GC.KeepAlive(handle);
        }

        /// <summary>How the agent chooses its heading.</summary>
        public void SetRouteMode(uint id, RouteMode mode)
        {
            Wf.Check(NativeMethods.wf_crowd_set_route_mode(handle.Ptr, id, (uint)mode), "wf_crowd_set_route_mode");
        }

        /// <summary>Teleports the first <paramref name="count"/> agents of <paramref name="ids"/> to the first
        /// <paramref name="count"/> <paramref name="positions"/>; <paramref name="yaws"/> may be null (keep headings).
        /// The arrays may be longer than <paramref name="count"/> (pooled buffers).</summary>
        public unsafe void SetPositions(uint[] ids, int count, Vector3[] positions, float[] yaws)
        {
            Wf.Fits(ids, count, "count");
            Wf.Fits(positions, count, "count");
            if (yaws != null)
            {
                Wf.Fits(yaws, count, "count");
            }
            fixed (uint* i = ids)
            fixed (Vector3* p = positions)
            fixed (float* y = yaws)
            {
                SetPositions(i, count, p, y);
            }
        }

        /// <summary>A round obstacle (a sphere or upright capsule seen from above).</summary>
        public unsafe uint AddCircle(Vector3 center, float radius)
        {
            uint id;
            Wf.Check(NativeMethods.wf_crowd_add_circle(handle.Ptr, (float*)&center, radius, &id), "wf_crowd_add_circle");
            return id;
        }

        /// <summary>An axis-aligned box obstacle (only X and Z matter).</summary>
        public unsafe uint AddBox(Vector3 min, Vector3 max)
        {
            uint id;
            Wf.Check(NativeMethods.wf_crowd_add_box(handle.Ptr, (float*)&min, (float*)&max, &id), "wf_crowd_add_box");
            return id;
        }

        /// <summary>A box obstacle turned by <paramref name="yaw"/> radians, with half extents on its own X and Z.</summary>
        public unsafe uint AddOrientedBox(Vector3 center, float halfX, float halfZ, float yaw)
        {
            uint id;
            Wf.Check(NativeMethods.wf_crowd_add_oriented_box(handle.Ptr, (float*)&center, halfX, halfZ, yaw, &id),
                "wf_crowd_add_oriented_box");
            return id;
        }

        /// <summary>A thin wall from <paramref name="a"/> to <paramref name="b"/>.</summary>
        public unsafe uint AddWall(Vector3 a, Vector3 b)
        {
            uint id;
            Wf.Check(NativeMethods.wf_crowd_add_wall(handle.Ptr, (float*)&a, (float*)&b, &id), "wf_crowd_add_wall");
            return id;
        }

        /// <summary>Removes an obstacle.</summary>
        public void RemoveObstacle(uint id)
        {
            Wf.Check(NativeMethods.wf_crowd_remove_obstacle(handle.Ptr, id), "wf_crowd_remove_obstacle");
        }

        /// <summary>Advances every agent by <paramref name="dt"/> seconds (0 &lt; dt ≤ <see cref="MaxStep"/>)
        /// in one native call; <paramref name="threads"/> 0 or 1 = the calling thread only (results are
        /// identical for any thread count).</summary>
        public void Step(float dt, int threads = 1)
        {
            Wf.Check(NativeMethods.wf_crowd_step(handle.Ptr, dt, (uint)Math.Max(threads, 0)), "wf_crowd_step");
            GC.KeepAlive(handle);
        }

        /// <summary>
        /// Gives agent <paramref name="id"/> a queue of goals: it walks to <c>targets[0]</c> now; on reaching each
        /// (within its arrival radius, not stopped short against others) it waits <c>waits[i]</c> seconds, then takes
        /// the next; at the last it does what <paramref name="onArrival"/> says (stop, despawn, loop). Only the first
        /// <paramref name="count"/> entries are used (-1: all of <paramref name="targets"/>). <paramref name="arrivalRadii"/>
        /// null: the agent's arrival radius for every goal; <paramref name="waits"/> null: no waits. Replaces any queue it
        /// had; count 0 drops it. A bad goal throws and nothing changes.
        /// </summary>
        public unsafe void SetGoals(uint id, Vector3[] targets, float[] arrivalRadii = null, float[] waits = null,
            OnArrival onArrival = OnArrival.Stop, int count = -1)
        {
            if (targets == null)
            {
                throw new ArgumentNullException("targets");
            }
            if (count < 0)
            {
                count = targets.Length;
            }
            Wf.Fits(targets, count, "count");
            if (arrivalRadii != null)
            {
                Wf.Fits(arrivalRadii, count, "count");
            }
            if (waits != null)
            {
                Wf.Fits(waits, count, "count");
            }
            fixed (Vector3* t = targets)
            fixed (float* r = arrivalRadii)
            fixed (float* w = waits)
            {
                Wf.Check(NativeMethods.wf_crowd_set_goals(handle.Ptr, id, (float*)t, r, w, Wf.Size(count), (uint)onArrival),
                    "wf_crowd_set_goals");
            }
        }

        /// <summary>Adds a goal to the end of agent <paramref name="id"/>'s queue (one without a queue gets one whose
        /// first goal is its target).</summary>
        public unsafe void PushGoal(uint id, Vector3 target, float arrivalRadius, float wait = 0f)
        {
            Wf.Check(NativeMethods.wf_crowd_push_goal(handle.Ptr, id, (float*)&target, arrivalRadius, wait),
                "wf_crowd_push_goal");
        }

        /// <summary>What agent <paramref name="id"/> does at the last goal of its queue.</summary>
        public void SetOnArrival(uint id, OnArrival onArrival)
        {
            Wf.Check(NativeMethods.wf_crowd_set_on_arrival(handle.Ptr, id, (uint)onArrival), "wf_crowd_set_on_arrival");
        }

        /// <summary>Goals agent <paramref name="id"/> has left after the one it walks to now (0 without a queue).</summary>
        public unsafe int GoalsLeft(uint id)
        {
            UIntPtr n;
            Wf.Check(NativeMethods.wf_crowd_goals_left(handle.Ptr, id, &n), "wf_crowd_goals_left");
            return (int)(uint)n;
        }

        /// <summary>
        /// Copies what happened during the last <see cref="Step"/> (goals reached, agents despawned) into
        /// <paramref name="events"/>, growing it when it is too small (so a reused list allocates only while it
        /// grows), and returns how many there were. Entries past the returned count are left as they were.
        /// </summary>
        public unsafe int ReadEvents(ref CrowdEvent[] events)
        {
            UIntPtr n;
            Wf.Check(NativeMethods.wf_crowd_read_events(handle.Ptr, null, UIntPtr.Zero, null, UIntPtr.Zero, null,
                UIntPtr.Zero, null, UIntPtr.Zero, &n), "wf_crowd_read_events");
            int count = (int)(uint)n;
            if (count == 0)
            {
                return 0;
            }
            if (events == null || events.Length < count)
            {
                events = new CrowdEvent[Math.Max(count, events == null ? 16 : 2 * events.Length)];
            }
            if (eventKinds == null || eventKinds.Length < count)
            {
                int room = Math.Max(count, eventKinds == null ? 16 : 2 * eventKinds.Length);
                eventKinds = new uint[room];
                eventAgents = new uint[room];
                eventGoals = new uint[room];
                eventPositions = new Vector3[room];
            }
            uint[] kinds = eventKinds, agents = eventAgents, goals = eventGoals;
            Vector3[] positions = eventPositions;
            fixed (uint* k = kinds)
            fixed (uint* a = agents)
            fixed (uint* g = goals)
            fixed (Vector3* p = positions)
            {
                Wf.Check(NativeMethods.wf_crowd_read_events(handle.Ptr, k, Wf.Size(count), a, Wf.Size(count), g,
                    Wf.Size(count), (float*)p, Wf.Size(count), &n), "wf_crowd_read_events");
            }
            for (int i = 0; i < count; i++)
            {
                events[i] = new CrowdEvent((CrowdEventKind)kinds[i], agents[i], (int)goals[i], positions[i]);
            }
            return count;
        }

        /// <summary>Number of live agents.</summary>
        public unsafe int AgentCount
        {
            get
            {
                UIntPtr n;
                Wf.Check(NativeMethods.wf_crowd_agent_count(handle.Ptr, &n), "wf_crowd_agent_count");
                return (int)(uint)n;
            }
        }

        /// <summary>Positions, yaws and states of the first <paramref name="count"/> ids; any output may be null.</summary>
        public unsafe void ReadAgents(uint[] ids, int count, Vector3[] positions, float[] yaws, AgentState[] states)
        {
            Wf.Fits(ids, count, "count");
            fixed (uint* i = ids)
            fixed (Vector3* p = positions)
            fixed (float* y = yaws)
            fixed (AgentState* s = states)
            {
                Wf.Check(NativeMethods.wf_crowd_read_agents(handle.Ptr, i, Wf.Size(count), (float*)p, Wf.Size(Wf.Len(positions)),
                    y, Wf.Size(Wf.Len(yaws)), (uint*)s, Wf.Size(Wf.Len(states))), "wf_crowd_read_agents");
            }
            GC.KeepAlive(handle);
        }

        /// <summary>Velocities (units/s on the XZ plane, Y = 0) of the first <paramref name="count"/> ids: each
        /// step's velocity averaged with the one before, so it follows the walk without the jitter of a difference
        /// of positions — drive a walk animation by its magnitude.</summary>
        public unsafe void ReadVelocities(uint[] ids, int count, Vector3[] velocities)
        {
            Wf.Fits(ids, count, "count");
            fixed (uint* i = ids)
            fixed (Vector3* v = velocities)
            {
                ReadVelocities(i, count, v, Wf.Len(velocities));
            }
        }

        /// <summary>What each agent's avoidance ray hit in the last step: kind, id of the thing hit,
        /// hit point and surface normal. Any output may be null.</summary>
        public unsafe void ReadHits(uint[] ids, int count, HitKind[] kinds, uint[] hitIds, Vector3[] points, Vector3[] normals)
        {
            Wf.Fits(ids, count, "count");
            fixed (uint* i = ids)
            fixed (HitKind* k = kinds)
            fixed (uint* h = hitIds)
            fixed (Vector3* p = points)
            fixed (Vector3* n = normals)
            {
                Wf.Check(NativeMethods.wf_crowd_read_hits(handle.Ptr, i, Wf.Size(count), (uint*)k, Wf.Size(Wf.Len(kinds)),
                    h, Wf.Size(Wf.Len(hitIds)), (float*)p, Wf.Size(Wf.Len(points)), (float*)n, Wf.Size(Wf.Len(normals))),
                    "wf_crowd_read_hits");
            }
            GC.KeepAlive(handle);
        }

        // ---- Pointer forms of the batch calls (Burst jobs' buffers, stackalloc, pinned memory) -----
        // Each pointer is NULL only where the array form takes null; capacities are in elements.

        /// <summary>Pointer form of <see cref="SetTargets(uint[], int, Vector3[], float[])"/>: <paramref name="count"/>
        /// ids and targets, and <paramref name="count"/> arrival radii or null (keep each agent's).</summary>
        public unsafe void SetTargets(uint* ids, int count, Vector3* targets, float* arrivalRadii)
        {
            Wf.Check(NativeMethods.wf_crowd_set_targets(handle.Ptr, ids, Wf.Size(count), (float*)targets, Wf.Size(count),
                arrivalRadii, Wf.Size(arrivalRadii == null ? 0 : count)), "wf_crowd_set_targets");
            GC.KeepAlive(handle);
        }

        /// <summary>Pointer form of <see cref="SetPositions(uint[], int, Vector3[], float[])"/>: <paramref name="count"/>
        /// ids and positions, and <paramref name="count"/> yaws or null (keep headings).</summary>
        public unsafe void SetPositions(uint* ids, int count, Vector3* positions, float* yaws)
        {
            Wf.Check(NativeMethods.wf_crowd_set_positions(handle.Ptr, ids, Wf.Size(count), (float*)positions, Wf.Size(count),
                yaws, Wf.Size(yaws == null ? 0 : count)), "wf_crowd_set_positions");
            GC.KeepAlive(handle);
        }

        /// <summary>Pointer form of <see cref="ReadAgents(uint[], int, Vector3[], float[], AgentState[])"/>; any output
        /// may be null (its capacity is then ignored).</summary>
        public unsafe void ReadAgents(uint* ids, int count, Vector3* positions, int positionCapacity, float* yaws, int yawCapacity,
            AgentState* states, int stateCapacity)
        {
            Wf.Check(NativeMethods.wf_crowd_read_agents(handle.Ptr, ids, Wf.Size(count), (float*)positions, Wf.Size(positionCapacity),
                yaws, Wf.Size(yawCapacity), (uint*)states, Wf.Size(stateCapacity)), "wf_crowd_read_agents");
            GC.KeepAlive(handle);
        }

        /// <summary>Pointer form of <see cref="ReadVelocities(uint[], int, Vector3[])"/>.</summary>
        public unsafe void ReadVelocities(uint* ids, int count, Vector3* velocities, int capacity)
        {
            Wf.Check(NativeMethods.wf_crowd_read_velocities(handle.Ptr, ids, Wf.Size(count), (float*)velocities, Wf.Size(capacity)),
                "wf_crowd_read_velocities");
            GC.KeepAlive(handle);
        }

#if UNITY_2019_4_OR_NEWER
        // ---- NativeArray forms (no copies). An output that is not created (default) is not wanted. ----

        static unsafe void* In<T>(NativeArray<T> array, int count, string name) where T : struct
        {
            if (count < 0 || count > (array.IsCreated ? array.Length : 0))
            {
                throw new ArgumentOutOfRangeException(name, "count " + count + " exceeds the NativeArray length");
            }
            return array.IsCreated ? array.GetUnsafeReadOnlyPtr() : null;
        }

        static unsafe void* Out<T>(NativeArray<T> array) where T : struct
        {
            return array.IsCreated ? array.GetUnsafePtr() : null;
        }

        static int Cap<T>(NativeArray<T> array) where T : struct
        {
            return array.IsCreated ? array.Length : 0;
        }

        /// <summary>NativeArray form of <see cref="SetTargets(uint[], int, Vector3[], float[])"/>; radii not created:
        /// each agent keeps its own.</summary>
        public unsafe void SetTargets(NativeArray<uint> ids, int count, NativeArray<Vector3> targets, NativeArray<float> arrivalRadii)
        {
            float* r = arrivalRadii.IsCreated ? (float*)In(arrivalRadii, count, "count") : null;
            SetTargets((uint*)In(ids, count, "count"), count, (Vector3*)In(targets, count, "count"), r);
        }

        /// <summary>NativeArray form of <see cref="SetPositions(uint[], int, Vector3[], float[])"/>; yaws not created:
        /// keep headings.</summary>
        public unsafe void SetPositions(NativeArray<uint> ids, int count, NativeArray<Vector3> positions, NativeArray<float> yaws)
        {
            float* y = yaws.IsCreated ? (float*)In(yaws, count, "count") : null;
            SetPositions((uint*)In(ids, count, "count"), count, (Vector3*)In(positions, count, "count"), y);
        }

        /// <summary>NativeArray form of <see cref="ReadAgents(uint[], int, Vector3[], float[], AgentState[])"/>.</summary>
        public unsafe void ReadAgents(NativeArray<uint> ids, int count, NativeArray<Vector3> positions, NativeArray<float> yaws,
            NativeArray<AgentState> states)
        {
            ReadAgents((uint*)In(ids, count, "count"), count, (Vector3*)Out(positions), Cap(positions), (float*)Out(yaws), Cap(yaws),
                (AgentState*)Out(states), Cap(states));
        }

        /// <summary>NativeArray form of <see cref="ReadVelocities(uint[], int, Vector3[])"/>.</summary>
        public unsafe void ReadVelocities(NativeArray<uint> ids, int count, NativeArray<Vector3> velocities)
        {
            ReadVelocities((uint*)In(ids, count, "count"), count, (Vector3*)Out(velocities), Cap(velocities));
        }
#endif
#if WAYFARER_MATHEMATICS
        /// <summary>Unity.Mathematics form of <see cref="SetTargets(uint[], int, Vector3[], float[])"/>.</summary>
        public unsafe void SetTargets(NativeArray<uint> ids, int count, NativeArray<float3> targets, NativeArray<float> arrivalRadii)
        {
            float* r = arrivalRadii.IsCreated ? (float*)In(arrivalRadii, count, "count") : null;
            SetTargets((uint*)In(ids, count, "count"), count, (Vector3*)In(targets, count, "count"), r);
        }

        /// <summary>Unity.Mathematics form of <see cref="SetPositions(uint[], int, Vector3[], float[])"/>.</summary>
        public unsafe void SetPositions(NativeArray<uint> ids, int count, NativeArray<float3> positions, NativeArray<float> yaws)
        {
            float* y = yaws.IsCreated ? (float*)In(yaws, count, "count") : null;
            SetPositions((uint*)In(ids, count, "count"), count, (Vector3*)In(positions, count, "count"), y);
        }

        /// <summary>Unity.Mathematics form of <see cref="ReadAgents(uint[], int, Vector3[], float[], AgentState[])"/>.</summary>
        public unsafe void ReadAgents(NativeArray<uint> ids, int count, NativeArray<float3> positions, NativeArray<float> yaws,
            NativeArray<AgentState> states)
        {
            ReadAgents((uint*)In(ids, count, "count"), count, (Vector3*)Out(positions), Cap(positions), (float*)Out(yaws), Cap(yaws),
                (AgentState*)Out(states), Cap(states));
        }

        /// <summary>Unity.Mathematics form of <see cref="ReadVelocities(uint[], int, Vector3[])"/>.</summary>
        public unsafe void ReadVelocities(NativeArray<uint> ids, int count, NativeArray<float3> velocities)
        {
            ReadVelocities((uint*)In(ids, count, "count"), count, (Vector3*)Out(velocities), Cap(velocities));
        }
#endif

        /// <summary>Frees the native crowd. Safe to call twice.</summary>
        public void Dispose()
        {
            handle.Dispose();
        }
    }
}
