# Sourced by the option-parsing cases: copies ttp-report into the current directory
# (with empty inputs a.csv and b.csv)
# beside stub stages that record their arguments (one per line, in stage.args) and
# copy stdin to stdout; STUB_<stage>=N makes a stage exit with N.
cp "$TOP/bin/ttp-report" ./ttp-report
: >a.csv
: >b.csv
for s in parse filter roofline table; do
	cat >ttp-$s <<STUB
#!/bin/sh
for a; do printf '%s\n' "\$a"; done >$s.args
cat
exit \${STUB_$s:-0}
STUB
	chmod +x ttp-$s
done
# show_args: every stage's arguments, in pipeline order
show_args() {
	for s in parse filter roofline table; do
		printf '%s:' $s
		[ -f $s.args ] && while IFS= read -r a; do printf ' [%s]' "$a"; done <$s.args
		echo
	done
}
