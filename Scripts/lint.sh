#!/usr/bin/env bash
# Lints the Swift sources with the toolchain's swift-format and the repository's .swift-format.
#
#   Scripts/lint.sh         what CI runs: swift-format's whole verdict (formatting included) in every file, except the
#                           rules WAIVED below
#   Scripts/lint.sh --all   swift-format's whole verdict everywhere, waived rules too
#
# Format with `swift format -i --recursive --parallel Package.swift Sources Tests`, then run
# Scripts/readme-snippets.py (its generated files keep the README's own layout and are not linted).
# WAIVED, and why: AlwaysUseLowerCamelCase — Apple's names the code must spell as Apple does
# (`PredicateExpressions.build_…`, `NSUndoManagerCheckpoint`…); OnlyOneTrailingClosureArgument — the PostgreSQL
# query writer's subquery builder takes a spelling closure and a trailing body closure on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

PATHS=(Package.swift Sources Tests)
WAIVED="AlwaysUseLowerCamelCase|OnlyOneTrailingClosureArgument"
GENERATED="^Tests/ReadmeSnippetTests/Generated/"

report="$(mktemp)"
trap 'rm -f "$report"' EXIT
swift format lint --recursive --parallel "${PATHS[@]}" >"$report" 2>&1 || true
if grep -Ev "^[^:]+:[0-9]+:[0-9]+: (warning|error): \[" "$report" | grep -q .; then
    echo "lint: swift-format failed:" >&2
    cat "$report" >&2
    exit 1
fi

if [ "${1:-}" = "--all" ]; then
    findings="$(grep -Ev "$GENERATED" "$report" || true)"
else
    findings="$(grep -Ev "$GENERATED" "$report" | grep -Ev "\[($WAIVED)\]" || true)"
fi
findings="$(printf '%s\n' "$findings" | sed '/^$/d' | sort -u)"
if [ -n "$findings" ]; then
    printf '%s\n' "$findings" >&2
    echo "lint: $(printf '%s\n' "$findings" | wc -l) finding(s)" >&2
    exit 1
fi
waived="$(grep -Ev "$GENERATED" "$report" | grep -cE "\[($WAIVED)\]" || true)"
echo "lint: clean (formatting included; ${waived} findings of the waived rules, listed by Scripts/lint.sh --all)"
