namespace Wayfarer.Components
{
    /// <summary>What a follower does when it reaches the end of its path.</summary>
    public enum PathEnd
    {
        /// <summary>Stop at the last point.</summary>
        Stop = 0,
        /// <summary>Jump back to the start and go round again (the path is closed through the first point).</summary>
        Loop = 1,
        /// <summary>Turn round and walk back, forever.</summary>
        PingPong = 2,
    }
}
