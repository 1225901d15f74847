using UnityEngine;
#if WAYFARER_NAVMESH
using UnityEngine.AI;
#endif
using Wayfarer.Crowd;

namespace Wayfarer.Components
{
    /// <summary>How an <see cref="ObstacleAvoidance"/> agent finds its way to its target.</summary>
    public enum AgentRoute
    {
        /// <summary>Straight at the target, steering around what the FOV cone sees (the seed); held in a pocket of obstacles for 2 s (4 s when another agent holds it there), it searches its way out (a detour).</summary>
        Direct = 0,
        /// <summary>A route the crowd plans around its obstacles (the <see cref="CrowdObstacle"/>s), shared by
        /// agents with nearby goals: out of dead ends and through doorways that steering alone sticks in.</summary>
        Planned = 1,
        /// <summary>The corners of Unity's NavMesh path to the target (<c>NavMesh.CalculatePath</c>), computed
        /// again when the target has moved by the repath distance; the crowd steers between them. Needs the AI
        /// module (com.unity.modules.ai); without it the agent walks Direct.</summary>
        NavMesh = 2,
        /// <summary>Through the agent's waypoint transforms in order, then to the target.</summary>
        Waypoints = 3,
    }

    /// <summary>
    /// One agent of a <see cref="CrowdManager"/>, with seed 003's inspector surface: walk toward a
    /// target at <c>speed</c>, turn at most <c>rotateSpeed</c>, and steer away from what the
    /// field-of-view cone (distance, angle) sees by its hit normal × <c>repelForce</c> — obstacles and
    /// other agents alike. The manager moves it; the optional debug line shows agent → hit point.
    /// </summary>
    [AddComponentMenu("Wayfarer/Obstacle Avoidance")]
    [DisallowMultipleComponent]
    public sealed class ObstacleAvoidance : MonoBehaviour
    {
        [SerializeField, Tooltip("Where to walk (may move; the agent follows).")]
        Transform _target;

        [SerializeField, Min(0f), Tooltip("Walking speed, units per second.")]
        float _speed = 3f;

        [SerializeField, Min(0f), Tooltip("Maximum turn rate, degrees per second.")]
        float _rotateSpeed = 180f;

        [SerializeField, Min(0f), Tooltip("How hard a hit normal pushes the heading away (the seed's repelForce).")]
        float _repelForce = 1.5f;

        [SerializeField, Min(0f), Tooltip("Field-of-view range: obstacles farther than this are ignored.")]
        float _fovDistance = 4f;

        [SerializeField, Range(1f, 360f), Tooltip("Field-of-view angle in degrees (full cone).")]
        float _fovAngle = 90f;

        [SerializeField, Min(0.01f), Tooltip("Body radius: the agent never overlaps obstacles or agents by more than this.")]
        float _radius = 0.5f;

        [SerializeField, Min(0f), Tooltip("Stop within this distance of the target (of the nearest point the agent can reach, when the target lies inside an obstacle or too close to one).")]
        float _arrivalRadius = 0.5f;

        [SerializeField, Tooltip("The manager to join (empty: the most recently enabled CrowdManager).")]
        CrowdManager _manager;

        [Header("Route")]
        [SerializeField, Tooltip("Direct: straight at the target, avoiding what it meets (the seed). Planned: a route the " +
            "crowd plans around its CrowdObstacles. NavMesh: the corners of Unity's NavMesh path to the target. " +
            "Waypoints: through the Waypoints in order, then to the target.")]
        AgentRoute _route = AgentRoute.Direct;

        [SerializeField, Tooltip("Corners walked in order before the target (Route = Waypoints; read when the route is " +
            "set: call RefreshRoute after moving them).")]
        Transform[] _waypoints = new Transform[0];

        [SerializeField, Min(0f), Tooltip("Route = NavMesh: the path is computed again once the target has moved this far.")]
        float _repathDistance = 0.5f;

        [SerializeField, Tooltip("Route = NavMesh: the NavMesh areas the path may cross (a bit mask; -1 = all areas).")]
        int _navMeshAreas = -1;

        [Header("Right of way")]
        [SerializeField, Tooltip("Of two agents about to meet, the one with the lower priority gives way.")]
        float _priority;

        [SerializeField, Tooltip("The crowd layers this agent is on (bits): agents whose Avoid Layers share a bit steer around it.")]
        int _layers = 1;

