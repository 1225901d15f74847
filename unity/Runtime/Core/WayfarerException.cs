using System;
using Wayfarer.Native;

namespace Wayfarer
{
    /// <summary>
    /// A <c>wf_*</c> call returned something other than <see cref="WfStatus.Ok"/>. Nothing was
    /// written to the output buffers of that call. The message holds the native status text (which
    /// names the argument and its range for the range statuses) and, when the wrapper can tell,
    /// the offending argument's name, value and allowed range.
    /// </summary>
    public sealed class WayfarerException : Exception
    {
        /// <summary>The status the native call returned.</summary>
        public WfStatus Status { get; private set; }

        /// <summary>The native function that failed (e.g. <c>wf_path_at_distances</c>).</summary>
        public string Function { get; private set; }

        /// <summary>Which argument was wrong, its value and the allowed range, when the wrapper
        /// could tell (e.g. <c>distances[3] = 10.0001 is outside [0, 10]</c>); otherwise null.</summary>
        public string Detail { get; private set; }

        /// <summary>Wraps <paramref name="status"/> returned by <paramref name="function"/>.</summary>
        public WayfarerException(WfStatus status, string function)
            : this(status, function, null)
        {
        }

        /// <summary>Wraps <paramref name="status"/> returned by <paramref name="function"/>, with a
        /// <paramref name="detail"/> naming the argument and its allowed range (may be null).</summary>
        public WayfarerException(WfStatus status, string function, string detail)
            : base(function + " failed: " + Wf.StatusText(status) + " (" + status + ")"
                + (detail == null ? "" : ": " + detail))
        {
            Status = status;
            Function = function;
            Detail = detail;
        }
    }
}
