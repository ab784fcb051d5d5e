/**
 * Files of the everyday edits of the bundled set (docs/decisions/0044), shared by their known
 * answers (test/prove/everyday-edits-known-answers.test.ts) and the bench's diff cases
 * (bench/prove-stage.ts), so that both judge the same edit.
 */

/** An exception for the platform team's game day, waiving the namespace guard. */
export const GAMEDAY_EXCEPTION = `kind: Exception
name: platform-gameday-kube
policy: kubernetes-namespace-guard
owner: jane@example.com
reason: platform game day, CHG-2041
expires: "2026-06-30T18:00:00Z"
match: { teams: [PLATFORM] }
`;

/** A production policy capping each deployment's targets at `max` (the edit raises it). */
export const perDeploymentPolicy = (max: number) => `kind: Policy
name: production-per-deployment
priority: 650
match:
  environments: [production]
rules:
  - perGroup: { by: k8s.deployment, maxTargets: ${max} }
`;
