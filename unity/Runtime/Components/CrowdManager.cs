using System.Collections.Generic;
using System.Threading;
using UnityEngine;
using Wayfarer.Crowd;

namespace Wayfarer.Components
{
    /// <summary>
    /// Owns one native crowd and steps every registered <see cref="ObstacleAvoidance"/> agent in a
    /// single call per frame, then writes positions and yaws back to their transforms (seed 003 at
    /// crowd scale: no trigger colliders, no per-agent raycasts). Obstacles come from
    /// <see cref="CrowdObstacle"/> components.
    /// </summary>
    [AddComponentMenu("Wayfarer/Crowd Manager")]
    [DisallowMultipleComponent]
    [DefaultExecutionOrder(-40)]
    public sealed class CrowdManager : MonoBehaviour
    {
        [SerializeField, Min(1), Tooltip("Agents the native crowd preallocates for; it grows past this as agents register " +
            "(the frame after a growth may allocate once).")]
        int _capacity = 1024;

        [SerializeField, Range(0, 16), Tooltip("Worker threads for the step (0 or 1 = the main thread only).")]
        int _threads = 1;

        [SerializeField, Tooltip("Step on a worker thread while the rest of the frame runs: the main thread only sends " +
            "changes and places the agents, which then show the step started the frame before (one frame late). " +
            "Ignored on WebGL (no threads).")]
        bool _stepInBackground;

        [SerializeField, Tooltip("Keep each agent's own height (Y); the crowd moves on the XZ plane.")]
        bool _keepHeight = true;

        [SerializeField, Range(1, CrowdSimulation.MaxRouteCache), Tooltip("Most distance fields cached for planned routes, " +
            "each 4 bytes per planning cell (up to ~256 KiB): at most this × 256 KiB. With fewer than the agents' distinct goals, " +
            "the first goals asked for keep their fields and the other agents search ways of their own, or walk straight, " +
            "until a field falls out of use.")]
        int _routeCache = CrowdSimulation.MaxRouteCache;

        [SerializeField, Range(1, CrowdSimulation.MaxRouteBudget), Tooltip("Most distance fields computed per step for " +
            "planned routes (each up to ~1 ms on the largest planning grid): lower keeps frames short when many agents " +
            "plan to goals of their own, higher gets their routes sooner (and lets agents waiting for a field search " +
            "more ways of their own).")]
        int _routeBudget = CrowdSimulation.DefaultRouteBudget;

        [SerializeField, Tooltip("Widest instruction set the crowd step may use (the best this CPU has up to it). " +
            "Every level gives the same results; lower it for comparisons or on CPUs that slow down under AVX-512.")]
        Simd _simd = Simd.Avx512;

        CrowdSimulation _crowd;
        StepWorker _worker;
        bool _pending;
        int _appliedRouteCache = CrowdSimulation.MaxRouteCache;
        int _appliedRouteBudget = CrowdSimulation.DefaultRouteBudget;
        Simd _appliedSimd = Simd.Avx512;
        readonly List<ObstacleAvoidance> _agents = new List<ObstacleAvoidance>();
        CrowdEvent[] _events = new CrowdEvent[16];
        readonly List<CrowdObstacle> _obstacles = new List<CrowdObstacle>();
        uint[] _ids = new uint[0];
        Vector3[] _positions = new Vector3[0];
        float[] _yaws = new float[0];
        AgentState[] _states = new AgentState[0];
        HitKind[] _kinds = new HitKind[0];
        uint[] _hitIds = new uint[0];
        Vector3[] _hitPoints = new Vector3[0];
        Vector3[] _hitNormals = new Vector3[0];
        Vector3[] _velocities = new Vector3[0];
        readonly TargetBatch _targets = new TargetBatch();

        /// <summary>The targets that moved since the last step, sent in one native call.</summary>
        internal sealed class TargetBatch
        {
            uint[] _ids = new uint[0];
            Vector3[] _points = new Vector3[0];
            float[] _radii = new float[0];

            /// <summary>Entries added since the last <see cref="Send"/>.</summary>
            public int Count { get; private set; }

            /// <summary>Adds agent <paramref name="id"/>'s target (the arrays grow by doubling, then stay).</summary>
            public void Add(uint id, Vector3 point, float arrivalRadius)
            {
                if (Count == _ids.Length)
                {
                    int size = Mathf.Max(16, 2 * Count);
                    System.Array.Resize(ref _ids, size);
                    System.Array.Resize(ref _points, size);
                    System.Array.Resize(ref _radii, size);
                }
                _ids[Count] = id;
                _points[Count] = point;
                _radii[Count] = arrivalRadius;
                Count++;
            }

