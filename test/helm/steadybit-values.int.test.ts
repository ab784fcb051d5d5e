import { deploymentOf, envOf } from './pod-spec';
import { find, render } from './render-chart';

const SECRET = 'a-long-random-webhook-secret';

describe('helm template with steadybit.url (the Platform API)', () => {
  test('off by default: no STEADYBIT_* variable, no token volume', () => {
    const { container, pod } = deploymentOf(find(render({ 'webhook.secret': SECRET }), 'Deployment'));
    expect(container.env.filter((e) => e.name.startsWith('STEADYBIT_'))).toEqual([]);
    expect(pod.volumes.map((v) => v.name)).not.toContain('steadybit-token');
  });

  test("the token goes to the chart's Secret and is mounted as a file the service re-reads (rotation without a restart)", () => {
    const manifests = render({
      'webhook.secret': SECRET,
      'steadybit.url': 'https://platform.steadybit.com',
      'steadybit.token': 'tok-123',
      'steadybit.authScheme': 'accessToken',
    });
    const { container, pod } = deploymentOf(find(manifests, 'Deployment'));
    expect(envOf(container, 'STEADYBIT_URL')?.value).toBe('https://platform.steadybit.com');
    expect(envOf(container, 'STEADYBIT_AUTH_SCHEME')?.value).toBe('accessToken');
    expect(envOf(container, 'STEADYBIT_RATE_PER_MINUTE')?.value).toBe('12');
    const file = envOf(container, 'STEADYBIT_TOKEN_FILE')?.value as string;
    const mount = container.volumeMounts.find((m) => file.startsWith(`${m.mountPath}/`));
    const volume = pod.volumes.find((v) => v.name === mount?.name) as unknown as {
      secret: { secretName: string; items: Array<{ key: string; path: string }> };
    };
    expect(file.slice((mount?.mountPath.length ?? 0) + 1)).toBe(volume.secret.items[0].path);
    const secret = find(manifests, 'Secret', volume.secret.secretName);
    expect(Buffer.from(secret.data?.[volume.secret.items[0].key] ?? '', 'base64').toString('utf8')).toBe('tok-123');
    expect(JSON.stringify(find(manifests, 'Deployment'))).not.toContain('tok-123');
  });

  test('the timeout, the environment refresh and the name maximum age reach the service', () => {
    const { container } = deploymentOf(
      find(
        render({
          'webhook.secret': SECRET,
          'steadybit.url': 'https://sb.internal',
          'steadybit.token': 't',
          'steadybit.timeoutMs': '3000',
          'steadybit.environmentsRefreshSeconds': '120',
          'steadybit.environmentNameMaxAgeSeconds': '900',
        }),
        'Deployment',
      ),
    );
    expect(
      [
        'STEADYBIT_TIMEOUT_MS',
        'STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS',
        'STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS',
      ].map((n) => envOf(container, n)?.value),
    ).toEqual(['3000', '120', '900']);
  });

  test('a Secret you manage', () => {
    const { pod } = deploymentOf(
      find(
        render({
          'webhook.secret': SECRET,
          'steadybit.url': 'https://sb.internal',
          'steadybit.existingSecret': 'sb-token',
          'steadybit.existingSecretKey': 'token',
        }),
        'Deployment',
      ),
    );
    expect(pod.volumes.find((v) => v.name === 'steadybit-token')).toMatchObject({
      secret: { secretName: 'sb-token', items: [{ key: 'token', path: 'token' }] },
    });
  });

  test.each([
    [{ 'steadybit.url': 'https://x' }, 'steadybit.url is set but no access token'],
    [
      { 'steadybit.url': 'https://x', 'steadybit.token': 't', 'steadybit.existingSecret': 's' },
      'set either steadybit.token or steadybit.existingSecret',
    ],
    [{ 'steadybit.url': 'platform.steadybit.com', 'steadybit.token': 't' }, 'url'],
    [
      { 'steadybit.url': 'https://x', 'steadybit.token': 't', 'steadybit.environmentNameMaxAgeSeconds': '300' },
      'steadybit.environmentNameMaxAgeSeconds must be longer than steadybit.environmentsRefreshSeconds',
    ],
  ])('%j is refused: %s', (set, message) => {
    expect(() => render({ 'webhook.secret': SECRET, ...set })).toThrow(message);
  });
});

describe('helm template with decisionArchive.s3.url', () => {
  const S3 = {
    'webhook.secret': SECRET,
    'decisionArchive.enabled': 'true',
    'decisionArchive.s3.url': 's3://decisions/gate/eu-1',
  };

  test('the archive goes to S3, the volume is its spool; static keys only from a Secret you manage', () => {
    const { container } = deploymentOf(
      find(
        render({
          ...S3,
          'decisionArchive.s3.endpoint': 'http://minio.storage:9000',
          'decisionArchive.s3.existingSecret': 'archive-keys',
        }),
        'Deployment',
      ),
    );
    expect(
      [
        'DECISION_ARCHIVE',
        'DECISION_ARCHIVE_SPOOL_DIR',
        'DECISION_ARCHIVE_SPOOL_MAX_BYTES',
        'DECISION_ARCHIVE_S3_ENDPOINT',
      ].map((n) => envOf(container, n)?.value),
    ).toEqual(['s3://decisions/gate/eu-1', '/var/lib/preflight-gate/decisions', '256mb', 'http://minio.storage:9000']);
    expect(envOf(container, 'AWS_SECRET_ACCESS_KEY')?.valueFrom?.secretKeyRef).toEqual({
      name: 'archive-keys',
      key: 'AWS_SECRET_ACCESS_KEY',
    });
    expect(container.volumeMounts.map((m) => m.mountPath)).toContain('/var/lib/preflight-gate/decisions');
  });

  test('IRSA: no keys in the pod, the role on the ServiceAccount', () => {
    const manifests = render({
      ...S3,
      'serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn': 'arn:aws:iam::123456789012:role/gate-archive',
    });
    const { container } = deploymentOf(find(manifests, 'Deployment'));
    expect(container.env.filter((e) => e.name.startsWith('AWS_') || e.name.startsWith('DECISION_ARCHIVE_S3_'))).toEqual(
      [],
    );
    expect(find(manifests, 'ServiceAccount').metadata.annotations).toEqual({
      'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/gate-archive',
    });
  });

  test('a URL that is not s3:// is refused at render time', () => {
    expect(() => render({ ...S3, 'decisionArchive.s3.url': 'gs://x/y' })).toThrow(
      /decisionArchive.s3.url: Does not match pattern/,
    );
  });
});

describe('helm template with webhook.mountAsFile', () => {
  test('the webhook secret is a file the service re-reads (WEBHOOK_SECRET_FILE), not a variable', () => {
    const { container, pod } = deploymentOf(
      find(
        render({
          'webhook.existingSecret': 'gate-webhook',
          'webhook.existingSecretKey': 'secret',
          'webhook.mountAsFile': 'true',
        }),
        'Deployment',
      ),
    );
    expect(envOf(container, 'WEBHOOK_SECRET')).toBeUndefined();
    const file = envOf(container, 'WEBHOOK_SECRET_FILE')?.value as string;
    const mount = container.volumeMounts.find((m) => file.startsWith(`${m.mountPath}/`));
    expect(mount).toMatchObject({ name: 'webhook-secret', readOnly: true });
    expect(pod.volumes.find((v) => v.name === 'webhook-secret')).toEqual({
      name: 'webhook-secret',
      secret: {
        secretName: 'gate-webhook',
        items: [{ key: 'secret', path: file.slice((mount?.mountPath.length ?? 0) + 1) }],
      },
    });
  });
});
