#!/usr/bin/env python3
"""Copies C# sources with their Unity inspector attributes ([SerializeField], [Tooltip], [Range],
[Min], [Header], [Space], [HideInInspector], [TextArea]) removed, line numbers kept.

Unity's C# compiler reports CS0649 ("field is never assigned to") for a serialized private field
that nothing in code assigns, but Mono's mcs stays silent on any field that carries an attribute.
Compiling the stripped copies with mcs shows the warnings Unity would show (tests/csharp/run.sh).

    strip-inspector-attributes.py OUT_DIR FILE.cs...   (writes OUT_DIR/<n>-<name>.cs, prints them)
    strip-inspector-attributes.py --check FILE.cs...   (CS0649 as Unity's compiler sees it)

mcs also counts `field.member = x` as assigning the field, which Roslyn does not, so --check
applies Roslyn's rule to every [SerializeField] field directly: a field with no initializer must be
assigned (`field =`, `ref field`, `out field`) somewhere in its file.
"""
import os
import re
import sys

INSPECTOR = {"SerializeField", "Tooltip", "Range", "Min", "Header", "Space", "HideInInspector", "TextArea"}


def section_end(text, start):
    """Index just past the ']' closing the attribute section opened at text[start] == '['."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            verbatim = i > 0 and text[i - 1] == "@"
            i += 1
            while i < len(text) and text[i] != '"' or (verbatim and text[i:i + 2] == '""'):
                i += 2 if (verbatim and text[i:i + 2] == '""') or (not verbatim and text[i] == "\\") else 1
        elif c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unclosed attribute section")


def strip(text):
    out, i = [], 0
    for m in re.finditer(r"(?m)^[ \t]*\[", text):
        start = m.end() - 1
        if start < i:
            continue
        name = re.match(r"\[\s*([A-Za-z_][A-Za-z0-9_]*)", text[start:])
        if not name or name.group(1) not in INSPECTOR:
            continue
        end = section_end(text, start)
        out.append(text[i:start])
        out.append("\n" * text[start:end].count("\n"))
        i = end
    out.append(text[i:])
    return "".join(out)


DECLARATION = re.compile(r"(?:(?:private|internal|protected|readonly)\s+)*([\w.<>\[\], ]+?)\s+(\w+)\s*(=|;)")


def serialized_fields(text):
    """(name, has initializer, offset) of every field marked [SerializeField]."""
    for m in re.finditer(r"\[\s*SerializeField\b", text):
        i = section_end(text, m.start())
        while True:  # further attribute sections before the declaration
            j = len(text) - len(text[i:].lstrip())
            if text[j:j + 1] != "[":
                break
            i = section_end(text, j)
        d = DECLARATION.match(text, len(text) - len(text[i:].lstrip()))
        if d:
            yield d.group(2), d.group(3) == "=", d.start(2)


def check(paths):
    problems = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        fields = list(serialized_fields(text))
        marked = len(re.findall(r"\[\s*SerializeField\b", text))
        if len(fields) != marked:
            problems.append("%s: %d [SerializeField] fields, %d declarations understood" % (path, marked, len(fields)))
        for name, initialized, at in fields:
            if initialized:
                continue
            assigned = re.search(r"(?<![\w.])(?:this\.)?%s\s*=(?!=)|\b(?:ref|out)\s+(?:this\.)?%s\b" % (name, name), text)
            if not assigned:
                line = text.count("\n", 0, at) + 1
                problems.append("%s(%d): CS0649: serialized field `%s' is never assigned to; give it an initializer "
                                "(e.g. `= null`)" % (path, line, name))
    for p in problems:
        print(p)
    return 1 if problems else 0



def main():
    if sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2:]))
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for n, path in enumerate(sys.argv[2:]):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        dest = os.path.join(out_dir, "%03d-%s" % (n, os.path.basename(path)))
        with open(dest, "w", encoding="utf-8") as f:
            f.write(strip(text))
        print(dest)


if __name__ == "__main__":
    main()
