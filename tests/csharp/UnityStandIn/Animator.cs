using System.Collections.Generic;

namespace UnityEngine
{
    /// <summary>Stand-in for UnityEngine.Animator: keeps the float parameters set, so tests can read them.</summary>
    public sealed class Animator : Behaviour
    {
        readonly Dictionary<int, float> floats = new Dictionary<int, float>();

        /// <summary>Unity hashes parameter names to ids; any stable hash serves here.</summary>
        public static int StringToHash(string name)
        {
            int h = 17;
            foreach (char c in name)
            {
                h = unchecked(h * 31 + c);
            }
            return h;
        }

        public void SetFloat(int id, float value) { floats[id] = value; }
        public void SetFloat(string name, float value) { SetFloat(StringToHash(name), value); }

        public float GetFloat(int id)
        {
            float v;
            return floats.TryGetValue(id, out v) ? v : 0f;
        }

        public float GetFloat(string name) { return GetFloat(StringToHash(name)); }
    }
}
