import { describeNeed, missingFacts } from '../../src/replay/facts-coverage';
import type { Need } from '../../src/policy/facts/need';

describe('replaying signal rules from archived facts', () => {
  const recorded: Need[] = [
    { kind: 'alerts', source: 'default' },
    { kind: 'prometheus', source: 'default', query: 'up{env="{{environment}}"} == 0' },
  ];
  const facts = { needs: recorded, signals: { alertmanager: { default: { alerts: [] } } } };

  it('the archived alerts of a source answer any alerts rule on it; a query only itself', () => {
    const proposed: Need[] = [
      { kind: 'alerts', source: 'default' },
      { kind: 'alerts', source: 'eu' },
      { kind: 'prometheus', source: 'default', query: 'up{env="{{environment}}"} == 0' },
      { kind: 'prometheus', source: 'default', query: 'up == 0' },
    ];
    expect(missingFacts(proposed, facts).map(describeNeed)).toEqual([
      'the alerts of alertmanager "eu"',
      'the query up == 0 on prometheus "default"',
    ]);
  });

  it('ended runs recorded per one attacked-service key do not answer a cool-down per another', () => {
    const day = 86_400_000;
    const perDeployment: Need = { kind: 'ended', per: 'service', attribute: 'k8s.deployment', windowMs: day };
    const archived = { needs: [perDeployment], state: { ended: {} } };
    expect(
      missingFacts(
        [perDeployment, { kind: 'ended', per: 'service', attribute: 'k8s.service.name', windowMs: day }],
        archived,
      ).map(describeNeed),
    ).toEqual(['runs ended in the last 1 day per attacked k8s.service.name']);
  });
});
