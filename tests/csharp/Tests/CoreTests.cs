using System;
using System.Linq;
using System.Reflection;
using Wayfarer.Native;

namespace Wayfarer.Tests
{
    public static class CoreTests
    {
        [Test]
        public static void VersionIsTheCrateVersion()
        {
            string expected = Environment.GetEnvironmentVariable("WF_EXPECTED_VERSION");
            string v = Wf.Version;
            Assert.True(v.Split('.').Length == 3 && v.Split('.').All(p => p.Length > 0 && p.All(char.IsDigit)), "MAJOR.MINOR.PATCH: " + v);
            if (!string.IsNullOrEmpty(expected))
            {
                Assert.Equal(expected, v, "wf_version vs Cargo.toml");
            }
        }

        [Test]
        public static void EveryStatusHasADistinctDescription()
        {
            var values = (WfStatus[])Enum.GetValues(typeof(WfStatus));
            Assert.True(values.Length >= 9, "the header's statuses are all bound");
            var texts = values.Select(Wf.StatusText).ToList();
            Assert.True(texts.All(t => !string.IsNullOrEmpty(t)), "non-empty");
            Assert.Equal(texts.Count, texts.Distinct().Count(), "distinct");
            Assert.True(!string.IsNullOrEmpty(Wf.StatusText((WfStatus)12345)), "unknown codes still get text");
            Assert.Equal(0, (int)WfStatus.Ok, "Ok = 0");
            Assert.Equal(3, (int)WfStatus.NonFinite, "NonFinite = 3");
        }

        [Test]
        public static void ExceptionCarriesStatusFunctionAndText()
        {
            var e = new WayfarerException(WfStatus.BufferTooSmall, "wf_path_at_distances");
            Assert.Equal(WfStatus.BufferTooSmall, e.Status, "status");
            Assert.Equal("wf_path_at_distances", e.Function, "function");
            Assert.True(e.Message.Contains("wf_path_at_distances") && e.Message.Contains(Wf.StatusText(WfStatus.BufferTooSmall)), e.Message);
            Wf.Check(WfStatus.Ok, "nothing");
        }

        /// <summary>The safe enums' values equal the header's constants (whether the header spells
        /// them as #defines or as enums).</summary>
        [Test]
        public static void SafeEnumsMatchHeaderConstants()
        {
            Check(typeof(Curves.Spacing), "WF_SPACING_");
            Check(typeof(Timeline.Wrap), "WF_WRAP_");
            Check(typeof(Timeline.NpcState), "WF_NPC_");
            Check(typeof(Crowd.AgentState), "WF_AGENT_");
            Check(typeof(Crowd.RouteMode), "WF_ROUTE_");
            Check(typeof(Crowd.HitKind), "WF_HIT_");
        }

        static void Check(Type safe, string prefix)
        {
            var consts = typeof(NativeMethods).GetFields(BindingFlags.Public | BindingFlags.Static)
                .Where(f => f.IsLiteral && f.Name.StartsWith(prefix, StringComparison.Ordinal))
                .ToDictionary(f => f.Name.Substring(prefix.Length).Replace("_", ""), f => Convert.ToInt64(f.GetValue(null)));
            // Header enums (e.g. WfWrap) render with PascalCase variants.
            foreach (var e in typeof(NativeMethods).Assembly.GetTypes().Where(t => t.IsEnum && t.Namespace == "Wayfarer.Native"))
            {
                string upper = string.Concat(e.Name.Select((c, i) => i > 0 && char.IsUpper(c) ? "_" + c : c.ToString())).ToUpperInvariant() + "_";
                if (upper == prefix)
                {
                    foreach (var name in Enum.GetNames(e))
                    {
                        consts[name.ToUpperInvariant()] = Convert.ToInt64(Enum.Parse(e, name));
                    }
                }
            }
            if (consts.Count == 0)
            {
                Console.WriteLine("     (header has no " + prefix + "* constants; " + safe.Name + " uses API.md's values)");
                return;
            }
            foreach (var name in Enum.GetNames(safe))
            {
                long value = Convert.ToInt64(Enum.Parse(safe, name));
                long header;
                if (consts.TryGetValue(name.ToUpperInvariant(), out header))
                {
                    Assert.Equal(header, value, safe.Name + "." + name + " vs " + prefix);
                }
            }
        }
    }
}

namespace Wayfarer.Tests
{
    public static class EditorTests
    {
        [Test]
        public static void PluginCheckPassesWithTheBuiltLibraryAndPackageVersion()
        {
            Assert.Equal(null, Wayfarer.Editor.PluginCheck.Check(), "no warning");
            string expected = Environment.GetEnvironmentVariable("WF_EXPECTED_VERSION");
            if (!string.IsNullOrEmpty(expected))
            {
                Assert.Equal(expected, Wayfarer.Editor.PluginCheck.ExpectedVersion, "PluginCheck.ExpectedVersion follows Cargo.toml");
            }
        }
    }
}
