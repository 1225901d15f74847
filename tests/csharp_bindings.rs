//! Generates the raw C# layer `unity/Runtime/Native/NativeMethods.g.cs` from
//! `include/wayfarer.h`, in csbindgen's shape: one `NativeMethods` class of `DllImport`s with
//! explicit entry points, `Cdecl`, blittable parameters only (raw pointers, `UIntPtr` for
//! `size_t`, `IntPtr` for opaque handles), the header's enums as C# enums and its integer
//! `#define`s as constants.
//!
//! The checked-in file must equal what this generates; regenerate it with
//! `WF_BLESS=1 cargo test --test csharp_bindings`. To try a draft header without touching the
//! repository, set `WF_BINDINGS_HEADER=<header>` and `WF_BINDINGS_OUT=<file.cs>`: the test then
//! only writes `<file.cs>`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One `enum` block of the header.
#[derive(Debug, PartialEq)]
struct CEnum {
    name: String,
    underlying: String,
    doc: Vec<String>,
    variants: Vec<(String, String, Vec<String>)>,
}

/// One function prototype.
#[derive(Debug, PartialEq)]
struct CFunction {
    name: String,
    ret: CType,
    args: Vec<(CType, String)>,
    doc: Vec<String>,
}

/// A C type reduced to what matters for the ABI: the base name and the pointer depth.
#[derive(Debug, PartialEq, Clone)]
struct CType {
    base: String,
    pointers: usize,
}

/// An integer or float `#define`.
#[derive(Debug, PartialEq)]
struct CConst {
    name: String,
    value: String,
    doc: Vec<String>,
}

#[derive(Debug, Default)]
struct Header {
    enums: Vec<CEnum>,
    functions: Vec<CFunction>,
    consts: Vec<CConst>,
    opaque: Vec<String>,
}

/// Parses a `const float *`, `WfPath **`, `size_t`, `const char *`... into base + depth.
fn parse_type(text: &str) -> CType {
    let pointers = text.matches('*').count();
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '*')
        .filter(|w| !w.is_empty() && *w != "const" && *w != "struct" && *w != "enum")
        .collect();
    assert!(
        !words.is_empty(),
        "cannot read the type `{text}` in include/wayfarer.h"
    );
    CType {
        base: words.join(" "),
        pointers,
    }
}

/// Splits `const float *points` into (type, name).
fn parse_arg(text: &str) -> (CType, String) {
    let text = text.trim();
    let split = text
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or_else(|| panic!("argument `{text}` has no type"));
    let (ty, name) = text.split_at(split + 1);
    (parse_type(ty), name.to_string())
}

