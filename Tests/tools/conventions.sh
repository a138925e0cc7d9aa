#!/usr/bin/env bash
# Checks that every tool follows the command-line conventions: --help on standard output with status 0, --version
# printing the version, and usage errors on standard error, naming what was wrong, with status 2 (never a run with
# defaults). BIN is the build's bin directory (`swift build --show-bin-path`).
set -euo pipefail
BIN="${BIN:-$(swift build --show-bin-path)}"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
failures=0

fail() { echo "conventions: $*" >&2; failures=$((failures + 1)); }

# expect <status> <stdout pattern> <stderr pattern> <command…>: the exit status and what each stream must match
# (an empty pattern means the stream must be empty).
expect() {
    local status="$1" out_pattern="$2" err_pattern="$3"
    shift 3
    local actual=0
    "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" </dev/null || actual=$?
    [ "$actual" = "$status" ] || fail "'$*' exited $actual, expected $status"
    if [ -z "$out_pattern" ]; then [ ! -s "$SCRATCH/out" ] || fail "'$*' wrote to standard output: $(head -2 "$SCRATCH/out")"
    else grep -qE -- "$out_pattern" "$SCRATCH/out" || fail "'$*' standard output lacks /$out_pattern/: $(head -2 "$SCRATCH/out")"; fi
    if [ -z "$err_pattern" ]; then [ ! -s "$SCRATCH/err" ] || fail "'$*' wrote to standard error: $(head -2 "$SCRATCH/err")"
    else grep -qE -- "$err_pattern" "$SCRATCH/err" || fail "'$*' standard error lacks /$err_pattern/: $(head -2 "$SCRATCH/err")"; fi
}

for tool in bookshelf strata-bench strata-torture strata-example; do
    expect 0 "^usage: " "" "$BIN/$tool" --help
    expect 0 "^$tool [0-9]+\.[0-9]+\.[0-9]+$" "" "$BIN/$tool" --version
done
expect 2 "" "unknown option '--rowz'" "$BIN/strata-torture" enumerate --rowz 10
expect 2 "" "invalid value 'ten' for --rows" "$BIN/strata-torture" enumerate --rows=ten
expect 2 "" "unknown command 'crahs'" "$BIN/strata-torture" crahs
expect 2 "" "missing command" "$BIN/strata-torture"
expect 2 "" "invalid value 'sqlite.store' for --store" "$BIN/strata-torture" load --store sqlite.store
expect 2 "" "missing --store" "$BIN/strata-torture" load --processes 4
expect 2 "" "invalid value 'sqlite.store' for --store" "$BIN/strata-torture" create --store sqlite.store
expect 2 "" "missing --store" "$BIN/strata-bench" --heartbeat
expect 2 "" "unknown option '--fast'" "$BIN/strata-bench" --fast
expect 2 "" "invalid value 'abc' for --only" "$BIN/strata-bench" --only=abc
expect 2 "" "--svg needs a value" "$BIN/strata-bench" --svg
expect 2 "" "unexpected argument 'now'" "$BIN/strata-example" now
expect 2 "" "unknown option '--titel'" "$BIN/bookshelf" --store "$SCRATCH/shelf.store" books add --titel Dune
[ ! -e "$SCRATCH/shelf.store" ] || fail "bookshelf created a store for a refused command line"

if [ "$failures" -gt 0 ]; then
    echo "conventions: $failures failure(s)" >&2
    exit 1
fi
echo "conventions: every tool answers --help and --version and refuses bad command lines"
