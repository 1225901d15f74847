using UnityEngine;
using Wayfarer.Crowd;

namespace Wayfarer.Components
{
    /// <summary>
    /// Makes this object's Sphere, Box or Capsule collider an obstacle of a <see cref="CrowdManager"/>
    /// (seen from above: a sphere or upright capsule is a circle, a box an oriented rectangle, a lying
    /// capsule a rectangle with round ends); on an object without one, its wall points: a thin wall
    /// along each segment of the polyline (a fence, a room's outline, an arena's edge; Closed Loop joins
    /// the last point to the first). Static by default; tick Dynamic for moving obstacles.
    /// </summary>
    [AddComponentMenu("Wayfarer/Crowd Obstacle")]
    [DisallowMultipleComponent]
    public sealed class CrowdObstacle : MonoBehaviour
    {
        [SerializeField, Tooltip("Re-register when the object moves (costs a remove + add on frames it moves).")]
        bool _dynamic;

        [SerializeField, Tooltip("The manager to join (empty: the most recently enabled CrowdManager).")]
        CrowdManager _manager;

        [SerializeField, Tooltip("Without a Sphere, Box or Capsule collider: a wall along each segment of these points " +
            "(this object's local space; only X and Z matter).")]
        Vector3[] _wallPoints = new Vector3[0];

        [SerializeField, Tooltip("Also a wall from the last wall point back to the first.")]
        bool _closedLoop;

        uint[] _ids = new uint[3];
        int _count;
        Vector3 _registeredPosition;
        Quaternion _registeredRotation;
        Vector3 _registeredScale;
        CrowdManager _registeredWith;

        /// <summary>Native obstacle ids (1 to 3 shapes).</summary>
        public int ShapeCount
        {
            get { return _count; }
        }

        /// <summary>The wall polyline (local space), used when the object has no Sphere, Box or Capsule collider.
        /// Applied at once to a registered obstacle.</summary>
        public Vector3[] WallPoints
        {
            get { return _wallPoints; }
            set
            {
                _wallPoints = value ?? new Vector3[0];
                Refresh();
            }
        }

        /// <summary>Whether a wall also joins the last wall point to the first. Applied at once.</summary>
        public bool ClosedLoop
        {
            get { return _closedLoop; }
            set
            {
                _closedLoop = value;
                Refresh();
            }
        }

        /// <summary>Sends the obstacle again (after its collider or wall points changed).</summary>
        public void Refresh()
        {
            if (_registeredWith != null)
            {
                CrowdSimulation crowd = _registeredWith.Simulation;
                RemoveFrom(crowd);
                AddTo(crowd);
            }
        }

        /// <summary>Re-register when moved.</summary>
        public bool Dynamic
        {
            get { return _dynamic; }
            set { _dynamic = value; }
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
        }

        void TryRegister()
        {
            CrowdManager manager = _manager != null ? _manager : CrowdManager.Current;
            if (manager == null || manager == _registeredWith)
            {
                return;
            }
            Unregister();
            manager.Register(this);
            _registeredWith = manager;
        }

        void Unregister()
        {
            if (_registeredWith != null)
            {
                _registeredWith.Unregister(this);
                _registeredWith = null;
            }
        }

        /// <summary>True when dynamic and the transform changed since it was registered.</summary>
        internal bool Moved()
        {
            if (!_dynamic)
            {
                return false;
            }
            Transform t = transform;
            return !t.position.Equals(_registeredPosition) || !t.lossyScale.Equals(_registeredScale)
                || !SameRotation(t.rotation, _registeredRotation);
        }

        static bool SameRotation(Quaternion a, Quaternion b)
        {
            return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
        }

