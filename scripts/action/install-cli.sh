#!/usr/bin/env bash
# Installs the preflight-gate CLI for the GitHub Action (action.yml) and puts it on the PATH
# ($GITHUB_PATH). Usage: install-cli.sh [PACKAGE]
#  - PACKAGE (an npm spec: preflight-gate@1.2.3 from your registry, a tarball URL or path): installed
#    with production dependencies only into $RUNNER_TEMP.
#  - empty: the CLI is built from the action's own checkout (the ref in `uses:`), with production
#    dependencies only; TypeScript and @types/node (the versions package.json pins) go to a temp
#    prefix for the compile and are not kept. No devDependency of the repository is installed.
set -euo pipefail
action="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}"
tmp="${RUNNER_TEMP:-$(mktemp -d)}/preflight-gate-cli"
path_file="${GITHUB_PATH:-/dev/null}"
npm_quiet=(--no-audit --no-fund --loglevel=error)
start=$SECONDS
# npm install into DIR, run from DIR rather than with --prefix DIR: --prefix also moves npm's global
# config to DIR/etc/npmrc, so the machine's cafile, registry and proxy settings (a self-hosted runner
# behind a TLS-intercepting proxy, an npm mirror) would be dropped. Run from DIR, npm reads the same
# global, user and environment configuration as any npm command on the runner.
install_into() {
  local dir="$1"
  shift
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private": true}' >"$dir/package.json"
  (cd "$dir" && npm install "${npm_quiet[@]}" "$@")
}
if [ -n "${1:-}" ]; then
  # A tarball path is relative to the workspace, where the step runs.
  spec="$1"
  [ -e "$spec" ] && spec="$(cd "$(dirname "$spec")" && pwd)/$(basename "$spec")"
  install_into "$tmp" --omit=dev "$spec"
  bin="$tmp/node_modules/.bin"
else
  cd "$action"
  npm ci --omit=dev --ignore-scripts "${npm_quiet[@]}"
  dev() { node -p "require('./package.json').devDependencies['$1']"; }
  install_into "$tmp/tsc" "typescript@$(dev typescript)" "@types/node@$(dev @types/node)" "esbuild@$(dev esbuild)"
  # The validators compiled from the schemas (src/**/generated/, not committed; docs/decisions/0008-precompiled-validators.md).
  NODE_PATH="$tmp/tsc/node_modules" node scripts/build-validators.js
  # --noCheck: emit only (the repository's CI type-checks); the other @types are devDependencies.
  "$tmp/tsc/node_modules/.bin/tsc" -p tsconfig.build.json --noCheck --typeRoots "$tmp/tsc/node_modules/@types"
  rm -rf "$tmp/tsc"
  bin="$tmp/bin"
  mkdir -p "$bin"
  ln -sf "$action/bin/preflight-gate.js" "$bin/preflight-gate"
fi
version="$("$bin/preflight-gate" --version)"
echo "$bin" >>"$path_file"
echo "preflight-gate $version installed in $((SECONDS - start)) s" >&2
