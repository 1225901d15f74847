namespace Wayfarer.Curves
{
    /// <summary>How <c>*_sample</c> functions spread their samples (WF_SPACING_*).</summary>
    public enum Spacing : uint
    {
        /// <summary>Evenly in the curve parameter (the seeds' <c>t = i / n</c>): points bunch where the curve is slow.</summary>
        Parameter = 0,
        /// <summary>Evenly in arc length: consecutive samples are the same distance apart along the curve (constant speed).</summary>
        ArcLength = 1,
    }
}
