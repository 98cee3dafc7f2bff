#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
#
# Records what ptelens-cli prints for the read-only commands on the corpus, one file per run, so that two
# snapshots (before and after a restructuring) compare with `diff -r`:
#
#   scripts/cli-snapshot.sh build/bin/ptelens-cli /tmp/snap-before
#   ... change, rebuild ...
#   scripts/cli-snapshot.sh build/bin/ptelens-cli /tmp/snap-after
#   diff -r /tmp/snap-before /tmp/snap-after
#
# Inputs: every file in $PTELENS_CORPUS/pte and $PTELENS_CORPUS/dumps (default /work/shared/fixtures), plus the
# hand-written dumps in tests/data/dumps and tests/data/zoo. Commands: info, verify, delegates, dump --json (.pte),
# graph (dumps), profile (.etdp, with and without the program it came from; plain, --json, --csv, --tsv),
# diff of a few pairs, emit of every dump (the hash of the written .pte), each with and without --json. Every run
# records stdout, stderr and the exit code. Paths are written relative to the input folders, so snapshots taken
# from different worktrees compare equal. No command prints timing of its own work, so nothing is filtered.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 PTELENS-CLI OUTDIR" >&2
    exit 2
fi
cli=$(realpath "$1")
out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
corpus=${PTELENS_CORPUS:-/work/shared/fixtures}
if [ ! -x "$cli" ] || [ ! -d "$corpus/pte" ]; then
    echo "$0: need an executable ptelens-cli and the corpus at $corpus" >&2
    exit 2
fi
rm -rf "$out"
mkdir -p "$out"/{info,verify,delegates,graph,dump,profile,diff,emit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME ARGS...: stdout, stderr and the exit code of one run into $out/NAME.{out,err,rc}. Absolute input paths
# in the output are shortened to the placeholders CORPUS/, REPO/ and TMP/.
run() {
    local name=$1
    shift
    "$cli" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.rc"
    sed -i -e "s#$corpus/#CORPUS/#g" -e "s#$repo/#REPO/#g" -e "s#$tmp/#TMP/#g" "$out/$name.out" "$out/$name.err"
}

# both NAME ARGS...: the run plain and with --json.
both() {
    local name=$1
    shift
    run "$name" "$@"
    run "$name.json" "$@" --json
}

shopt -s nullglob
for f in "$corpus"/pte/*; do
    b=$(basename "$f")
    case "$b" in
    *.pte | *.bpte | *.bp)
        both "info/$b" info "$f"
        both "verify/$b" verify "$f"
        both "delegates/$b" delegates "$f"
        run "dump/$b.json" dump --json "$f"
        ;;
    *.ptd)
        both "info/$b" info "$f"
        both "verify/$b" verify "$f"
        ;;
    *.etdp)
        both "profile/$b" profile "$f"
        run "profile/$b.csv" profile "$f" --csv
        run "profile/$b.tsv" profile "$f" --tsv
        ;;
    esac
done

dumps=("$corpus"/dumps/*.pt2 "$corpus"/dumps/*.bin "$corpus"/dumps/*.ep "$repo"/tests/data/dumps/*.json
    "$repo"/tests/data/zoo/*.json)
for f in "${dumps[@]}"; do
    b=$(basename "$f")
    both "graph/dump-$b" graph "$f"
    run "emit/$b" emit "$f" -o "$tmp/$b.pte"
    if [ -f "$tmp/$b.pte" ]; then
        sha256sum <"$tmp/$b.pte" >"$out/emit/$b.sha256"
        both "emit/$b.info" info "$tmp/$b.pte"
    fi
done

p=$corpus/pte
pairs=(
    "pytorch_executorch__add.pte pytorch_executorch__xnnpack_add.pte"
    "pytorch_executorch__operator_and_model_testing__conv2d__pte__conv2d_layer0_conv1.pte pytorch_executorch__operator_and_model_testing__conv2d__pte1__conv2d_layer0_conv1.pte"
    "pytorch_executorch__operator_and_model_testing__conv2d__pte1__conv2d_layer0_conv1.pte pytorch_executorch__operator_and_model_testing__conv2d__pte1__conv2d_quantized.pte"
    "berndporr_dnf_executorch__dnf.pte berndporr_dnf_executorch__test__dnf_executorch.pte"
    "kadu-v_yolox-executorch-ios__engine__models__yolox_nano_coreml.pte kadu-v_yolox-executorch-ios__engine__models__yolox_nano_xnnpack.pte"
    "corey-cole_executorch-numpy-runtime__tests__models__dynamic.pte corey-cole_executorch-numpy-runtime__tests__models__multi.pte"
    "corey-cole_executorch-numpy-runtime__tests__models__quantized.pte corey-cole_executorch-numpy-runtime__tests__models__dtypes.pte"
    "corey-cole_djl-executorch-engine__src__test__resources__lstm__lstm.pte corey-cole_djl-executorch-engine__src__test__resources__models__stress__stress_mlp.pte"
    "pytorch_executorch__test__models__deprecated__ModuleLinear-no-constant-segment.pte corey-cole_simple-torch-model__model.pte"
    "arm-education_executorch_on_arm_labs__NPU_Lab_ExecuTorch__out_pte__mobilenetv2_int8_ethosu.pte Arm-Examples_CMSIS-Executorch__ai_layer__engine__model__ethos_u_minimal_example.pte"
    "pytorch_executorch__add.pte pytorch_executorch__add.pte"
)
i=0
for pair in "${pairs[@]}"; do
    read -r a b <<<"$pair"
    both "diff/pte-$i" diff "$p/$a" "$p/$b"
    i=$((i + 1))
done
d=$corpus/dumps
t=$repo/tests/data/dumps
dumppairs=(
    "$d/et_pt2_archive_linear.pt2 $p/pytorch_executorch__test__models__deprecated__ModuleLinear-no-constant-segment.pte"
    "$d/et_pt2_archive_linear.pt2 $d/hades-pid_exported_program.pt2"
    "$d/et_sample_etrecord_2023.bin $d/tensorrt_trt_v7.3.ep"
    "$t/dynamic.json $t/counter_single_key.json"
    "$t/delegate_edge.json $t/delegate_named_data.json"
    "$repo/tests/data/zoo/mobilenetv3_inverted_residual.json $repo/tests/data/zoo/resnet_basic_block.json"
)
i=0
for pair in "${dumppairs[@]}"; do
    read -r a b <<<"$pair"
    both "diff/dump-$i" diff "$a" "$b"
    i=$((i + 1))
done

e=$p/pytorch_executorch__docs__source__tutorials_source__etdump.etdp
both profile/tutorial-with-program profile "$e" --program "$p/pytorch_executorch__docs__source__tutorials_source__bundled_program.bp"
run profile/tutorial-with-program.csv profile "$e" --program "$p/pytorch_executorch__docs__source__tutorials_source__bundled_program.bp" --csv
echo "$(find "$out" -name '*.rc' | wc -l) runs recorded in $out"
