/** Placeholders a denial message may use: `{{experimentKey}}`, `{{step}}`, ... */
export const MESSAGE_PLACEHOLDERS = [
  'policy',
  'reason',
  'experimentKey',
  'team',
  'environment',
  'executionId',
  'step',
  'target',
  'value',
  'decisionId',
  'revision',
  'now',
] as const;
export type Placeholder = (typeof MESSAGE_PLACEHOLDERS)[number];
export type TemplateValues = Partial<Record<Placeholder, string | undefined>>;

/** A compiled `{{name}}` template (syntax/template.ts): the text with the request's values filled in. */
export type Template = (values: TemplateValues) => string;