        [SerializeField, Tooltip("The crowd layers this agent steers around (bits; -1 = all, 0 = none: it walks through other agents).")]
        int _avoidLayers = -1;

        [Header("Animation")]
        [SerializeField, Tooltip("An Animator to drive with the agent's walking speed (optional).")]
        Animator _animator;

        [SerializeField, Tooltip("The Animator's float parameter that receives the speed (units/s), e.g. a walk/run blend.")]
        string _speedParameter = "Speed";

        [Header("Debug (seed 003's line)")]
        [SerializeField, Tooltip("Show a line from the agent to what it is avoiding.")]
        bool _drawDebugLine;

        [SerializeField, Tooltip("The line to draw with (optional).")]
        LineRenderer _debugLine = null;

        [SerializeField]
        Color _colorHit = Color.red;

        [SerializeField, Tooltip("Read the hit every frame so gizmos can show the hit point and normal.")]
        bool _showHitGizmos = true;

        [Header("Goals")]
        [SerializeField, Tooltip("When the agent reaches the last goal given with SetGoals: a despawned agent leaves the " +
            "crowd, and this deactivates its GameObject (return it to a pool in the Despawned event).")]
        bool _deactivateOnDespawn = true;

        CrowdManager _registeredWith;
        Vector3[] _goals;
        float[] _goalWaits;
        OnArrival _onArrival;
        bool _goalsDirty;
        bool _paramsDirty = true;
        bool _targetDirty = true;
        bool _routeDirty = true;
        bool _warnedRoute;
        Vector3 _lastTarget;
        Vector3 _pathTarget;
        Vector3[] _corners = new Vector3[16];
        int _cornerCount;
        bool _pathPartial;
        bool _warnedPartial;
        Vector3 _pathEnd = Vector3.zero;
#if WAYFARER_NAVMESH
        NavMeshPath _navPath;
#endif
        float _yaw;
        int _speedHash;
        string _hashedParameter;

        /// <summary>The native agent id (valid while registered).</summary>
        public uint AgentId { get; private set; }

        /// <summary>True while a manager steps this agent.</summary>
        public bool IsRegistered
        {
            get { return _registeredWith != null; }
        }

        /// <summary>State after the last step.</summary>
        public AgentState State { get; private set; }

        /// <summary>Velocity after the last step (units/s on the XZ plane, Y = 0), smoothed over steps: its
        /// magnitude is the walking speed to animate with (the <see cref="Animator"/>'s speed parameter gets it).</summary>
        public Vector3 Velocity { get; private set; }

        /// <summary>Raised after a step that changed <see cref="State"/> (e.g. to <see cref="AgentState.Arrived"/>:
        /// open the door, start the idle animation), with the agent and its previous state.</summary>
        public event System.Action<ObstacleAvoidance, AgentState> StateChanged;

        /// <summary>Raised when the agent reaches a goal given with <see cref="SetGoals"/>, with the agent and how many
        /// goals it had reached before this one.</summary>
        public event System.Action<ObstacleAvoidance, int> GoalReached;

        /// <summary>Raised when the agent reached its last goal with <see cref="OnArrival.Despawn"/> and left the crowd
        /// (its GameObject is then deactivated, unless Deactivate On Despawn is off).</summary>
        public event System.Action<ObstacleAvoidance> Despawned;

        /// <summary>
        /// Walks the agent through <paramref name="goals"/> in order, waiting <paramref name="wait"/> seconds at each but
        /// the last, then does what <paramref name="onArrival"/> says: stop there, despawn (leave the crowd: the
        /// <see cref="Despawned"/> event), or loop. While it has goals, <see cref="Target"/> is not followed;
        /// <see cref="ClearGoals"/> returns to it. Each goal reached raises <see cref="GoalReached"/>.
        /// </summary>
        public void SetGoals(Vector3[] goals, OnArrival onArrival = OnArrival.Stop, float wait = 0f)
        {
            if (goals == null || goals.Length == 0)
            {
                throw new System.ArgumentException("at least one goal", "goals");
            }
            if (!(wait >= 0f) || float.IsInfinity(wait))
            {
                throw new System.ArgumentOutOfRangeException("wait", wait, "a finite wait >= 0 s");
            }
            _goals = (Vector3[])goals.Clone();
            _goalWaits = new float[goals.Length];
            for (int i = 0; i < _goalWaits.Length; i++)
            {
                _goalWaits[i] = wait;
            }
            _onArrival = onArrival;
            _goalsDirty = true;
        }