/// Removes `/* */` comments (keeping their line breaks); `//` lines are read as documentation
/// by the caller.
fn strip_block_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("*/").expect("unterminated comment") + start + 2;
        // Keep line structure so doc comments stay attached to the right statement.
        out.extend(rest[start..end].chars().filter(|&c| c == '\n'));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn parse_header(src: &str) -> Header {
    let src = strip_block_comments(src);
    let mut header = Header::default();
    let mut doc: Vec<String> = Vec::new();
    let mut statement = String::new();
    let mut statement_doc: Vec<String> = Vec::new();
    for line in src.lines() {
        let t = line.trim();
        if let Some(comment) = t.strip_prefix("//") {
            // cbindgen closes `extern "C"` and `#if` blocks with trailing `// ...` notes on
            // preprocessor lines only; a line that *starts* with `//` is documentation.
            doc.push(comment.strip_prefix(' ').unwrap_or(comment).to_string());
            continue;
        }
        if let Some(define) = t.strip_prefix("#define") {
            let mut parts = define.split_whitespace();
            let name = parts.next().expect("#define without a name").to_string();
            let value: String = parts.collect::<Vec<_>>().join(" ");
            if !value.is_empty() {
                header.consts.push(CConst {
                    name,
                    value,
                    doc: std::mem::take(&mut doc),
                });
            }
            doc.clear();
            continue;
        }
        if t.starts_with('#') || t.is_empty() {
            if t.is_empty() && statement.is_empty() {
                doc.clear();
            }
            continue;
        }
        if t.starts_with("extern \"C\"") || t.starts_with('}') && t.contains("extern \"C\"") {
            doc.clear();
            continue;
        }
        if statement.is_empty() {
            statement_doc = std::mem::take(&mut doc);
        } else if !doc.is_empty() {
            // Comments inside an enum body document the variant that follows.
            statement.push('\u{1}');
            // (commas inside the comment would split the variant list: escaped as \u{3})
            statement.push_str(&doc.join("\u{2}").replace(',', "\u{3}"));
            statement.push('\u{1}');
            doc.clear();
        }
        statement.push_str(t);
        statement.push(' ');
        let complete = if is_enum_block(statement.trim_start()) {
            t.ends_with("};")
        } else {
            t.ends_with(';')
        };
        if !complete {
            // Keep reading a multi-line prototype or enum.
            continue;
        }
        let s = std::mem::take(&mut statement);
        let s = s.trim();
        if is_enum_block(s) {
            header
                .enums
                .push(parse_enum(s, std::mem::take(&mut statement_doc)));
        } else if let Some(rest) = s.strip_prefix("typedef struct") {
            let name = rest
                .split_whitespace()
                .last()
                .unwrap()
                .trim_end_matches(';');
            header.opaque.push(name.to_string());
        } else if s.starts_with("typedef") {
            // `typedef int32_t WfStatus;` / `typedef enum WfStatus WfStatus;`: C-only aliases.
        } else if s.contains('(') {
            header
                .functions
                .push(parse_function(s, std::mem::take(&mut statement_doc)));
        } else {
            panic!("unrecognised statement in include/wayfarer.h: {s}");
        }
    }
    header
}

/// `enum Name ... { ... };` (a definition), as opposed to a function returning `enum Name`.
fn is_enum_block(s: &str) -> bool {
    s.starts_with("enum")
        && match (s.find('('), s.find('{')) {
            (Some(paren), Some(brace)) => brace < paren,
            (Some(_), None) => false,
            _ => true,
        }
}

fn parse_enum(s: &str, doc: Vec<String>) -> CEnum {
    let open = s.find('{').expect("enum without body");
    let close = s.rfind('}').expect("enum without end");
    let head = s["enum".len()..open].trim();
    let (name, underlying) = match head.split_once(':') {
        Some((n, u)) => (n.trim().to_string(), u.trim().to_string()),
        None => (head.to_string(), "int32_t".to_string()),
    };
    let mut variants = Vec::new();
    for item in s[open + 1..close].split(',') {
        let mut item = item.trim();
        let mut vdoc = Vec::new();
        while let Some(rest) = item.strip_prefix('\u{1}') {
            let end = rest.find('\u{1}').expect("doc marker");
            vdoc.extend(rest[..end].split('\u{2}').map(|l| l.replace('\u{3}', ",")));
            item = rest[end + 1..].trim();
        }
        if item.is_empty() {
            continue;
        }
        let (vname, value) = item
            .split_once('=')
            .unwrap_or_else(|| panic!("enum {name}: variant `{item}` has no explicit value"));
        variants.push((vname.trim().to_string(), value.trim().to_string(), vdoc));
    }
    CEnum {
        name,
        underlying,
        doc,
        variants,
    }
}

fn parse_function(s: &str, doc: Vec<String>) -> CFunction {
    let open = s.find('(').unwrap();
    let close = s.rfind(')').unwrap();
    let (ret, name) = parse_arg(&s[..open]);
    let inner = s[open + 1..close].trim();
    let args = if inner.is_empty() || inner == "void" {
        Vec::new()
    } else {
        inner.split(',').map(parse_arg).collect()
    };
    CFunction {
        name,
        ret,
        args,
        doc,
    }
}

/// `WF_STATUS_NULL_POINTER` in `WfStatus` -> `NullPointer`.
fn variant_name(enum_name: &str, c_name: &str) -> String {
    let mut prefix = String::new();
    for (i, ch) in enum_name.chars().enumerate() {
        if ch.is_uppercase() && i > 0 {
            prefix.push('_');
        }
        prefix.push(ch.to_ascii_uppercase());
    }
    prefix.push('_');
    let short = c_name.strip_prefix(&prefix).unwrap_or(c_name);
    short
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase(),
                None => String::new(),
            }
        })
        .collect()
}

