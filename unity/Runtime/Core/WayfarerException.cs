using System;
using Wayfarer.Native;

namespace Wayfarer
{
    /// <summary>
    /// A <c>wf_*</c> call returned something other than <see cref="WfStatus.Ok"/>. Nothing was
    /// written to the output buffers of that call.
    /// </summary>
    public sealed class WayfarerException : Exception
    {
        /// <summary>The status the native call returned.</summary>
        public WfStatus Status { get; private set; }

        /// <summary>The native function that failed (e.g. <c>wf_path_sample</c>).</summary>
        public string Function { get; private set; }

        /// <summary>Wraps <paramref name="status"/> returned by <paramref name="function"/>.</summary>
        public WayfarerException(WfStatus status, string function)
            : base(function + " failed: " + Wf.StatusText(status) + " (" + status + ")")
        {
            Status = status;
            Function = function;
        }
    }
}
