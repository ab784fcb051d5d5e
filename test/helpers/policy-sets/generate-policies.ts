import { stringify } from 'yaml';
import type { SourceFile } from '../../../src/policy/compile/yaml-source';
import { seededRng, type Rng } from './rng';
import { RULE_SPECS } from './rule-specs';
import { ACTION_GLOBS, aliasDocument, ENVIRONMENTS, teamCount, teamKey } from './universe';

type Scope = Record<string, string[]>;

/**
 * Org-wide policies (no team): global, per environment, per action, per start channel. They do not
 * multiply with teams, so a set has at most 40 of them; every other policy belongs to teams.
 */
export function platformCount(policies: number): number {
  return Math.min(40, Math.ceil(policies * 0.2));
}

function platformScope(rng: Rng): Scope | undefined {
  return rng.pick<Scope | undefined>([
    undefined,
    { environments: [rng.pick(ENVIRONMENTS)] },
    { actionIds: [rng.pick(ACTION_GLOBS)] },
    { createdVia: ['SCHEDULE', 'API'] },
  ]);
}

/** The scope of a team's policy: the team, the team in some environments, experiment keys, actions. */
function teamScope(rng: Rng, teams: number): { match: Scope; exclude?: Scope } {
  const team = teamKey(rng.int(0, teams - 1));
  const roll = rng.next();
  if (roll < 0.45) return { match: { teams: [team] } };
  if (roll < 0.65) return { match: { teams: [team], environments: [rng.pick(ENVIRONMENTS), rng.pick(ENVIRONMENTS)] } };
  if (roll < 0.8) return { match: { experimentKeys: [`${team}-${rng.int(1, 200)}`, `${team}-1*`] } };
  if (roll < 0.9) return { match: { teams: [team], actionIds: [rng.pick(ACTION_GLOBS)] } };
  return { match: { teams: [team, teamKey(rng.int(0, teams - 1))] }, exclude: { environments: ['sandbox'] } };
}

function policyDocument(
  i: number,
  rng: Rng,
  kinds: readonly string[],
  teams: number,
  platform: boolean,
): Record<string, unknown> {
  const scope = platform ? { match: platformScope(rng) } : teamScope(rng, teams);
  const rules = Array.from({ length: rng.int(1, 2) }, () => {
    const kind = rng.pick(kinds);
    return { [kind]: RULE_SPECS[kind](rng) };
  });
  const mode = rng.next() < 0.8 ? 'enforce' : rng.pick(['warn', 'audit']);
  return {
    kind: 'Policy',
    name: `${platform ? 'platform' : 'team'}-policy-${String(i).padStart(5, '0')}`,
    description: 'Generated for the benchmark.',
    mode,
    priority: rng.int(0, 100) * 10,
    ...(scope.match ? { match: scope.match } : {}),
    ...('exclude' in scope && scope.exclude ? { exclude: scope.exclude } : {}),
    rules,
    ...(rng.chance(0.3) ? { message: '{{reason}} (policy {{policy}}, team {{team}}, {{environment}})' } : {}),
    ...(rng.chance(0.1)
      ? { modifications: [{ type: 'add_value_to_list_property', propertyKey: 'tags', value: 'guarded-by-{{policy}}' }] }
      : {}),
  };
}

/**
 * `count` policies, one file each, plus the environment aliases: a reproducible mix of scopes
 * (teams, environments, experiment keys, action ids) and of the given rule kinds.
 */
export function generatePolicySet(count: number, kinds: readonly string[], seed = 20261122): SourceFile[] {
  if (kinds.length === 0) throw new Error('no usable rule kinds to generate policies with');
  const rng = seededRng(seed + count);
  const teams = teamCount(count);
  const platform = platformCount(count);
  const files: SourceFile[] = [
    { file: 'environment-aliases.yaml', key: 'environment-aliases.yaml', text: aliasDocument() },
  ];
  for (let i = 0; i < count; i++) {
    const doc = policyDocument(i, rng, kinds, teams, i < platform);
    const file = `${doc.name as string}.yaml`;
    files.push({ file, key: file, text: stringify(doc) });
  }
  return files;
}
