#!/usr/bin/env python3
"""Lists the public symbols of a module's symbol graphs that have no documentation comment.

usage: Scripts/undocumented-symbols.py <symbol-graph-dir> <module> [<module> ...]

Reads <module>.symbols.json and <module>@<Other>.symbols.json (the module's extensions of other modules' types).
Skipped: symbols the compiler synthesizes, underscored names (not API), and implementations of a protocol's
requirements that carry no comment of their own (DocC shows the requirement's). Exits 1 when any is left,
printing each as `Module: kind path (file:line)`.
"""
import json
import os
import sys


def undocumented(graph_path, module):
    with open(graph_path) as file:
        graph = json.load(file)
    implementations = set()
    for relationship in graph.get("relationships", []):
        if relationship.get("kind") in ("requirementOf", "optionalRequirementOf"):
            continue
        if relationship.get("sourceOrigin"):
            implementations.add(relationship["source"])
    found = []
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        path = symbol.get("pathComponents", [])
        if any(component.startswith("_") for component in path):
            continue
        if symbol.get("docComment", {}).get("lines"):
            continue
        identifier = symbol["identifier"]["precise"]
        if identifier in implementations or "::SYNTHESIZED::" in identifier:
            continue
        location = symbol.get("location", {})
        uri = location.get("uri", "").replace("file://", "")
        line = location.get("position", {}).get("line", -1) + 1
        found.append(f"{module}: {symbol['kind']['identifier']} {'.'.join(path)} ({os.path.relpath(uri) if uri else '?'}:{line})")
    return found


def main(arguments):
    if len(arguments) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    directory, modules = arguments[0], arguments[1:]
    missing = []
    for module in modules:
        names = [name for name in os.listdir(directory)
                 if name == f"{module}.symbols.json" or name.startswith(f"{module}@")]
        if not names:
            print(f"undocumented-symbols: no symbol graph for {module} in {directory}", file=sys.stderr)
            return 2
        for name in sorted(names):
            missing += undocumented(os.path.join(directory, name), module)
    for line in sorted(set(missing)):
        print(line)
    if missing:
        print(f"undocumented-symbols: {len(set(missing))} public symbol(s) without a documentation comment",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
