#!/bin/sh
# demo.sh MAINTSTAT CACHE - the main job on real data: Debian's
# linux-source-6.1 tree, unpacked under CACHE.  Later stages of the
# pipeline add their steps below.
set -eu
ms=$1
cache=$2
tree=$cache/linux-source-6.1
out=${DEMO_OUT:-$cache/demo}
mkdir -p "$out"

step() { printf '\n$ %s\n' "$*"; "$@"; }

step "$ms" --version

# MAINTAINERS: its own health, and who matches a few paths.
step "$ms" coverage "$tree"
"$ms" coverage "$tree" --json > "$out/coverage.json"
echo "(JSON written to $out/coverage.json)"
step "$ms" sections "$tree" net/tls/tls_main.c drivers/infiniband/core/cma.c \
	kernel/sched/core.c arch/arm/boot/dts/sun8i-h3.dtsi
step "$ms" sections --tree "$tree" --full drivers/dma/ioat/dma.c

# Mailing lists: the linux-rdma list's 2023 archive, parsed and counted.
step "$ms" mail stats "$(dirname "$0")/../../shared/data/linux-rdma-2023.mbox.gz"
