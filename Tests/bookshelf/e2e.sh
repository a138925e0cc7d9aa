#!/usr/bin/env bash
# End-to-end test of `bookshelf`: drives the real binary in tmux (send-keys / capture-pane) and its scripting
# subcommands against a temporary store.
#
#   Tests/bookshelf/e2e.sh                       # builds the product, then runs
#   BOOKSHELF_BIN=/path/to/bookshelf Tests/bookshelf/e2e.sh
#
# Needs tmux. Exits non-zero on the first failed check, printing the screen it saw.
set -euo pipefail

cd "$(dirname "$0")/../.."
if [[ -z "${BOOKSHELF_BIN:-}" ]]; then
    swift build --product bookshelf >/dev/null
    BOOKSHELF_BIN="$(swift build --product bookshelf --show-bin-path)/bookshelf"
fi
command -v tmux >/dev/null || { echo "e2e: tmux is required" >&2; exit 1; }

WORK="$(mktemp -d)"
STORE="$WORK/e2e.store"
SESSION="bookshelf-e2e-$$"
export TMUX_TMPDIR="$WORK"          # a private tmux server, never the user's
cleanup() {
    tmux kill-server 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
# A session that lives as long as the script keeps the private tmux server up between the app's sessions: a
# new-session racing the exit of a server whose last session just ended fails with "server exited unexpectedly".
tmux new-session -d -s "keepalive-$$" "sleep 86400"

bookshelf() { "$BOOKSHELF_BIN" --store "$STORE" "$@"; }
screen() { tmux capture-pane -p -t "$SESSION"; }
fail() {
    echo "e2e FAILED: $*" >&2
    echo "---- screen ----" >&2
    screen >&2 || true
    exit 1
}
# wait_for TEXT [SECONDS]: until the screen shows TEXT (fixed string).
wait_for() {
    local deadline=$((SECONDS + ${2:-3}))
    until screen | grep -qF -- "$1"; do
        ((SECONDS < deadline)) || fail "expected '$1' on screen"
        sleep 0.1
    done
}
# wait_gone TEXT [SECONDS]: until the screen no longer shows TEXT.
wait_gone() {
    local deadline=$((SECONDS + ${2:-3}))
    while screen | grep -qF -- "$1"; do
        ((SECONDS < deadline)) || fail "expected '$1' to disappear"
        sleep 0.1
    done
}
keys() { tmux send-keys -t "$SESSION" "$@"; }
type_text() { tmux send-keys -t "$SESSION" -l -- "$1"; }
pass() { echo "ok - $*"; }

# ---- scripting subcommands -------------------------------------------------------------------------------
[[ "$(bookshelf books list --json)" == "[]" ]] || fail "--json of an empty list is not []"
err="$("$BOOKSHELF_BIN" --in-memory books list 2>&1 >/dev/null)"
[[ "$err" == *"started with sample data"* ]] || fail "--in-memory did not say it started with sample data: '$err'"
[[ "$("$BOOKSHELF_BIN" --in-memory books list 2>/dev/null | grep -c .)" -ge 3 ]] || fail "--in-memory books list shows no rows"
err="$("$BOOKSHELF_BIN" --in-memory tasks add --title "gone" 2>&1 >/dev/null)"
[[ "$err" == *"is not kept"* ]] || fail "a write to --in-memory did not say it is not kept: '$err'"
"$BOOKSHELF_BIN" --in-memory journal list --json 2>/dev/null | python3 -m json.tool >/dev/null || fail "--in-memory --json"
pass "empty --json list is []; --in-memory lists sample data and says a write is not kept"

out="$(bookshelf books add --title "Dune" --author "Frank Herbert" --publisher "Chilton")"
[[ "$out" == "added: Dune — Frank Herbert (Chilton)" ]] || fail "books add printed '$out'"
if err="$(bookshelf books add --title "Kindred" --author "Octavia E. Butler" 2>&1)"; then fail "missing publisher accepted"; fi
[[ "$err" == *"missing required field: publisher"* ]] || fail "missing field message was '$err'"
pass "books add, missing field named"

status=0; err="$(bookshelf books list --where 'title CONTAINS[c] "dune" AND' 2>&1)" || status=$?
[[ "$status" == 2 ]] || fail "bad --where exited with $status"
[[ "$err" == *"invalid --where"* && "$err" == *"^"* ]] || fail "bad --where printed '$err'"
caret_line="$(printf '%s\n' "$err" | grep -n '\^' | cut -d: -f1)"
[[ -n "$caret_line" ]] || fail "no caret line"
status=0; err="$(bookshelf books list --where 'isbn == "1"' 2>&1)" || status=$?
[[ "$status" == 2 && "$err" == *"unsupported --where"* && "$err" == *"no persistent property 'isbn'"* ]] \
    || fail "unknown --where key: status $status, printed '$err'"
pass "bad --where: parse error with caret; unknown key named; exit status 2"

bookshelf books add --title "Ficciones" --author "Jorge Luis Borges" --publisher "Sur" >/dev/null
[[ "$(bookshelf books list --where 'author BEGINSWITH[c] "jorge"')" == "Ficciones — Jorge Luis Borges (Sur)" ]] \
    || fail "--where filter"
[[ "$(bookshelf books list --sort -title | head -1)" == "Ficciones — Jorge Luis Borges (Sur)" ]] || fail "--sort -title"
bookshelf books list --json | grep -q '"author" : "Frank Herbert"' || fail "--json output"
bookshelf tasks add --title "File taxes" --category home --priority 3 --due 2030-04-15 >/dev/null
[[ "$(bookshelf tasks list --where 'category == "home" AND priority > 2' --json | grep -c '"title"')" == 1 ]] \
    || fail "tasks --where"
bookshelf journal add --title "Market" --content "Buy MILK and bread" --date 2030-01-02 >/dev/null
bookshelf journal add --title "Travel plans" --content "Lisbon in May" --date 2030-01-03 >/dev/null
[[ "$(bookshelf journal list | head -1)" == "2030-01-03 Travel plans: Lisbon in May" ]] || fail "journal newest first"
pass "list --where / --sort / --json for books, tasks and journal"

status=0; err="$(env -u STRATA_POSTGRES_URL "$BOOKSHELF_BIN" sync 2>&1)" || status=$?
[[ "$status" == 2 && "$err" == *"sync needs a PostgreSQL hub: pass --hub postgresql://"* ]] \
    || fail "sync without a hub: status $status, printed '$err'"
pass "sync without a hub says what to pass"

# ---- the full-screen app ----------------------------------------------------------------------------------
tmux new-session -d -s "$SESSION" -x 100 -y 30 "$BOOKSHELF_BIN --store '$STORE'"
wait_for "Dune"
wait_for "store: $STORE"
pass "app opens the store and lists books"

# Add a book; the form refuses while a required field is empty.
keys a
wait_for "New book"
type_text "Le Petit Prince"
keys Tab
type_text "Antoine de Saint-Exupéry"
keys Enter
wait_for "missing required field: publisher"
keys Tab
type_text "Gallimard"
keys Enter
wait_for "Antoine de Saint-Exupéry · Publisher Gallimard"
screen | grep -F "Le Petit Prince" | grep -qF "Antoine de Saint-Exupéry · Publisher Gallimard" || fail "added row"
pass "add a book (refused while publisher is empty)"

# Edit the selected (first by title: Dune) book's title and its multi-line summary.
keys Enter
wait_for "Edit book"
type_text " Messiah"
keys Up
type_text "Paul's second act."
keys Enter
type_text "The desert wins."
keys C-s
wait_for "Saved Dune Messiah"
wait_for "Dune Messiah"
keys Enter
wait_for "Edit book"
wait_for "The desert wins."
keys C-s
wait_for "Nothing changed"
[[ "$(bookshelf books list --where 'title == "Dune Messiah"' --json | grep -c "The desert wins.")" == 1 ]] \
    || fail "edited summary not stored"
pass "edit a book (title + multi-line summary; unchanged save writes nothing)"

# Delete the selected book after confirming.
keys d
wait_for "Delete “Dune Messiah”? (y/n)"
keys n
wait_for "Cancelled"
keys d
wait_for "(y/n)"
keys y
wait_gone "Dune Messiah"
[[ -z "$(bookshelf books list --where 'title BEGINSWITH "Dune"')" ]] || fail "deleted book still stored"
pass "delete a book with confirmation"

# A second process adds a book while the list is shown: it appears within 2 seconds, with no key pressed.
bookshelf books add --title "Zazie dans le métro" --author "Raymond Queneau" --publisher "Gallimard" >/dev/null
wait_for "Zazie dans le métro" 2
# capture-pane -e writes an attribute only where it changes, so look at the last background set before the row.
background="$(tmux capture-pane -e -p -t "$SESSION" \
    | perl -0ne 'print $1 if /^.*(\e\[(?:43|49|0)m).*?Zazie dans le m/s')"
[[ "$background" == $'\e[43m' ]] || fail "the row added elsewhere is not highlighted"
pass "a book added by another process appears within 2 s"

# Journal: the search filters as you type, title OR content, case-insensitively.
keys Tab Tab
wait_for "Search:"
wait_for "Travel plans"
keys /
type_text "milk"
wait_for "Market"
wait_gone "Travel plans"
keys BSpace BSpace BSpace BSpace
wait_for "Travel plans"
type_text "LISBON"
wait_for "Travel plans"
wait_gone "Market"
keys Escape
pass "journal search (title OR content, case-insensitive; empty shows all)"

# Tasks: toggling completes the task (it leaves the open list); `a` adds "New task N"; `f` filters by category.
keys BTab
wait_for "Open tasks (all categories)"
wait_for "File taxes"
keys a
wait_for "New task 2"
keys f
wait_for "Filter tasks by category"
type_text "home"
keys Enter
wait_for "Open tasks (category = home)"
wait_gone "New task 2"
keys Space
wait_gone "File taxes"
[[ "$(bookshelf tasks list --where 'isCompleted == YES')" == "[x] File taxes"* ]] || fail "task not completed in the store"
pass "tasks: add, filter by category, complete"

# To-dos (through @ModelState): add two, toggle one, clear all after confirming.
keys Tab Tab
wait_for "To-dos"
keys a
type_text "Buy bread"
keys Enter
wait_for "○ Buy bread"
keys a
type_text "Call mum"
keys Enter
wait_for "○ Call mum"
keys Enter
wait_for "✓ Buy bread"
keys C
wait_for "Delete all 2 to-dos? (y/n)"
keys y
wait_for "Nothing to do"
pass "to-dos: add, toggle, clear all"
keys BTab
wait_for "Search:"

# Resize, help, quit; the terminal comes back.
tmux resize-window -t "$SESSION" -x 70 -y 20
wait_for "Travel plans"
keys "?"
wait_for "Keys"
keys x
wait_for "Journal"
keys q
for _ in $(seq 30); do tmux has-session -t "$SESSION" 2>/dev/null || break; sleep 0.1; done
tmux has-session -t "$SESSION" 2>/dev/null && fail "q did not quit"
pass "resize, help, quit"

# A fatal signal: the handler restores the terminal (cooked mode, primary screen, visible cursor) before dying.
check_signal_restores() {
    local signal="$1"
    rm -f "$WORK/stty.txt"
    tmux new-session -d -s "$SESSION" -x 80 -y 20 \
        "bash -c 'ulimit -c 0; \"$BOOKSHELF_BIN\" --store \"$STORE\"; stty -a > \"$WORK/stty.txt\"; sleep 30'"
    wait_for "Books"
    local app_pid
    app_pid="$(pgrep -P "$(tmux display -p -t "$SESSION" '#{pane_pid}')")"
    [[ "$(tmux display -p -t "$SESSION" '#{alternate_on}')" == 1 ]] || fail "app is not on the alternate screen"
    kill "-$signal" "$app_pid"
    for _ in $(seq 30); do [[ -s "$WORK/stty.txt" ]] && break; sleep 0.1; done
    grep -qE '(^| )icanon( |$)' "$WORK/stty.txt" && grep -qE '(^| )echo( |$)' "$WORK/stty.txt" \
        || fail "terminal left in raw mode after SIG$signal: $(cat "$WORK/stty.txt" 2>/dev/null)"
    [[ "$(tmux display -p -t "$SESSION" '#{alternate_on} #{cursor_flag}')" == "0 1" ]] \
        || fail "alternate screen or hidden cursor left behind after SIG$signal"
    tmux kill-session -t "$SESSION"
    pass "SIG$signal restores the terminal"
}
check_signal_restores TERM
check_signal_restores SEGV

# The status line tells how far back the store's history goes and who saved last: a script, here.
tmux new-session -d -s "$SESSION" -x 220 -y 20 "$BOOKSHELF_BIN --store '$STORE'"
wait_for "history since "
bookshelf books add --title "Piranesi" --author "Susanna Clarke" --publisher "Bloomsbury" >/dev/null
wait_for "last save: script"
wait_for "Piranesi"
keys q
for _ in $(seq 30); do tmux has-session -t "$SESSION" 2>/dev/null || break; sleep 0.1; done
pass "status line shows where history starts and the last save's author"

# On PostgreSQL (when a server is given, as CI does): the same scripting commands and app over `--store postgresql://…`.
if [[ -n "${STRATA_POSTGRES_URL:-}" ]]; then
    command -v psql >/dev/null || fail "psql is needed to reset the PostgreSQL schema"
    psql "$STRATA_POSTGRES_URL" -qc 'DROP SCHEMA IF EXISTS bookshelf CASCADE' >/dev/null 2>&1 || fail "could not reset schema bookshelf"
    pg() { "$BOOKSHELF_BIN" --store "$STRATA_POSTGRES_URL" "$@"; }
    pg books add --title "Dune" --author "Frank Herbert" --publisher "Chilton" >/dev/null
    pg books add --title "Kindred" --author "Octavia E. Butler" --publisher "Doubleday" >/dev/null
    [[ "$(pg books list --where 'author BEGINSWITH "Octavia"')" == "Kindred — Octavia E. Butler (Doubleday)" ]] \
        || fail "books list on PostgreSQL"
    [[ "$(pg store migrate --dry-run)" == "The store holds bookshelf's current models; nothing to migrate." ]] \
        || fail "store migrate --dry-run on PostgreSQL"
    tmux new-session -d -s "$SESSION" -x 220 -y 20 "$BOOKSHELF_BIN --store '$STRATA_POSTGRES_URL'"
    wait_for "Kindred"
    wait_for "(schema bookshelf)"
    # Another process saves to the same database: NOTIFY brings the book to the shown list, with no key pressed.
    pg books add --title "Ficciones" --author "Jorge Luis Borges" --publisher "Sur" >/dev/null
    wait_for "Ficciones" 2
    wait_for "last save: script" 2
    keys q
    for _ in $(seq 30); do tmux has-session -t "$SESSION" 2>/dev/null || break; sleep 0.1; done
    psql "$STRATA_POSTGRES_URL" -qc 'DROP SCHEMA IF EXISTS bookshelf CASCADE' >/dev/null 2>&1 || true
    pass "bookshelf on PostgreSQL: scripting commands, the app, another process's save shown live"

    # Two shelves synced through the same server (StrataSync): the book reaches shelf B, the title both changed
    # offline ends the same on both, the delete reaches shelf A.
    psql "$STRATA_POSTGRES_URL" -qc 'DROP SCHEMA IF EXISTS bookshelf_sync CASCADE' >/dev/null 2>&1 || fail "could not reset schema bookshelf_sync"
    out="$("$BOOKSHELF_BIN" sync --hub "$STRATA_POSTGRES_URL" 2>&1)" || fail "bookshelf sync failed: $out"
    grep -qxF "   shelf B: Dune — Frank Herbert (Chilton)" <<<"$out" || fail "sync: the book did not reach shelf B: $out"
    grep -qF "Conflict: title changed on shelf B and on the hub." <<<"$out" || fail "sync: no conflict shown: $out"
    grep -qxF "   The shelves agree." <<<"$out" || fail "sync: the shelves differ: $out"
    psql "$STRATA_POSTGRES_URL" -qc 'DROP SCHEMA IF EXISTS bookshelf_sync CASCADE' >/dev/null 2>&1 || true
    pass "bookshelf sync: two shelves converge through one PostgreSQL hub"
fi

echo "e2e: all checks passed"
