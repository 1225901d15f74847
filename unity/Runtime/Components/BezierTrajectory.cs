using System;
using UnityEngine;
using Wayfarer.Curves;

namespace Wayfarer.Components
{
    /// <summary>
    /// Draws a Bézier curve — or a chain of Bézier pieces — through control-point transforms into a
    /// LineRenderer (seed 002's GetBezierList + LineRenderer), recomputing only when a control point
    /// moves. With no piece degrees the whole list is one curve of degree (count − 1); with degrees
    /// {2, 2} five control points make seed 002's two-piece ping-pong trajectory.
    /// </summary>
    [AddComponentMenu("Wayfarer/Bezier Trajectory")]
    [RequireComponent(typeof(LineRenderer))]
    [ExecuteAlways]
    public sealed class BezierTrajectory : MonoBehaviour
    {
        [SerializeField, Tooltip("Control points in order, start and end included; pieces share their end points.")]
        Transform[] _controlPoints = new Transform[0];

        [SerializeField, Tooltip("Degree of each piece (sum = control points − 1). Empty: one curve through all of them.")]
        int[] _pieceDegrees = new int[0];

        [SerializeField, Range(2, 1024), Tooltip("Points written to the LineRenderer, both ends included.")]
        int _samples = 32;

        [SerializeField, Tooltip("Parameter: the seed's t = i/n. ArcLength: evenly spaced along the curve.")]
        Spacing _spacing = Spacing.Parameter;

        [SerializeField, Tooltip("The line to fill (default: the one on this object).")]
        LineRenderer _line;

        Vector3[] _controls = new Vector3[0];
        uint[] _degrees = new uint[0];
        Vector3[] _output = new Vector3[0];
        bool _valid;
        bool _hasExplicitPoints;
        WfStatusMemo _lastError;

        /// <summary>The sampled points (valid after a successful refresh).</summary>
        public Vector3[] Points
        {
            get { return _output; }
        }

        /// <summary>Sample count written to the line.</summary>
        public int Samples
        {
            get { return _samples; }
            set
            {
                _samples = Mathf.Max(2, value);
                _valid = false;
            }
        }

        void OnEnable()
        {
            if (_line == null)
            {
                _line = GetComponent<LineRenderer>();
            }
            _valid = false;
        }

        void Update()
        {
            Refresh(false);
        }

        /// <summary>
        /// Draws from explicit control points instead of transforms (e.g. from
        /// <see cref="Ballistic.Trajectory"/>); degrees null = one curve. Copies the points.
        /// </summary>
        public void SetControlPoints(Vector3[] points, int count, uint[] degrees)
        {
            Wf.Fits(points, count, "count");
            if (_controls.Length != count)
            {
                _controls = new Vector3[count];
            }
            Array.Copy(points, _controls, count);
            int pieces = Wf.Len(degrees);
            if (_degrees.Length != pieces)
            {
                _degrees = new uint[pieces];
            }
            if (pieces > 0)
            {
                Array.Copy(degrees, _degrees, pieces);
            }
            _hasExplicitPoints = true;
            _valid = false;
            Refresh(true);
        }

        /// <summary>Goes back to drawing from the control-point transforms after <see cref="SetControlPoints"/>.</summary>
        public void UseTransforms()
        {
            _hasExplicitPoints = false;
            _valid = false;
            Refresh(true);
        }

        /// <summary>Recomputes the line if a control point moved (or always when <paramref name="force"/>).</summary>
        public void Refresh(bool force)
        {
            bool changed = force || !_valid;
            if (!_hasExplicitPoints)
            {
                changed |= GatherControls();
                changed |= GatherDegrees();
            }
            if (!changed)
            {
                return;
            }
            _valid = true;
            if (_controls.Length < 2)
            {
                return;
            }
            if (_output.Length != _samples)
            {
                _output = new Vector3[_samples];
            }
            try
            {
                if (_degrees.Length == 0)
                {
                    BezierCurve.Sample(_controls, _samples, _spacing, _output);
                }
                else
                {
                    BezierChain.Sample(_controls, _degrees, _samples, _spacing, _output);
                }
                _lastError.Clear();
            }
            catch (WayfarerException e)
            {
                if (_lastError.Changed(e.Status))
                {
                    Debug.LogWarning("BezierTrajectory on " + name + ": " + e.Message, this);
                }
                return;
            }
            catch (Exception e) when (MissingPlugin.Is(e))
            {
                // [ExecuteAlways]: without the plugin this runs on every edit; say so once.
                MissingPlugin.Report(e, this);
                return;
            }
            if (_line != null)
            {
                _line.positionCount = _samples;
                _line.SetPositions(_output);
            }
        }

        /// <summary>Copies the control transforms' positions; true when any moved.</summary>
        bool GatherControls()
        {
            int n = 0;
            for (int i = 0; i < _controlPoints.Length; i++)
            {
                if (_controlPoints[i] != null)
                {
                    n++;
                }
            }
            bool changed = false;
            if (_controls.Length != n)
            {
                _controls = new Vector3[n];
                changed = true;
            }
            int k = 0;
            for (int i = 0; i < _controlPoints.Length; i++)
            {
                if (_controlPoints[i] == null)
                {
                    continue;
                }
                Vector3 p = _controlPoints[i].position;
                if (!p.Equals(_controls[k]))
                {
                    _controls[k] = p;
                    changed = true;
                }
                k++;
            }
            return changed;
        }

        bool GatherDegrees()
        {
            bool changed = false;
            if (_degrees.Length != _pieceDegrees.Length)
            {
                _degrees = new uint[_pieceDegrees.Length];
                changed = true;
            }
            for (int i = 0; i < _pieceDegrees.Length; i++)
            {
                uint d = (uint)Mathf.Max(0, _pieceDegrees[i]);
                if (_degrees[i] != d)
                {
                    _degrees[i] = d;
                    changed = true;
                }
            }
            return changed;
        }

        void OnValidate()
        {
            _valid = false;
        }

        void OnDrawGizmos()
        {
            Gizmos.color = Color.gray;
            GizmoDraw.Polyline(_controls, _controls.Length);
            Gizmos.color = Color.magenta;
            for (int i = 0; i < _controls.Length; i++)
            {
                Gizmos.DrawWireSphere(_controls[i], 0.05f);
            }
        }

        /// <summary>Remembers the last reported failure so a broken setup warns once, not every frame.</summary>
        struct WfStatusMemo
        {
            bool _has;
            Native.WfStatus _status;

            internal bool Changed(Native.WfStatus status)
            {
                bool changed = !_has || _status != status;
                _has = true;
                _status = status;
                return changed;
            }

            internal void Clear()
            {
                _has = false;
            }
        }
    }
}
