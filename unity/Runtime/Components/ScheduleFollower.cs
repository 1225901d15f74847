using System;
using UnityEngine;
using Wayfarer.Timeline;

namespace Wayfarer.Components
{
    /// <summary>One stop of a <see cref="ScheduleFollower"/>'s day.</summary>
    [Serializable]
    public sealed class ScheduledWaypoint
    {
        /// <summary>Where.</summary>
        [Tooltip("Where the NPC must be.")]
        public Transform point;

        /// <summary>When the NPC arrives there, in world seconds.</summary>
        [Tooltip("World time (seconds) of arrival.")]
        public double arrivalTime;

        /// <summary>How long it waits there before walking on.</summary>
        [Tooltip("Seconds to wait here before leaving.")]
        [Min(0f)]
        public float holdSeconds;
    }

    /// <summary>How a <see cref="ScheduleFollower"/> joins its waypoints.</summary>
    public enum PathShape
    {
        /// <summary>Straight lines (seed 001).</summary>
        Polyline = 0,
        /// <summary>A smooth centripetal Catmull-Rom curve through the waypoints.</summary>
        CatmullRom = 1,
    }

    /// <summary>
    /// An NPC whose position is a pure function of world time (seed 001, Majora's Mask schedules):
    /// it is at each waypoint at its arrival time, walks the real arc length at constant speed in
    /// between, and follows the <see cref="WorldClock"/> backwards, forwards or in jumps.
    /// </summary>
    [AddComponentMenu("Wayfarer/Schedule Follower")]
    [DisallowMultipleComponent]
    public sealed class ScheduleFollower : MonoBehaviour
    {
        [SerializeField, Tooltip("The clock to follow (empty: the most recently enabled WorldClock).")]
        WorldClock _clock;

        [SerializeField, Tooltip("The day: waypoints with strictly increasing times.")]
        ScheduledWaypoint[] _waypoints = new ScheduledWaypoint[0];

        [SerializeField]
        PathShape _shape = PathShape.Polyline;

        [SerializeField, Tooltip("Outside the first..last time: wait at the ends, repeat, or go back and forth.")]
        Wrap _wrap = Wrap.Clamp;

        [SerializeField, Tooltip("Start and end every leg at rest instead of at full speed.")]
        bool _easeLegs;

        [SerializeField, Tooltip("Turn the NPC to face where it walks.")]
        bool _faceAlongPath = true;

        MotionPath _path;
        double[] _times;
        float[] _distances;
        Ease[] _ease;
        int[] _keyWaypoint;
        WorldClock _registeredWith;
        Vector3[] _gizmoPoints;

        /// <summary>Raised by the clock when the NPC passes a waypoint: (follower, waypoint index,
        /// +1 forward in time / −1 rewinding).</summary>
        public event Action<ScheduleFollower, int, int> WaypointPassed;

        /// <summary>Where the NPC is in its schedule.</summary>
        public NpcState State { get; private set; }

        /// <summary>The path through the waypoints (null until built).</summary>
        public MotionPath Path
        {
            get { return _path; }
        }

        internal bool IsReady
        {
            get { return _path != null; }
        }

        /// <summary>Sets the schedule from code; call before Awake or follow with <see cref="Rebuild"/>.</summary>
        public void SetSchedule(ScheduledWaypoint[] waypoints, PathShape shape, Wrap wrap, bool easeLegs)
        {
            _waypoints = waypoints ?? new ScheduledWaypoint[0];
            _shape = shape;
            _wrap = wrap;
            _easeLegs = easeLegs;
        }

        /// <summary>Uses this clock instead of <see cref="WorldClock.Current"/>.</summary>
        public void SetClock(WorldClock clock)
        {
            Unregister();
            _clock = clock;
            if (isActiveAndEnabled)
            {
                TryRegister();
            }
        }

        void Awake()
        {
            Rebuild();
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
        }

        void TryRegister()
        {
            WorldClock clock = _clock != null ? _clock : WorldClock.Current;
            if (clock == null || clock == _registeredWith || _path == null)
            {
                return;
            }
            Unregister();
            clock.Register(this);
            _registeredWith = clock;
        }

        void Unregister()
        {
            if (_registeredWith != null)
            {
                _registeredWith.Unregister(this);
                _registeredWith = null;
            }
        }

        /// <summary>Builds the path and the time/distance keys from the waypoints (once, in Awake).</summary>
        public void Rebuild()
        {
            Unregister();
            if (_path != null)
            {
                _path.Dispose();
                _path = null;
            }
            int n = 0;
            for (int i = 0; i < _waypoints.Length; i++)
            {
                if (_waypoints[i] != null && _waypoints[i].point != null)
                {
                    n++;
                }
            }
            if (n < 2)
            {
                Debug.LogWarning("ScheduleFollower on " + name + " needs at least two waypoints with a point.", this);
                return;
            }
            var points = new Vector3[n];
            var source = new int[n];
            int k = 0;
            for (int i = 0; i < _waypoints.Length; i++)
            {
                if (_waypoints[i] != null && _waypoints[i].point != null)
                {
                    points[k] = _waypoints[i].point.position;
                    source[k] = i;
                    k++;
                }
            }
            try
            {
                _path = _shape == PathShape.CatmullRom
                    ? MotionPath.FromCatmullRom(points, 0.5f, 0f)
                    : MotionPath.FromPolyline(points);
                BuildKeys(points, source);
            }
            catch (WayfarerException e)
            {
                Debug.LogError("ScheduleFollower on " + name + ": " + e.Message, this);
                if (_path != null)
                {
                    _path.Dispose();
                    _path = null;
                }
                return;
            }
            catch (ArgumentException e)
            {
                Debug.LogError("ScheduleFollower on " + name + ": " + e.Message, this);
                _path.Dispose();
                _path = null;
                return;
            }
            if (isActiveAndEnabled)
            {
                TryRegister();
            }
        }

