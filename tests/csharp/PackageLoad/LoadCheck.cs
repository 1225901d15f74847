using System;
using UnityEngine;
using Wayfarer;
using Wayfarer.Curves;

/// <summary>
/// Loads the native plugin through the package's own C#, as Unity would after installing the
/// tarball: prints the library version, the middle of a quadratic Bézier (expected 1 1 0) and the
/// file the process mapped for libwayfarer (Linux: from /proc/self/maps). Run by
/// tests/unity_tarball.rs against the unpacked package.
/// </summary>
static class LoadCheck
{
    static int Main()
    {
        Console.WriteLine("version " + Wf.Version);
        var controls = new[] { new Vector3(0f, 0f, 0f), new Vector3(1f, 2f, 0f), new Vector3(2f, 0f, 0f) };
        var points = new Vector3[3];
        BezierCurve.Sample(controls, 3, Spacing.Parameter, points);
        Console.WriteLine("middle " + points[1].x + " " + points[1].y + " " + points[1].z);
        foreach (string line in System.IO.File.ReadAllLines("/proc/self/maps"))
        {
            int at = line.IndexOf('/');
            if (at >= 0 && line.EndsWith("/libwayfarer.so"))
            {
                Console.WriteLine("loaded " + line.Substring(at));
                break;
            }
        }
        return 0;
    }
}
