#!/usr/bin/env bash
# Lints the Swift sources with the toolchain's swift-format and the repository's .swift-format.
#
#   Scripts/lint.sh         what CI runs: every rule the code already follows, in every file, plus the whole of
#                           swift-format's verdict (formatting included) for the paths in FORMATTED below
#   Scripts/lint.sh --all   swift-format's whole verdict everywhere (`swift format lint --strict`)
#
# Formatting findings elsewhere (line length, indentation, line breaks, trailing commas, spacing) wait for a
# repository-wide `swift format -i`; PENDING names the rules the code does not follow yet. After the format and
# those fixes, both lists empty out and CI runs the whole verdict.
set -euo pipefail
cd "$(dirname "$0")/.."

PATHS=(Package.swift Sources Tests)
FORMATTING="LineLength|Indentation|AddLines|RemoveLine|TrailingComma|Spacing|SpacingCharacter|TrailingWhitespace|EndOfLineComment"
PENDING="OrderedImports|OnlyOneTrailingClosureArgument|UseLetInEveryBoundCaseVariable|GroupNumericLiterals|AlwaysUseLowerCamelCase|UseSynthesizedInitializer"
# Files already formatted with the configuration: they must stay so.
FORMATTED="^(Sources/CommandLineSupport/|Sources/Strata/Logging/|Tests/CommandLineSupportTests/|Tests/Consumer/|Tests/StrataTests/Logging/)"

report="$(mktemp)"
trap 'rm -f "$report"' EXIT
swift format lint --recursive --parallel "${PATHS[@]}" >"$report" 2>&1 || true
if grep -Ev "^[^:]+:[0-9]+:[0-9]+: (warning|error): \[" "$report" | grep -q .; then
    echo "lint: swift-format failed:" >&2
    cat "$report" >&2
    exit 1
fi

if [ "${1:-}" = "--all" ]; then
    findings="$(cat "$report")"
else
    findings="$(grep -Ev "\[($FORMATTING|$PENDING)\]" "$report" || true)
$(grep -E "$FORMATTED" "$report" | grep -E "\[($FORMATTING|$PENDING)\]" || true)"
fi
findings="$(printf '%s\n' "$findings" | sed '/^$/d' | sort -u)"
if [ -n "$findings" ]; then
    printf '%s\n' "$findings" >&2
    echo "lint: $(printf '%s\n' "$findings" | wc -l) finding(s)" >&2
    exit 1
fi
waiting="$(grep -cE "\[($FORMATTING|$PENDING)\]" "$report" || true)"
echo "lint: clean (${waiting} formatting or pending-rule findings wait for the repository-wide format; Scripts/lint.sh --all lists them)"
