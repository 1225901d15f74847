using System;

namespace UnityEngine
{
    /// <summary>Stand-in for UnityEngine.Renderer.</summary>
    public class Renderer : Component
    {
        public bool enabled { get; set; } = true;
    }

    /// <summary>Stand-in for UnityEngine.LineRenderer: keeps its positions so tests can read them.</summary>
    public sealed class LineRenderer : Renderer
    {
        Vector3[] points = new Vector3[0];

        public bool useWorldSpace { get; set; } = true;
        public bool loop { get; set; }
        public float startWidth { get; set; } = 1f;
        public float endWidth { get; set; } = 1f;
        public Color startColor { get; set; } = Color.white;
        public Color endColor { get; set; } = Color.white;

        public int positionCount
        {
            get { return points.Length; }
            set
            {
                if (value < 0) throw new ArgumentOutOfRangeException("value");
                Array.Resize(ref points, value);
            }
        }

        public void SetPosition(int index, Vector3 position) { points[index] = position; }
        public Vector3 GetPosition(int index) { return points[index]; }

        public void SetPositions(Vector3[] positions)
        {
            Array.Copy(positions, points, Math.Min(positions.Length, points.Length));
        }

        public int GetPositions(Vector3[] positions)
        {
            int n = Math.Min(positions.Length, points.Length);
            Array.Copy(points, positions, n);
            return n;
        }
    }
}
