using System;

namespace UnityEngine
{
    /// <summary>Stand-in for UnityEngine.Quaternion (x, y, z, w); Euler angles in degrees, ZXY order as in Unity.</summary>
    [Serializable]
    public struct Quaternion
    {
        public float x;
        public float y;
        public float z;
        public float w;

        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }

        public static Quaternion identity { get { return new Quaternion(0f, 0f, 0f, 1f); } }

        public static Quaternion AngleAxis(float degrees, Vector3 axis)
        {
            Vector3 n = axis.normalized;
            double h = degrees * Math.PI / 360.0;
            float s = (float)Math.Sin(h);
            return new Quaternion(n.x * s, n.y * s, n.z * s, (float)Math.Cos(h));
        }

        public static Quaternion Euler(float x, float y, float z)
        {
            // Unity applies Z, then X, then Y (extrinsic): q = qy * qx * qz.
            return AngleAxis(y, Vector3.up) * AngleAxis(x, Vector3.right) * AngleAxis(z, Vector3.forward);
        }

        public static Quaternion Euler(Vector3 e) { return Euler(e.x, e.y, e.z); }

        public static Quaternion LookRotation(Vector3 forward) { return LookRotation(forward, Vector3.up); }

        public static Quaternion LookRotation(Vector3 forward, Vector3 up)
        {
            Vector3 f = forward.normalized;
            if (f.sqrMagnitude < 1e-12f) return identity;
            Vector3 r = Vector3.Cross(up, f);
            if (r.sqrMagnitude < 1e-12f) r = Vector3.Cross(Vector3.forward, f);
            r = r.normalized;
            Vector3 u = Vector3.Cross(f, r);
            // Rotation matrix columns r, u, f -> quaternion.
            float m00 = r.x, m01 = u.x, m02 = f.x;
            float m10 = r.y, m11 = u.y, m12 = f.y;
            float m20 = r.z, m21 = u.z, m22 = f.z;
            float trace = m00 + m11 + m22;
            Quaternion q;
            if (trace > 0f)
            {
                float s = (float)Math.Sqrt(trace + 1f) * 2f;
                q = new Quaternion((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25f * s);
            }
            else if (m00 > m11 && m00 > m22)
            {
                float s = (float)Math.Sqrt(1f + m00 - m11 - m22) * 2f;
                q = new Quaternion(0.25f * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s);
            }
            else if (m11 > m22)
            {
                float s = (float)Math.Sqrt(1f + m11 - m00 - m22) * 2f;
                q = new Quaternion((m01 + m10) / s, 0.25f * s, (m12 + m21) / s, (m02 - m20) / s);
            }
            else
            {
                float s = (float)Math.Sqrt(1f + m22 - m00 - m11) * 2f;
                q = new Quaternion((m02 + m20) / s, (m12 + m21) / s, 0.25f * s, (m10 - m01) / s);
            }
            return q;
        }

        public static Quaternion Slerp(Quaternion a, Quaternion b, float t)
        {
            t = Mathf.Clamp01(t);
            float dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
            if (dot < 0f) { b = new Quaternion(-b.x, -b.y, -b.z, -b.w); dot = -dot; }
            if (dot > 0.9995f)
            {
                Quaternion l = new Quaternion(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t);
                float n = (float)Math.Sqrt(l.x * l.x + l.y * l.y + l.z * l.z + l.w * l.w);
                return new Quaternion(l.x / n, l.y / n, l.z / n, l.w / n);
            }
            double theta = Math.Acos(dot);
            double sa = Math.Sin((1 - t) * theta) / Math.Sin(theta);
            double sb = Math.Sin(t * theta) / Math.Sin(theta);
            return new Quaternion((float)(a.x * sa + b.x * sb), (float)(a.y * sa + b.y * sb), (float)(a.z * sa + b.z * sb), (float)(a.w * sa + b.w * sb));
        }

        public Vector3 eulerAngles
        {
            get
            {
                // Inverse of Euler(): ZXY.
                float sinX = 2f * (w * x - y * z);
                sinX = Mathf.Clamp(sinX, -1f, 1f);
                float ex = (float)Math.Asin(sinX);
                float ey = (float)Math.Atan2(2f * (w * y + x * z), 1f - 2f * (x * x + y * y));
                float ez = (float)Math.Atan2(2f * (w * z + x * y), 1f - 2f * (x * x + z * z));
                return new Vector3(Wrap(ex * Mathf.Rad2Deg), Wrap(ey * Mathf.Rad2Deg), Wrap(ez * Mathf.Rad2Deg));
            }
            set { this = Euler(value); }
        }

        static float Wrap(float d) { d %= 360f; return d < 0f ? d + 360f : d; }

        public static Quaternion operator *(Quaternion a, Quaternion b)
        {
            return new Quaternion(
                a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y + a.y * b.w + a.z * b.x - a.x * b.z,
                a.w * b.z + a.z * b.w + a.x * b.y - a.y * b.x,
                a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
        }

        public static Vector3 operator *(Quaternion q, Vector3 v)
        {
            Vector3 u = new Vector3(q.x, q.y, q.z);
            Vector3 t = 2f * Vector3.Cross(u, v);
            return v + q.w * t + Vector3.Cross(u, t);
        }

        public override string ToString() { return string.Format("({0:F4}, {1:F4}, {2:F4}, {3:F4})", x, y, z, w); }
    }
}
