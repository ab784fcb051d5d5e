import { readPlaygroundInput, type InputRead, type PlaygroundInput } from './playground-input';

/** The UTF-8 bytes of `text` as base64url without padding (RFC 4648 §5). */
function base64url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text whose UTF-8 bytes `encoded` holds as base64url (padding optional); throws when it does not. */
function fromBase64url(encoded: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) throw new Error('characters other than base64url (A-Z a-z 0-9 - _)');
  const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/**
 * The fragment of a share link (without `#`): the base64url of the input as JSON, uncompressed.
 * Nothing of it reaches a server: browsers never send the fragment.
 */
export function shareFragment(input: PlaygroundInput): string {
  const { policies, payload, now, facts } = input;
  return base64url(JSON.stringify({ policies, payload, now, facts }));
}

/** `base` (the playground's URL) with the input in its fragment. */
export function shareLink(base: string, input: PlaygroundInput): string {
  return `${base.replace(/#.*$/, '')}#${shareFragment(input)}`;
}

/** The input a fragment (with or without its `#`) holds, or why it holds none. */
export function readShareFragment(fragment: string): InputRead {
  const encoded = fragment.replace(/^#/, '').replace(/=+$/, '');
  let json: string;
  try {
    json = fromBase64url(encoded);
  } catch (err) {
    return { ok: false, message: `the link's fragment is not base64url of UTF-8 text: ${(err as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return { ok: false, message: `the link's fragment does not hold JSON: ${(err as Error).message}` };
  }
  return readPlaygroundInput(value);
}
