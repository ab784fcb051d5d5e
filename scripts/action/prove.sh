#!/usr/bin/env bash
# Proves the properties beside the pull request's policies (*.property.yaml; action.yml, docs/prove.md):
# annotations on the property files (a counterexample an error, an unknown a warning) in the log, the
# Markdown report to $RUNNER_TEMP and the job summary, and outputs report= (empty when the set has no
# property) and exit-code= (0 nothing fails, 1 a counterexample, or with STRICT=true an unknown; 2
# prove could not run: a property or the set does not load).
# Never fails itself: the comment step comes first, then "Check the proof and the diff" fails the job.
# Environment: POLICY_DIR, STRICT (true: an unknown answer fails too).
set -uo pipefail
dir="${RUNNER_TEMP:-$(mktemp -d)}"
report="$dir/preflight-gate-prove.md"
annotations="$dir/preflight-gate-prove.annotations"
errors="$dir/preflight-gate-prove.err"
args=(prove "$POLICY_DIR")
if [ "${STRICT:-false}" = true ]; then args+=(--strict); fi
preflight-gate "${args[@]}" --format github >"$annotations" 2>"$errors"
code=$?
cat "$annotations"
cat "$errors" >&2
if [ "$code" -eq 0 ] || [ "$code" -eq 1 ]; then
  preflight-gate "${args[@]}" --format markdown >"$report" 2>/dev/null
  # A set without properties has nothing to say on the pull request.
  if [ "$(cat "$annotations")" = 'no properties (*.property.yaml) found' ]; then report=''; fi
else
  code=2
  echo "::error title=preflight-gate prove::prove could not run; see the errors above"
  { printf '### preflight-gate prove could not run\n\n```\n'; head -c 20000 "$errors"; printf '```\n'; } >"$report"
fi
if [ -n "$report" ]; then cat "$report" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"; fi
{ echo "report=$report"; echo "exit-code=$code"; } >>"${GITHUB_OUTPUT:-/dev/null}"
