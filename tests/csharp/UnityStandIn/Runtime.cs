using System.Collections.Generic;

namespace UnityEngine
{
    /// <summary>Stand-in for UnityEngine.Time; the tests set the clock through internal setters.</summary>
    public static class Time
    {
        public static float deltaTime { get; internal set; } = 0.02f;
        public static float time { get; internal set; }
        public static int frameCount { get; internal set; }
    }

    /// <summary>Stand-in for UnityEngine.Application.</summary>
    public static class Application
    {
        public static bool isPlaying { get; internal set; } = true;
    }

    /// <summary>Stand-in for UnityEngine.Debug; records messages for the tests.</summary>
    public static class Debug
    {
        internal static readonly List<string> Messages = new List<string>();
        internal static int RaysDrawn;

        public static void Log(object message) { Messages.Add("log: " + message); }
        public static void Log(object message, Object context) { Log(message); }
        public static void LogWarning(object message) { Messages.Add("warning: " + message); }
        public static void LogWarning(object message, Object context) { LogWarning(message); }
        public static void LogError(object message) { Messages.Add("error: " + message); }
        public static void LogError(object message, Object context) { LogError(message); }
        public static void DrawRay(Vector3 start, Vector3 dir, Color color) { RaysDrawn++; }
        public static void DrawLine(Vector3 start, Vector3 end, Color color) { RaysDrawn++; }
    }

    /// <summary>Stand-in for UnityEngine.Gizmos; counts what is drawn.</summary>
    public static class Gizmos
    {
        internal static int LinesDrawn;
        internal static int SpheresDrawn;

        public static Color color { get; set; } = Color.white;
        public static void DrawLine(Vector3 from, Vector3 to) { LinesDrawn++; }
        public static void DrawRay(Vector3 from, Vector3 direction) { LinesDrawn++; }
        public static void DrawSphere(Vector3 center, float radius) { SpheresDrawn++; }
        public static void DrawWireSphere(Vector3 center, float radius) { SpheresDrawn++; }
        public static void DrawWireCube(Vector3 center, Vector3 size) { LinesDrawn += 12; }
    }
}

namespace UnityEngine
{
    /// <summary>Stand-in for UnityEngine.KeyCode (the keys the samples use).</summary>
    public enum KeyCode { None = 0, Space = 32, F = 102, N = 110, R = 114 }

    /// <summary>Stand-in for UnityEngine.PrimitiveType.</summary>
    public enum PrimitiveType { Sphere = 0, Capsule = 1, Cylinder = 2, Cube = 3, Plane = 4, Quad = 5 }

    /// <summary>Stand-in for UnityEngine.Input; no keys are ever down.</summary>
    public static class Input
    {
        public static bool GetKey(KeyCode key) { return false; }
        public static bool GetKeyDown(KeyCode key) { return false; }
    }
}
