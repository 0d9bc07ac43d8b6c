# Not run by the golden runner: on main at dffe038, TERM (also HUP, INT) to
# ttp-tracelens --multi-rank while its map runs leaves its temporary directory in
# TMPDIR and the map (xargs, its sh, ttp-parse, ttp-filter --collectives) running on
# after the driver is gone: cmd/ttp-tracelens.sh's multi-rank path has only
# "trap 'rm -rf $mtmp' EXIT" (dash runs no EXIT trap on a signal it does not trap) and
# does not kill its xargs. It takes a regular file per rank ([ -f ]), so the FIFO of cmd
# does not serve; two ranks of 30,000 collectives (3 MB each) take long enough.
python3 "$TOP/tests/bench/gen-ranks.py" big 2 30000 2
mkdir t; TMPDIR=$PWD/t; export TMPDIR
ttp-tracelens --multi-rank --trace_dir big --world_size 2 --output_csvs_dir mr 2>err &
pid=$!
sleep 0.7
kill -TERM $pid
wait $pid; echo "rc=$?"
sleep 1
echo "temporary files: $(ls -A t | wc -l), processes left: $(stages)"	# today: 1 and 4
