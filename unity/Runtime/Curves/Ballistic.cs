using UnityEngine;
using Wayfarer.Native;

namespace Wayfarer.Curves
{
    /// <summary>
    /// A thrown object's exact path as a chain of quadratic Béziers (a parabola is a quadratic
    /// Bézier): seed 002's predicted ping-pong trajectory, computed instead of hand-placed.
    /// </summary>
    public static class Ballistic
    {
        /// <summary>Control points needed for <paramref name="bounces"/> bounces: 1 + 2 × (bounces + 1).</summary>
        public static int ControlCount(int bounces)
        {
            return 1 + 2 * (bounces + 1);
        }

        /// <summary>Fills <paramref name="degrees"/> (length ≥ bounces + 1) with 2, the degree of every piece.</summary>
        public static void FillDegrees(uint[] degrees, int bounces)
        {
            Wf.Fits(degrees, bounces + 1, "degrees");
            for (int i = 0; i <= bounces; i++)
            {
                degrees[i] = 2;
            }
        }

        /// <summary>
        /// Writes the chain's control points for a launch from <paramref name="start"/> at
        /// <paramref name="velocity"/> under gravity (0, −<paramref name="gravity"/>, 0), bouncing on the
        /// plane y = <paramref name="groundY"/> with <paramref name="restitution"/> in [0, 1]. Returns the
        /// number of control points written; every piece has degree 2.
        /// </summary>
        public static unsafe int Trajectory(Vector3 start, Vector3 velocity, float gravity, float groundY,
            float restitution, int bounces, Vector3[] controlPoints)
        {
            if (bounces < 0)
            {
                throw new System.ArgumentOutOfRangeException("bounces");
            }
            System.UIntPtr written;
            fixed (Vector3* c = controlPoints)
            {
                Wf.Check(NativeMethods.wf_ballistic_bezier((float*)&start, (float*)&velocity, gravity, groundY, restitution,
                    (uint)bounces, (float*)c, Wf.Size(Wf.Len(controlPoints)), &written), "wf_ballistic_bezier");
            }
            return (int)(uint)written;
        }
    }
}
