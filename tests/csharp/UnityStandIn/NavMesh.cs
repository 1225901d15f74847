using System;

namespace UnityEngine.AI
{
    /// <summary>Stand-in for UnityEngine.AI.NavMeshPathStatus.</summary>
    public enum NavMeshPathStatus
    {
        PathComplete = 0,
        PathPartial = 1,
        PathInvalid = 2,
    }

    /// <summary>Stand-in for UnityEngine.AI.NavMeshPath: the corners of the last path computed into it.</summary>
    public sealed class NavMeshPath
    {
        internal Vector3[] Corners = new Vector3[0];

        /// <summary>Whether the last path reaches the target, stops short of it, or is invalid.</summary>
        public NavMeshPathStatus status { get; internal set; } = NavMeshPathStatus.PathInvalid;

        /// <summary>Copies up to <c>results.Length</c> corners; returns how many (Unity's contract).</summary>
        public int GetCornersNonAlloc(Vector3[] results)
        {
            int n = Math.Min(results.Length, Corners.Length);
            Array.Copy(Corners, results, n);
            return n;
        }

        public void ClearCorners() { Corners = new Vector3[0]; }
    }

    /// <summary>Stand-in for UnityEngine.AI.NavMesh: paths come from a router the tests set (default: the
    /// straight line), and the calls are counted.</summary>
    public static class NavMesh
    {
        public const int AllAreas = -1;

        /// <summary>Test hook: the corners from a source to a target (first = source, last = target), or null for
        /// no path.</summary>
        internal static Func<Vector3, Vector3, Vector3[]> Router = (a, b) => new[] { a, b };

        /// <summary>Test hook: the status the router's paths get (Unity: PathPartial when the target is not reachable
        /// and the path ends at the nearest place that is).</summary>
        internal static NavMeshPathStatus RoutedStatus = NavMeshPathStatus.PathComplete;

        /// <summary>Test hook: CalculatePath calls so far.</summary>
        internal static int Calls;

        public static bool CalculatePath(Vector3 sourcePosition, Vector3 targetPosition, int areaMask, NavMeshPath path)
        {
            Calls++;
            Vector3[] corners = Router(sourcePosition, targetPosition);
            path.Corners = corners ?? new Vector3[0];
            path.status = corners == null ? NavMeshPathStatus.PathInvalid : RoutedStatus;
            // Unity: true for a complete or a partial path.
            return corners != null && RoutedStatus != NavMeshPathStatus.PathInvalid;
        }
    }
}
