import { signatureHeader } from '../../signature/sign';
import { readFileBytes, readStdin } from '../read-input';
import { EXIT } from '../exit-codes';
import { BadInputError } from '../../common/bad-input-error';

export interface SignOptions {
  secret?: string;
  secretEnv?: string;
}

function secretFrom(opts: SignOptions, env: NodeJS.ProcessEnv): string {
  if (opts.secret !== undefined && opts.secretEnv !== undefined)
    throw new BadInputError('give --secret or --secret-env, not both');
  if (opts.secretEnv !== undefined) {
    const value = env[opts.secretEnv];
    if (value === undefined || value === '')
      throw new BadInputError(`environment variable ${opts.secretEnv} (from --secret-env) is not set or empty`);
    return value;
  }
  if (opts.secret === undefined)
    throw new BadInputError('give the webhook secret: --secret-env NAME (keeps it out of shell history) or --secret S');
  if (opts.secret === '') throw new BadInputError('--secret is empty');
  return opts.secret;
}

/**
 * `preflight-gate sign --secret-env WEBHOOK_SECRET payload.json`: the `X-SB-Signature` value for
 * exactly these bytes (no trailing newline is added or removed), as Steadybit would send it.
 */
export async function signCommand(
  file: string | undefined,
  opts: SignOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
): Promise<number> {
  const secret = secretFrom(opts, env);
  const bytes = file === undefined || file === '-' ? await readStdin('payload') : readFileBytes(file, 'payload');
  write(`${signatureHeader(secret, bytes)}\n`);
  return EXIT.ok;
}
