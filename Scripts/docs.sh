#!/usr/bin/env bash
# Builds the DocC documentation of Strata, StrataPostgres, StrataState and StrataSync with the toolchain's docc, treating every
# warning (a broken symbol link, a missing article) as an error, then checks that every public symbol has a
# documentation comment (Scripts/undocumented-symbols.py).
#
# The result is a static website in .build/documentation/site: an index.html linking the catalogs, and each
# catalog's archive (transformed for static hosting) in a folder of its name. To read it in a browser:
#
#   python3 -m http.server --directory .build/documentation/site 8000      # then open http://localhost:8000
#
# The site expects to be served from the root of its host. To publish it under a path instead (a project page at
# https://example.org/strata/), set STRATA_DOCS_BASE_PATH=/strata when building.
set -euo pipefail
cd "$(dirname "$0")/.."
MODULES=(Strata StrataPostgres StrataState StrataSync)

DOCC="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
[ -x "$DOCC" ] || DOCC="$(command -v docc || true)"
if [ -z "$DOCC" ] || [ ! -x "$DOCC" ]; then
    echo "docs: the toolchain has no docc" >&2
    exit 1
fi

# Symbol graphs of the public API, extracted from the modules of the ordinary debug build. (`swift package
# dump-symbol-graph` would build every trait's dependencies, swift-syntax included, which an offline machine can't.)
swift build >/dev/null
BIN="$(swift build --show-bin-path)"
EXTRACT="$(dirname "$DOCC")/swift-symbolgraph-extract"
GRAPHS="$(mktemp -d)"
trap 'rm -rf "$GRAPHS"' EXIT
for module in "${MODULES[@]}"; do
    # shellcheck disable=SC2046 # pkg-config's flags are meant to split
    "$EXTRACT" -module-name "$module" -target "$(basename "$(dirname "$BIN")")" -I "$BIN/Modules" \
        -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap -Xcc -fmodule-map-file=Sources/CLibPQ/module.modulemap \
        -Xcc -fmodule-map-file="$BIN/CStrataSupport.build/module.modulemap" \
        $(pkg-config --cflags-only-I libpq sqlite3 | sed 's/-I/-Xcc -I/g') \
        -minimum-access-level public -skip-synthesized-members -output-dir "$GRAPHS"
done

OUT=.build/documentation
SITE="$OUT/site"
BASE_PATH="${STRATA_DOCS_BASE_PATH:-}"
BASE_PATH="${BASE_PATH%/}"
rm -rf "$OUT"
mkdir -p "$SITE"
for module in "${MODULES[@]}"; do
    mkdir -p "$OUT/graphs/$module"
    cp "$GRAPHS/$module.symbols.json" "$OUT/graphs/$module/"
    cp "$GRAPHS/$module@"*.symbols.json "$OUT/graphs/$module/" 2>/dev/null || true
    "$DOCC" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$OUT/graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.strata.$module" \
        --transform-for-static-hosting --hosting-base-path "$BASE_PATH/$module" \
        --warnings-as-errors --output-path "$SITE/$module" >"$OUT/$module.log" 2>&1 || {
        cat "$OUT/$module.log" >&2
        echo "docs: docc convert failed for $module" >&2
        exit 1
    }
    # The page the index links to must exist as a file, which a static server (no DocC routing) can answer.
    page="$SITE/$module/documentation/$(echo "$module" | tr '[:upper:]' '[:lower:]')/index.html"
    [ -f "$page" ] || {
        echo "docs: $module's site has no $page" >&2
        exit 1
    }
    echo "docs: $SITE/$module"
done

# The site's front page: each catalog's title and abstract (the paragraph under its `# ``Module``` heading),
# linking to its documentation.
python3 - "$SITE/index.html" "$BASE_PATH" "${MODULES[@]}" <<'PYTHON'
import html, pathlib, re, sys
output, base, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
items = []
for module in modules:
    text = pathlib.Path(f"Sources/{module}/{module}.docc/{module}.md").read_text()
    abstract = " ".join(text.split("\n\n")[1].split())
    abstract = re.sub(r"``?([^`]+)``?", lambda m: f"<code>{m.group(1)}</code>", html.escape(abstract, quote=False))
    items.append(f'<li><a href="{base}/{module}/documentation/{module.lower()}/">{module}</a>: {abstract}</li>')
pathlib.Path(output).write_text(f"""<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Strata documentation</title>
<style>body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 44em; margin: 3em auto; padding: 0 1em; }}</style>
</head>
<body>
<h1>Strata documentation</h1>
<p>SwiftData's programming model for Linux, in {len(modules)} modules:</p>
<ul>
{chr(10).join(items)}
</ul>
<p>Built by <code>Scripts/docs.sh</code> from the DocC catalogs in <code>Sources/*/*.docc</code>.</p>
</body>
</html>
""")
PYTHON
# Every page a page links to (a symbol, an article, a topic) is in the site: each reference of each page's data names
# a file the static server has.
python3 - "$SITE" "${MODULES[@]}" <<'PYTHON'
import json, pathlib, sys
site, modules = pathlib.Path(sys.argv[1]), sys.argv[2:]
checked, missing = 0, []
for module in modules:
    data = site / module / "data"
    for page in data.rglob("*.json"):
        for reference in json.loads(page.read_text()).get("references", {}).values():
            url = reference.get("url", "")
            if not url.startswith("/documentation/"):
                continue
            checked += 1
            target = url.split("#")[0].rstrip("/")
            if not (data / f"{target[1:]}.json").exists():
                missing.append(f"{module}: {page.relative_to(data)} links to {url}")
if missing:
    sys.exit("docs: links to pages the site lacks:\n  " + "\n  ".join(sorted(set(missing))[:40]))
print(f"docs: {checked} links between pages, each to a page of the site")
PYTHON
if [ -z "$BASE_PATH" ]; then
    echo "docs: $SITE/index.html (python3 -m http.server --directory $SITE 8000, then open http://localhost:8000)"
else
    echo "docs: $SITE holds the site for serving under $BASE_PATH/"
fi

Scripts/undocumented-symbols.py "$GRAPHS" "${MODULES[@]}"
echo "docs: every public symbol of ${MODULES[*]} is documented"
