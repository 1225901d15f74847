using UnityEngine;
using Wayfarer.Components;
using Wayfarer.Curves;

namespace Wayfarer.Samples
{
    /// <summary>
    /// Seed 002's predicted ping-pong trajectory, computed instead of hand-placed: the ball's exact
    /// parabola with bounces on the table, as a chain of quadratic Béziers drawn by a BezierTrajectory.
    /// </summary>
    [RequireComponent(typeof(BezierTrajectory))]
    public sealed class PingPongPredictor : MonoBehaviour
    {
        [SerializeField] Vector3 _launchVelocity = new Vector3(0f, 2f, 4f);
        [SerializeField, Min(0.01f)] float _gravity = 9.81f;
        [SerializeField] float _tableHeight = 0.76f;
        [SerializeField, Range(0f, 1f)] float _restitution = 0.85f;
        [SerializeField, Range(0, 8)] int _bounces = 1;

        BezierTrajectory _trajectory;
        Vector3[] _controls = new Vector3[0];
        uint[] _degrees = new uint[0];
        Vector3 _lastStart;
        Vector3 _lastVelocity;

        void Awake()
        {
            _trajectory = GetComponent<BezierTrajectory>();
        }

        void Update()
        {
            Vector3 start = transform.position;
            if (start.Equals(_lastStart) && _launchVelocity.Equals(_lastVelocity) && _controls.Length == Ballistic.ControlCount(_bounces))
            {
                return;
            }
            _lastStart = start;
            _lastVelocity = _launchVelocity;
            if (_controls.Length != Ballistic.ControlCount(_bounces))
            {
                _controls = new Vector3[Ballistic.ControlCount(_bounces)];
                _degrees = new uint[_bounces + 1];
                Ballistic.FillDegrees(_degrees, _bounces);
            }
            int n = Ballistic.Trajectory(start, _launchVelocity, _gravity, _tableHeight, _restitution, _bounces, _controls);
            _trajectory.SetControlPoints(_controls, n, _degrees);
        }
    }
}
