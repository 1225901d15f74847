using UnityEngine;
using Wayfarer.Components;

namespace Wayfarer.Samples
{
    /// <summary>
    /// Keyboard control of a WorldClock (Majora's Mask style): hold R to rewind, F to run 30× fast,
    /// Space to pause, N to jump to the next morning (world time 6 h of the next day).
    /// </summary>
    [RequireComponent(typeof(WorldClock))]
    public sealed class ClockControls : MonoBehaviour
    {
        [SerializeField] float _fastScale = 30f;
        WorldClock _clock;

        void Awake()
        {
            _clock = GetComponent<WorldClock>();
        }

        void Update()
        {
            if (Input.GetKeyDown(KeyCode.Space))
            {
                _clock.Paused = !_clock.Paused;
            }
            if (Input.GetKeyDown(KeyCode.N))
            {
                const double day = 24 * 3600;
                _clock.Now = System.Math.Floor(_clock.Now / day + 1) * day + 6 * 3600;
            }
            _clock.TimeScale = Input.GetKey(KeyCode.R) ? -_fastScale : Input.GetKey(KeyCode.F) ? _fastScale : 1f;
        }
    }
}
