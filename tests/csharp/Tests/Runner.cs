using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using UnityEngine;

namespace Wayfarer.Tests
{
    /// <summary>Marks a static, parameterless test method.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class TestAttribute : Attribute { }

    /// <summary>
    /// A tiny test runner: runs every [Test] method (optionally only those whose Class.Method name
    /// contains one of the command-line arguments), prints failures, and ends with
    /// "N passed, N failed"; exits non-zero when anything failed.
    /// </summary>
    public static class Runner
    {
        public static int Main(string[] args)
        {
            var tests = typeof(Runner).Assembly.GetTypes()
                .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static))
                .Where(m => m.GetCustomAttributes(typeof(TestAttribute), false).Length > 0)
                .OrderBy(m => m.DeclaringType.Name).ThenBy(m => m.Name)
                .ToList();
            int passed = 0, failed = 0;
            Console.WriteLine("wayfarer C# tests against native wayfarer " + Wf.Version);
            foreach (var m in tests)
            {
                string name = m.DeclaringType.Name + "." + m.Name;
                if (args.Length > 0 && !args.Any(a => name.Contains(a)))
                {
                    continue;
                }
                Reset();
                try
                {
                    m.Invoke(null, null);
                    passed++;
                    Console.WriteLine("ok   " + name);
                }
                catch (TargetInvocationException e)
                {
                    failed++;
                    Exception inner = e.InnerException;
                    Console.WriteLine("FAIL " + name + ": " + inner.GetType().Name + ": " + inner.Message);
                    foreach (string line in (inner.StackTrace ?? "").Split('\n').Where(l => l.Contains(".cs:")).Take(4))
                    {
                        Console.WriteLine("       " + line.Trim());
                    }
                }
            }
            Console.WriteLine(passed + " passed, " + failed + " failed");
            return failed == 0 ? 0 : 1;
        }

        /// <summary>Resets the stand-in's global state between tests.</summary>
        static void Reset()
        {
            Time.deltaTime = 0.02f;
            Time.time = 0f;
            Application.isPlaying = true;
            Debug.Messages.Clear();
            Debug.RaysDrawn = 0;
            Gizmos.LinesDrawn = 0;
            Gizmos.SpheresDrawn = 0;
        }
    }

    /// <summary>Assertions that throw with a readable message.</summary>
    public static class Assert
    {
        public static void True(bool condition, string message)
        {
            if (!condition)
            {
                throw new Exception("assertion failed: " + message);
            }
        }

        public static void Equal<T>(T expected, T actual, string message)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
            {
                throw new Exception(message + ": expected " + expected + ", got " + actual);
            }
        }

        public static void Near(double expected, double actual, double tolerance, string message)
        {
            if (!(Math.Abs(expected - actual) <= tolerance))
            {
                throw new Exception(message + ": expected " + expected + " ± " + tolerance + ", got " + actual);
            }
        }

        public static void Near(Vector3 expected, Vector3 actual, double tolerance, string message)
        {
            double d = Math.Sqrt((double)(expected.x - actual.x) * (expected.x - actual.x)
                + (double)(expected.y - actual.y) * (expected.y - actual.y)
                + (double)(expected.z - actual.z) * (expected.z - actual.z));
            if (!(d <= tolerance))
            {
                throw new Exception(message + ": expected " + expected + ", got " + actual + " (off by " + d + ")");
            }
        }

        /// <summary>The action must throw a WayfarerException carrying <paramref name="status"/>.</summary>
        public static WayfarerException Fails(Native.WfStatus status, Action action, string message)
        {
            try
            {
                action();
            }
            catch (WayfarerException e)
            {
                if (e.Status != status)
                {
                    throw new Exception(message + ": expected status " + status + ", got " + e.Status + " (" + e.Message + ")");
                }
                True(e.Message.Contains(Wf.StatusText(status)), "exception message carries wf_status_str's text");
                return e;
            }
            throw new Exception(message + ": expected WayfarerException(" + status + "), nothing was thrown");
        }

        public static void Throws<TException>(Action action, string message) where TException : Exception
        {
            try
            {
                action();
            }
            catch (TException)
            {
                return;
            }
            throw new Exception(message + ": expected " + typeof(TException).Name);
        }
    }

    /// <summary>Independent double-precision references and scene helpers.</summary>
    public static class Ref
    {
        public static Vector3 V(double x, double y, double z) { return new Vector3((float)x, (float)y, (float)z); }

        /// <summary>Cubic Hermite in double: (2t³−3t²+1)p0 + (t³−2t²+t)m0 + (−2t³+3t²)p1 + (t³−t²)m1.</summary>
        public static Vector3 Hermite(Vector3 p0, Vector3 p1, Vector3 m0, Vector3 m1, double t)
        {
            t = Math.Max(0, Math.Min(1, t));
            double t2 = t * t, t3 = t2 * t;
            double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
            return V(h00 * p0.x + h10 * m0.x + h01 * p1.x + h11 * m1.x,
                h00 * p0.y + h10 * m0.y + h01 * p1.y + h11 * m1.y,
                h00 * p0.z + h10 * m0.z + h01 * p1.z + h11 * m1.z);
        }

        /// <summary>Bernstein-form Bézier in double (not de Casteljau, so independent of the library's method).</summary>
        public static Vector3 Bezier(Vector3[] c, double t)
        {
            int n = c.Length - 1;
            double x = 0, y = 0, z = 0;
            for (int i = 0; i <= n; i++)
            {
                double b = Binomial(n, i) * Math.Pow(t, i) * Math.Pow(1 - t, n - i);
                x += b * c[i].x;
                y += b * c[i].y;
                z += b * c[i].z;
            }
            return V(x, y, z);
        }

        static double Binomial(int n, int k)
        {
            double r = 1;
            for (int i = 1; i <= k; i++)
            {
                r = r * (n - k + i) / i;
            }
            return r;
        }

        /// <summary>The point at arc length <paramref name="d"/> along a polyline (double).</summary>
        public static Vector3 PolylineAt(Vector3[] p, double d)
        {
            for (int i = 1; i < p.Length; i++)
            {
                double len = Vector3.Distance(p[i - 1], p[i]);
                if (d <= len || i == p.Length - 1)
                {
                    double s = len > 0 ? Math.Max(0, Math.Min(1, d / len)) : 0;
                    return V(p[i - 1].x + (p[i].x - p[i - 1].x) * s, p[i - 1].y + (p[i].y - p[i - 1].y) * s,
                        p[i - 1].z + (p[i].z - p[i - 1].z) * s);
                }
                d -= len;
            }
            return p[0];
        }

        public static double PolylineLength(Vector3[] p)
        {
            double s = 0;
            for (int i = 1; i < p.Length; i++)
            {
                s += Math.Sqrt((double)(p[i].x - p[i - 1].x) * (p[i].x - p[i - 1].x)
                    + (double)(p[i].y - p[i - 1].y) * (p[i].y - p[i - 1].y)
                    + (double)(p[i].z - p[i - 1].z) * (p[i].z - p[i - 1].z));
            }
            return s;
        }

        /// <summary>Calls a MonoBehaviour message (Awake, Update, …) the way Unity would.</summary>
        public static void Send(object component, string message)
        {
            var m = component.GetType().GetMethod(message, BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
            if (m == null)
            {
                throw new Exception(component.GetType().Name + " has no " + message);
            }
            try
            {
                m.Invoke(component, null);
            }
            catch (TargetInvocationException e)
            {
                throw e.InnerException;
            }
        }

        /// <summary>Sets a private serialized field (what the inspector does).</summary>
        public static void Set(object component, string field, object value)
        {
            var f = component.GetType().GetField(field, BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public);
            if (f == null)
            {
                throw new Exception(component.GetType().Name + " has no field " + field);
            }
            f.SetValue(component, value);
        }

        public static Transform Point(string name, Vector3 position)
        {
            var go = new GameObject(name);
            go.transform.position = position;
            return go.transform;
        }

        public static Transform Point(string name, Vector3 position, Vector3 forward)
        {
            var t = Point(name, position);
            t.rotation = Quaternion.LookRotation(forward);
            return t;
        }
    }
}
