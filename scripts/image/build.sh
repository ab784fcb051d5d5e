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
# npm inside the build uses what npm on this machine is configured with (`npm config get`, so the
# global and user npmrc and the environment count): the registry (a mirror), the CA it trusts (a
# TLS-intercepting proxy: NODE_EXTRA_CA_CERTS, npm's cafile or SSL_CERT_FILE, mounted, not kept in
# the image) and its proxy (passed as the proxy environment, which buildah hands to RUN steps
# without recording it in the image history).
npm_get() { local v; v="$(npm config get "$1" 2>/dev/null || true)"; [ "$v" = null ] || [ "$v" = undefined ] || echo "$v"; }
ca=()
host_ca="${NODE_EXTRA_CA_CERTS:-$(npm_get cafile)}"
host_ca="${host_ca:-${SSL_CERT_FILE:-}}"
[ -n "$host_ca" ] && [ -f "$host_ca" ] && ca=(--volume "$host_ca:/run/host-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/host-ca.crt)
registry="$(npm_get registry)"
https_proxy_npm="$(npm_get https-proxy)"
proxy_npm="$(npm_get proxy)"
[ -n "${HTTPS_PROXY:-${https_proxy:-}}" ] || [ -z "$https_proxy_npm" ] || export HTTPS_PROXY="$https_proxy_npm"
[ -n "${HTTP_PROXY:-${http_proxy:-}}" ] || [ -z "$proxy_npm" ] || export HTTP_PROXY="$proxy_npm"
# RUN steps get buildah's default of 1024 open files: npm ci from a warm cache mount (a second build
# on the same machine) opens more at once and fails with EMFILE. The hard limit this shell has is one
# buildah may set.
nofile="$(ulimit -Hn)"
[ "$nofile" = unlimited ] && nofile=1048576
start=$SECONDS
"$here/buildah.sh" bud --isolation chroot --layers=false --pull=false --quiet --ulimit "nofile=$nofile:$nofile" "${ca[@]}" \
  --build-arg "NODE_IMAGE=$base" --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
  --build-arg "NPM_CONFIG_REGISTRY=${registry:-https://registry.npmjs.org/}" \
  -f "$repo/Dockerfile" -t "$tag" "$repo" >&2
echo "built $tag on $base in $((SECONDS - start)) s" >&2
echo "$tag"