        void BuildKeys(Vector3[] points, int[] source)
        {
            int n = points.Length;
            // Distance of each waypoint along the path: exact cumulative lengths for straight
            // segments, the path's nearest point for curves (the curve passes through them).
            var along = new float[n];
            float sum = 0f;
            for (int i = 0; i < n; i++)
            {
                if (i > 0)
                {
                    if (_shape == PathShape.Polyline)
                    {
                        sum += Vector3.Distance(points[i - 1], points[i]);
                    }
                    else
                    {
                        Vector3 onPath;
                        sum = Mathf.Max(sum, _path.Nearest(points[i], out onPath));
                    }
                }
                along[i] = Mathf.Min(sum, _path.Length);
            }
            along[n - 1] = _path.Length;
            int keys = 0;
            for (int i = 0; i < n; i++)
            {
                keys += _waypoints[source[i]].holdSeconds > 0f && i < n - 1 ? 2 : 1;
            }
            _times = new double[keys];
            _distances = new float[keys];
            _keyWaypoint = new int[keys];
            int k = 0;
            for (int i = 0; i < n; i++)
            {
                ScheduledWaypoint w = _waypoints[source[i]];
                _times[k] = w.arrivalTime;
                _distances[k] = along[i];
                _keyWaypoint[k] = source[i];
                k++;
                if (w.holdSeconds > 0f && i < n - 1)
                {
                    _times[k] = w.arrivalTime + w.holdSeconds;
                    _distances[k] = along[i];
                    _keyWaypoint[k] = source[i];
                    k++;
                }
            }
            for (int i = 1; i < keys; i++)
            {
                if (!(_times[i] > _times[i - 1]))
                {
                    throw new ArgumentException("waypoint times (plus holds) must strictly increase; key " + i +
                        " at " + _times[i] + " s is not after " + _times[i - 1] + " s");
                }
            }
            _ease = new Ease[keys - 1];
            for (int i = 0; i < _ease.Length; i++)
            {
                _ease[i] = _easeLegs ? Ease.InOut : Ease.None;
            }
        }

        /// <summary>Adds this NPC (its path and keys) to a schedule set; returns its NPC index.</summary>
        internal int AddTo(ScheduleSet set)
        {
            int pathIndex = set.AddPath(_path);
            return set.AddNpc(pathIndex, _times, _distances, _ease, _wrap);
        }

        /// <summary>Called by the clock with this NPC's evaluated pose.</summary>
        internal void Place(Vector3 position, Vector3 forward, NpcState state)
        {
            State = state;
            transform.position = position;
            if (_faceAlongPath && forward.sqrMagnitude > 1e-12f)
            {
                transform.rotation = Quaternion.LookRotation(forward);
            }
        }

        internal void RaiseCrossing(int key, int direction)
        {
            Action<ScheduleFollower, int, int> handler = WaypointPassed;
            if (handler != null && _keyWaypoint != null && key >= 0 && key < _keyWaypoint.Length)
            {
                handler(this, _keyWaypoint[key], direction);
            }
        }

        void OnDestroy()
        {
            Unregister();
            if (_path != null)
            {
                _path.Dispose();
                _path = null;
            }
        }

        void OnDrawGizmos()
        {
            Gizmos.color = Color.yellow;
            for (int i = 0; i < _waypoints.Length; i++)
            {
                if (_waypoints[i] != null && _waypoints[i].point != null)
                {
                    Gizmos.DrawWireSphere(_waypoints[i].point.position, 0.25f + 0.05f * _waypoints[i].holdSeconds);
                }
            }
            if (_path == null)
            {
                Vector3 previous = Vector3.zero;
                bool first = true;
                for (int i = 0; i < _waypoints.Length; i++)
                {
                    if (_waypoints[i] == null || _waypoints[i].point == null)
                    {
                        continue;
                    }
                    if (!first)
                    {
                        Gizmos.DrawLine(previous, _waypoints[i].point.position);
                    }
                    previous = _waypoints[i].point.position;
                    first = false;
                }
                return;
            }
            const int n = 64;
            if (_gizmoPoints == null)
            {
                _gizmoPoints = new Vector3[n];
            }
            for (int i = 0; i < n; i++)
            {
                _gizmoPoints[i] = _path.PositionAt(_path.Length * i / (n - 1));
            }
            GizmoDraw.Polyline(_gizmoPoints, n);
        }
    }
}
