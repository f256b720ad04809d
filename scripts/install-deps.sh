#!/bin/sh
# install-deps.sh - install the Debian packages vlayer needs, if any is missing.
# Runs apt-get update first; as root directly, otherwise through sudo.
set -eu
PKGS="gcc make iproute2 pkg-config pvm pvm-dev pvm-examples libinih-dev check libsubunit-dev openmpi-bin libopenmpi-dev gfortran python3-mpi4py lammps hpcc netpipe-openmpi netpipe-pvm libscalapack-openmpi-dev libopenblas-dev pajeng libopen-trace-format2-dev otf2-tools gnuplot-nox chromium libxml2-utils tablix2 libsimgrid-dev"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "vlayer: installing Debian packages:$missing"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
