using System;

namespace UnityEditor
{
    /// <summary>Stand-in for UnityEditor.InitializeOnLoadAttribute.</summary>
    [AttributeUsage(AttributeTargets.Class)]
    public sealed class InitializeOnLoadAttribute : Attribute { }
}
