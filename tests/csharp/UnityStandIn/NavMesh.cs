using System;

namespace UnityEngine.AI
{
    /// <summary>Stand-in for UnityEngine.AI.NavMeshPath: the corners of the last path computed into it.</summary>
    public sealed class NavMeshPath
    {
        internal Vector3[] Corners = new Vector3[0];

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

        /// <summary>Test hook: CalculatePath calls so far.</summary>
        internal static int Calls;

        public static bool CalculatePath(Vector3 sourcePosition, Vector3 targetPosition, int areaMask, NavMeshPath path)
        {
            Calls++;
            Vector3[] corners = Router(sourcePosition, targetPosition);
            path.Corners = corners ?? new Vector3[0];
            return corners != null;
        }
    }
}
