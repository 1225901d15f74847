using UnityEngine;
using Wayfarer.Components;

namespace Wayfarer.Samples
{
    /// <summary>
    /// Spawns agents on a circle, each walking to the opposite side, through a field of pillars:
    /// the classic antipodal crowd test. Needs a CrowdManager in the scene.
    /// </summary>
    public sealed class CrowdSpawner : MonoBehaviour
    {
        [SerializeField, Range(1, 2000)] int _agents = 200;
        [SerializeField, Min(1f)] float _radius = 25f;
        [SerializeField, Range(0, 64)] int _pillars = 12;
        [SerializeField] GameObject _agentPrefab = null;
        [SerializeField, Tooltip("How the agents find their way: Planned routes them round the pillars before they meet them.")]
        AgentRoute _route = AgentRoute.Direct;

        void Start()
        {
            for (int i = 0; i < _pillars; i++)
            {
                var pillar = GameObject.CreatePrimitive(PrimitiveType.Cylinder);
                float a = 2f * Mathf.PI * i / Mathf.Max(1, _pillars);
                pillar.transform.position = transform.position + new Vector3(Mathf.Sin(a), 0f, Mathf.Cos(a)) * (_radius * 0.4f);
                // Cylinders carry a CapsuleCollider: upright capsule = a circle obstacle.
                pillar.AddComponent<CrowdObstacle>();
            }
            for (int i = 0; i < _agents; i++)
            {
                float a = 2f * Mathf.PI * i / _agents;
                Vector3 offset = new Vector3(Mathf.Sin(a), 0f, Mathf.Cos(a)) * _radius;
                GameObject agent = _agentPrefab != null ? Instantiate(_agentPrefab) : GameObject.CreatePrimitive(PrimitiveType.Capsule);
                agent.name = "Agent " + i;
                agent.transform.position = transform.position + offset;
                agent.transform.rotation = Quaternion.LookRotation(-offset);
                var target = new GameObject("Target " + i).transform;
                target.position = transform.position - offset;
                var avoidance = agent.AddComponent<ObstacleAvoidance>();
                avoidance.Target = target;
                avoidance.Configure(3f, 270f, 1.5f, 4f, 120f, 0.5f, 0.5f);
                avoidance.Route = _route;
                // An Animator on the prefab gets the walking speed in its "Speed" float parameter.
                avoidance.Animator = agent.GetComponent<Animator>();
            }
        }
    }
}
