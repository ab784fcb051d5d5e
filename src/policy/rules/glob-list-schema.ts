/** The schema of a rule's list of globs (action ids and the like): at least one, none twice, each checked as a glob at load. */
export const globListSchema = (description: string) => ({
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, syntax: 'glob' },
  description,
});
