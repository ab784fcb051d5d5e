import { shareLink } from '../../playground/share-link';
import { readPolicyDir } from '../../policy/loading/read-policy-dir';
import { parseJson, readFileBytes } from '../read-input';
import { BadInputError } from '../../common/bad-input-error';
import { PLAYGROUND_HOST, PLAYGROUND_PORT } from './playground-command';

/** Where `eval --share` links point unless --share-base says otherwise: `preflight-gate playground`'s default. */
export const DEFAULT_SHARE_BASE = `http://${PLAYGROUND_HOST}:${PLAYGROUND_PORT}/`;

export interface ShareInput {
  dir: string;
  payloadBytes: Buffer;
  payloadName: string;
  now: Date;
  state?: string;
  signals?: string;
  environments?: string;
  teams?: string;
  base?: string;
}

/** A facts file as JSON (the page checks it and shows its problems, as `eval` would). */
const factsFile = (file: string, what: string) => parseJson(readFileBytes(file, what), file, what);

/**
 * `eval --share`: a playground link holding the payload, every policy file of the directory (by
 * its path in it), `now` and the facts given. Made whether or not the input is valid: a link to a
 * broken policy set shows where it breaks, which is what an issue or a review needs.
 */
export function evalShareLink(input: ShareInput): string {
  let sources: ReturnType<typeof readPolicyDir>;
  try {
    sources = readPolicyDir(input.dir);
  } catch (err) {
    throw new BadInputError(`cannot read the policy directory ${input.dir}: ${(err as Error).message}`);
  }
  const base = input.base ?? DEFAULT_SHARE_BASE;
  if (!/^https?:\/\/[^/]/.test(base)) throw new BadInputError(`--share-base must be an http(s) URL, got "${base}"`);
  const facts = {
    ...(input.state === undefined ? {} : { state: factsFile(input.state, 'state file') }),
    ...(input.signals === undefined ? {} : { signals: factsFile(input.signals, 'signals file') }),
    ...(input.environments === undefined ? {} : { environments: factsFile(input.environments, 'environments file') }),
    ...(input.teams === undefined ? {} : { teams: factsFile(input.teams, 'teams file') }),
  };
  return shareLink(base, {
    policies: Object.fromEntries(sources.map((s) => [s.key ?? s.file, s.text])),
    payload: parseJson(input.payloadBytes, input.payloadName, 'payload'),
    now: input.now.toISOString(),
    facts,
  });
}
