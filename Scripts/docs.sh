#!/usr/bin/env bash
# Builds the DocC documentation of Strata, StrataPostgres and StrataState with the toolchain's docc, treating every
# warning (a broken symbol link, a missing article) as an error, then checks that every public symbol has a
# documentation comment (Scripts/undocumented-symbols.py). Archives go to .build/documentation/<Module>.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."
MODULES=(Strata StrataPostgres StrataState)

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
rm -rf "$OUT"
mkdir -p "$OUT"
for module in "${MODULES[@]}"; do
    mkdir -p "$OUT/graphs/$module"
    cp "$GRAPHS/$module.symbols.json" "$OUT/graphs/$module/"
    cp "$GRAPHS/$module@"*.symbols.json "$OUT/graphs/$module/" 2>/dev/null || true
    "$DOCC" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$OUT/graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.strata.$module" \
        --warnings-as-errors --output-path "$OUT/$module.doccarchive" >"$OUT/$module.log" 2>&1 || {
        cat "$OUT/$module.log" >&2
        echo "docs: docc convert failed for $module" >&2
        exit 1
    }
    echo "docs: $module.doccarchive"
done

Scripts/undocumented-symbols.py "$GRAPHS" "${MODULES[@]}"
echo "docs: every public symbol of ${MODULES[*]} is documented"
