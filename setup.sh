#!/usr/bin/env bash
# stategraph set-up: installs what is missing (Debian packages), builds in
# Release into build/, and runs the main job: `stategraph analyze --all`
# (every rule at its seed size) into runs/, a folder git ignores, so a fresh
# clone stays clean (results/ holds the recorded runs; results/regenerate.sh
# rewrites them on purpose).
#
#   bash setup.sh            # install + build + analyze
#   bash setup.sh --build    # install + build only (what .ci/run uses)
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build needs (gnuplot-nox draws the plots, Open MPI builds
# stategraph-mpi, xxHash checksums table files and checkpoints, nlohmann-json reads
# benchmark JSON); only the missing ones are installed.
packages=(cmake g++ make libtbb-dev libcli11-dev libgtest-dev libbenchmark-dev gnuplot-nox libopenmpi-dev openmpi-bin
          libxxhash-dev nlohmann-json3-dev)
# The independent check of exported graphs (tests/networkx_check.py).
packages+=(python3 python3-networkx)
# stategraph draw's layouts (sfdp, neato: Graphviz).
packages+=(graphviz)
# Fuzzing and the sanitizer jobs of .ci/run (tests/fuzz/run.sh): clang and its
# runtimes (libFuzzer, ASan, UBSan) for the installed clang 14.
packages+=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${STATEGRAPH_CMAKE_ARGS:-} >/dev/null
cmake --build build -j "$(nproc)"

if [[ "${1:-}" != "--build" ]]; then
  ./build/stategraph analyze --all --out runs
fi
