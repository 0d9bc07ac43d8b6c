# A generate loop as PyTorch records: a prefill pass over 100 tokens, then 6 decode
# steps of one token; each pass an embedding, 4 layers (linear, add, linear) and the
# lm_head linear and an argmax.
id=0
op() {	# name shape-of-input-0 shape-of-input-1
	id=$((id + 1))
	printf '{"kind":"op","trace":"kineto","id":%d,"op":"%s","launcher":true,"host_start_ns":%d,"host_end_ns":%d,"device_ns":1000,"in":[{"shape":%s},{"shape":%s}]}\n' \
	    $id "$1" $((id * 1000)) $((id * 1000 + 500)) "$2" "$3"
}
pass() {
	op aten::embedding '[1000,64]' "[1,$1]"
	for l in 1 2 3 4; do
		op aten::linear "[1,$1,64]" '[64,64]'
		op aten::add "[1,$1,64]" "[1,$1,64]"
		op aten::linear "[1,$1,64]" '[64,64]'
	done
	op aten::linear "[1,$1,64]" '[1000,64]'
	op aten::argmax "[1,$1,1000]" '[]'
}
pass 100
for s in 1 2 3 4 5 6; do pass 1; done
