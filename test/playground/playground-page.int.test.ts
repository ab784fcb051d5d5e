import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { PLAYGROUND_DECISION_ID } from '../../src/playground/decide-playground';
import type { PlaygroundInput } from '../../src/playground/playground-input';
import { shareFragment } from '../../src/playground/share-link';
import { readPolicyDir } from '../../src/policy/loading/read-policy-dir';
import { EXAMPLE_PREFLIGHT, FIXTURES } from '../helpers/fixtures';
import { ROOT } from '../helpers/server-process';
import { launchChromium, startPlayground } from './playground-browser';

/**
 * The playground in a real browser (headless Chromium): share links for the README's examples and
 * every test/fixtures/cases/ case show the decision `eval` gives for the same input, malformed
 * input says where and why, and the page can be used with the keyboard alone.
 */
/** The few DOM names the functions run in the page use (the tests are typed without the DOM library). */
interface PageElement {
  dataset: Record<string, string | undefined>;
  textContent: string | null;
  matches(selector: string): boolean;
  closest(selector: string): PageElement | null;
  getAttribute(name: string): string | null;
  blur(): void;
}
declare const document: {
  getElementById(id: string): PageElement | null;
  activeElement: PageElement | null;
  documentElement: { scrollWidth: number };
};
declare const window: { innerWidth: number };

let playground: Awaited<ReturnType<typeof startPlayground>>;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const work = mkdtempSync(join(tmpdir(), 'playground-'));

beforeAll(async () => {
  [playground, browser] = await Promise.all([startPlayground(), launchChromium()]);
  page = await browser.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  await page.setViewport({ width: 1280, height: 900 });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await playground?.stop();
  rmSync(work, { recursive: true, force: true });
});
afterEach(() => expect(pageErrors.splice(0)).toEqual([]));

interface Example {
  name: string;
  dir: string;
  payloadFile: string;
  now: string;
  environments?: Record<string, { name: string }>;
}

const EXAMPLE_PAYLOAD = EXAMPLE_PREFLIGHT;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's examples: the starter policies with Steadybit's example as it is and in payments-prod; the policy of "Writing policies". */
function readmeExamples(): Example[] {
  const moved = join(work, 'payments-prod.json');
  writeFileSync(
    moved,
    readFileSync(EXAMPLE_PAYLOAD, 'utf8').replace(/"environment": "[^"]*"/, '"environment": "payments-prod"'),
  );
  const policyBlock = /<!-- readme-example: policy -->\s*```yaml\n([\s\S]*?)\n```/.exec(README)?.[1];
  if (!policyBlock) throw new Error('README.md has no policy example');
  const policyDir = join(work, 'readme-policy');
  require('node:fs').mkdirSync(policyDir);
  writeFileSync(join(policyDir, 'prod-attack-limits.yaml'), `${policyBlock}\n`);
  const production = { '32009f6e-ff90-47a5-8daa-80f4bb7ae591': { name: 'production' } };
  const monday = '2026-01-05T10:00:00Z';
  return [
    {
      name: 'README: the example payload as it is',
      dir: join(ROOT, 'policies'),
      payloadFile: EXAMPLE_PAYLOAD,
      now: monday,
    },
    {
      name: 'README: the example payload in payments-prod',
      dir: join(ROOT, 'policies'),
      payloadFile: moved,
      now: monday,
    },
    ...['2026-01-05T10:00:00Z', '2026-01-10T23:30:00Z'].map((now) => ({
      name: `README: the prod-attack-limits policy, production, at ${now}`,
      dir: policyDir,
      payloadFile: EXAMPLE_PAYLOAD,
      now,
      environments: production,
    })),
  ];
}

function caseExamples(): Example[] {
  const cases = join(FIXTURES, 'cases');
  return readdirSync(cases)
    .sort()
    .map((name) => ({
      name: `case ${name}`,
      dir: join(cases, name),
      payloadFile: join(cases, name, 'payload.json'),
      now: JSON.parse(readFileSync(join(cases, name, 'decision.json'), 'utf8')).evaluatedAt,
    }));
}

