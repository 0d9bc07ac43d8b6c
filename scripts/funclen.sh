#!/bin/sh
# Functions over a hundred lines (docs/HACKING.md, Style), checked by make lint and make
# check. A function's length is its body's lines, from the "{" that opens it to the "}"
# that closes it, both in column 0 as the style puts them; a table (an initializer) is
# not a function and is not counted. A function that stays longer says why in
# scripts/funclen.allow ("file function reason", one a line; # starts a comment).
# Prints each long function not allowed as "file:line: name: N lines" and exits 1 when
# there is one; an allowed function that has come under the limit is a note to drop
# its line from the list.
cd "$(dirname "$0")/.." || exit 2
MAX=100
ALLOW=scripts/funclen.allow

long=$(awk -v max="$MAX" '
	FNR == 1 { name = ""; depth = 0 }
	/^[A-Za-z_][A-Za-z0-9_]*\(/ && depth == 0 {
		name = $0; sub(/\(.*/, "", name); next
	}
	/^\{/ && name != "" && depth == 0 { depth = 1; start = FNR; next }
	/^\}/ && depth == 1 {
		if (FNR - start + 1 > max)
			print FILENAME, name, start, FNR - start + 1
		depth = 0; name = ""
	}' lib/*/*.c cmd/*.c)

bad=$(printf '%s\n' "$long" | awk -v allow="$ALLOW" '
	BEGIN {
		while ((getline l < allow) > 0)
			if (l !~ /^[[:space:]]*(#|$)/) {
				split(l, f, /[[:space:]]+/)
				ok[f[1] " " f[2]] = 1
			}
	}
	NF == 4 && !(($1 " " $2) in ok) { print $1 ":" $3 ": " $2 ": " $4 " lines" }')

printf '%s\n' "$long" | awk -v allow="$ALLOW" '
	NF == 4 { seen[$1 " " $2] = 1 }
	END {
		while ((getline l < allow) > 0)
			if (l !~ /^[[:space:]]*(#|$)/) {
				split(l, f, /[[:space:]]+/)
				if (!((f[1] " " f[2]) in seen))
					print "funclen: note: " allow ": " f[1] " " f[2] \
					    " is no longer over the limit: drop its line"
			}
	}' >&2

if [ -n "$bad" ]; then
	printf '%s\n' "$bad"
	echo "funclen: functions over $MAX lines: split them, or say in $ALLOW why not" >&2
	exit 1
fi
n=$(printf '%s\n' "$long" | grep -c .)
echo "funclen: no function over $MAX lines but the $n that $ALLOW lists"
