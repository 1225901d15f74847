using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Wayfarer.Native;

namespace Wayfarer
{
    /// <summary>Library-wide helpers: version, status text, and the status check every wrapper uses.</summary>
    public static class Wf
    {
        /// <summary>The native library's version (<c>wf_version</c>), e.g. "0.1.0".</summary>
        public static unsafe string Version
        {
            get { return Marshal.PtrToStringAnsi((IntPtr)NativeMethods.wf_version()); }
        }

        /// <summary>The library's English description of a status (<c>wf_status_str</c>).</summary>
        public static unsafe string StatusText(WfStatus status)
        {
            return Marshal.PtrToStringAnsi((IntPtr)NativeMethods.wf_status_str((int)status));
        }

        /// <summary>Throws a <see cref="WayfarerException"/> unless <paramref name="status"/> is Ok.
        /// Allocates nothing on success.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void Check(WfStatus status, string function)
        {
            if (status != WfStatus.Ok)
            {
                throw new WayfarerException(status, function);
            }
        }

        /// <summary>An element count as <c>size_t</c>.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static UIntPtr Size(int count)
        {
            return (UIntPtr)(uint)count;
        }

        /// <summary>Length of an optional array (0 when null).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static int Len(Array array)
        {
            return array == null ? 0 : array.Length;
        }

        /// <summary>Checks that <paramref name="count"/> elements fit in <paramref name="array"/>
        /// (a C# precondition: the native side trusts counts, so they must never exceed the array).</summary>
        internal static void Fits(Array array, int count, string name)
        {
            if (count < 0 || count > Len(array))
            {
                throw new ArgumentOutOfRangeException(name, "count " + count + " exceeds the array length " + Len(array));
            }
        }
    }
}
