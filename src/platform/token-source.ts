import { readFile } from 'node:fs/promises';
import type { AuthScheme, TokenSetting } from './platform-config';

/** The Authorization header value, or why there is none (the message never holds the token). */
export type TokenReading = { ok: true; header: string } | { ok: false; message: string };

export interface TokenSource {
  /** The header for the next call: a token file is read again each time, so a rotated secret is used at once. */
  authorization(): Promise<TokenReading>;
}

const PREFIX: Record<AuthScheme, string> = { bearer: 'Bearer', accessToken: 'accessToken' };

/**
 * STEADYBIT_TOKEN, or the file STEADYBIT_TOKEN_FILE names. Kubernetes updates a mounted secret by
 * swapping a symlink, so the file is read at every call (a few per minute: cheaper than a watcher
 * that misses the swap). While the file cannot be read or is empty, the last token read is used.
 * Neither the token nor the file's content is ever part of a message.
 */
export function tokenSource(setting: TokenSetting, scheme: AuthScheme): TokenSource {
  const header = (token: string) => `${PREFIX[scheme]} ${token}`;
  if (setting.kind === 'value') {
    const fixed: TokenReading = { ok: true, header: header(setting.token) };
    return { authorization: async () => fixed };
  }
  let last: string | undefined;
  return {
    async authorization() {
      let why: string;
      try {
        const token = (await readFile(setting.path, 'utf8')).trim();
        if (token !== '' && !/\s/.test(token)) {
          last = token;
          return { ok: true, header: header(token) };
        }
        why = token === '' ? 'is empty' : 'holds white space inside the token';
      } catch (err) {
        why = `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
      }
      if (last !== undefined) return { ok: true, header: header(last) };
      return { ok: false, message: `the token file ${setting.path} (STEADYBIT_TOKEN_FILE) ${why}` };
    },
  };
}
