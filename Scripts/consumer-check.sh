#!/usr/bin/env bash
# Proves Strata works as a dependency spelled either way the README shows: clones this checkout's HEAD into a bare
# repository, tags it 0.1.0, then builds and runs Tests/Consumer, which saves and fetches a model through
# `import SwiftData`, twice: depending on that tag by URL with `from: "0.1.0"`, and on a checkout of it by path with
# the product taken on Linux only (`condition: .when(platforms: [.linux])`). Needs no network; everything lives in
# a temporary directory removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

WORK="$(mktemp -d "${TMPDIR:-/tmp}/strata-consumer.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "consumer-check: note: uncommitted changes are not part of the release; it is built from HEAD" >&2
fi
git clone --quiet --bare . "$WORK/Strata.git"
git -C "$WORK/Strata.git" tag --force 0.1.0 HEAD >/dev/null

# check_build LOG: fails when the consumer's build reported an error, a warning or refused unsafe flags.
check_build() {
    if grep -E "^(error|warning):|error: 'consumer'|unsafe build flags" "$1" >/dev/null; then
        echo "consumer-check: the consumer's build reported problems (above)" >&2
        exit 1
    fi
}

# By URL, on the tag. The consumer is copied out so its build, its Package.resolved and SwiftPM's clone cache stay
# in the temporary directory.
cp -R Tests/Consumer "$WORK/Consumer"
STRATA_RELEASE_URL="$WORK/Strata.git" swift build --package-path "$WORK/Consumer" --cache-path "$WORK/cache" \
    --scratch-path "$WORK/build" 2>&1 | tee "$WORK/build.log"
check_build "$WORK/build.log"
"$WORK/build/debug/Consumer"
grep -E "^ *\"?version\"? *: *\"0\.1\.0\"" "$WORK/Consumer/Package.resolved" >/dev/null || {
    echo "consumer-check: Package.resolved does not pin Strata at the tag 0.1.0:" >&2
    cat "$WORK/Consumer/Package.resolved" >&2
    exit 1
}
echo "consumer-check: a package depending on Strata by URL, from: \"0.1.0\", built and ran"

# By path, on a checkout of the same commit in a folder named Strata (the package's identity), as ../Strata.
git clone --quiet "$WORK/Strata.git" "$WORK/Strata"
cp -R Tests/Consumer "$WORK/PathConsumer"
STRATA_PACKAGE_PATH="$WORK/Strata" swift build --package-path "$WORK/PathConsumer" --cache-path "$WORK/cache" \
    --scratch-path "$WORK/path-build" 2>&1 | tee "$WORK/path-build.log"
check_build "$WORK/path-build.log"
"$WORK/path-build/debug/Consumer"
echo "consumer-check: a package depending on Strata by path, with the Linux-only condition, built and ran"
