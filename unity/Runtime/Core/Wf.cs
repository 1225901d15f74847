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

        /// <summary>An element count as <c>size_t</c>, unchecked: a negative count becomes a huge
        /// <c>size_t</c>, which the native side refuses with a status.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static UIntPtr Size(int count)
        {
            return (UIntPtr)(uint)count;
        }

        /// <summary>A caller's element count or capacity as <c>size_t</c>. Counts are <c>int</c> in C#,
        /// as in Unity's own APIs; a negative one throws <see cref="ArgumentOutOfRangeException"/> naming
        /// the argument and the range.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static UIntPtr Count(int count, string name)
        {
            if (count < 0)
            {
                throw OutOfRange(count, name);
            }
            return (UIntPtr)(uint)count;
        }

        static ArgumentOutOfRangeException OutOfRange(int value, string name)
        {
            return new ArgumentOutOfRangeException(name, value, name + " must be in [0, " + int.MaxValue + "]");
        }

        /// <summary>A native index or count (<c>uint32_t</c> / <c>size_t</c>) as <c>int</c>; values past
        /// <c>int.MaxValue</c> cannot occur for anything that fits in memory and are reported.</summary>
        internal static int Int(ulong value, string name)
        {
            if (value > int.MaxValue)
            {
                throw new OverflowException(name + " = " + value + " does not fit in an int");
            }
            return (int)value;
        }

        /// <summary>An <c>int</c> index as the native <c>uint32_t</c>, checked (≥ 0).</summary>
        internal static uint Index(int index, string name)
        {
            if (index < 0)
            {
                throw OutOfRange(index, name);
            }
            return (uint)index;
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
