namespace Wayfarer.Crowd
{
    /// <summary>An agent's state after a step (WF_AGENT_*).</summary>
    public enum AgentState : uint
    {
        /// <summary>Walking toward its target.</summary>
        Moving = 0,
        /// <summary>Within its arrival radius of the target (stopped); for a target inside an
        /// obstacle or too close to one to come that near, within it of the nearest point it can
        /// reach, or pressed against that obstacle and blocked; for one in a crack between
        /// obstacles too narrow for it, wedged as deep as it gets and blocked; or settled against
        /// others arrived at the same target. Arrived short of the target, it walks on when an
        /// obstacle within two radii of it is added, removed or moved and it can now get
        /// nearer.</summary>
        Arrived = 1,
        /// <summary>Could not make progress this step (boxed in).</summary>
        Blocked = 2,
        /// <summary>Its state became non-finite and was frozen (report it).</summary>
        Invalid = 3,
    }

    /// <summary>How an agent chooses where to head (WF_ROUTE_*).</summary>
    public enum RouteMode : uint
    {
        /// <summary>Straight at the target, steering around what the FOV cone sees (the seed); held in a pocket of obstacles for 2 s (4 s when another agent holds it there), it searches its way out (a detour).</summary>
        Direct = 0,
        /// <summary>Through the corners given with <see cref="CrowdSimulation.SetWaypoints"/>, then the target.</summary>
        Waypoints = 1,
        /// <summary>A route planned around the crowd's obstacles; wedged in a crack between obstacles (touching two) for 2 s, it searches its way out as <see cref="Direct"/> does, then plans again.</summary>
        Planned = 2,
    }

    /// <summary>Instruction-set levels of the crowd step's lane kernels (WF_SIMD_*): a cap for
    /// <see cref="CrowdSimulation.SetSimd"/> and the level <see cref="CrowdSimulation.Simd"/> reports.
    /// Every level gives exactly the same results.</summary>
    public enum Simd : uint
    {
        /// <summary>Baseline code only (SSE2 on x86-64; the only level on other CPUs).</summary>
        Portable = 0,
        /// <summary>Up to AVX2 (x86-64).</summary>
        Avx2 = 1,
        /// <summary>Up to AVX-512 (x86-64): the default, no cap.</summary>
        Avx512 = 2,
    }

    /// <summary>What an agent's avoidance ray hit in the last step (WF_HIT_*).</summary>
    public enum HitKind : uint
    {
        /// <summary>Nothing in the FOV cone.</summary>
        None = 0,
        /// <summary>An obstacle (circle, box, wall).</summary>
        Obstacle = 1,
        /// <summary>Another agent.</summary>
        Agent = 2,
    }

    /// <summary>What an agent does at the last goal of its queue (WF_ON_ARRIVAL_*).</summary>
    public enum OnArrival : uint
    {
        /// <summary>Stops there and settles.</summary>
        Stop = 0,
        /// <summary>Leaves the crowd: removed, its id freed, a <see cref="CrowdEventKind.Despawned"/> event
        /// reported.</summary>
        Despawn = 1,
        /// <summary>Starts its queue again from the first goal (a patrol).</summary>
        Loop = 2,
    }

    /// <summary>What happened to an agent during a step (WF_EVENT_*).</summary>
    public enum CrowdEventKind : uint
    {
        /// <summary>It reached a goal of its queue.</summary>
        GoalReached = 0,
        /// <summary>It reached its last goal and left the crowd; its id names nothing now.</summary>
        Despawned = 1,
    }

    /// <summary>One thing that happened to an agent during a step (<see cref="CrowdSimulation.ReadEvents"/>).</summary>
    public struct CrowdEvent
    {
        /// <summary>What happened.</summary>
        public readonly CrowdEventKind Kind;
        /// <summary>The agent's id.</summary>
        public readonly uint Agent;
        /// <summary>How many goals the agent had reached before this one since its queue was set.</summary>
        public readonly int Goal;
        /// <summary>Where the agent stood.</summary>
        public readonly UnityEngine.Vector3 Position;

        /// <summary>An event.</summary>
        public CrowdEvent(CrowdEventKind kind, uint agent, int goal, UnityEngine.Vector3 position)
        {
            Kind = kind;
            Agent = agent;
            Goal = goal;
            Position = position;
        }
    }
}