        /// <summary>Drops the goals given with <see cref="SetGoals"/>: the agent follows <see cref="Target"/> again.</summary>
        public void ClearGoals()
        {
            _goals = null;
            _goalWaits = null;
            _goalsDirty = true;
            _targetDirty = true;
        }

        /// <summary>Raises <see cref="GoalReached"/> (called by the manager).</summary>
        internal void ReachGoal(int goal)
        {
            System.Action<ObstacleAvoidance, int> handler = GoalReached;
            if (handler != null)
            {
                handler(this, goal);
            }
        }

        /// <summary>The native agent left the crowd at its last goal (called by the manager, which has already
        /// dropped it): raises <see cref="Despawned"/> and deactivates the GameObject if so set.</summary>
        internal void Despawn()
        {
            _registeredWith = null;
            _goals = null;
            _goalWaits = null;
            System.Action<ObstacleAvoidance> handler = Despawned;
            if (handler != null)
            {
                handler(this);
            }
            if (_deactivateOnDespawn)
            {
                gameObject.SetActive(false);
            }
        }

        /// <summary>The Animator whose <see cref="SpeedParameter"/> receives the walking speed after every step (null: none).</summary>
        public Animator Animator
        {
            get { return _animator; }
            set { _animator = value; }
        }

        /// <summary>Name of the Animator's float parameter that receives the walking speed.</summary>
        public string SpeedParameter
        {
            get { return _speedParameter; }
            set { _speedParameter = value; }
        }

        /// <summary>What the avoidance ray hit in the last step (filled when the debug line or gizmos want it).</summary>
        public HitKind LastHit { get; private set; }

        /// <summary>Where the last hit was.</summary>
        public Vector3 HitPoint { get; private set; }

        /// <summary>Surface normal at the last hit.</summary>
        public Vector3 HitNormal { get; private set; }

        /// <summary>Id of the obstacle or agent hit last.</summary>
        public uint HitId { get; private set; }

        /// <summary>Where to walk.</summary>
        public Transform Target
        {
            get { return _target; }
            set
            {
                _target = value;
                _targetDirty = true;
            }
        }

        /// <summary>Walking speed (units/s).</summary>
        public float Speed
        {
            get { return _speed; }
            set
            {
                _speed = Mathf.Max(0f, value);
                _paramsDirty = true;
            }
        }

        /// <summary>How the agent finds its way (see <see cref="AgentRoute"/>).</summary>
        public AgentRoute Route
        {
            get { return _route; }
            set
            {
                _route = value;
                _routeDirty = true;
            }
        }

        /// <summary>Corners walked in order before the target with <see cref="AgentRoute.Waypoints"/>.</summary>
        public Transform[] Waypoints
        {
            get { return _waypoints; }
            set
            {
                _waypoints = value ?? new Transform[0];
                _routeDirty = true;
            }
        }

        /// <summary>With <see cref="AgentRoute.NavMesh"/>: how far the target moves before the path is computed again.</summary>
        public float RepathDistance
        {
            get { return _repathDistance; }
            set { _repathDistance = Mathf.Max(0f, value); }
        }

        /// <summary>With <see cref="AgentRoute.NavMesh"/>: the NavMesh areas the path may cross (bits; -1 = all).</summary>
        public int NavMeshAreas
        {
            get { return _navMeshAreas; }
            set
            {
                _navMeshAreas = value;
                _routeDirty = true;
            }
        }

        /// <summary>Of two agents about to meet, the lower priority gives way.</summary>
        public float Priority
        {
            get { return _priority; }
            set
            {
                _priority = value;
                _paramsDirty = true;
            }
        }

        /// <summary>The crowd layers (bits) this agent is on.</summary>
        public int Layers
        {
            get { return _layers; }
            set
            {
                _layers = value;
                _paramsDirty = true;
            }
        }

        /// <summary>The crowd layers (bits) this agent steers around: -1 all, 0 none.</summary>
        public int AvoidLayers
        {
            get { return _avoidLayers; }
            set
            {
                _avoidLayers = value;
                _paramsDirty = true;
            }
        }

