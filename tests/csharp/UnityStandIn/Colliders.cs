namespace UnityEngine
{
    /// <summary>Stand-in for UnityEngine.Collider.</summary>
    public class Collider : Component
    {
        public bool enabled { get; set; } = true;
        public bool isTrigger { get; set; }
    }

    /// <summary>Stand-in for UnityEngine.SphereCollider (local center and radius).</summary>
    public sealed class SphereCollider : Collider
    {
        public Vector3 center { get; set; }
        public float radius { get; set; } = 0.5f;
    }

    /// <summary>Stand-in for UnityEngine.BoxCollider (local center and size).</summary>
    public sealed class BoxCollider : Collider
    {
        public Vector3 center { get; set; }
        public Vector3 size { get; set; } = Vector3.one;
    }

    /// <summary>Stand-in for UnityEngine.CapsuleCollider; direction 0 = X, 1 = Y, 2 = Z.</summary>
    public sealed class CapsuleCollider : Collider
    {
        public Vector3 center { get; set; }
        public float radius { get; set; } = 0.5f;
        public float height { get; set; } = 2f;
        public int direction { get; set; } = 1;
    }
}
