using System.Runtime.CompilerServices;

[assembly: InternalsVisibleTo("Wayfarer.Tests")]
[assembly: InternalsVisibleTo("Wayfarer.Bench")]
