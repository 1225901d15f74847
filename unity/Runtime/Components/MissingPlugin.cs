using System;
using UnityEngine;

namespace Wayfarer.Components
{
    /// <summary>
    /// What the components do when the native plugin is absent for the running platform (a git
    /// install without built plugins, or a platform whose slot was not built): the first time, one
    /// warning that says how to get it; later calls stay quiet so edit-mode redraws do not flood the
    /// console.
    /// </summary>
    internal static class MissingPlugin
    {
        internal const string Fix =
            "Build it for this machine with `bash unity/Tools~/build-plugin.sh` (Rust toolchain needed) or install the "
            + "release tarball com.wayfarer.motion-<version>.tgz, which carries every platform's plugin (see docs/install.md "
            + "in the repository), then restart the Editor.";

        static bool _reported;

        /// <summary>True when <paramref name="e"/> means the plugin (or the entry point) is missing.</summary>
        internal static bool Is(Exception e)
        {
            return e is DllNotFoundException || e is EntryPointNotFoundException;
        }

        /// <summary>Logs the missing-plugin warning once per domain reload.</summary>
        internal static void Report(Exception e, UnityEngine.Object context)
        {
            if (_reported)
            {
                return;
            }
            _reported = true;
            string what = e is EntryPointNotFoundException
                ? "Wayfarer: the native plugin is older than the package's C# (" + e.Message + "). "
                : "Wayfarer: the native plugin (wayfarer) is not installed for this platform. ";
            Debug.LogWarning(what + Fix, context);
        }

        /// <summary>Whether the warning was logged (tests).</summary>
        internal static bool Reported
        {
            get { return _reported; }
        }
    }
}
