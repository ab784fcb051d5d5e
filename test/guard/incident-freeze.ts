/**
 * The guard's process tests' policy: it holds at the door (the run is allowed, and kept for the
 * guard), and `frozen()` is the same policy once a freeze is declared while the run goes on (from
 * an hour before now to an hour after), so the guard must stop the run.
 */
export const OPEN = `kind: Policy
name: incident-freeze
whileRunning: true
rules:
  - timeWindow: { timeZone: UTC, allowed: [{ from: "00:00", to: "24:00" }] }
`;

export const frozen = () => `kind: Policy
name: incident-freeze
whileRunning: true
rules:
  - timeWindow:
      timeZone: UTC
      deny: [{ name: incident freeze, start: "${new Date(Date.now() - 3600_000).toISOString()}", end: "${new Date(Date.now() + 3600_000).toISOString()}" }]
`;