        /// <summary>With <see cref="AgentRoute.NavMesh"/>: true when the last path stops short of the target (Unity's
        /// <c>PathPartial</c>); the agent then walks to <see cref="PathEnd"/>, the nearest place it can reach.</summary>
        public bool PathIsPartial
        {
            get { return _pathPartial; }
        }

        /// <summary>With a partial NavMesh path (<see cref="PathIsPartial"/>): where the path ends, the agent's goal.</summary>
        public Vector3 PathEnd
        {
            get { return _pathEnd; }
        }

        /// <summary>Sends the route again at the next step: the waypoint transforms' current positions, or a fresh
        /// NavMesh path (after the NavMesh changed).</summary>
        public void RefreshRoute()
        {
            _routeDirty = true;
        }

        /// <summary>Repel force applied along hit normals.</summary>
        public float RepelForce
        {
            get { return _repelForce; }
            set
            {
                _repelForce = Mathf.Max(0f, value);
                _paramsDirty = true;
            }
        }

        /// <summary>Draw the seed's debug line (agent → hit point).</summary>
        public bool DrawDebugLine
        {
            get { return _drawDebugLine; }
            set { _drawDebugLine = value; }
        }

        internal bool WantsHits
        {
            get { return _drawDebugLine || _showHitGizmos; }
        }

        /// <summary>Sets every steering parameter at once (angles in degrees, like the inspector).</summary>
        public void Configure(float speed, float rotateSpeed, float repelForce, float fovDistance, float fovAngle,
            float radius, float arrivalRadius)
        {
            _speed = Mathf.Max(0f, speed);
            _rotateSpeed = Mathf.Max(0f, rotateSpeed);
            _repelForce = Mathf.Max(0f, repelForce);
            _fovDistance = Mathf.Max(0f, fovDistance);
            _fovAngle = Mathf.Clamp(fovAngle, 1f, 360f);
            _radius = Mathf.Max(0.01f, radius);
            _arrivalRadius = Mathf.Max(0f, arrivalRadius);
            _paramsDirty = true;
            _targetDirty = true;
        }

        /// <summary>Joins this manager instead of <see cref="CrowdManager.Current"/>.</summary>
        public void SetManager(CrowdManager manager)
        {
            Unregister();
            _manager = manager;
            if (isActiveAndEnabled)
            {
                TryRegister();
            }
        }

        void OnEnable()
        {
            TryRegister();
        }

        void Start()
        {
            TryRegister();
        }

        void OnDisable()
        {
            Unregister();
            if (_debugLine != null)
            {
                _debugLine.enabled = false;
            }
        }

        void OnValidate()
        {
            _paramsDirty = true;
            _targetDirty = true;
            _routeDirty = true;
        }

        void TryRegister()
        {
            CrowdManager manager = _manager != null ? _manager : CrowdManager.Current;
            if (manager == null || manager == _registeredWith)
            {
                return;
            }
            Unregister();
            if (manager.Register(this))
            {
                _registeredWith = manager;
            }
        }

        void Unregister()
        {
            if (_registeredWith != null)
            {
                _registeredWith.Unregister(this);
                _registeredWith = null;
            }
        }

        /// <summary>Adds the native agent at the transform's pose (called by the manager).</summary>
        internal void AddTo(CrowdSimulation crowd)
        {
            _yaw = CrowdSimulation.YawOf(transform.forward);
            AgentId = crowd.AddAgent(transform.position, _yaw, _speed, _radius);
            _paramsDirty = true;
            _targetDirty = true;
            _routeDirty = true;
            _goalsDirty = _goals != null;
            PushChanges(crowd, null);
        }

