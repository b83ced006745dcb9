#!/bin/sh
# Regenerates the committed PTX from the CUDA sources (nvcc 12/13).
set -e
cd "$(dirname "$0")"
for f in *.cu; do
  nvcc -ptx -arch=sm_75 -O3 -o "${f%.cu}.ptx" "$f"
done