/** `eval --format json` on the example: the CLI's answer, the decision id written as the playground writes it. */
function cliAnswer(example: Example): Promise<{ allowed: boolean; message: string; status: number }> {
  const args = [
    'eval',
    '--format',
    'json',
    '--payload',
    example.payloadFile,
    '--dir',
    example.dir,
    '--now',
    example.now,
  ];
  if (example.environments) {
    const file = join(work, `${example.name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(example.environments));
    args.push('--environments', file);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'preflight-gate.js'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => reject(new Error(`eval: ${d}`)));
    child.on('close', () => {
      const answer = JSON.parse(out) as { allowed: boolean; status: number; body: { message: string } };
      const message = answer.body.message.replace(/\(decision [0-9a-f-]+,/, `(decision ${PLAYGROUND_DECISION_ID},`);
      resolve({ allowed: answer.allowed, status: answer.status, message });
    });
  });
}

function inputOf(example: Example): PlaygroundInput {
  return {
    policies: Object.fromEntries(readPolicyDir(example.dir).map((s) => [s.key ?? s.file, s.text])),
    payload: JSON.parse(readFileSync(example.payloadFile, 'utf8')),
    now: example.now,
    facts: example.environments ? { environments: example.environments } : {},
  };
}

/** Opens a share link and waits until the page shows the decision on exactly that input. */
async function open(input: PlaygroundInput): Promise<{ decision: string; status: string; message: string }> {
  const fragment = shareFragment(input);
  await page.goto(`${playground.url}#${fragment}`);
  await page.waitForFunction((f) => document.getElementById('result')?.dataset.fragment === f, {}, fragment);
  return page.$eval('#result', (el) => ({
    decision: (el as unknown as PageElement).dataset.decision ?? '',
    status: (el as unknown as PageElement).dataset.status ?? '',
    message: document.getElementById('message')?.textContent ?? '',
  }));
}

describe('a share link shows the decision eval gives for the same input', () => {
  const examples = [...readmeExamples(), ...caseExamples()];
  let answers: Map<string, Awaited<ReturnType<typeof cliAnswer>>>;
  beforeAll(async () => {
    // The CLI's answers, three at a time (each is a node process loading the policies).
    answers = new Map();
    for (let i = 0; i < examples.length; i += 3) {
      const batch = examples.slice(i, i + 3);
      const answered = await Promise.all(batch.map((e) => cliAnswer(e)));
      batch.forEach((e, n) => answers.set(e.name, answered[n]));
    }
  }, 120_000);

  test.each(examples.map((e) => [e.name, e] as const))('%s', async (_name, example) => {
    const cli = answers.get(example.name)!;
    const shown = await open(inputOf(example));
    expect(shown).toEqual({
      decision: cli.allowed ? 'allow' : 'deny',
      status: String(cli.status),
      message: cli.message,
    });
  });

  test('the README examples decide both ways (the comparison is not trivially one-sided)', () => {
    const decided = [...answers.values()].map((a) => a.allowed);
    expect(decided).toEqual(expect.arrayContaining([true, false]));
  });
});

describe('malformed input says where and why, never a blank page', () => {
  const base = (): PlaygroundInput => inputOf(caseExamples()[2]);

  test('a policy that does not load: no decision (deny), the problem at its file and line, marked in the editor', async () => {
    const shown = await open({ ...base(), policies: { 'p.yaml': 'kind: Policy\nname: p\nrules:\n  - nope: 1\n' } });
    expect(shown.decision).toBe('deny');
    expect(shown.status).toBe('none');
    const problems = await page.$eval('#problems', (el) => el.textContent ?? '');
    expect(problems).toMatch(/p\.yaml:4:\d+/);
    expect(await page.$('.cm-lintRange-error')).not.toBeNull();
    expect(await page.$eval('#result', (el) => (el as unknown as PageElement).dataset.input)).toBe('invalid');
  });

  test('bad YAML, a payload that is not a preflight, and a bad now: each named, the payload one as the 400 it gets', async () => {
    const shown = await open({
      ...base(),
      policies: { 'p.yaml': 'kind: Policy\nname: [\n' },
      payload: { event: 'x' },
      now: 'soon',
    });
    expect(shown).toMatchObject({ decision: 'deny', status: '400' });
    const problems = await page.$eval('#problems', (el) => el.textContent ?? '');
    expect(problems).toMatch(/p\.yaml:\d+:\d+: YAML syntax error/);
    expect(problems).toMatch(/payload event/);
    expect(await page.$eval('#now-problem', (el) => el.textContent)).toMatch(/ISO 8601/);
  });

  test('a link that is not one says so', async () => {
    await page.goto(`${playground.url}#%%%`);
    await page.waitForFunction(() => /cannot be opened/.test(document.getElementById('message')?.textContent ?? ''));
    expect(await page.$eval('#problems', (el) => el.textContent)).toMatch(/base64url/);
  });
});

describe('with the keyboard alone', () => {
  /** Presses Tab until `selector` has the focus (at most `max` times); how many it took. */
  async function tabTo(selector: string, max = 40): Promise<number> {
    for (let n = 1; n <= max; n++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return n;
    }
    throw new Error(`Tab never reached ${selector}`);
  }

  test('Tab reaches every control in order, a policy editor does not trap it, typing decides again', async () => {
    await open(inputOf(caseExamples()[2]));
    await page.evaluate(() => document.activeElement?.blur());
    await tabTo('#file-name');
    await tabTo('.cm-content[aria-label^="Policy file"]');
    // Tab leaves the editor (no keyboard trap): the next stop is the payload's button or editor.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(
        () =>
          document.activeElement?.closest('.cm-editor') === null ||
          document.activeElement?.getAttribute('aria-label') === 'Payload (JSON)',
      ),
    ).toBe(true);
    await tabTo('#now');
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.type('not a time');
    await page.waitForFunction(() => document.getElementById('result')?.dataset.input === 'invalid');
    expect(await page.$eval('#now-problem', (el) => el.textContent)).toMatch(/ISO 8601/);
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.type('2026-01-05T10:00:00Z');
    await page.waitForFunction(() => document.getElementById('result')?.dataset.input === undefined);
    expect(await page.$eval('#result', (el) => (el as unknown as PageElement).dataset.decision)).toBe('deny');
  });

  test('completion from the editor schema in a policy editor, Escape closes it', async () => {
    await open(inputOf(caseExamples()[2]));
    await page.focus('.cm-content[aria-label^="Policy file"]');
    await page.keyboard.down('Control');
    await page.keyboard.press('End');
    await page.keyboard.up('Control');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Home');
    await page.keyboard.type('prio');
    await page.waitForSelector('.cm-tooltip-autocomplete');
    expect(await page.$eval('.cm-tooltip-autocomplete', (el) => el.textContent)).toContain('priority');
    await page.keyboard.press('Escape');
    expect(await page.$('.cm-tooltip-autocomplete')).toBeNull();
  });

  test('readable at 200% zoom: one column, nothing wider than the window', async () => {
    await page.setViewport({ width: 640, height: 900, deviceScaleFactor: 2 });
    try {
      await open(inputOf(caseExamples()[2]));
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        window: window.innerWidth,
      }));
      expect(widths.page).toBeLessThanOrEqual(widths.window);
    } finally {
      await page.setViewport({ width: 1280, height: 900 });
    }
  });
});