        /// <summary>Sends changed parameters (a few calls, only when something changed) and the target the
        /// first time and when it moved: sent at once on its own, or, given a batch, added to it (the manager
        /// sends every agent's batched target in one call).</summary>
        internal void PushChanges(CrowdSimulation crowd, CrowdManager.TargetBatch batch)
        {
            if (_paramsDirty)
            {
                crowd.SetSpeed(AgentId, _speed, _radius);
                crowd.SetSteering(AgentId, _rotateSpeed * Mathf.Deg2Rad, _fovDistance, 0.5f * _fovAngle * Mathf.Deg2Rad, _repelForce);
                crowd.SetPriority(AgentId, _priority, (uint)_layers, (uint)_avoidLayers);
                _paramsDirty = false;
            }
            if (_routeDirty)
            {
                SendRoute(crowd);
            }
            if (_goalsDirty)
            {
                _goalsDirty = false;
                if (_goals != null)
                {
                    crowd.SetGoals(AgentId, _goals, null, _goalWaits, _onArrival);
                }
                else
                {
                    crowd.SetGoals(AgentId, new Vector3[0]);
                }
            }
            if (_target != null && _goals == null)
            {
                Vector3 t = _target.position;
                // (Written so that a NaN, here or in the last target sent, counts as moved.)
                if (_targetDirty || !((t - _lastTarget).sqrMagnitude <= 1e-8f))
                {
                    if (_route == AgentRoute.NavMesh && (t - _pathTarget).sqrMagnitude > _repathDistance * _repathDistance)
                    {
                        SendNavMeshPath(crowd, t);
                    }
                    // A partial NavMesh path: the goal is where the path ends, not the unreachable target.
                    Vector3 goal = _pathPartial ? _pathEnd : t;
                    if (batch != null)
                    {
                        batch.Add(AgentId, goal, _arrivalRadius);
                    }
                    else
                    {
                        crowd.SetTarget(AgentId, goal, _arrivalRadius);
                    }
                    _lastTarget = t;
                    _targetDirty = false;
                }
            }
        }

        /// <summary>Sends the route mode and its corners.</summary>
        void SendRoute(CrowdSimulation crowd)
        {
            _routeDirty = false;
            if (_pathPartial)
            {
                _pathPartial = false;
                _targetDirty = true;
            }
            switch (_route)
            {
                case AgentRoute.Planned:
                    _cornerCount = 0;
                    crowd.SetRouteMode(AgentId, RouteMode.Planned);
                    break;
                case AgentRoute.Waypoints:
                    int n = 0;
                    for (int i = 0; i < _waypoints.Length; i++)
                    {
                        if (_waypoints[i] != null)
                        {
                            Corner(n++) = _waypoints[i].position;
                        }
                    }
                    _cornerCount = n;
                    crowd.SetWaypoints(AgentId, _corners, n);
                    crowd.SetRouteMode(AgentId, RouteMode.Waypoints);
                    break;
                case AgentRoute.NavMesh:
                    crowd.SetRouteMode(AgentId, RouteMode.Waypoints);
                    if (_target != null)
                    {
                        SendNavMeshPath(crowd, _target.position);
                    }
                    else
                    {
                        _cornerCount = 0;
                        crowd.SetWaypoints(AgentId, _corners, 0);
                    }
                    break;
                default:
                    _cornerCount = 0;
                    crowd.SetRouteMode(AgentId, RouteMode.Direct);
                    break;
            }
        }

        /// <summary>Corner <paramref name="i"/> of the pooled corner buffer, grown by doubling as needed.</summary>
        ref Vector3 Corner(int i)
        {
            if (i >= _corners.Length)
            {
                System.Array.Resize(ref _corners, Mathf.Max(2 * _corners.Length, i + 1));
            }
            return ref _corners[i];
        }

        /// <summary>Computes the NavMesh path to <paramref name="target"/> and sends its inner corners as waypoints
        /// (the first corner is where the agent stands, the last the target's place on the NavMesh). A partial path
        /// (<c>PathPartial</c>): the agent walks to its end, <see cref="PathEnd"/>, and a warning says so (once). No
        /// path or an invalid one (<c>PathInvalid</c>): the agent walks straight at the target, and a warning says
        /// why (once).</summary>
        void SendNavMeshPath(CrowdSimulation crowd, Vector3 target)
        {
            _pathTarget = target;
            int inner = 0;
            bool found = false;
            bool partial = false;
#if WAYFARER_NAVMESH
            if (_navPath == null)
            {
                _navPath = new NavMeshPath();
            }
            // Unity returns false for an invalid path; the status is checked too, so no invalid path is walked.
            if (NavMesh.CalculatePath(transform.position, target, _navMeshAreas, _navPath)
                && _navPath.status != NavMeshPathStatus.PathInvalid)
            {
                int n = _navPath.GetCornersNonAlloc(_corners);
                // A full buffer may have cut the path short: grow it and read again.
                while (n >= _corners.Length)
                {
                    System.Array.Resize(ref _corners, 2 * _corners.Length);
                    n = _navPath.GetCornersNonAlloc(_corners);
                }
                found = n >= 2;
                if (found)
                {
                    inner = n - 2;
                    partial = _navPath.status == NavMeshPathStatus.PathPartial;
                    _pathEnd = _corners[n - 1];
                    System.Array.Copy(_corners, 1, _corners, 0, inner);
                }
            }
#endif
            if (partial != _pathPartial)
            {
                _pathPartial = partial;
                _targetDirty = true;
            }
            if (partial && !_warnedPartial)
            {
                _warnedPartial = true;
                Debug.LogWarning("ObstacleAvoidance on " + name + ": the NavMesh path to " + target + " is partial; walking to "
                    + "its reachable end " + _pathEnd + ".", this);
            }
            if (!found && !_warnedRoute)
            {
                _warnedRoute = true;
#if WAYFARER_NAVMESH
                string why = "no NavMesh path from " + transform.position + " to " + target + " (" + _navPath.status + ")";
#else
                string why = "the NavMesh route needs Unity's AI module (com.unity.modules.ai)";
#endif
                Debug.LogWarning("ObstacleAvoidance on " + name + ": " + why + "; walking straight at the target.", this);
            }
            _cornerCount = inner;
            crowd.SetWaypoints(AgentId, _corners, inner);
        }

