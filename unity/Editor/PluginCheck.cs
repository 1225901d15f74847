using System;
using UnityEditor;
using UnityEngine;

namespace Wayfarer.Editor
{
    /// <summary>
    /// On Editor load, calls the native library once so a missing or stale plugin is reported with
    /// the fix (build it, restart the Editor) instead of as a DllNotFoundException on first use.
    /// </summary>
    [InitializeOnLoad]
    public static class PluginCheck
    {
        /// <summary>The version the C# bindings were generated for (the package version).</summary>
        public const string ExpectedVersion = "0.1.0";

        static PluginCheck()
        {
            string message = Check();
            if (message != null)
            {
                Debug.LogWarning(message);
            }
        }

        /// <summary>Null when the plugin loads and matches the bindings; otherwise what to do.</summary>
        public static string Check()
        {
            string version;
            try
            {
                version = Wf.Version;
            }
            catch (DllNotFoundException)
            {
                return "Wayfarer: the native plugin is missing for this Editor. Build it with "
                    + "`bash unity/Tools~/build-plugin.sh` (see the package README), then restart the Editor.";
            }
            catch (EntryPointNotFoundException)
            {
                return "Wayfarer: the native plugin is too old for these bindings. Rebuild it and restart the Editor.";
            }
            if (version != ExpectedVersion)
            {
                return "Wayfarer: native plugin " + version + " does not match the C# bindings " + ExpectedVersion
                    + ". Rebuild it and restart the Editor (Unity never unloads a loaded plugin).";
            }
            return null;
        }
    }
}
