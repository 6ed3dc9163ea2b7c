#!/bin/sh
# run.sh builds the OpenCV convertTo harness outside the source tree and runs
# it: bench/opencv/run.sh [l2|mem]. Needs a C++ compiler and OpenCV's
# headers and libraries (Debian: apt-get install g++ pkg-config libopencv-dev).
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/clconv-opencv-bench
mkdir -p "$out"
c++ -O3 -march=native -std=c++17 -o "$out/convertto" "$dir/convertto.cpp" $(pkg-config --cflags --libs opencv4)
exec "$out/convertto" "$@"
