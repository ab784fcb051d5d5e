#!/usr/bin/env bash
# buildah as the image scripts and the image test use it: no daemon, no root-only overlay mounts
# (vfs storage), chroot isolation, and one storage dir per machine so that the base image is
# pulled or assembled once. PREFLIGHT_GATE_IMAGE_CACHE moves that dir.
set -euo pipefail
cache="${PREFLIGHT_GATE_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/preflight-gate-image}"
mkdir -p "$cache/storage" "$cache/run"
export BUILDAH_ISOLATION=chroot
exec buildah --storage-driver vfs --root "$cache/storage" --runroot "$cache/run" "$@"
