#!/usr/bin/env bash
# Proves a tagged Strata release works as a versioned dependency: clones this checkout's HEAD into a bare
# repository, tags it 0.1.0, then builds and runs Tests/Consumer, which depends on that tag with `from: "0.1.0"`
# and saves and fetches a model through `import SwiftData`. Needs no network; everything lives in a temporary
# directory removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

WORK="$(mktemp -d "${TMPDIR:-/tmp}/strata-consumer.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "consumer-check: note: uncommitted changes are not part of the release; it is built from HEAD" >&2
fi
git clone --quiet --bare . "$WORK/Strata.git"
git -C "$WORK/Strata.git" tag --force 0.1.0 HEAD >/dev/null

# The consumer is copied out so its build, its Package.resolved and SwiftPM's clone cache stay in the temporary
# directory.
cp -R Tests/Consumer "$WORK/Consumer"
export STRATA_RELEASE_URL="$WORK/Strata.git"
swift build --package-path "$WORK/Consumer" --cache-path "$WORK/cache" --scratch-path "$WORK/build" 2>&1 \
    | tee "$WORK/build.log"
if grep -E "^(error|warning):|error: 'consumer'|unsafe build flags" "$WORK/build.log" >/dev/null; then
    echo "consumer-check: the consumer's build reported problems (above)" >&2
    exit 1
fi
"$WORK/build/debug/Consumer"
grep -E "^ *\"?version\"? *: *\"0\.1\.0\"" "$WORK/Consumer/Package.resolved" >/dev/null || {
    echo "consumer-check: Package.resolved does not pin Strata at the tag 0.1.0:" >&2
    cat "$WORK/Consumer/Package.resolved" >&2
    exit 1
}
echo "consumer-check: a package depending on Strata from: \"0.1.0\" built and ran"
