import type { PolicyTexts } from '../policy/loading/load-policy-texts';

/**
 * Everything the playground decides on, and what a share link holds (docs/playground.md): policy
 * files by name, the payload, the moment and the facts (`schema --facts`: state, signals,
 * environment names). `payload` and `facts` are JSON values; while an editor holds text that is not
 * JSON yet, the page keeps that text as a string so a link never loses what was typed.
 */
export interface PlaygroundInput {
  policies: PolicyTexts;
  payload: unknown;
  now: string;
  facts: unknown;
}

export type InputRead = { ok: true; input: PlaygroundInput } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the shape of a decoded share link; the message names the field to fix. */
export function readPlaygroundInput(value: unknown): InputRead {
  if (!isObject(value)) return { ok: false, message: 'the link does not hold a JSON object' };
  const { policies, payload, now, facts } = value;
  if (!isObject(policies)) return { ok: false, message: '"policies" must be an object of file name -> YAML text' };
  const notText = Object.keys(policies).find((name) => typeof policies[name] !== 'string');
  if (notText !== undefined) return { ok: false, message: `"policies"."${notText}" must be the file's YAML text` };
  if (payload === undefined) return { ok: false, message: '"payload" is missing' };
  if (typeof now !== 'string')
    return { ok: false, message: '"now" must be an ISO 8601 time, e.g. 2026-03-02T10:00:00Z' };
  return { ok: true, input: { policies: policies as PolicyTexts, payload, now, facts: facts ?? {} } };
}
