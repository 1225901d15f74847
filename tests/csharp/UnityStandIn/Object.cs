using System;
using System.Collections.Generic;

namespace UnityEngine
{
    /// <summary>Stand-in for UnityEngine.Object: a name and Unity's "destroyed objects are false" test.</summary>
    public class Object
    {
        internal bool destroyed;

        public string name { get; set; }

        public static implicit operator bool(Object o) { return !ReferenceEquals(o, null) && !o.destroyed; }

        public static void Destroy(Object o)
        {
            if (!ReferenceEquals(o, null)) o.destroyed = true;
        }

        /// <summary>Only GameObjects can be cloned by the stand-in (a fresh object with the same name).</summary>
        public static T Instantiate<T>(T original) where T : Object
        {
            var go = original as GameObject;
            if (go == null) throw new NotSupportedException("the stand-in clones GameObjects only");
            var copy = new GameObject(go.name + "(Clone)");
            copy.transform.position = go.transform.position;
            copy.transform.rotation = go.transform.rotation;
            return (T)(Object)copy;
        }

        public override string ToString() { return name ?? GetType().Name; }
    }

    /// <summary>Stand-in for UnityEngine.GameObject: a Transform plus a list of components.</summary>
    public sealed class GameObject : Object
    {
        readonly List<Component> components = new List<Component>();

        public GameObject() : this("GameObject") { }

        public GameObject(string name)
        {
            this.name = name;
            activeSelf = true;
            transform = AddComponent<Transform>();
        }

        public Transform transform { get; private set; }

        /// <summary>A primitive with Unity's collider for its shape (no mesh in the stand-in).</summary>
        public static GameObject CreatePrimitive(PrimitiveType type)
        {
            var go = new GameObject(type.ToString());
            switch (type)
            {
                case PrimitiveType.Sphere: go.AddComponent<SphereCollider>(); break;
                case PrimitiveType.Capsule: go.AddComponent<CapsuleCollider>(); break;
                case PrimitiveType.Cylinder: go.AddComponent<CapsuleCollider>(); break;
                default: go.AddComponent<BoxCollider>(); break;
            }
            return go;
        }
        public bool activeSelf { get; private set; }
        public bool activeInHierarchy { get { return activeSelf && !destroyed; } }
        public void SetActive(bool value) { activeSelf = value; }

        public T AddComponent<T>() where T : Component
        {
            var c = (T)Activator.CreateInstance(typeof(T), true);
            c.gameObject = this;
            c.name = name;
            components.Add(c);
            return c;
        }

        public T GetComponent<T>() where T : class
        {
            foreach (var c in components)
            {
                var t = c as T;
                if (t != null) return t;
            }
            return null;
        }
    }

    /// <summary>Stand-in for UnityEngine.Component.</summary>
    public class Component : Object
    {
        public GameObject gameObject { get; internal set; }
        public Transform transform { get { return gameObject.transform; } }
        public T GetComponent<T>() where T : class { return gameObject.GetComponent<T>(); }
        public string tag { get; set; }
    }

    /// <summary>Stand-in for UnityEngine.Behaviour.</summary>
    public class Behaviour : Component
    {
        bool enabledValue = true;
        public bool enabled { get { return enabledValue; } set { enabledValue = value; } }
        public bool isActiveAndEnabled { get { return enabledValue && gameObject.activeInHierarchy; } }
    }

    /// <summary>Stand-in for UnityEngine.MonoBehaviour (messages are called by the tests).</summary>
    public class MonoBehaviour : Behaviour
    {
    }

    /// <summary>Stand-in for UnityEngine.Transform without a hierarchy (world = local).</summary>
    public class Transform : Component
    {
        public Vector3 position { get; set; }
        public Quaternion rotation { get; set; } = Quaternion.identity;
        public Vector3 localScale { get; set; } = Vector3.one;
        public Vector3 lossyScale { get { return localScale; } }
        public Vector3 localPosition { get { return position; } set { position = value; } }
        public Quaternion localRotation { get { return rotation; } set { rotation = value; } }

        public Vector3 forward
        {
            get { return rotation * Vector3.forward; }
            set { rotation = Quaternion.LookRotation(value); }
        }

        public Vector3 right { get { return rotation * Vector3.right; } }
        public Vector3 up { get { return rotation * Vector3.up; } }

        public Vector3 eulerAngles
        {
            get { return rotation.eulerAngles; }
            set { rotation = Quaternion.Euler(value); }
        }

        public void SetPositionAndRotation(Vector3 p, Quaternion r) { position = p; rotation = r; }

        public Vector3 TransformPoint(Vector3 p) { return position + rotation * Vector3.Scale(localScale, p); }
        public Vector3 TransformDirection(Vector3 d) { return rotation * d; }
    }
}
