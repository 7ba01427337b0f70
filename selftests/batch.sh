#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pacerctl -b FILE, -force and -n NETNS:
# - a file with comments (whole lines, indented, after a command), blank
#   lines, CRLF line ends, double and single quotes and quotes inside a
#   word, escapes in double quotes: every command applied (the classes'
#   names come back exactly: "two words", "it's", 'say "hi"', "a#b", a
#   backslash), exit 0;
# - the first failing line stops the run: exit 1 for a line the kernel
#   refuses (2 for a usage error, or an unclosed quote), one message
#   naming FILE:LINE, and nothing after that line applied; a NUL byte in
#   a line is a usage error, never the end of the line;
# - -force runs every line: the later ones are applied, every failing
#   line is named, exit 1;
# - -b - reads standard input (messages name "stdin:LINE");
# - a missing FILE: exit 1; -b with a command, -force without -b: exit 2;
#   a message names FILE:LINE however long FILE is;
# - tc's -force and -batch and ip's -netns wherever an option may stand
#   (after -o FMT, after -b FILE), but never as an option's value: -b
#   -force reads a file named "-force";
# - -n NETNS runs the command (and a batch) in that namespace; an unknown
#   NETNS: exit 1.
# - -j with -b: each "show" line prints its own JSON array.
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require pacerctl jq

setup_ns NS
load_pacer
pacer_add "$NS" pacer0
F=$TMPD/batch

# ids: the class ids of pacer0, on one line.
ids() {
	pc "$NS" -j class show dev pacer0 | json_each id | words
}

# name_of ID: the name of class ID.
name_of() {
	pc "$NS" -j class show dev pacer0 id "$1" | jq -r '.[0].name'
}

step "comments, blank lines, quotes, CRLF"
{
	echo "# a batch file"
	echo ""
	echo "   # an indented comment"
	echo "class add dev pacer0 id 1 rate 1mbit name \"two words\"   # trailing comment"
	echo "class add dev pacer0 id 2 rate 1mbit name \"it's\""
	echo "class add dev pacer0 id 3 rate 1mbit name 'say \"hi\"'"
	echo "class add dev pacer0 id 4 rate 1mbit name \"a#b\""
	echo "class add dev pacer0 id 5 rate 1mbit name x\"y z\"w"
	echo "class add dev pacer0 id 6 rate 1mbit name \"q\\\"\\\\e\""
	printf 'class add dev pacer0 id 7 rate 1mbit name crlf\r\n'
	printf '\t\n'
	echo "rule add dev pacer0 pref 10 proto udp class 1"
} >"$F"
log "file:"
sed 's/^/    | /' "$F"
check_ok "pacerctl -b FILE" pc "$NS" -b "$F"
check_eq "classes made" "$(ids)" "0 1 2 3 4 5 6 7"
check_eq "double quotes keep the space" "$(name_of 1)" "two words"
check_eq "a single quote inside double quotes" "$(name_of 2)" "it's"
check_eq "double quotes inside single quotes" "$(name_of 3)" 'say "hi"'
check_eq "# inside quotes is no comment" "$(name_of 4)" "a#b"
check_eq "quotes inside a word" "$(name_of 5)" "xy zw"
check_eq "\\\" and \\\\ in double quotes" "$(name_of 6)" 'q"\e'
check_eq "CRLF line end" "$(name_of 7)" "crlf"
check_eq "the rule after them" "$(pc "$NS" -j rule show dev pacer0 | json_each pref | words)" 10

step "the first failing line stops the run"
cat >"$F" <<'EOF'
class add dev pacer0 id 20 rate 1mbit
class add dev pacer0 id 21 rate 1mbit

class add dev pacer0 id 20 rate 2mbit
class add dev pacer0 id 22 rate 1mbit
EOF
check_fail "class 20 twice (line 4): exit 1" 1 "pacerctl: $F:4: cannot add class 20" \
	pc "$NS" -b "$F"
check_eq "one message" "$(wc -l <"$TMPD/err")" 1
check_eq "lines 1-2 applied, line 5 not" "$(ids)" "0 1 2 3 4 5 6 7 20 21"
check_eq "class 20 keeps its rate" "$(pc "$NS" -j class show dev pacer0 id 20 | jq '.[0].rate_bps')" 1000000

cat >"$F" <<'EOF'
class add dev pacer0 id 23 rate 1mbit
class add dev pacer0 id 24 rate fast
class add dev pacer0 id 25 rate 1mbit
EOF
check_fail "a usage error (line 2): exit 2" 2 "pacerctl: $F:2: invalid rate \"fast\"" \
	pc "$NS" -b "$F"
check_eq "line 1 applied, line 3 not" "$(ids)" "0 1 2 3 4 5 6 7 20 21 23"

printf 'class add dev pacer0 id 26 rate 1mbit name "open\nclass add dev pacer0 id 27 rate 1mbit\n' >"$F"
check_fail "an unclosed quote: exit 2" 2 "pacerctl: $F:1: a quote is not closed" pc "$NS" -b "$F"
check_eq "nothing applied" "$(ids)" "0 1 2 3 4 5 6 7 20 21 23"

