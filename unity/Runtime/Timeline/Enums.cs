using System;

namespace Wayfarer.Timeline
{
    /// <summary>What an NPC does outside its first..last key time (WF_WRAP_*).</summary>
    public enum Wrap : uint
    {
        /// <summary>Wait at the first key before, at the last key after.</summary>
        Clamp = 0,
        /// <summary>Repeat the schedule (period = last − first key time).</summary>
        Loop = 1,
        /// <summary>Run it forwards, then backwards, and so on.</summary>
        PingPong = 2,
    }

    /// <summary>Easing of one leg between two keys (flags; WF_EASE_*).</summary>
    [Flags]
    public enum Ease : uint
    {
        /// <summary>Constant speed for the whole leg.</summary>
        None = 0,
        /// <summary>Start the leg at rest.</summary>
        In = 1,
        /// <summary>End the leg at rest.</summary>
        Out = 2,
        /// <summary>Start and end at rest.</summary>
        InOut = 3,
    }

    /// <summary>Where an NPC is in its schedule at the evaluated time (WF_NPC_*).</summary>
    public enum NpcState : uint
    {
        /// <summary>Before the first key time (waiting at the start).</summary>
        Before = 0,
        /// <summary>Walking a leg.</summary>
        Moving = 1,
        /// <summary>Holding still between two keys at the same distance.</summary>
        Holding = 2,
        /// <summary>After the last key time (arrived).</summary>
        After = 3,
    }
}
