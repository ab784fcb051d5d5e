#!/usr/bin/env bash
# Builds the Dockerfile with buildah (no Docker daemon needed) as TAG (default
# localhost/preflight-gate:dev), on the pinned base or its local stand-in (see base-image.sh),
# with the version and revision labels. Usage: scripts/image/build.sh [TAG]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
tag="${1:-localhost/preflight-gate:dev}"
base="$("$here/base-image.sh")"
version="$(node -p "require('$repo/package.json').version")"
revision="$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)"
# Behind a TLS-intercepting proxy (the host trusts an extra CA), npm inside the build needs it too.
ca=()
host_ca="${NODE_EXTRA_CA_CERTS:-${SSL_CERT_FILE:-}}"
[ -n "$host_ca" ] && [ -f "$host_ca" ] && ca=(--volume "$host_ca:/run/host-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/host-ca.crt)
start=$SECONDS
"$here/buildah.sh" bud --isolation chroot --layers=false --pull=false --quiet "${ca[@]}" \
  --build-arg "NODE_IMAGE=$base" --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
  -f "$repo/Dockerfile" -t "$tag" "$repo" >&2
echo "built $tag on $base in $((SECONDS - start)) s" >&2
echo "$tag"