            /// <summary>Sends the entries (if any) and empties the batch. The batch is all or nothing, so when it
            /// is refused (a NaN target from a broken transform) they are sent one by one: the others still get
            /// theirs, and each refused one is logged.</summary>
            public void Send(CrowdSimulation crowd)
            {
                int n = Count;
                Count = 0;
                if (n == 0)
                {
                    return;
                }
                try
                {
                    crowd.SetTargets(_ids, n, _points, _radii);
                }
                catch (Wayfarer.WayfarerException)
                {
                    for (int i = 0; i < n; i++)
                    {
                        try
                        {
                            crowd.SetTarget(_ids[i], _points[i], _radii[i]);
                        }
                        catch (Wayfarer.WayfarerException e)
                        {
                            Debug.LogError("CrowdManager: the target " + _points[i] + " of agent " + _ids[i] + " was refused (" +
                                e.Message + "); it keeps its last one.");
                        }
                    }
                }
            }
        }

        /// <summary>The most recently enabled manager (agents without an explicit manager use it).</summary>
        public static CrowdManager Current { get; private set; }

        /// <summary>The native crowd (created on first use). With <see cref="StepInBackground"/>, getting it
        /// first waits for a step in flight, so calls on it never overlap a step; keep no reference to it across
        /// frames then, get it again.</summary>
        public CrowdSimulation Simulation
        {
            get
            {
                Complete();
                if (_crowd == null)
                {
                    _crowd = new CrowdSimulation(_capacity);
                    _appliedRouteCache = CrowdSimulation.MaxRouteCache;
                    ApplyRouteCache();
                    _appliedRouteBudget = CrowdSimulation.DefaultRouteBudget;
                    ApplyRouteBudget();
                    _appliedSimd = Simd.Avx512;
                    ApplySimd();
                }
                return _crowd;
            }
        }

        /// <summary>Whether <see cref="Step"/> runs the native step on a worker thread, overlapping the rest of the
        /// frame (the agents are placed one frame late; same results, one step behind). Off on WebGL.</summary>
        public bool StepInBackground
        {
            get { return _stepInBackground; }
            set { _stepInBackground = value; }
        }

        static bool ThreadsAvailable
        {
#if UNITY_WEBGL && !UNITY_EDITOR
            get { return false; }
#else
            get { return true; }
#endif
        }

        /// <summary>Waits for a step in flight on the worker thread (if any); a failure there is thrown here.</summary>
        public void Complete()
        {
            if (_worker != null)
            {
                _worker.Complete();
            }
        }

        /// <summary>Runs the native step on one long-lived background thread, started when first needed: one step
        /// at a time, handed over and waited for with events (nothing allocated per frame).</summary>
        sealed class StepWorker : System.IDisposable
        {
            readonly Thread _thread;
            readonly AutoResetEvent _start = new AutoResetEvent(false);
            readonly ManualResetEvent _done = new ManualResetEvent(true);
            CrowdSimulation _crowd;
            float _dt;
            int _threads;
            System.Exception _error;
            bool _quit;

            public StepWorker()
            {
                _thread = new Thread(Run) { IsBackground = true, Name = "Wayfarer crowd step" };
                _thread.Start();
            }

            /// <summary>Starts a step (the last one must be complete).</summary>
            public void Begin(CrowdSimulation crowd, float dt, int threads)
            {
                _crowd = crowd;
                _dt = dt;
                _threads = threads;
                _done.Reset();
                _start.Set();
            }

            /// <summary>Waits for the step in flight; rethrows its failure.</summary>
            public void Complete()
            {
                _done.WaitOne();
                System.Exception e = _error;
                if (e != null)
                {
                    _error = null;
                    throw e;
                }
            }

            void Run()
            {
                while (true)
                {
                    _start.WaitOne();
                    if (_quit)
                    {
                        return;
                    }
                    try
                    {
                        _crowd.Step(_dt, _threads);
                    }
                    catch (System.Exception e)
                    {
                        _error = e;
                    }
                    _crowd = null;
                    _done.Set();
                }
            }

            /// <summary>Waits for the step in flight and ends the thread.</summary>
            public void Dispose()
            {
                _done.WaitOne();
                _quit = true;
                _start.Set();
                _thread.Join();
                _start.Close();
                _done.Close();
            }
        }

        /// <summary>Agents the native crowd preallocates for (it grows past this as agents register); set it before the
        /// first agent registers.</summary>
        public int Capacity
        {
            get { return _capacity; }
            set
            {
                if (_crowd != null)
                {
                    throw new System.InvalidOperationException("Capacity is fixed once the crowd exists");
                }
                _capacity = Mathf.Max(1, value);
            }
        }

        /// <summary>Registered agents.</summary>
        public int AgentCount
        {
            get { return _agents.Count; }
        }

