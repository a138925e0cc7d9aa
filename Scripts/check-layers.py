#!/usr/bin/env python3
"""Checks that Strata's folders are layers pointing one way (docs/ARCHITECTURE.md, "Layers").

Derives, from the sources, which folder uses which other folder's types: every type, protocol and type alias
declared in a folder (nested ones by their full name, `Schema.Entity`, owned by the folder of the declaration even
when it sits in an extension of a type from elsewhere), then every use of one — a name in scope resolves to the
innermost enclosing type's nested type first, then to a top-level type; generic parameters, associated types and
local types are not uses. An `extension` of a type is a use of it. A use against the order below fails the check,
naming the file, the line, the type and the arrow.

StrataPostgres's folders are layers of their own, in an order of their own (POSTGRES_ORDER); each may use Strata's
layers up to Store (never Store/SQLite, never a context). StrataState may use Strata's public API only: it must not
name a `package` declaration of Strata.

    Scripts/check-layers.py            check; exit status 1 on a forbidden arrow
    Scripts/check-layers.py --matrix   also print every arrow with the types it uses
"""
import os
import re
import shutil
import sys
from collections import defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Strata's layers, lowest first: a layer may use the ones before it, never the ones after.
ORDER = ["Logging", "Undo", "Model", "Errors", "Schema", "BackingData", "Fetch", "Store", "Context", "Live", "History",
         "Macros"]
# Sub-folders that are layers of their own, with the layers (besides themselves) that may use them.
PRIVATE = {
    # SQLite is one store among others: only the container's default configuration opens it.
    "Store/SQLite": {"Context"},
}
# Uses the order does not allow, each for a reason the layering cannot remove; a new use of another type, or
# from another file, still fails.
EXCEPTIONS = {
    # SwiftData's `PersistentModel` protocol ties the layers together: its requirements name the backing data
    # (`persistentBackingData`, `init(backingData:)`) and the schema's vocabulary (`schemaMetadata`, the ephemeral
    # attributes), which are built on models. Only the protocol's declaration may name them.
    ("Model/PersistentModel.swift", "Schema.PropertyMetadata"),
    ("Model/PersistentModel.swift", "Schema.Attribute"),
    ("Model/PersistentModel.swift", "ModelBackingData"),
    # An entity decoded from an encoded schema describes a model class without naming one; its stand-in class
    # conforms to `PersistentModel`, whose requirements name the backing data.
    ("Schema/DecodedEntityModel.swift", "ModelBackingData"),
    # SwiftData's `DataStore` protocol opens a custom store with the container's migration plan
    # (`init(_:migrationPlan:)`), whose stages run on contexts; the store layer only passes the plan's type on.
    ("Store/Custom/DataStore.swift", "SchemaMigrationPlan"),
    ("Store/Custom/DataStoreAdapter.swift", "SchemaMigrationPlan"),
}
# StrataPostgres's layers, lowest first: its SQL spelling, the libpq connection, the store, and at the top (the
# module's own folder) the public configuration and `PostgresDataStore`.
POSTGRES_ORDER = ["SQL", "Connection", "Store", "(root)"]
# Uses POSTGRES_ORDER does not allow, each for a reason; as with EXCEPTIONS, only these files may name these types.
POSTGRES_EXCEPTIONS = {
    # The text pre-pass computes its answers with a query the store runs, handed in as a closure: it names the type
    # of that closure's result, and nothing else of a connection.
    ("SQL/PostgresTextLookups+PrePass.swift", "PostgresResult"),
}
# Types of a higher StrataPostgres layer every layer may name: the configuration is the settings value an app writes
# and the store is opened with, read wherever a setting applies (the configuration in turn opens the store).
POSTGRES_SHARED = {"PostgresConfiguration"}
# StrataPostgres may use these layers of Strata.
POSTGRES_ALLOWED = {"Logging", "Model", "Errors", "Schema", "BackingData", "Fetch", "Store"}
# Public types of Store/Custom and Context (SwiftData's custom-store protocols) that StrataPostgres may name: its
# configuration and store type conform to them, and `DataStore.init(_:migrationPlan:)` takes a migration plan.
POSTGRES_PUBLIC_TYPES = {"DataStore", "DataStoreConfiguration", "SchemaMigrationPlan", "DataStoreFetchRequest",
                         "DataStoreFetchResult", "DataStoreSaveChangesRequest", "DataStoreSaveChangesResult",
                         "DefaultSnapshot", "DataStoreError", "EditingState"}

DECL = re.compile(r"\b(struct|class|enum|protocol|actor|typealias|associatedtype|extension)\s+([A-Za-z_][\w.]*)")
KEYWORDS_AFTER_CLASS = {"func", "var", "let", "subscript", "init", "override", "final", "public", "package",
                        "internal", "private", "fileprivate", "static", "convenience", "required"}


