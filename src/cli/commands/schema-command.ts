import { editorSchema } from '../../policy/document-schema';
import { suiteSchema } from '../suite/suite-schema';
import { EXIT } from '../usage-error';

/** `preflight-gate schema [--test-suite]`: the JSON Schema for editors (yaml-language-server). */
export function schemaCommand(opts: { testSuite?: boolean }, write: (s: string) => void): number {
  write(`${JSON.stringify(opts.testSuite ? suiteSchema : editorSchema(), null, 2)}\n`);
  return EXIT.ok;
}
