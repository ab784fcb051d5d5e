/** A parsed JSON value that is an object: not null, not an array; its fields not yet checked. */
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
