using System;
using System.Runtime.InteropServices;

namespace Wayfarer
{
    /// <summary>
    /// Owns one native handle (<c>WfPath*</c>, <c>WfScheduleSet*</c>, <c>WfCrowd*</c>) and frees
    /// it exactly once: on Dispose, or from the finalizer if the owner was never disposed.
    /// </summary>
    internal sealed class NativeHandle : SafeHandle
    {
        readonly Action<IntPtr> free;
        readonly string kind;

        internal NativeHandle(IntPtr raw, Action<IntPtr> free, string kind)
            : base(IntPtr.Zero, true)
        {
            this.free = free;
            this.kind = kind;
            SetHandle(raw);
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        /// <summary>The raw pointer for a native call; throws once disposed.</summary>
        internal IntPtr Ptr
        {
            get
            {
                if (IsClosed)
                {
                    throw new ObjectDisposedException(kind);
                }
                return handle;
            }
        }

        protected override bool ReleaseHandle()
        {
            free(handle);
            return true;
        }
    }
}
