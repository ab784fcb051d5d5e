import { editorSchema } from '../../policy/compile/document-schema';
import { factsSchema, stateFactsSchema } from '../../policy/facts/facts-schema';
import { SIGNAL_FACTS_SCHEMA } from '../../policy/facts/signal-facts-schema';
import { suiteSchema } from '../suite/suite-schema';
import { EXIT } from '../exit-codes';
import { BadInputError } from '../../common/bad-input-error';

export interface SchemaOptions {
  testSuite?: boolean;
  state?: boolean;
  facts?: boolean;
  signals?: boolean;
}

/** `preflight-gate schema [--test-suite | --state | --facts | --signals]`: a JSON Schema (policy documents for editors by default). */
export function schemaCommand(opts: SchemaOptions, write: (s: string) => void): number {
  const chosen = [
    opts.testSuite && suiteSchema,
    opts.state && stateFactsSchema,
    opts.facts && factsSchema,
    opts.signals && SIGNAL_FACTS_SCHEMA,
  ].filter((s) => s !== undefined && s !== false);
  if (chosen.length > 1) throw new BadInputError('give at most one of --test-suite, --state, --facts and --signals');
  write(`${JSON.stringify(chosen[0] ?? editorSchema(), null, 2)}\n`);
  return EXIT.ok;
}
