using UnityEngine;

namespace Wayfarer.Components
{
    /// <summary>Small drawing helpers shared by the components' OnDrawGizmos.</summary>
    internal static class GizmoDraw
    {
        /// <summary>Lines through the first <paramref name="count"/> points.</summary>
        internal static void Polyline(Vector3[] points, int count)
        {
            for (int i = 1; i < count; i++)
            {
                Gizmos.DrawLine(points[i - 1], points[i]);
            }
        }

        /// <summary>A flat FOV cone on the XZ plane: two edges and an arc of <paramref name="segments"/> lines.</summary>
        internal static void FovCone(Vector3 origin, float yaw, float halfAngle, float range, int segments)
        {
            Vector3 previous = origin;
            for (int i = 0; i <= segments; i++)
            {
                float a = yaw - halfAngle + 2f * halfAngle * i / segments;
                Vector3 p = origin + new Vector3(Mathf.Sin(a), 0f, Mathf.Cos(a)) * range;
                Gizmos.DrawLine(previous, p);
                previous = p;
            }
            Gizmos.DrawLine(previous, origin);
        }
    }
}
