#!/bin/sh
# The HTML pages in a real browser (issue 29): ttp-report's page of the sample TT trace
# and ttp-tracelens's of the sample PyTorch trace and of the small JAX profile, each
# loaded by headless Chromium. A
# page passes when it loads without a script error, its script ran to the end, its
# tables and charts are in the document, and a click on a header sorts its table (a test
# script appended to a copy of the page clicks and checks). A screenshot of each page is
# written to build/browser/ for a person to look at. Skipped, with a notice, when neither
# chromium nor chromium-headless-shell is on PATH (Debian: apt-get install chromium).
TOP=$(cd "$(dirname "$0")/.." && pwd)
PATH=$TOP/bin:$PATH
out=$TOP/build/browser

browser=
for b in chromium chromium-headless-shell chrome-headless-shell; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
if [ -z "$browser" ]; then
	echo "browser check: SKIPPED: no chromium or chromium-headless-shell on PATH (Debian: apt-get install chromium)"
	exit 0
fi

echo "browser check with $browser"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ttp-browser.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out" || exit 1
cd "$TOP" || exit 1

# run ARGS...: the browser, headless, with a profile of its own, at most 90 s
run() {
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
	    --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 "$@"
}

pass=0 fail=0
# check NAME PAGE TABLES SVGS: the page has at least TABLES sortable tables and SVGS
# charts, and behaves as said above
check() {
	name=$1 page=$2 ntab=$3 nsvg=$4 why=
	# the test: a click on the first header whose column holds numbers sorts the rows
	# ascending, a second click descending
	sed 's|</body>|<script>\
(function(){var th=null,t=null;document.querySelectorAll("table.sheet").forEach(function(x){\
 if(th)return;var r=x.tBodies[0].rows;if(r.length<2)return;\
 for(var i=0;i<r[0].cells.length;i++)if(r[0].cells[i].dataset.v!==undefined){th=x.tHead.rows[0].cells[i];t=x;break;}});\
 if(!th){document.body.dataset.sorted="no numeric column";return;}\
 function col(){return Array.prototype.map.call(t.tBodies[0].rows,function(r){var c=r.cells[th.cellIndex];\
  return c.dataset.v===undefined?null:parseFloat(c.dataset.v);}).filter(function(v){return v!==null;});}\
 function sorted(v,d){for(var i=1;i<v.length;i++)if(d*(v[i]-v[i-1])<0)return false;return true;}\
 th.click();var a=sorted(col(),1);th.click();var d=sorted(col(),-1);\
 document.body.dataset.sorted=a\&\&d?"ok":"not sorted";})();\
</script></body>|' "$page" >"$tmp/$name-test.html"
	run --dump-dom "file://$tmp/$name-test.html" >"$tmp/$name.dom" 2>"$tmp/$name.err"
	rc=$?
	tables=$(grep -o '<table class="sheet">' "$tmp/$name.dom" | wc -l)
	svgs=$(grep -o '<svg' "$tmp/$name.dom" | wc -l)
	if [ "$rc" -ne 0 ]; then
		why="the browser exited with status $rc: $(tail -n 3 "$tmp/$name.err" | tr '\n' ' ')"
	elif grep -q -e 'Uncaught' -e 'SyntaxError' "$tmp/$name.err"; then
		why="a script error: $(grep -m 1 -e 'Uncaught' -e 'SyntaxError' "$tmp/$name.err")"
	elif ! grep -q 'data-ready="1"' "$tmp/$name.dom"; then
		why="the page's script did not run to its end"
	elif [ "$tables" -lt "$ntab" ]; then
		why="$tables tables in the document, want at least $ntab"
	elif [ "$svgs" -lt "$nsvg" ]; then
		why="$svgs charts in the document, want at least $nsvg"
	elif ! grep -q 'data-sorted="ok"' "$tmp/$name.dom"; then
		why="a click on a header did not sort its table ($(grep -o 'data-sorted="[^"]*"' "$tmp/$name.dom"))"
	fi
	run --hide-scrollbars --window-size=1280,2400 --screenshot="$out/$name.png" \
	    "file://$TOP/$page" >/dev/null 2>"$tmp/$name.shot"
	if [ -z "$why" ] && [ ! -s "$out/$name.png" ]; then
		why="no screenshot: $(tail -n 1 "$tmp/$name.shot")"
	fi
	if [ -z "$why" ]; then
		echo "ok - browser: $name: $tables tables, $svgs charts, sorting works; screenshot build/browser/$name.png"
		pass=$((pass + 1))
	else
		echo "not ok - browser: $name: $why"
		fail=$((fail + 1))
	fi
}

ttp-report -q tests/data/sample.csv --html "build/browser/tt-report.html" >/dev/null ||
    echo "not ok - browser: ttp-report --html failed"
ttp-tracelens -q --profile_json_path tests/data/kineto/sample.json \
    --output_csvs_dir "$tmp/csvs" --output_html_path "build/browser/pytorch-report.html" >/dev/null ||
    echo "not ok - browser: ttp-tracelens --output_html_path failed"
ttp-tracelens -q --jax --profile_path tests/data/jax/small.xplane.pb \
    --output_csvs_dir "$tmp/jcsvs" --output_html_path "build/browser/jax-report.html" >/dev/null ||
    echo "not ok - browser: ttp-tracelens --jax --output_html_path failed"
check tt-report build/browser/tt-report.html 2 1
check pytorch-report build/browser/pytorch-report.html 8 3
check jax-report build/browser/jax-report.html 9 1
echo "browser: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