fn underlying_cs(c: &str) -> &'static str {
    match c {
        "int32_t" | "int" => "int",
        "uint32_t" | "unsigned int" => "uint",
        "uint8_t" => "byte",
        "int8_t" => "sbyte",
        "uint16_t" => "ushort",
        "int16_t" => "short",
        "int64_t" => "long",
        "uint64_t" => "ulong",
        other => panic!("enum underlying type `{other}` has no C# equivalent"),
    }
}

/// The C# spelling of a C type, blittable only.
fn cs_type(ty: &CType, header: &Header) -> String {
    if header.opaque.contains(&ty.base) {
        assert!(ty.pointers >= 1, "opaque `{}` passed by value", ty.base);
        return format!("IntPtr{}", "*".repeat(ty.pointers - 1));
    }
    let base = match ty.base.as_str() {
        "void" => "void",
        "float" => "float",
        "double" => "double",
        "int" | "int32_t" => "int",
        "unsigned int" | "uint32_t" => "uint",
        "int8_t" => "sbyte",
        "uint8_t" | "char" | "bool" => "byte",
        "int16_t" => "short",
        "uint16_t" => "ushort",
        "int64_t" => "long",
        "uint64_t" => "ulong",
        "size_t" | "uintptr_t" => "UIntPtr",
        "intptr_t" | "ptrdiff_t" => "IntPtr",
        other if header.enums.iter().any(|e| e.name == other) => other,
        other => panic!("C type `{other}` has no blittable C# mapping; extend cs_type"),
    };
    format!("{base}{}", "*".repeat(ty.pointers))
}

const CS_KEYWORDS: &[&str] = &[
    "abstract",
    "as",
    "base",
    "bool",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "checked",
    "class",
    "const",
    "continue",
    "decimal",
    "default",
    "delegate",
    "do",
    "double",
    "else",
    "enum",
    "event",
    "explicit",
    "extern",
    "false",
    "finally",
    "fixed",
    "float",
    "for",
    "foreach",
    "goto",
    "if",
    "implicit",
    "in",
    "int",
    "interface",
    "internal",
    "is",
    "lock",
    "long",
    "namespace",
    "new",
    "null",
    "object",
    "operator",
    "out",
    "override",
    "params",
    "private",
    "protected",
    "public",
    "readonly",
    "ref",
    "return",
    "sbyte",
    "sealed",
    "short",
    "sizeof",
    "stackalloc",
    "static",
    "string",
    "struct",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "uint",
    "ulong",
    "unchecked",
    "unsafe",
    "ushort",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
];

fn cs_ident(name: &str) -> String {
    if CS_KEYWORDS.contains(&name) {
        format!("@{name}")
    } else {
        name.to_string()
    }
}

/// `0`, `-1`, `0x10`, `1.5` -> a typed C# constant, or None for non-numeric defines.
fn cs_const(value: &str) -> Option<(&'static str, String)> {
    let v = value
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    if let Some(hex) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        let hex = hex.trim_end_matches(['u', 'U']);
        return u32::from_str_radix(hex, 16)
            .ok()
            .map(|n| ("uint", n.to_string()));
    }
    let digits = v.trim_end_matches(['u', 'U']);
    if let Ok(n) = digits.parse::<u32>() {
        return Some(("uint", n.to_string()));
    }
    if let Ok(n) = digits.parse::<i32>() {
        return Some(("int", n.to_string()));
    }
    let f = v.trim_end_matches(['f', 'F']);
    if f.parse::<f32>().is_ok() && (f.contains('.') || f.contains('e')) {
        return Some(("float", format!("{f}f")));
    }
    None
}

fn write_doc(out: &mut String, indent: &str, doc: &[String]) {
    for line in doc {
        if line.is_empty() {
            writeln!(out, "{indent}//").unwrap();
        } else {
            writeln!(out, "{indent}// {line}").unwrap();
        }
    }
}

