using System.Collections.Generic;
using UnityEngine;
using Wayfarer.Timeline;

namespace Wayfarer.Components
{
    /// <summary>
    /// The world time every <see cref="ScheduleFollower"/> is a function of (seed 001). Time advances
    /// by <c>deltaTime × timeScale</c>; the scale may be negative (rewind) or large (skip ahead), and
    /// <see cref="Now"/> may be set directly (jump to the next morning). Each frame the clock evaluates
    /// every registered follower in one native call and places them.
    /// </summary>
    [AddComponentMenu("Wayfarer/World Clock")]
    [DisallowMultipleComponent]
    [DefaultExecutionOrder(-50)]
    public sealed class WorldClock : MonoBehaviour
    {
        [SerializeField, Tooltip("World time in seconds.")]
        double _now;

        [SerializeField, Tooltip("World seconds per real second: 1 = real time, −1 = rewind, 60 = a minute per second.")]
        float _timeScale = 1f;

        [SerializeField, Tooltip("Stop the clock (followers stay where they are).")]
        bool _paused;

        readonly List<ScheduleFollower> _followers = new List<ScheduleFollower>();
        ScheduleSet _set;
        bool _dirty;
        Vector3[] _positions = new Vector3[0];
        Vector3[] _forwards = new Vector3[0];
        NpcState[] _states = new NpcState[0];
        uint[] _hints = new uint[0];
        readonly CrossingBuffer _crossings = new CrossingBuffer(16);
        double _lastEvaluated;
        bool _evaluated;

        /// <summary>The most recently enabled clock (followers without an explicit clock use it).</summary>
        public static WorldClock Current { get; private set; }

        /// <summary>World time in seconds.</summary>
        public double Now
        {
            get { return _now; }
            set { _now = value; }
        }

        /// <summary>World seconds per real second (negative rewinds).</summary>
        public float TimeScale
        {
            get { return _timeScale; }
            set { _timeScale = value; }
        }

        /// <summary>While true, <see cref="Now"/> does not advance on its own.</summary>
        public bool Paused
        {
            get { return _paused; }
            set { _paused = value; }
        }

        /// <summary>Followers driven by this clock.</summary>
        public int FollowerCount
        {
            get { return _followers.Count; }
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

        internal void Register(ScheduleFollower follower)
        {
            if (!_followers.Contains(follower))
            {
                _followers.Add(follower);
                _dirty = true;
            }
        }

        internal void Unregister(ScheduleFollower follower)
        {
            if (_followers.Remove(follower))
            {
                _dirty = true;
            }
        }

        void Update()
        {
            Advance(Time.deltaTime);
        }

        /// <summary>Advances the clock by <c>dt × timeScale</c> (unless paused) and places every follower.</summary>
        public void Advance(float dt)
        {
            if (!_paused)
            {
                _now += (double)dt * _timeScale;
            }
            Apply();
        }

        /// <summary>Places every follower at <see cref="Now"/> (one native call) and raises waypoint events
        /// for keys crossed since the last evaluation.</summary>
        public void Apply()
        {
            if (_dirty)
            {
                Rebuild();
            }
            int n = _followers.Count;
            if (_set == null || n == 0)
            {
                return;
            }
            _set.EvaluateHinted(_now, _hints, _positions, _forwards, null, _states);
            for (int i = 0; i < n; i++)
            {
                _followers[i].Place(_positions[i], _forwards[i], _states[i]);
            }
            if (_evaluated && _lastEvaluated != _now)
            {
                int crossings = _set.Crossings(_lastEvaluated, _now, _crossings);
                for (int i = 0; i < crossings; i++)
                {
                    _followers[_crossings.Npcs[i]].RaiseCrossing(_crossings.Keys[i], _crossings.Directions[i]);
                }
            }
            _lastEvaluated = _now;
            _evaluated = true;
        }

        /// <summary>Rebuilds the native schedule set from the registered followers (only when they change).</summary>
        void Rebuild()
        {
            _dirty = false;
            if (_set != null)
            {
                _set.Dispose();
                _set = null;
            }
            for (int i = _followers.Count - 1; i >= 0; i--)
            {
                if (_followers[i] == null || !_followers[i].IsReady)
                {
                    _followers.RemoveAt(i);
                }
            }
            int n = _followers.Count;
            if (n == 0)
            {
                return;
            }
            _set = new ScheduleSet();
            for (int i = 0; i < n; i++)
            {
                try
                {
                    // NPC indices are assigned in order, so follower i is NPC i.
                    _followers[i].AddTo(_set);
                }
                catch (WayfarerException e)
                {
                    Debug.LogError("WorldClock: schedule of " + _followers[i].name + " rejected: " + e.Message, _followers[i]);
                    _set.Dispose();
                    _set = null;
                    return;
                }
            }
            if (_positions.Length < n)
            {
                _positions = new Vector3[n];
                _forwards = new Vector3[n];
                _states = new NpcState[n];
            }
            _hints = new uint[_set.HintCount];
            _evaluated = false;
        }

        void OnDestroy()
        {
            if (_set != null)
            {
                _set.Dispose();
                _set = null;
            }
        }
    }
}
