/**
 * The policy set both coverage tests measure (file name -> YAML): a policy whose scope (team OPS)
 * rules out the spec example, a plain one, a time window with both branches, and an exception that
 * waives only team OPS. The example run (team ADM, an ATTACK step) leaves known gaps in it.
 */
export const COVERAGE_POLICIES: Record<string, string> = {
  'only-ops.yaml': `kind: Policy
name: only-ops
match: { teams: [OPS] }
rules:
  - environments: { blocked: [prod] }
`,
  'no-prod.yaml': `kind: Policy
name: no-prod
rules:
  - environments: { blocked: [prod] }
`,
  'hours.yaml': `kind: Policy
name: hours
rules:
  - timeWindow:
      timeZone: UTC
      allowed:
        - { days: [Mon-Fri], from: "09:00", to: "17:00" }
`,
  'no-attacks.yaml': `kind: Policy
name: no-attacks
rules:
  - condition: { deny: { in: [ATTACK, { var: steps.actionKinds }] }, reason: "attacks are not allowed" }
---
kind: Exception
name: ops-gameday
policy: no-attacks
owner: sre@example.com
reason: game day
expires: "2099-01-01T00:00:00Z"
match: { teams: [OPS] }
`,
};
