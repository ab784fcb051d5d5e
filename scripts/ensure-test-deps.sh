#!/usr/bin/env bash
# Installs the real servers the integration tests start (redis-server, prometheus/promtool,
# prometheus-alertmanager), the tools of the README example (openssl, curl) and the image build
# (buildah, debootstrap) when they are missing. Runs before `npm test`; a
# no-op when they are already there.
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# The Cluster tests create the cluster with redis-cli (Debian: redis-tools); Sentinel runs as
# `redis-server <file> --sentinel`, so the redis-sentinel package is not needed. TLS tests use openssl.
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
{ command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; } || missing+=(prometheus)
command -v prometheus-alertmanager >/dev/null 2>&1 || missing+=(prometheus-alertmanager)
# The README example (run by test/readme) signs with openssl and posts with curl.
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v curl >/dev/null 2>&1 || missing+=(curl)
# The image test (test/image) builds the Dockerfile with buildah and, where no container registry is
# reachable, assembles the base image with debootstrap (scripts/image/).
command -v buildah >/dev/null 2>&1 || missing+=(buildah)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "tests need: ${missing[*]} (Debian packages); installing" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "cannot install ${missing[*]}: not root and no sudo. Install them, e.g. apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The Debian packages start system services; the tests start their own on free ports.
for svc in redis-server prometheus prometheus-alertmanager; do $SUDO service "$svc" stop >/dev/null 2>&1 || true; done
