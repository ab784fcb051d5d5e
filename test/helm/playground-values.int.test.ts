import { deploymentOf, envOf } from './pod-spec';
import { find, render } from './render-chart';

const SECRET = 'a-long-random-webhook-secret';

describe('helm template with playground.enabled', () => {
  test('off by default: no PLAYGROUND variable (the service serves no page)', () => {
    const { container } = deploymentOf(find(render({ 'webhook.secret': SECRET }), 'Deployment'));
    expect(envOf(container, 'PLAYGROUND')).toBeUndefined();
  });

  test('on: PLAYGROUND=on', () => {
    const manifests = render({ 'webhook.secret': SECRET, 'playground.enabled': 'true' });
    expect(envOf(deploymentOf(find(manifests, 'Deployment')).container, 'PLAYGROUND')?.value).toBe('on');
  });
});
