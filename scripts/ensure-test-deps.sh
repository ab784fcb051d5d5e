#!/usr/bin/env bash
# Makes sure the programs the tests start are on the machine, before `npm test` (and in CI). Each
# one is a command, the Debian package that has it, and what needs it. Nothing missing: a no-op.
# Missing ones: it says which it installs, and why, before installing them with apt-get (as root or
# through sudo). Without apt-get, or without root and sudo, it installs nothing and stops with the
# list to install by hand (other distributions name some packages differently).
# PREFLIGHT_GATE_TEST_DEPS=check only checks: the list and exit 1 when something is missing.
set -euo pipefail
# Debian installs some of them in /usr/sbin (debootstrap), which a non-login shell's PATH may lack.
# PREFLIGHT_GATE_TEST_DEPS_SBIN names other directories to look in ('' none: the script's own tests).
sbin=${PREFLIGHT_GATE_TEST_DEPS_SBIN-/usr/local/sbin:/usr/sbin:/sbin}
[ -n "$sbin" ] && PATH="$PATH:$sbin"
#       command                 Debian package           what needs it
needs=(
  "redis-server             redis-server             the state tests start Redis, Sentinel and Cluster (test/state)"
  "redis-cli                redis-tools              the Redis Cluster tests create the cluster with it"
  "prometheus               prometheus               the signal tests query a real Prometheus (test/signals)"
  "promtool                 prometheus               the chart's alert rules are checked with promtool (test/helm)"
  "prometheus-alertmanager  prometheus-alertmanager  the signal tests query a real Alertmanager"
  "openssl                  openssl                  TLS test certificates; the README example signs with it"
  "curl                     curl                     the README example posts with it (test/readme)"
  "buildah                  buildah                  the image test builds the Dockerfile without a daemon (test/image)"
  "debootstrap              debootstrap              the image test's base where no container registry is reachable"
  "docker-registry          docker-registry          the release rehearsal pushes the image and the chart to it (test/release)"
  "chromium                 chromium                 the playground tests drive it headless (test/playground)"
  "faketime                 faketime                 the bundled policies are validated a year and three years ahead (test/cli/any-date)"
)
missing=()
report=()
for line in "${needs[@]}"; do
  read -r cmd pkg why <<<"$line"
  command -v "$cmd" >/dev/null 2>&1 && continue
  [[ " ${missing[*]} " == *" $pkg "* ]] || missing+=("$pkg")
  report+=("  $cmd (Debian package $pkg): $why")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "the tests need these programs, which are missing:" >&2
printf '%s\n' "${report[@]}" >&2

stop() {
  echo "$1" >&2
  echo "Install them, then run npm test again; on Debian or Ubuntu: apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
}
[ "${PREFLIGHT_GATE_TEST_DEPS:-install}" = check ] && stop "nothing installed (PREFLIGHT_GATE_TEST_DEPS=check)."
command -v apt-get >/dev/null 2>&1 || stop "this machine has no apt-get to install them: nothing installed."
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  stop "installing them needs root or sudo, and this is neither: nothing installed."
fi
echo "installing with apt-get: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The Debian packages start system services; the tests start their own on free ports.
for svc in redis-server prometheus prometheus-alertmanager docker-registry; do $SUDO service "$svc" stop >/dev/null 2>&1 || true; done