fn render(header: &Header) -> String {
    let mut out = String::new();
    out.push_str(
        "// <auto-generated>\n\
         // Generated from include/wayfarer.h by tests/csharp_bindings.rs -- do not edit.\n\
         // Regenerate with: WF_BLESS=1 cargo test --test csharp_bindings\n\
         // </auto-generated>\n\
         #pragma warning disable 1591\n\n\
         using System;\n\
         using System.Runtime.InteropServices;\n\n\
         namespace Wayfarer.Native\n{\n",
    );
    out.push_str(
        "    /// <summary>Raw P/Invoke declarations of every <c>wf_*</c> export (blittable \
         arguments only). Prefer the safe wrappers in the Wayfarer namespaces.</summary>\n",
    );
    out.push_str("    public static unsafe partial class NativeMethods\n    {\n");
    out.push_str(
        "#if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR\n        \
         /// <summary>Statically linked into the player (iOS / WebGL).</summary>\n        \
         public const string __DllName = \"__Internal\";\n#else\n        \
         /// <summary>libwayfarer.so / wayfarer.dll / libwayfarer.dylib.</summary>\n        \
         public const string __DllName = \"wayfarer\";\n#endif\n",
    );
    for c in &header.consts {
        if let Some((ty, v)) = cs_const(&c.value) {
            if !c.doc.is_empty() {
                out.push('\n');
            }
            write_doc(&mut out, "        ", &c.doc);
            writeln!(out, "        public const {ty} {} = {v};", c.name).unwrap();
        }
    }
    for f in &header.functions {
        out.push('\n');
        write_doc(&mut out, "        ", &f.doc);
        writeln!(
            out,
            "        [DllImport(__DllName, EntryPoint = \"{}\", CallingConvention = \
             CallingConvention.Cdecl, ExactSpelling = true)]",
            f.name
        )
        .unwrap();
        let ret = if f.ret.base == "char" && f.ret.pointers == 1 {
            "byte*".to_string()
        } else {
            cs_type(&f.ret, header)
        };
        let args: Vec<String> = f
            .args
            .iter()
            .map(|(t, n)| format!("{} {}", cs_type(t, header), cs_ident(n)))
            .collect();
        writeln!(
            out,
            "        public static extern {ret} {}({});",
            f.name,
            args.join(", ")
        )
        .unwrap();
    }
    out.push_str("    }\n");
    for e in &header.enums {
        out.push('\n');
        write_doc(&mut out, "    ", &e.doc);
        writeln!(
            out,
            "    public enum {} : {}\n    {{",
            e.name,
            underlying_cs(&e.underlying)
        )
        .unwrap();
        for (name, value, doc) in &e.variants {
            write_doc(&mut out, "        ", doc);
            writeln!(out, "        {} = {},", variant_name(&e.name, name), value).unwrap();
        }
        out.push_str("    }\n");
    }
    out.push_str("}\n");
    out
}

fn generate(header_path: &Path) -> String {
    let src = std::fs::read_to_string(header_path)
        .unwrap_or_else(|e| panic!("{}: {e}", header_path.display()));
    render(&parse_header(&src))
}

#[test]
fn csharp_bindings_match_header() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let (Some(h), Some(o)) = (
        std::env::var_os("WF_BINDINGS_HEADER"),
        std::env::var_os("WF_BINDINGS_OUT"),
    ) {
        std::fs::write(PathBuf::from(o), generate(Path::new(&h))).unwrap();
        return;
    }
    let generated = generate(&root.join("include/wayfarer.h"));
    let path = root.join("unity/Runtime/Native/NativeMethods.g.cs");
    if std::env::var_os("WF_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current != generated {
        let line = current
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(current.lines().count().min(generated.lines().count()));
        panic!(
            "unity/Runtime/Native/NativeMethods.g.cs is out of date (first difference near \
             line {}).\nRegenerate it with: WF_BLESS=1 cargo test --test csharp_bindings",
            line + 1
        );
    }
}

