/**
 * The floor plan of src/, lowest floor first (CONTRIBUTING.md, "Where things are"). A file may import
 * files of its own folder and of folders on a lower floor, never of a folder on the same or a higher
 * floor: so no import runs upward and no two folders import each other. src/policy/ is one folder
 * here; inside it its own layers hold (policy-layers.ts). Nothing in src/ imports from outside src/
 * (test fixtures, scripts).
 */
export const FLOORS: Record<string, number> = {
  common: 0, // the ground floor: JSON values, environment values and ConfigError, BadInputError, the logger, retry timing, the package version, the yaml library loaded when first asked
  syntax: 1, // value grammars: globs, durations, zones, lookalike text
  redaction: 1, // the one redactor of target values
  signature: 1, // sign and verify webhook bodies, the secrets
  validation: 2, // ajv settings and the messages made from its errors
  payload: 3, // Steadybit's payloads: types, strict JSON, validation
  policy: 4, // the policy language (its layers: policy-layers.ts)
  prove: 5, // diff and prove over every run
  answer: 5, // the record of each answer and its subscribers' contract
  state: 5, // the state store and its fact source
  signals: 5, // live signal sources
  playground: 5, // the playground's decisions and page
  platform: 6, // the Platform API: client, directories, sync
  observability: 6, // audit log and metrics, subscribers of the answer records
  archive: 7, // the decision archive
  connect: 7, // registering the gate's webhooks in Steadybit
  guard: 8, // runs in progress, stopped when a guarded policy is violated
  notify: 9, // notifications of decisions and stops
  replay: 9, // re-deciding archived runs
  approvals: 10, // exceptions minted for denied runs
  github: 10, // the pull-request comment
  http: 11, // routes and the one error -> status mapping
  service: 12, // the composition root: config -> the running service
  'main.ts': 13, // the service's entry point
  cli: 14, // the command line, which can also serve
};

/** The floor's name of a file relative to src/: its top folder, or the file itself at the top of src/. */
export const floorOf = (file: string): string => file.split('/')[0];

/**
 * Every import against the plan, as `from -> to` (graph: file -> imported files, relative to src/).
 * A folder missing from FLOORS is a violation too: a new folder takes its place in the plan first.
 */
export function floorViolations(graph: Record<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [from, imports] of Object.entries(graph)) {
    if (from.startsWith('..')) continue; // a leaf outside src/: its importer is reported
    const fromFloor = FLOORS[floorOf(from)];
    if (fromFloor === undefined) {
      out.push(`${from}: not on the floor plan`);
      continue;
    }
    for (const to of imports) {
      if (to.startsWith('..')) {
        out.push(`${from} -> ${to}`);
        continue;
      }
      if (floorOf(to) === floorOf(from)) continue;
      const toFloor = FLOORS[floorOf(to)];
      if (toFloor === undefined || toFloor >= fromFloor) out.push(`${from} -> ${to}`);
    }
  }
  return out;
}
