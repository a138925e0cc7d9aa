#!/usr/bin/env python3
"""Checks that every file and folder docs/ARCHITECTURE.md names exists, so the map cannot point at what moved.

What counts as a name of a file or folder:
- a Markdown link to a local file (`[Saving](internals/Saving.md#the-save-sequence)`), relative to the document;
  its `#anchor`, if any, must be a heading of the target;
- a `code span` without spaces that has a `/` in it or ends in a file extension (`Store/Save/`, `.ci/run`,
  `Scripts/check-layers.py`), every part of it starting with a letter, `.`, `*` or `<` (so `Dog/2` is not one);
  `*` and a `<Placeholder>` stand for any part of a name, and a name without an extension may be a `.swift` file;
- a `Type+Feature` code span (`Schema+Hierarchy`): a Swift file of that name under Sources/ or Tests/;
- each code span in the first column of a table headed `Folder` (a folder of the last `Sources/…` folder named
  before the table) or `Target` (a folder of Sources/ or Tests/).

A path is looked for in the folder of its table row (the layer tables' rows), then the repository root, Sources/,
every target's folder in Sources/, Tests/, and every target's folder in Tests/.

    Scripts/check-doc-paths.py [document.md …]    default: docs/ARCHITECTURE.md; exit status 1 on a missing path
"""
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
EXTENSIONS = (".swift", ".md", ".py", ".sh", ".json", ".yml", ".yaml", ".docc", ".c", ".h")
PART = re.compile(r"^[A-Za-z.*<_][\w.+<>*-]*$")
STEM = re.compile(r"^[A-Z]\w*\+[A-Z]\w*$")
CODE = re.compile(r"`([^`]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def bases():
    """The folders a path may be relative to, after its table row's: the root, Sources/ and Tests/ and their targets."""
    found = [ROOT]
    for top in ("Sources", "Tests"):
        found.append(os.path.join(ROOT, top))
        found.extend(sorted(d for d in glob.glob(os.path.join(ROOT, top, "*")) if os.path.isdir(d)))
    return found


def is_path(span):
    if " " in span or span.startswith(("http", "$", "#")):
        return False
    if "/" not in span and not span.endswith(EXTENSIONS):
        return False
    parts = [p for p in span.split("/") if p]
    return bool(parts) and all(PART.match(p) for p in parts)


def matches(base, span):
    """Whether `span` names something under `base` (with `*` and `<…>` matching any part of a name)."""
    pattern = os.path.join(base, re.sub(r"<[^>]*>", "*", span.rstrip("/")))
    wanted_folder = span.endswith("/")
    candidates = glob.glob(pattern)
    if not wanted_folder and not os.path.splitext(span)[1]:
        candidates += glob.glob(pattern + ".swift")
    return any(os.path.isdir(c) if wanted_folder else os.path.exists(c) for c in candidates)


def anchors(path):
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    found = set()
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^#+\s+(.*?)\s*$", line)
        if m:
            text = re.sub(r"[`*_]", "", m.group(1)).lower()
            found.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return found


def check(document):
    failures = []
    here = os.path.dirname(document)
    rel = os.path.relpath(document, ROOT)
    everywhere = bases()
    swift_files = {os.path.splitext(os.path.basename(p))[0]
                   for top in ("Sources", "Tests")
                   for p in glob.glob(os.path.join(ROOT, top, "**", "*.swift"), recursive=True)}
    table_kind, table_base, last_sources = None, None, os.path.join(ROOT, "Sources")
    in_fence = False
    for number, line in enumerate(open(document, encoding="utf-8"), 1):
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            table_kind = None
        elif table_kind is None:
            # A table's header row: what its first column names.
            table_kind = cells[0] if cells[0] in ("Folder", "Target") else ""
            table_base = last_sources
            continue
        elif set(cells[0]) <= set("-: "):
            continue

        row_base = None
        if cells is not None and table_kind:
            first = CODE.findall(cells[0])
            for name in first:
                if table_kind == "Folder":
                    found = matches(table_base, name.rstrip("/") + "/")
                else:
                    found = any(matches(os.path.join(ROOT, top), name + "/") for top in ("Sources", "Tests"))
                if not found:
                    failures.append(f"{rel}:{number}: {table_kind.lower()} `{name}` does not exist")
            if table_kind == "Folder" and first:
                row_base = os.path.join(table_base, first[0].rstrip("/"))

        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(here, path)) if path else document
            if not os.path.exists(full):
                failures.append(f"{rel}:{number}: link to `{target}`: {os.path.relpath(full, ROOT)} does not exist")
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                failures.append(f"{rel}:{number}: link to `{target}`: no heading makes the anchor #{anchor}")

        rest = line if not (cells is not None and table_kind) else "|".join(cells[1:])
        for span in CODE.findall(rest):
            if is_path(span):
                candidates = ([row_base] if row_base else []) + everywhere
                if not any(matches(base, span) for base in candidates):
                    failures.append(f"{rel}:{number}: `{span}` names no file or folder of the repository")
                elif span.startswith("Sources/") and os.path.isdir(os.path.join(ROOT, span)):
                    last_sources = os.path.join(ROOT, span)
            elif STEM.match(span) and span not in swift_files:
                failures.append(f"{rel}:{number}: `{span}` names no Swift file (Sources/ or Tests/)")
    return failures


def main():
    documents = sys.argv[1:] or [os.path.join(ROOT, "docs/ARCHITECTURE.md")]
    failures = []
    for document in documents:
        failures += check(os.path.abspath(document))
    if failures:
        print("check-doc-paths: names of files and folders that don't exist:", file=sys.stderr)
        for failure in failures:
            print("  " + failure, file=sys.stderr)
        return 1
    print(f"check-doc-paths: every file and folder {', '.join(os.path.relpath(d, ROOT) for d in documents)} "
          f"names exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
