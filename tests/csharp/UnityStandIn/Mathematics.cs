using System;

namespace Unity.Mathematics
{
    /// <summary>Stand-in for Unity.Mathematics.float3 (three consecutive floats).</summary>
    [Serializable]
    public struct float3
    {
        public float x;
        public float y;
        public float z;

        public float3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
    }
}