        /// <summary>Adds this collider's footprint to the crowd.</summary>
        internal void AddTo(CrowdSimulation crowd)
        {
            Transform t = transform;
            _registeredPosition = t.position;
            _registeredRotation = t.rotation;
            _registeredScale = t.lossyScale;
            _count = 0;
            Vector3 scale = t.lossyScale;
            float sx = Mathf.Abs(scale.x), sy = Mathf.Abs(scale.y), sz = Mathf.Abs(scale.z);

            var sphere = GetComponent<SphereCollider>();
            if (sphere != null)
            {
                float r = sphere.radius * Mathf.Max(sx, Mathf.Max(sy, sz));
                _ids[_count++] = crowd.AddCircle(t.TransformPoint(sphere.center), r);
                return;
            }
            var box = GetComponent<BoxCollider>();
            if (box != null)
            {
                Vector3 size = Vector3.Scale(box.size, scale);
                _ids[_count++] = crowd.AddOrientedBox(t.TransformPoint(box.center), 0.5f * size.x, 0.5f * size.z,
                    CrowdSimulation.YawOf(t.forward));
                return;
            }
            var capsule = GetComponent<CapsuleCollider>();
            if (capsule != null)
            {
                Vector3 center = t.TransformPoint(capsule.center);
                if (capsule.direction == 1)
                {
                    _ids[_count++] = crowd.AddCircle(center, capsule.radius * Mathf.Max(sx, sz));
                    return;
                }
                // Lying capsule: a rectangle along its axis with a circle at each end.
                Vector3 axis = capsule.direction == 0 ? t.right : t.forward;
                float axisScale = capsule.direction == 0 ? sx : sz;
                float r = capsule.radius * Mathf.Max(sy, capsule.direction == 0 ? sz : sx);
                float half = Mathf.Max(0f, 0.5f * capsule.height * axisScale - r);
                Vector3 flat = new Vector3(axis.x, 0f, axis.z).normalized;
                _ids[_count++] = crowd.AddCircle(center - flat * half, r);
                if (half > 0f)
                {
                    _ids[_count++] = crowd.AddCircle(center + flat * half, r);
                    _ids[_count++] = crowd.AddOrientedBox(center, r, half, CrowdSimulation.YawOf(flat));
                }
                return;
            }
            if (_wallPoints.Length >= 2)
            {
                int segments = _closedLoop && _wallPoints.Length >= 3 ? _wallPoints.Length : _wallPoints.Length - 1;
                for (int i = 0; i < segments; i++)
                {
                    Vector3 a = t.TransformPoint(_wallPoints[i]);
                    Vector3 b = t.TransformPoint(_wallPoints[(i + 1) % _wallPoints.Length]);
                    float dx = b.x - a.x, dz = b.z - a.z;
                    if (dx * dx + dz * dz <= 1e-12f)
                    {
                        continue; // a repeated point: no segment
                    }
                    if (_count == _ids.Length)
                    {
                        System.Array.Resize(ref _ids, 2 * _ids.Length);
                    }
                    _ids[_count++] = crowd.AddWall(a, b);
                }
                return;
            }
            Debug.LogWarning("CrowdObstacle on " + name + " needs a SphereCollider, BoxCollider or CapsuleCollider, " +
                "or two wall points or more.", this);
        }

        void OnDrawGizmos()
        {
            if (_wallPoints.Length < 2 || GetComponent<SphereCollider>() != null || GetComponent<BoxCollider>() != null
                || GetComponent<CapsuleCollider>() != null)
            {
                return;
            }
            Gizmos.color = Color.yellow;
            Transform t = transform;
            int segments = _closedLoop && _wallPoints.Length >= 3 ? _wallPoints.Length : _wallPoints.Length - 1;
            for (int i = 0; i < segments; i++)
            {
                Gizmos.DrawLine(t.TransformPoint(_wallPoints[i]), t.TransformPoint(_wallPoints[(i + 1) % _wallPoints.Length]));
            }
        }

        /// <summary>Removes this obstacle's shapes from the crowd.</summary>
        internal void RemoveFrom(CrowdSimulation crowd)
        {
            for (int i = 0; i < _count; i++)
            {
                crowd.RemoveObstacle(_ids[i]);
            }
            _count = 0;
        }
    }
}