printf 'class add dev pacer0 id 28 rate 1mbit\000 name nul\nclass add dev pacer0 id 29 rate 1mbit\n' >"$F"
check_fail "a NUL byte in a line: exit 2" 2 "pacerctl: $F:1: a NUL byte at column 38" pc "$NS" -b "$F"
check_eq "nothing applied, not the line up to the NUL either" "$(ids)" "0 1 2 3 4 5 6 7 20 21 23"

step "-force runs every line"
cat >"$F" <<'EOF'
class add dev pacer0 id 30 rate 1mbit
class add dev pacer0 id 30 rate 1mbit
class add dev pacer0 id 31 rate nope
class add dev pacer0 id 32 rate 1mbit
EOF
check_fail "-force: exit 1" 1 "pacerctl: $F:2: cannot add class 30" pc "$NS" -force -b "$F"
check_eq "-force: line 3 named too" "$(grep -c "pacerctl: $F:3: invalid rate" "$TMPD/err")" 1
check_eq "-force: lines 1 and 4 applied" "$(ids)" "0 1 2 3 4 5 6 7 20 21 23 30 32"
check_ok "-force, every line fine: exit 0" pc "$NS" -force -b /dev/null

step "-b - reads standard input"
printf 'class add dev pacer0 id 40 rate 1mbit\nclass add dev pacer0 id 41 rate 1mbit name "from stdin"\n' >"$F"
check_ok "-b - <FILE" sh -c "ip netns exec $NS pacerctl -b - <$F"
check_eq "lines of stdin applied" "$(name_of 41)" "from stdin"
printf 'class add dev pacer0 id 42 rate 1mbit\nclass del dev pacer0 id 99\n' >"$F"
check_fail "stdin: the message names stdin:2" 1 "pacerctl: stdin:2: cannot delete class 99" \
	sh -c "ip netns exec $NS pacerctl -b - <$F"

step "what -b refuses"
check_fail "a missing file: exit 1" 1 "cannot read \"$TMPD/none\"" pc "$NS" -b "$TMPD/none"
check_fail "-b and a command: exit 2" 2 "-b FILE takes its commands from FILE" \
	pc "$NS" -b "$F" class show dev pacer0
check_fail "-force without -b: exit 2" 2 "-force goes with -b FILE" pc "$NS" -force class show dev pacer0
check_fail "-b without FILE: exit 2" 2 "needs a FILE" pc "$NS" -b
check_fail "-batch without FILE: named as said" 2 '"-batch" needs a FILE' pc "$NS" -batch
LONG=$TMPD/a-directory-whose-name-alone-is-longer-than-sixty-four-bytes/batch
mkdir -p "${LONG%/*}"
printf '# a comment\nclass add dev pacer0 id 60 rate fast\n' >"$LONG"
check_fail "a long path: FILE:LINE whole" 2 "pacerctl: $LONG:2: invalid rate \"fast\"" \
	pc "$NS" -b "$LONG"

step "-force, -batch and -netns among the options, never as a value"
check_ok "-force after -o json" pc "$NS" -o json -force -b /dev/null
check_ok "-force after -b FILE" pc "$NS" -b /dev/null -force
check_ok "-batch after -j" pc "$NS" -j -batch /dev/null
check_fail "-b -force: a file named -force" 1 'cannot read "-force"' pc "$NS" -b -force
check_fail "-n -force: a namespace named -force" 1 'cannot open network namespace "-force"' \
	pacerctl -n -force dev show

step "-j with -b: an array per show line"
printf 'class show dev pacer0 id 1\nrule show dev pacer0\n' >"$F"
out=$(pc "$NS" -j -b "$F")
log "$out"
check_eq "two JSON arrays" "$(printf '%s\n' "$out" | jq -s 'length')" 2
check_eq "the class, then the rule" "$(printf '%s\n' "$out" | jq -s -r '"\(.[0][0].id) \(.[1][0].pref)"')" "1 10"

step "-n NETNS"
check_eq "-n runs in the namespace" "$(pacerctl -n "$NS" -j class show dev pacer0 id 41 | jq -r '.[0].name')" "from stdin"
printf 'class add dev pacer0 id 50 rate 1mbit\n' >"$F"
check_ok "-n with -b" pacerctl -n "$NS" -b "$F"
check_eq "the batch ran in the namespace" "$(pc "$NS" -j class show dev pacer0 id 50 | jq '.[0].id')" 50
check_fail "-n with an unknown namespace: exit 1" 1 'cannot open network namespace "pacer-none"' \
	pacerctl -n pacer-none dev show
check_fail "-n with a path: exit 2" 2 'invalid network namespace name "a/b"' pacerctl -n a/b dev show
check_eq "-netns after -j" "$(pacerctl -j -netns "$NS" class show dev pacer0 id 41 | jq -r '.[0].name')" "from stdin"

ksft_exit
