#!/usr/bin/env bash
# Compares the base branch's policies with the pull request's over every run (preflight-gate diff;
# action.yml, docs/prove.md): annotations at each changed rule (an error when FAIL_ON names its change,
# else a warning) in the log, the Markdown report to $RUNNER_TEMP and the job summary, and outputs
# report= and exit-code= (0 nothing FAIL_ON names, 1 found it, 2 the diff could not run: a set does not
# load, the base directory does not exist).
# Never fails itself: the comment step comes first, then "Check the proof and the diff" fails the job.
# Environment: BASE_DIR, POLICY_DIR, FAIL_ON (newly-allowed, any-change, none), STRICT (true: a change
# beyond the analysis fails too).
set -uo pipefail
dir="${RUNNER_TEMP:-$(mktemp -d)}"
report="$dir/preflight-gate-diff.md"
errors="$dir/preflight-gate-diff.err"
args=(diff "$BASE_DIR" "$POLICY_DIR")
if [ "${FAIL_ON:-none}" != none ]; then args+=(--fail-on "$FAIL_ON"); fi
if [ "${STRICT:-false}" = true ]; then args+=(--strict); fi
if [ ! -d "$BASE_DIR" ]; then
  echo "preflight-gate: diff-base: $BASE_DIR is not a directory in the workspace (check the base branch out there, e.g. actions/checkout with ref: the base and path: base)" >"$errors"
  code=2
else
  preflight-gate "${args[@]}" --format github 2>"$errors"
  code=$?
fi
cat "$errors" >&2
if [ "$code" -eq 0 ] || [ "$code" -eq 1 ]; then
  preflight-gate "${args[@]}" --format markdown >"$report" 2>/dev/null
else
  code=2
  echo "::error title=preflight-gate diff::the diff against $BASE_DIR could not run; see the errors above"
  { printf '### preflight-gate diff could not run\n\n```\n'; head -c 20000 "$errors"; printf '```\n'; } >"$report"
fi
cat "$report" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
{ echo "report=$report"; echo "exit-code=$code"; } >>"${GITHUB_OUTPUT:-/dev/null}"
