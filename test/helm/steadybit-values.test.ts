import { deploymentOf, envOf } from './pod-spec';
import { find, render } from './render-chart';

const SECRET = 'a-long-random-webhook-secret';

describe('helm template with steadybit.url (the Platform API)', () => {
  test('off by default: no STEADYBIT_* variable, no token volume', () => {
    const { container, pod } = deploymentOf(find(render({ 'webhook.secret': SECRET }), 'Deployment'));
    expect(container.env.filter((e) => e.name.startsWith('STEADYBIT_'))).toEqual([]);
    expect(pod.volumes.map((v) => v.name)).not.toContain('steadybit-token');
  });

  test('the token goes to the chart\'s Secret and is mounted as a file the service re-reads (rotation without a restart)', () => {
    const manifests = render({ 'webhook.secret': SECRET, 'steadybit.url': 'https://platform.steadybit.com', 'steadybit.token': 'tok-123', 'steadybit.authScheme': 'accessToken' });
    const { container, pod } = deploymentOf(find(manifests, 'Deployment'));
    expect(envOf(container, 'STEADYBIT_URL')?.value).toBe('https://platform.steadybit.com');
    expect(envOf(container, 'STEADYBIT_AUTH_SCHEME')?.value).toBe('accessToken');
    expect(envOf(container, 'STEADYBIT_RATE_PER_MINUTE')?.value).toBe('12');
    const file = envOf(container, 'STEADYBIT_TOKEN_FILE')?.value as string;
    const mount = container.volumeMounts.find((m) => file.startsWith(`${m.mountPath}/`));
    const volume = pod.volumes.find((v) => v.name === mount?.name) as unknown as { secret: { secretName: string; items: Array<{ key: string; path: string }> } };
    expect(file.slice((mount?.mountPath.length ?? 0) + 1)).toBe(volume.secret.items[0].path);
    const secret = find(manifests, 'Secret', volume.secret.secretName);
    expect(Buffer.from(secret.data?.[volume.secret.items[0].key] ?? '', 'base64').toString('utf8')).toBe('tok-123');
    expect(JSON.stringify(find(manifests, 'Deployment'))).not.toContain('tok-123');
  });

  test('the timeout, the environment refresh and the name maximum age reach the service', () => {
    const { container } = deploymentOf(find(render({ 'webhook.secret': SECRET, 'steadybit.url': 'https://sb.internal', 'steadybit.token': 't', 'steadybit.timeoutMs': '3000', 'steadybit.environmentsRefreshSeconds': '120', 'steadybit.environmentNameMaxAgeSeconds': '900' }), 'Deployment'));
    expect(['STEADYBIT_TIMEOUT_MS', 'STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS', 'STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS'].map((n) => envOf(container, n)?.value)).toEqual(['3000', '120', '900']);
  });

  test('a Secret you manage', () => {
    const { pod } = deploymentOf(find(render({ 'webhook.secret': SECRET, 'steadybit.url': 'https://sb.internal', 'steadybit.existingSecret': 'sb-token', 'steadybit.existingSecretKey': 'token' }), 'Deployment'));
    expect(pod.volumes.find((v) => v.name === 'steadybit-token')).toMatchObject({ secret: { secretName: 'sb-token', items: [{ key: 'token', path: 'token' }] } });
  });

  test.each([
    [{ 'steadybit.url': 'https://x' }, 'steadybit.url is set but no access token'],
    [{ 'steadybit.url': 'https://x', 'steadybit.token': 't', 'steadybit.existingSecret': 's' }, 'set either steadybit.token or steadybit.existingSecret'],
    [{ 'steadybit.url': 'platform.steadybit.com', 'steadybit.token': 't' }, 'url'],
    [{ 'steadybit.url': 'https://x', 'steadybit.token': 't', 'steadybit.environmentNameMaxAgeSeconds': '300' }, 'steadybit.environmentNameMaxAgeSeconds must be longer than steadybit.environmentsRefreshSeconds'],
  ])('%j is refused: %s', (set, message) => {
    expect(() => render({ 'webhook.secret': SECRET, ...set })).toThrow(message);
  });
});