        /// <summary>Most distance fields the crowd caches for planned routes (clamped to
        /// 1..<see cref="CrowdSimulation.MaxRouteCache"/>; see <see cref="CrowdSimulation.SetRouteCache"/>
        /// for the memory it bounds). Applied at once; an Inspector edit is applied by the next <see cref="Step"/>.</summary>
        public int RouteCache
        {
            get { return _routeCache; }
            set
            {
                _routeCache = Mathf.Clamp(value, 1, CrowdSimulation.MaxRouteCache);
                if (_crowd != null)
                {
                    Complete();
                    ApplyRouteCache();
                }
            }
        }

        /// <summary>Most distance fields the crowd computes per step for planned routes (clamped to
        /// 1..<see cref="CrowdSimulation.MaxRouteBudget"/>; see <see cref="CrowdSimulation.SetRouteBudget"/>).
        /// Applied at once; an Inspector edit is applied by the next <see cref="Step"/>.</summary>
        public int RouteBudget
        {
            get { return _routeBudget; }
            set
            {
                _routeBudget = Mathf.Clamp(value, 1, CrowdSimulation.MaxRouteBudget);
                if (_crowd != null)
                {
                    Complete();
                    ApplyRouteBudget();
                }
            }
        }

        /// <summary>Builds the route planner's grid now, over the obstacles registered so far (see
        /// <see cref="CrowdSimulation.BakeRoutes"/>): call it once the level's <see cref="CrowdObstacle"/>s are
        /// enabled (a loading screen, a <c>Start</c>), as a NavMesh is baked at load, so that the first
        /// <see cref="Step"/> with a planned agent routes at once instead of building the grid.</summary>
        public void BakeRoutes()
        {
            Complete();
            Simulation.BakeRoutes();
        }

        void ApplyRouteBudget()
        {
            int budget = Mathf.Clamp(_routeBudget, 1, CrowdSimulation.MaxRouteBudget);
            if (budget != _appliedRouteBudget)
            {
                _crowd.SetRouteBudget(budget);
                _appliedRouteBudget = budget;
            }
        }

        void ApplyRouteCache()
        {
            int cap = Mathf.Clamp(_routeCache, 1, CrowdSimulation.MaxRouteCache);
            if (cap != _appliedRouteCache)
            {
                _crowd.SetRouteCache(cap);
                _appliedRouteCache = cap;
            }
        }

        /// <summary>The cap on the instruction sets of the crowd step (a value past
        /// <see cref="Wayfarer.Crowd.Simd.Avx512"/> is clamped to it; see <see cref="CrowdSimulation.SetSimd"/>;
        /// <see cref="CrowdSimulation.Simd"/> reports the level in use). Applied at once; an Inspector
        /// edit is applied by the next <see cref="Step"/>.</summary>
        public Simd Simd
        {
            get { return _simd; }
            set
            {
                _simd = ClampSimd(value);
                if (_crowd != null)
                {
                    Complete();
                    ApplySimd();
                }
            }
        }

        static Simd ClampSimd(Simd cap)
        {
            return cap > Simd.Avx512 ? Simd.Avx512 : cap;
        }

        void ApplySimd()
        {
            Simd cap = ClampSimd(_simd);
            if (cap != _appliedSimd)
            {
                _crowd.SetSimd(cap);
                _appliedSimd = cap;
            }
        }

        /// <summary>Worker threads used by <see cref="Step"/>.</summary>
        public int Threads
        {
            get { return _threads; }
            set { _threads = Mathf.Max(0, value); }
        }

        void Awake()
        {
            Current = this;
        }

        void OnEnable()
        {
            Current = this;
        }

        void OnDisable()
        {
            if (Current == this)
            {
                Current = null;
            }
        }

        /// <summary>Adds the agent to the crowd; false when the manager is full.</summary>
        internal bool Register(ObstacleAvoidance agent)
        {
            if (_agents.Contains(agent))
            {
                return true;
            }
            agent.AddTo(Simulation);
            _agents.Add(agent);
            int n = _agents.Count;
            if (_ids.Length < n)
            {
                int size = Mathf.Max(n, _ids.Length * 2);
                _ids = new uint[size];
                _positions = new Vector3[size];
                _yaws = new float[size];
                _states = new AgentState[size];
                _kinds = new HitKind[size];
                _hitIds = new uint[size];
                _hitPoints = new Vector3[size];
                _hitNormals = new Vector3[size];
                _velocities = new Vector3[size];
            }
            for (int i = 0; i < n; i++)
            {
                _ids[i] = _agents[i].AgentId;
            }
            return true;
        }

        internal void Unregister(ObstacleAvoidance agent)
        {
            int index = _agents.IndexOf(agent);
            if (index < 0)
            {
                return;
            }
            if (_crowd != null && !_crowd.IsDisposed)
            {
                Complete();
                _crowd.RemoveAgent(agent.AgentId);
            }
            Forget(index);
        }

