using System;
using System.Runtime.InteropServices;

namespace Unity.Collections
{
    /// <summary>Stand-in for Unity.Collections.Allocator.</summary>
    public enum Allocator { Invalid = 0, None = 1, Temp = 2, TempJob = 3, Persistent = 4 }

    /// <summary>Stand-in for Unity.Collections.NativeArray&lt;T&gt;: unmanaged memory, used to compile-check the NativeArray overloads.</summary>
    public unsafe struct NativeArray<T> : IDisposable where T : struct
    {
        internal void* m_Buffer;
        internal int m_Length;

        // Enums (e.g. AgentState) are stored as their underlying integer, as Unity's blittable NativeArray does.
        static readonly Type Stored = typeof(T).IsEnum ? Enum.GetUnderlyingType(typeof(T)) : typeof(T);
        static readonly int Size = Marshal.SizeOf(Stored);

        public NativeArray(int length, Allocator allocator)
        {
            m_Length = length;
            int size = Size * Math.Max(length, 1);
            m_Buffer = (void*)Marshal.AllocHGlobal(size);
            byte* b = (byte*)m_Buffer;
            for (int i = 0; i < size; i++) b[i] = 0;
        }

        public int Length { get { return m_Length; } }
        public bool IsCreated { get { return m_Buffer != null; } }

        public T this[int index]
        {
            get
            {
                if ((uint)index >= (uint)m_Length) throw new IndexOutOfRangeException();
                object v = Marshal.PtrToStructure((IntPtr)((byte*)m_Buffer + index * Size), Stored);
                return typeof(T).IsEnum ? (T)Enum.ToObject(typeof(T), v) : (T)v;
            }
            set
            {
                if ((uint)index >= (uint)m_Length) throw new IndexOutOfRangeException();
                object v = typeof(T).IsEnum ? Convert.ChangeType(value, Stored) : value;
                Marshal.StructureToPtr(v, (IntPtr)((byte*)m_Buffer + index * Size), false);
            }
        }

        public void Dispose()
        {
            if (m_Buffer != null) Marshal.FreeHGlobal((IntPtr)m_Buffer);
            m_Buffer = null;
            m_Length = 0;
        }
    }
}

namespace Unity.Collections.LowLevel.Unsafe
{
    /// <summary>Stand-in for NativeArrayUnsafeUtility's pointer accessors.</summary>
    public static unsafe class NativeArrayUnsafeUtility
    {
        public static void* GetUnsafePtr<T>(this NativeArray<T> array) where T : struct { return array.m_Buffer; }
        public static void* GetUnsafeReadOnlyPtr<T>(this NativeArray<T> array) where T : struct { return array.m_Buffer; }
    }
}
