#!/usr/bin/env bash
# Replays the decision archive against the pull request's policies (action.yml; docs/replay.md) and
# writes the Markdown report to $RUNNER_TEMP, to the job summary and as outputs report= and
# exit-code= (0 no finding, 1 what replay-fail-on names was found, 2 the replay could not run).
# Never fails itself: the comment step comes first, then "Check the replay" fails the job.
# Environment: ARCHIVE, POLICY_DIR, SINCE, FAIL_ON (newly-allowed, any-change, none), TOLERATE
# (true: runs that cannot be replayed do not fail the check), RUN_URL (a --run-url template).
set -uo pipefail
dir="${RUNNER_TEMP:-$(mktemp -d)}"
report="$dir/preflight-gate-replay.md"
errors="$dir/preflight-gate-replay.err"
args=(replay --archive "$ARCHIVE" --dir "$POLICY_DIR" --format markdown)
if [ -n "${SINCE:-}" ]; then args+=(--since "$SINCE"); fi
if [ "${FAIL_ON:-none}" != none ]; then args+=(--fail-on "$FAIL_ON"); fi
if [ "${TOLERATE:-false}" = true ]; then args+=(--tolerate-not-replayable); fi
if [ -n "${RUN_URL:-}" ]; then args+=(--run-url "$RUN_URL"); fi
preflight-gate "${args[@]}" >"$report" 2>"$errors"
code=$?
cat "$errors" >&2
if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
  code=2
  { printf '### preflight-gate replay could not run\n\n```\n'; head -c 20000 "$errors"; printf '```\n'; } >"$report"
fi
cat "$report" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
{ echo "report=$report"; echo "exit-code=$code"; } >>"${GITHUB_OUTPUT:-/dev/null}"