        /// <summary>Drops the agent at <paramref name="index"/> from the manager's lists (its native agent is gone).</summary>
        void Forget(int index)
        {
            int last = _agents.Count - 1;
            _agents[index] = _agents[last];
            _ids[index] = _ids[last];
            _agents.RemoveAt(last);
        }

        internal void Register(CrowdObstacle obstacle)
        {
            if (!_obstacles.Contains(obstacle))
            {
                obstacle.AddTo(Simulation);
                _obstacles.Add(obstacle);
            }
        }

        internal void Unregister(CrowdObstacle obstacle)
        {
            if (_obstacles.Remove(obstacle) && _crowd != null && !_crowd.IsDisposed)
            {
                Complete();
                obstacle.RemoveFrom(_crowd);
            }
        }

        void Update()
        {
            Step(Time.deltaTime);
        }

        /// <summary>
        /// Pushes changed parameters, the targets that moved (all of them in one native call) and moved
        /// dynamic obstacles, advances every agent by <paramref name="dt"/> in one native call, and writes
        /// the results to the transforms (and each agent's speed to its Animator, if it has one). With
        /// <see cref="StepInBackground"/>, it first places the results of the step started in the last call,
        /// then starts this one on the worker thread and returns: the same steps, placed one call later.
        /// Allocates nothing (once the target batch has grown to the agents whose targets move together).
        /// </summary>
        public void Step(float dt)
        {
            int n = _agents.Count;
            if (_crowd == null || n == 0 || !(dt > 0f))
            {
                return;
            }
            // A debugger pause or a load hitch must not stop the crowd (the library refuses longer steps).
            dt = Mathf.Min(dt, CrowdSimulation.MaxStep);
            // The step started in the background last frame: wait for it and place its results.
            Complete();
            if (_pending)
            {
                _pending = false;
                ReadBack(n);
            }
            ApplyRouteCache();
            ApplyRouteBudget();
            ApplySimd();
            for (int i = 0; i < n; i++)
            {
                _agents[i].PushChanges(_crowd, _targets);
            }
            _targets.Send(_crowd);
            for (int i = 0; i < _obstacles.Count; i++)
            {
                if (_obstacles[i].Moved())
                {
                    _obstacles[i].RemoveFrom(_crowd);
                    _obstacles[i].AddTo(_crowd);
                }
            }
            if (_stepInBackground && ThreadsAvailable)
            {
                if (_worker == null)
                {
                    _worker = new StepWorker();
                }
                _worker.Begin(_crowd, dt, _threads);
                _pending = true;
            }
            else
            {
                _crowd.Step(dt, _threads);
                ReadBack(n);
            }
        }

        /// <summary>Hands the step's events to their agents: goals reached, and agents that left the crowd at their last
        /// goal (dropped from the manager first, so that the read-back below skips them). Returns the agents left.</summary>
        int DispatchEvents(int n)
        {
            int count = _crowd.ReadEvents(ref _events);
            for (int e = 0; e < count; e++)
            {
                CrowdEvent ev = _events[e];
                int index = System.Array.IndexOf(_ids, ev.Agent, 0, n);
                if (index < 0)
                {
                    continue;
                }
                ObstacleAvoidance agent = _agents[index];
                if (ev.Kind == CrowdEventKind.Despawned)
                {
                    Forget(index);
                    n--;
                    agent.Despawn();
                }
                else
                {
                    agent.ReachGoal(ev.Goal);
                }
            }
            return n;
        }

        /// <summary>Reads every agent's pose, velocity and (when one wants them) hit, and places the agents.</summary>
        void ReadBack(int n)
        {
            n = DispatchEvents(n);
            bool wantHits = false;
            for (int i = 0; i < n; i++)
            {
                wantHits |= _agents[i].WantsHits;
            }
            _crowd.ReadAgents(_ids, n, _positions, _yaws, _states);
            _crowd.ReadVelocities(_ids, n, _velocities);
            if (wantHits)
            {
                _crowd.ReadHits(_ids, n, _kinds, _hitIds, _hitPoints, _hitNormals);
            }
            for (int i = 0; i < n; i++)
            {
                _agents[i].Place(_positions[i], _yaws[i], _states[i], _velocities[i], _keepHeight);
                if (wantHits)
                {
                    _agents[i].SetHit(_kinds[i], _hitIds[i], _hitPoints[i], _hitNormals[i]);
                }
            }
        }

        void OnDestroy()
        {
            if (_worker != null)
            {
                // Waits for a step in flight, then ends the thread.
                _worker.Dispose();
                _worker = null;
                _pending = false;
            }
            if (_crowd != null)
            {
                _crowd.Dispose();
                _crowd = null;
            }
        }
    }
}
