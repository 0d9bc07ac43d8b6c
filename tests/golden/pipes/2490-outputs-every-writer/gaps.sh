# Not run by the golden runner: the writers that, on main at dffe038, still replace an
# input named as their output (exit 0, the input destroyed). Each line belongs in cmd
# (after the definitions of same and ranks) once its owner fixes it; today each prints
# "rc=0, input CHANGED".
cp "$TESTDATA/jax/small.xplane.pb" in.pb
same "--jax --output_xlsx_path" in.pb ttp-tracelens --jax --profile_path in.pb --output_xlsx_path in.pb
ranks
same "--multi-rank --output_xlsx_path" r/rank0_trace.json.gz ttp-tracelens --multi-rank \
    --trace_dir r --world_size 2 --output_xlsx_path r/rank0_trace.json.gz
ranks
same "ttp-ranks -o (a rank's folder)" r/rank1_trace.json.gz sh -c 'mv r/rank1_trace.json.gz r/rank1 &&
    ttp-ranks -q -o r r/rank0_trace.json.gz r/rank1; rc=$?; mv r/rank1 r/rank1_trace.json.gz; exit $rc'
ranks
same "ttp-ranks -o (a collective sheet)" r/rank1_trace.json.gz sh -c 'mv r/rank1_trace.json.gz r/nccl_long.csv &&
    ttp-ranks -q -o r r/rank0_trace.json.gz r/nccl_long.csv; rc=$?; mv r/nccl_long.csv r/rank1_trace.json.gz; exit $rc'