def strip(source):
    """The source with comments removed and string literals emptied, keeping interpolated code."""
    out = []
    i, n = 0, len(source)
    # A stack of string contexts: (quote, hashes, paren depth inside the current interpolation or None).
    def read_string(i):
        # At a string start: returns the index after it, appending interpolations' code to `out`.
        hashes = 0
        while source[i] == "#":
            hashes += 1
            i += 1
        multi = source.startswith('"""', i)
        i += 3 if multi else 1
        close = ('"""' if multi else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        out.append('""')
        while i < n:
            if source.startswith(close, i):
                return i + len(close)
            if source.startswith(escape, i):
                j = i + len(escape)
                if j < n and source[j] == "(":
                    out.append(" (")
                    i = read_code(j + 1, stop_at_paren=True)
                    out.append(") ")
                    continue
                i = j + 1
                continue
            if not multi and source[i] == "\n":
                return i
            i += 1
        return i

    def read_code(i, stop_at_paren=False):
        depth = 0
        while i < n:
            c = source[i]
            if source.startswith("//", i):
                j = source.find("\n", i)
                i = n if j < 0 else j
                continue
            if source.startswith("/*", i):
                level, i = 1, i + 2
                while i < n and level:
                    if source.startswith("/*", i):
                        level, i = level + 1, i + 2
                    elif source.startswith("*/", i):
                        level, i = level - 1, i + 2
                    else:
                        if source[i] == "\n":
                            out.append("\n")
                        i += 1
                out.append(" ")
                continue
            if c == '"' or (c == "#" and re.match(r'#+"', source[i:i + 8])):
                i = read_string(i)
                continue
            if stop_at_paren:
                if c == "(":
                    depth += 1
                elif c == ")":
                    if depth == 0:
                        return i + 1
                    depth -= 1
            out.append(c)
            i += 1
        return i

    read_code(0)
    return "".join(out)


def generic_names(text):
    """Names a file declares as generic parameters (`<Model: PersistentModel, each T>`) or associated types."""
    names = set()
    for m in re.finditer(r"\b(?:func|init|subscript|struct|class|enum|actor|typealias)\b\s*[\w`]*\s*<", text):
        depth, i, start = 1, m.end(), m.end()
        while i < len(text) and depth:
            if text[i] == "<":
                depth += 1
            elif text[i] == ">" and text[i - 1] != "-":
                depth -= 1
            i += 1
        inner = text[start:i - 1]
        level, piece = 0, ""
        for c in inner + ",":
            if c in "<([":
                level += 1
            elif c in ">)]":
                level -= 1
            if c == "," and level == 0:
                p = re.match(r"\s*(?:each\s+)?([A-Z]\w*)\s*(?::|$)", piece)
                if p:
                    names.add(p.group(1))
                piece = ""
            else:
                piece += c
    names.update(re.findall(r"\bassociatedtype\s+([A-Z]\w*)", text))
    return names


class File:
    def __init__(self, path, module, layer):
        self.path, self.module, self.layer = path, module, layer
        self.text = strip(open(path, encoding="utf-8").read())
        self.generics = generic_names(self.text)
        self.lines = [0]
        for m in re.finditer("\n", self.text):
            self.lines.append(m.end())

    def line(self, offset):
        lo, hi = 0, len(self.lines)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if self.lines[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1

    def scan(self):
        """Yields ('decl', name, offset) for type declarations and ('use', dotted name, offset, scopes) for uses."""
        text = self.text
        # Scopes: a stack of (kind, qualified name) per open brace; kind 'type' or 'local' or 'block'.
        stack = []
        pending = None  # the declaration whose body the next `{` opens
        i, n = 0, len(text)
        token = re.compile(r"[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*|[{}]|\S")
        previous = ""
        for m in token.finditer(text):
            t = m.group(0)
            if t == "{":
                stack.append(pending or ("block", None))
                pending = None
                previous = t
                continue
            if t == "}":
                if stack:
                    stack.pop()
                previous = t
                continue
            if not (t[0].isalpha() or t[0] == "_"):
                if t in (";",):
                    pending = None if pending and pending[0] != "type" else pending
                previous = t
                continue
            words = [w.strip() for w in t.split(".")]
            head = words[0]
            in_local = any(kind == "local" for kind, _ in stack)
            enclosing = [name for kind, name in stack if kind == "type"]
            if head in ("func", "init", "subscript", "deinit", "get", "set", "willSet", "didSet", "var", "let",
                        "_modify", "defer", "do", "catch", "if", "guard", "for", "while", "switch", "repeat"):
                if head in ("func", "init", "subscript", "deinit", "get", "set", "willSet", "didSet", "_modify"):
                    pending = ("local", None)
                elif head in ("var", "let") and pending is None:
                    pending = ("local", None)
                previous = head
                continue
            if previous in ("struct", "class", "enum", "protocol", "actor", "extension", "typealias",
                            "associatedtype") and not (previous == "class" and head in KEYWORDS_AFTER_CLASS):
                kind = previous
                name = ".".join(words)
                if kind == "extension":
                    yield ("use", name, m.start(), tuple(enclosing), True)
                    pending = ("type", name)
                elif kind == "associatedtype":
                    pass
                elif not in_local:
                    qualified = ".".join(enclosing[-1:] + [name]) if enclosing else name
                    yield ("decl", qualified, m.start())
                    if kind != "typealias":
                        pending = ("type", qualified)
                else:
                    pending = ("local", None) if kind != "typealias" else pending
                previous = head
                continue
            if head[0].isupper() and previous != ".":
                yield ("use", ".".join(words), m.start(), tuple(enclosing), False)
            previous = words[-1]


def collect(module, base, layer_of):
    files = []
    for d, _, names in os.walk(base):
        for f in sorted(names):
            if f.endswith(".swift"):
                p = os.path.join(d, f)
                files.append(File(p, module, layer_of(os.path.relpath(p, base))))
    return files


def strata_layer(rel):
    parts = rel.split(os.sep)
    if len(parts) == 1:
        return "(root)"
    sub = "/".join(parts[:2])
    for private in PRIVATE:
        if sub == private or "/".join(parts[:len(private.split("/"))]) == private:
            return private
    return parts[0]


def postgres_layer(rel):
    parts = rel.split(os.sep)
    return "StrataPostgres/" + (parts[0] if len(parts) > 1 else "(root)")


def main():
    show_matrix = "--matrix" in sys.argv
    strata = collect("Strata", os.path.join(ROOT, "Sources/Strata"), strata_layer)
    postgres = collect("StrataPostgres", os.path.join(ROOT, "Sources/StrataPostgres"), postgres_layer)
    state = collect("StrataState", os.path.join(ROOT, "Sources/StrataState"), lambda _: "StrataState")

    owners = {}  # qualified type name -> (module, layer, file)
    for f in strata + postgres + state:
        for event in f.scan():
            if event[0] == "decl":
                owners.setdefault((f.module, event[1]), (f.layer, f.path))

    def resolve(module, dotted, scopes):
        words = dotted.split(".")
        modules = [module] if module == "Strata" else [module, "Strata"]
        if words[0] in ("Strata",) and len(words) > 1:
            words, modules = words[1:], ["Strata"]
        for mod in modules:
            # The innermost enclosing type's nested type first, then outward, then a top-level type; of a dotted
            # name, the longest prefix that names a type.
            bases = []
            for scope in reversed(scopes):
                parts = scope.split(".")
                for k in range(len(parts), 0, -1):
                    bases.append(".".join(parts[:k]) + ".")
            bases.append("")
            for base in bases:
                for k in range(len(words), 0, -1):
                    name = base + ".".join(words[:k])
                    if (mod, name) in owners:
                        return mod, name
        return None

    uses = defaultdict(lambda: defaultdict(list))  # (module/layer) -> (module/layer) -> [(file, line, type)]
    for f in strata + postgres + state:
        for event in f.scan():
            if event[0] != "use":
                continue
            _, dotted, offset, scopes, is_extension = event
            if dotted.split(".")[0] in f.generics:
                continue
            found = resolve(f.module, dotted, scopes)
            if not found:
                continue
            mod, name = found
            layer, _ = owners[(mod, name)]
            source = f.layer if f.module in ("Strata", "StrataPostgres") else f.module
            target = layer if mod in ("Strata", "StrataPostgres") else mod
            if source == target:
                continue
            uses[source][target].append((os.path.relpath(f.path, ROOT), f.line(offset), name))

    failures = []

    def rank(layer):
        top = layer.split("/")[0]
        return ORDER.index(top) if top in ORDER else None

    def allowed(source, target, rel, name):
        for exc_file, exc_type in EXCEPTIONS:
            if rel.endswith("Sources/Strata/" + exc_file) and exc_type == name:
                return True
        if source == "StrataState":
            return target == "Strata" or target in ORDER or target in PRIVATE or target == "(root)"
        if source.startswith("StrataPostgres/") and target.startswith("StrataPostgres/"):
            for exc_file, exc_type in POSTGRES_EXCEPTIONS:
                if rel.endswith("Sources/StrataPostgres/" + exc_file) and exc_type == name:
                    return True
            if name.split(".")[0] in POSTGRES_SHARED:
                return True
            s, t = (POSTGRES_ORDER.index(layer.split("/", 1)[1]) for layer in (source, target))
            return t <= s
        if source.startswith("StrataPostgres/"):
            return target in POSTGRES_ALLOWED or name in POSTGRES_PUBLIC_TYPES
        if target in PRIVATE:
            if source.split("/")[0] in PRIVATE[target]:
                return True
            return False
        if source == "(root)" or target == "(root)":
            return False
        s, t = rank(source), rank(target)
        if source in PRIVATE and t is not None and s is not None:
            return t <= s
        return s is not None and t is not None and t <= s

    for source in sorted(uses):
        for target in sorted(uses[source]):
            for rel, line, name in uses[source][target]:
                if not allowed(source, target, rel, name):
                    failures.append(f"{rel}:{line}: {source} → {target} uses {name}, which the layers don't allow")

    # StrataState: Strata's public API only. Every `package` declaration of Strata, by name; a name StrataState
    # uses that Strata declares only as `package` (never public or open) is a use of package API.
    package_names, public_names = set(), set()
    decl_name = re.compile(r"\b(public|open|package)\b(?:\s+(?:static|class|final|override|convenience|required|"
                           r"nonisolated|mutating|nonmutating|indirect|lazy|dynamic|@\w+(?:\([^)]*\))?))*\s+"
                           r"(?:func|var|let|init|subscript|struct|class|enum|protocol|actor|typealias|case)\s*"
                           r"([A-Za-z_]\w*)?")
    for f in strata:
        for m in decl_name.finditer(f.text):
            name = m.group(2) or ("init" if "init" in m.group(0) else None)
            if not name:
                continue
            (package_names if m.group(1) == "package" else public_names).add(name)
    # Names the standard library and the toolchain's other interfaces declare (`append`, `rawValue`) are public
    # whatever Strata declares.
    toolchain = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc")))
    for d, _, names in os.walk(os.path.join(toolchain, "lib/swift/linux")):
        for f in names:
            if f.endswith(".swiftinterface") and not f.endswith(".private.swiftinterface"):
                public_names.update(re.findall(r"\b(?:func|var|let|case|typealias|struct|class|enum|protocol)\s+`?"
                                               r"([A-Za-z_]\w*)", open(os.path.join(d, f), encoding="utf-8").read()))
    only_package = package_names - public_names
    declared_in_state = set()
    for f in state:
        declared_in_state.update(re.findall(r"\b(?:func|var|let|struct|class|enum|protocol|actor|typealias|case)\s+"
                                            r"([A-Za-z_]\w*)", f.text))
        declared_in_state.update(re.findall(r"\b([a-z]\w*)\s*:", f.text))  # argument labels and parameters
    for f in state:
        for m in re.finditer(r"(?:\.\s*|\b)([A-Za-z_]\w*)\b", f.text):
            name = m.group(1)
            member = m.group(0).startswith(".")
            if name in only_package and name not in declared_in_state and (member or name[0].isupper()):
                failures.append(f"{os.path.relpath(f.path, ROOT)}:{f.line(m.start())}: StrataState uses "
                                f"{name}, a package declaration of Strata (StrataState uses Strata's public API only)")

    if show_matrix:
        print("arrows (from → to: uses, types):")
        for source in sorted(uses):
            for target in sorted(uses[source]):
                names = sorted({name for _, _, name in uses[source][target]})
                bad = any(not allowed(source, target, rel, name) for rel, _, name in uses[source][target])
                mark = "  FORBIDDEN" if bad else ""
                print(f"  {source} → {target}: {len(uses[source][target])} ({', '.join(names[:10])}"
                      f"{', …' if len(names) > 10 else ''}){mark}")
    if failures:
        # One line per file, arrow and type, with every line it is used on.
        grouped = defaultdict(list)
        for failure in failures:
            where, message = failure.split(": ", 1)
            path, line = where.rsplit(":", 1)
            if int(line) not in grouped[(path, message)]:
                grouped[(path, message)].append(int(line))
        print("check-layers: uses against the layers of docs/ARCHITECTURE.md:", file=sys.stderr)
        for (path, message), lines in sorted(grouped.items()):
            print(f"  {path}:{','.join(map(str, sorted(lines)))}: {message}", file=sys.stderr)
        return 1
    print(f"check-layers: {len(strata) + len(postgres) + len(state)} files, every arrow points down "
          f"({' → '.join(reversed(ORDER))}; StrataPostgres: {' → '.join(reversed(POSTGRES_ORDER))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
