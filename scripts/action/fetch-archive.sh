#!/usr/bin/env bash
# Fetches the decision archive the action replays (action.yml, input replay-archive) and writes
# its local path to $GITHUB_OUTPUT (path=...). Usage: fetch-archive.sh SOURCE
#  - http(s)://...  one archive file (plain or gzipped), e.g. a pre-signed bucket URL: curl, fails on
#                   an HTTP error. REPLAY_ARCHIVE_HEADER (optional) is sent as one request header.
#  - s3://bucket/prefix  passed on as it is: `preflight-gate replay` reads the bucket itself with the AWS
#                   SDK (credentials from the job's environment, e.g. aws-actions/configure-aws-credentials;
#                   an S3-compatible store: DECISION_ARCHIVE_S3_ENDPOINT in the job's env). No aws CLI.
#  - anything else  a file or directory in the workspace, e.g. where actions/download-artifact put it.
set -euo pipefail
source="${1:?usage: fetch-archive.sh SOURCE}"
dest="${RUNNER_TEMP:-$(mktemp -d)}/preflight-gate-archive"
output="${GITHUB_OUTPUT:-/dev/null}"
case "$source" in
  http://* | https://*)
    mkdir -p "$dest"
    file="$dest/decisions-fetched.jsonl"
    header=()
    if [ -n "${REPLAY_ARCHIVE_HEADER:-}" ]; then header=(--header "$REPLAY_ARCHIVE_HEADER"); fi
    curl --fail --silent --show-error --location --retry 3 "${header[@]}" --output "$file" "$source"
    path="$file"
    ;;
  s3://*)
    echo "path=$source" >>"$output"
    echo "decision archive: $source (read by preflight-gate replay)" >&2
    exit 0
    ;;
  *://*)
    echo "::error title=preflight-gate replay::replay-archive: ${source%%://*}:// is not a source this action fetches (http, https, s3); copy the archive into the workspace in an earlier step and name that path" >&2
    exit 1
    ;;
  *)
    if [ ! -e "$source" ]; then
      echo "::error title=preflight-gate replay::replay-archive: $source does not exist in the workspace (did the step that downloads it run?)" >&2
      exit 1
    fi
    path="$source"
    ;;
esac
echo "path=$path" >>"$output"
echo "decision archive: $path ($(du -sh "$path" | cut -f1))" >&2