        /// <summary>Writes the stepped pose to the transform and the speed to the Animator (called by the manager).</summary>
        internal void Place(Vector3 position, float yaw, AgentState state, Vector3 velocity, bool keepHeight)
        {
            if (keepHeight)
            {
                position.y = transform.position.y;
            }
            _yaw = yaw;
            AgentState was = State;
            State = state;
            Velocity = velocity;
            transform.SetPositionAndRotation(position, Quaternion.Euler(0f, yaw * Mathf.Rad2Deg, 0f));
            if (_animator != null && !string.IsNullOrEmpty(_speedParameter))
            {
                // The name is hashed once, not every frame (and again only when it changes).
                if (!ReferenceEquals(_speedParameter, _hashedParameter))
                {
                    _speedHash = UnityEngine.Animator.StringToHash(_speedParameter);
                    _hashedParameter = _speedParameter;
                }
                _animator.SetFloat(_speedHash, velocity.magnitude);
            }
            if (state != was)
            {
                System.Action<ObstacleAvoidance, AgentState> handler = StateChanged;
                if (handler != null)
                {
                    handler(this, was);
                }
            }
        }

        /// <summary>Stores the last hit and updates the debug line (called by the manager).</summary>
        internal void SetHit(HitKind kind, uint id, Vector3 point, Vector3 normal)
        {
            LastHit = kind;
            HitId = id;
            HitPoint = point;
            HitNormal = normal;
            if (!_drawDebugLine)
            {
                return;
            }
            bool hit = kind != HitKind.None;
            if (_debugLine != null)
            {
                _debugLine.enabled = hit;
                if (hit)
                {
                    _debugLine.startColor = _colorHit;
                    _debugLine.endColor = _colorHit;
                    _debugLine.positionCount = 2;
                    _debugLine.SetPosition(0, transform.position);
                    _debugLine.SetPosition(1, point);
                }
            }
            if (hit)
            {
                Debug.DrawRay(point, normal * _repelForce, _colorHit);
            }
        }

        void OnDrawGizmos()
        {
            float yaw = IsRegistered ? _yaw : CrowdSimulation.YawOf(transform.forward);
            Gizmos.color = LastHit == HitKind.None ? Color.green : _colorHit;
            GizmoDraw.FovCone(transform.position, yaw, 0.5f * _fovAngle * Mathf.Deg2Rad, _fovDistance, 12);
            Gizmos.DrawWireSphere(transform.position, _radius);
            if (LastHit != HitKind.None)
            {
                Gizmos.color = _colorHit;
                Gizmos.DrawLine(transform.position, HitPoint);
                Gizmos.DrawRay(HitPoint, HitNormal * Mathf.Max(0.5f, _repelForce));
            }
            if (IsRegistered && _cornerCount > 0 && (_route == AgentRoute.NavMesh || _route == AgentRoute.Waypoints))
            {
                // The corners sent to the crowd (NavMesh path or waypoints), then the target.
                Gizmos.color = Color.cyan;
                for (int i = 1; i < _cornerCount; i++)
                {
                    Gizmos.DrawLine(_corners[i - 1], _corners[i]);
                }
                if (_target != null)
                {
                    Gizmos.DrawLine(_corners[_cornerCount - 1], _target.position);
                }
            }
        }
    }
}
