using UnityEngine;
using Wayfarer.Components;

namespace Wayfarer.Samples
{
    /// <summary>
    /// Builds a checkpoint course (a ring of checkpoints facing along the ring) and spawns beans on
    /// it with different speeds and end behaviours. Put it on an empty GameObject and press Play.
    /// </summary>
    public sealed class BeanCourse : MonoBehaviour
    {
        [SerializeField, Range(3, 32)] int _checkpoints = 8;
        [SerializeField, Min(1f)] float _radius = 10f;
        [SerializeField, Range(1, 64)] int _beans = 6;
        [SerializeField] GameObject _beanPrefab = null;

        void Awake()
        {
            var points = new Transform[_checkpoints];
            for (int i = 0; i < _checkpoints; i++)
            {
                float a = 2f * Mathf.PI * i / _checkpoints;
                var c = new GameObject("Checkpoint " + i).transform;
                c.position = transform.position + new Vector3(Mathf.Sin(a), 0f, Mathf.Cos(a)) * _radius;
                // Tangent of the ring: the bean passes each checkpoint along its forward.
                c.rotation = Quaternion.LookRotation(new Vector3(Mathf.Cos(a), 0f, -Mathf.Sin(a)));
                points[i] = c;
            }
            for (int b = 0; b < _beans; b++)
            {
                GameObject bean = _beanPrefab != null ? Instantiate(_beanPrefab) : new GameObject("Bean " + b);
                bean.SetActive(false); // configure before Awake runs
                bean.transform.position = points[0].position;
                bean.transform.rotation = points[0].rotation;
                var follower = bean.AddComponent<BeanFollower>();
                follower.SetCheckpoints(points);
                follower.Speed = 2f + b;
                follower.End = (PathEnd)(b % 3);
                bean.SetActive(true);
            }
        }
    }
}
