#!/usr/bin/env bash
# Builds what a release publishes, here, with the steps the tests rehearse the release with
# (docs/releasing.md): the image (scripts/image/build.sh, buildah), the chart (`helm package`) and
# the npm package (`npm pack`), all at package.json's version, into OUT (default .release/):
#   image: localhost/preflight-gate:<version> in buildah's storage (scripts/image/buildah.sh), and
#          OUT/image/preflight-gate-<version>.tar, a docker-archive of it (docker load, kind load
#          image-archive, skopeo copy)
#   chart: OUT/chart/preflight-gate-<version>.tgz (its default image: the release's, on ghcr.io)
#   npm:   OUT/npm/preflight-gate-<version>.tgz (npm install -g ./OUT/npm/preflight-gate-<version>.tgz)
# Usage: scripts/release/build-local.sh [--out DIR] [--prebuilt] [image] [chart] [npm]
#   (`npm run release:local`; no part named: all three). --prebuilt packs the dist/ that is there
#   instead of running `npm run build` first (the tests, whose pretest built it).
# Progress goes to stderr; stdout is one line per artifact: its kind and where it is.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
out="$repo/.release"
build=true
parts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --prebuilt) build=false; shift ;;
    image | chart | npm) parts+=("$1"); shift ;;
    *) echo "usage: build-local.sh [--out DIR] [--prebuilt] [image] [chart] [npm] (got '$1')" >&2; exit 2 ;;
  esac
done
[ ${#parts[@]} -gt 0 ] || parts=(image chart npm)
mkdir -p "$out"
out="$(cd "$out" && pwd)"
version="$(node -p "require('$repo/package.json').version")"
wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }

# helm from the PATH, else the one the tests run (scripts/release/helm-binary.js: extracted from a
# devDependency), so a clone after `npm ci` needs no helm install.
helm_binary() { command -v helm || node "$repo/scripts/release/helm-binary.js"; }

start=$SECONDS
if wants npm; then
  if $build; then (cd "$repo" && npm run build >&2); fi
  mkdir -p "$out/npm"
  # --ignore-scripts: dist/ is built above (or by the caller); `prepare` would build it again.
  file="$(cd "$repo" && npm pack --ignore-scripts --silent --pack-destination "$out/npm")"
  echo "npm $out/npm/$file"
fi
if wants chart; then
  mkdir -p "$out/chart"
  helm="$(helm_binary)"
  # Helm's config and cache in a temp dir: packaging needs no repository and leaves the user's alone.
  helm_home="$(mktemp -d)"
  HELM_CONFIG_HOME="$helm_home/config" HELM_CACHE_HOME="$helm_home/cache" HELM_DATA_HOME="$helm_home/data" \
    "$helm" package "$repo/helm" --destination "$out/chart" >&2
  rm -rf "$helm_home"
  echo "chart $out/chart/preflight-gate-$version.tgz"
fi
if wants image; then
  tag="localhost/preflight-gate:$version"
  bash "$repo/scripts/image/build.sh" "$tag" >/dev/null
  mkdir -p "$out/image"
  rm -f "$out/image/preflight-gate-$version.tar"
  bash "$repo/scripts/image/buildah.sh" push --quiet "$tag" "docker-archive:$out/image/preflight-gate-$version.tar:$tag" >&2
  echo "image $tag $out/image/preflight-gate-$version.tar"
fi
echo "release:local: ${parts[*]} of $version built in $((SECONDS - start)) s, in $out" >&2
