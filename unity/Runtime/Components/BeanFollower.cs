using System;
using UnityEngine;
using Wayfarer.Curves;
using Wayfarer.Timeline;

namespace Wayfarer.Components
{
    /// <summary>
    /// Walks a Hermite curve through checkpoints at constant speed (seed 000's BeanFollower without
    /// its stalls). The curve is built once in Awake — tangent at each checkpoint = its forward ×
    /// speed × tangentScale — and sampled by distance travelled every frame: no path is ever
    /// recomputed, so the bean never stops mid-route.
    /// </summary>
    [AddComponentMenu("Wayfarer/Bean Follower")]
    [DisallowMultipleComponent]
    public sealed class BeanFollower : MonoBehaviour
    {
        [SerializeField, Tooltip("The checkpoints, in order; each one's forward (blue) axis is the curve's direction through it.")]
        Transform[] _checkpoints = new Transform[0];

        [SerializeField, Min(0f), Tooltip("Walking speed along the curve, in units per second (also the tangent length).")]
        float _speed = 1f;

        [SerializeField, Min(0f), Tooltip("Multiplies the tangents (forward × speed): larger = wider, rounder turns.")]
        float _tangentScale = 1f;

        [SerializeField, Tooltip("Start the curve at this object's own position instead of at the first checkpoint.")]
        bool _startFromHere = true;

        [SerializeField, Tooltip("What to do at the last checkpoint.")]
        PathEnd _end = PathEnd.Stop;

        [SerializeField, Tooltip("Turn the object to face along the curve.")]
        bool _faceAlongPath = true;

        [SerializeField, Range(2, 512), Tooltip("Points used to draw the curve's gizmo.")]
        int _gizmoSamples = 64;

        MotionPath _path;
        float _travelled;
        Vector3[] _points;
        Vector3[] _tangents;
        Vector3[] _gizmoPoints;

        /// <summary>The curve being followed (null before Awake or when it could not be built).</summary>
        public MotionPath Path
        {
            get { return _path; }
        }

        /// <summary>Walking speed in units per second (may be changed at any time).</summary>
        public float Speed
        {
            get { return _speed; }
            set { _speed = Mathf.Max(0f, value); }
        }

        /// <summary>End behaviour.</summary>
        public PathEnd End
        {
            get { return _end; }
            set { _end = value; }
        }

        /// <summary>Distance along the curve of the current position.</summary>
        public float Distance { get; private set; }

        /// <summary>+1 walking toward the end, −1 walking back (ping-pong).</summary>
        public int Direction { get; private set; }

        /// <summary>True once a Stop follower has reached the end.</summary>
        public bool Finished { get; private set; }

        /// <summary>Sets the checkpoints from code (before Awake, or call <see cref="Rebuild"/> after).</summary>
        public void SetCheckpoints(Transform[] checkpoints)
        {
            _checkpoints = checkpoints ?? new Transform[0];
        }

        void Awake()
        {
            Rebuild();
        }

        /// <summary>Builds the curve from the current checkpoints (done once in Awake) and restarts at its beginning.</summary>
        public void Rebuild()
        {
            if (_path != null)
            {
                _path.Dispose();
                _path = null;
            }
            int count = Collect(ref _points, ref _tangents);
            if (count < 2)
            {
                Debug.LogWarning("BeanFollower on " + name + " needs at least two points (checkpoints, or one checkpoint and Start From Here).", this);
                return;
            }
            try
            {
                _path = MotionPath.FromHermite(_points, _tangents);
            }
            catch (WayfarerException e)
            {
                Debug.LogError("BeanFollower on " + name + ": " + e.Message, this);
                return;
            }
            _travelled = 0f;
            Direction = 1;
            Finished = false;
            Place(0f);
        }

        /// <summary>Fills the point and tangent arrays (resized only when the count changes); returns the count.</summary>
        int Collect(ref Vector3[] points, ref Vector3[] tangents)
        {
            int valid = 0;
            for (int i = 0; i < _checkpoints.Length; i++)
            {
                if (_checkpoints[i] != null)
                {
                    valid++;
                }
            }
            bool closed = _end == PathEnd.Loop && valid > 0;
            int count = valid + (_startFromHere ? 1 : 0) + (closed ? 1 : 0);
            if (points == null || points.Length != count)
            {
                points = new Vector3[count];
                tangents = new Vector3[count];
            }
            float scale = _speed * _tangentScale;
            int k = 0;
            if (_startFromHere)
            {
                points[k] = transform.position;
                tangents[k] = transform.forward * scale;
                k++;
            }
            for (int i = 0; i < _checkpoints.Length; i++)
            {
                Transform c = _checkpoints[i];
                if (c == null)
                {
                    continue;
                }
                points[k] = c.position;
                tangents[k] = c.forward * scale;
                k++;
            }
            if (closed)
            {
                points[k] = points[0];
                tangents[k] = tangents[0];
            }
            return count;
        }

        void Update()
        {
            Advance(Time.deltaTime);
        }

        /// <summary>Moves <c>speed × dt</c> along the curve and places the transform (Update calls this).</summary>
        public void Advance(float dt)
        {
            if (_path == null || Finished)
            {
                return;
            }
            float length = _path.Length;
            _travelled += _speed * Mathf.Max(0f, dt);
            float distance;
            if (length <= 0f)
            {
                distance = 0f;
            }
            else if (_end == PathEnd.Stop)
            {
                if (_travelled >= length)
                {
                    _travelled = length;
                    Finished = true;
                }
                distance = _travelled;
            }
            else if (_end == PathEnd.Loop)
            {
                _travelled = Mathf.Repeat(_travelled, length);
                distance = _travelled;
            }
            else
            {
                _travelled = Mathf.Repeat(_travelled, 2f * length);
                Direction = _travelled <= length ? 1 : -1;
                distance = _travelled <= length ? _travelled : 2f * length - _travelled;
            }
            Place(distance);
        }

        void Place(float distance)
        {
            Vector3 position, forward;
            _path.AtDistance(distance, out position, out forward);
            Distance = distance;
            transform.position = position;
            if (_faceAlongPath && forward.sqrMagnitude > 1e-12f)
            {
                transform.rotation = Quaternion.LookRotation(forward * Direction);
            }
        }

        void OnDestroy()
        {
            if (_path != null)
            {
                _path.Dispose();
                _path = null;
            }
        }

        void OnDrawGizmos()
        {
            int n = Mathf.Max(2, _gizmoSamples);
            if (_gizmoPoints == null || _gizmoPoints.Length != n)
            {
                _gizmoPoints = new Vector3[n];
            }
            Gizmos.color = Color.cyan;
            try
            {
                if (_path != null)
                {
                    for (int i = 0; i < n; i++)
                    {
                        _gizmoPoints[i] = _path.PositionAt(_path.Length * i / (n - 1));
                    }
                }
                else
                {
                    // Edit mode: the curve the bean will follow, from the checkpoints as they are now.
                    if (Collect(ref _points, ref _tangents) < 2)
                    {
                        return;
                    }
                    HermiteSpline.Sample(_points, _tangents, n, Spacing.ArcLength, _gizmoPoints);
                }
            }
            catch (WayfarerException)
            {
                return;
            }
            catch (DllNotFoundException)
            {
                return;
            }
            GizmoDraw.Polyline(_gizmoPoints, n);
            for (int i = 0; i < _checkpoints.Length; i++)
            {
                if (_checkpoints[i] != null)
                {
                    Gizmos.DrawRay(_checkpoints[i].position, _checkpoints[i].forward * Mathf.Max(0.25f, _speed * _tangentScale) / 3f);
                }
            }
        }
    }
}