#[test]
fn every_header_function_is_bound_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(root.join("include/wayfarer.h")).unwrap();
    let header = parse_header(&src);
    // Independent count: every `wf_name(` that starts a declaration in the header.
    let declared: std::collections::BTreeSet<String> = strip_block_comments(&src)
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| {
            l.match_indices("wf_")
                .filter(|(i, _)| *i == 0 || !l.as_bytes()[i - 1].is_ascii_alphanumeric())
                .filter_map(|(i, _)| {
                    let rest = &l[i..];
                    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
                    rest[end..]
                        .starts_with('(')
                        .then(|| rest[..end].to_string())
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let parsed: Vec<&str> = header.functions.iter().map(|f| f.name.as_str()).collect();
    let unique: std::collections::BTreeSet<&str> = parsed.iter().copied().collect();
    assert_eq!(unique.len(), parsed.len(), "a function was parsed twice");
    assert_eq!(
        declared,
        unique.iter().map(|s| s.to_string()).collect(),
        "parser and header disagree"
    );
    let rendered = render(&header);
    for f in &header.functions {
        assert_eq!(
            rendered
                .matches(&format!("EntryPoint = \"{}\"", f.name))
                .count(),
            1,
            "{} bound once",
            f.name
        );
    }
}

#[test]
fn parser_handles_every_prototype_shape() {
    let src = r#"
typedef struct WfThing WfThing;
enum WfKind
#if defined(__cplusplus)
  : uint32_t
#endif
 {
  // First.
  WF_KIND_FIRST_ONE = 0,
  WF_KIND_SECOND = 7,
};
// Spacing.
#define WF_X_ONE 1
#define WF_X_HEX 0x10
#define WF_GUARD_H
#ifdef __cplusplus
extern "C" {
#endif  // __cplusplus
// Doc line.
WfStatus wf_a(const float *points,
              size_t point_count,
              WfThing **out_thing);
void wf_free(WfThing *thing);
const char *wf_str(int status);
WfStatus wf_b(double t, uint32_t wrap, int32_t *out_dirs, size_t *out_count, const uint32_t *ids);
WfStatus wf_c(void);
enum WfKind wf_d(const WfThing *thing);
WfStatus wf_e(const struct WfThing *set,
              const double *times,
              uint32_t *hints);
#ifdef __cplusplus
}  // extern "C"
#endif
"#;
    let mut header = parse_header(src);
    header.enums.push(CEnum {
        name: "WfStatus".into(),
        underlying: "int32_t".into(),
        doc: vec![],
        variants: vec![],
    });
    let names: Vec<&str> = header.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["wf_a", "wf_free", "wf_str", "wf_b", "wf_c", "wf_d", "wf_e"]
    );
    assert_eq!(header.opaque, ["WfThing"]);
    assert_eq!(header.enums[0].underlying, "uint32_t");
    assert_eq!(header.enums[0].variants[1].1, "7");
    assert_eq!(header.enums[0].variants[0].2, ["First."]);
    assert_eq!(
        header.consts.len(),
        2,
        "the include guard is not a constant"
    );
    let cs = render(&header);
    for expected in [
        "public static extern WfStatus wf_a(float* points, UIntPtr point_count, IntPtr* out_thing);",
        "public static extern void wf_free(IntPtr thing);",
        "public static extern byte* wf_str(int status);",
        "public static extern WfStatus wf_b(double t, uint wrap, int* out_dirs, UIntPtr* out_count, uint* ids);",
        "public static extern WfStatus wf_c();",
        "public static extern WfKind wf_d(IntPtr thing);",
        "public static extern WfStatus wf_e(IntPtr set, double* times, uint* hints);",
        "public enum WfKind : uint",
        "FirstOne = 0,",
        "public const uint WF_X_ONE = 1;",
        "public const uint WF_X_HEX = 16;",
        "// Doc line.",
    ] {
        assert!(cs.contains(expected), "missing `{expected}` in:\n{cs}");
    }
    assert_eq!(
        variant_name("WfStatus", "WF_STATUS_NULL_POINTER"),
        "NullPointer"
    );
    assert_eq!(cs_ident("params"), "@params");
    assert_eq!(cs_const("1.5f"), Some(("float", "1.5f".into())));
    assert_eq!(cs_const("-2"), Some(("int", "-2".into())));
}
