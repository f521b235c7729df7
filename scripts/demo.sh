#!/bin/sh
# demo.sh MAINTSTAT CACHE - the main job on real data.
set -eu
ms=$1
cache=$2
tree=$cache/linux-source-6.1

step() { printf '\n$ %s\n' "$*"; "$@"; }

step "$ms" --version
step "$ms" coverage "$tree"
