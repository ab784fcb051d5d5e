import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../helpers/server-process';

/**
 * The README is a front door and docs/ holds the rest: the README stays under 15 KB, every relative
 * link of the README, the top-level guides and docs/ leads to a file that exists (and to a heading
 * it has, when it names one), docs/README.md indexes every doc, the design records are numbered,
 * listed and short, and docs/performance.md is a guide, not a run log.
 */
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Every Markdown file under docs/, relative to the root. */
function docsFiles(dir = 'docs'): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return docsFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const CHECKED = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', ...docsFiles()];

/** The text outside fenced code blocks and inline code spans: links in code are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
}

/** The targets of the inline links and images of a Markdown text. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1],
  );
}

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file has: one per heading, a repeated one numbered as GitHub does. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  for (const m of withoutFences.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = anchorOf(m[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with one relative link of `file`, or undefined when it leads somewhere. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:, ...
  const [path, anchor] = target.split('#', 2);
  const to = path === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), decodeURIComponent(path));
  if (!to.startsWith(ROOT)) return `${target}: leads outside the repository`;
  if (!existsSync(to)) return `${target}: ${relative(ROOT, to)} does not exist`;
  if (anchor && to.endsWith('.md') && !anchorsOf(readFileSync(to, 'utf8')).has(anchor))
    return `${target}: ${relative(ROOT, to)} has no heading #${anchor}`;
  return undefined;
}

describe('the Markdown helpers of this test', () => {
  test('find inline links and images outside code, with or without a title', () => {
    expect(
      linkTargets(
        'See [a](a.md), ![img](images/x.png "t") and [b](<b.md>).\n`[not](x.md)`\n```md\n[not](y.md)\n```\n[c](c.md#part)',
      ),
    ).toEqual(['a.md', 'images/x.png', 'b.md', 'c.md#part']);
  });

  test("turn headings into GitHub's anchors", () => {
    expect(anchorOf('Check the wiring: `preflight-gate notify --test --target <name>`')).toBe(
      'check-the-wiring-preflight-gate-notify---test---target-name',
    );
    expect(anchorOf('4. maxUses counted across replicas')).toBe('4-maxuses-counted-across-replicas');
    expect(anchorsOf('# A\n## A\n```\n# not a heading\n```\n## B c')).toEqual(new Set(['a', 'a-1', 'b-c']));
  });

  test('a missing file and a missing heading are found', () => {
    expect(brokenLink('docs/README.md', 'no-such-doc.md')).toBe('no-such-doc.md: docs/no-such-doc.md does not exist');
    expect(brokenLink('README.md', 'docs/README.md#no-such-heading')).toBe(
      'docs/README.md#no-such-heading: docs/README.md has no heading #no-such-heading',
    );
    expect(brokenLink('README.md', 'docs/README.md#operate-it')).toBeUndefined();
    expect(brokenLink('README.md', 'https://example.com/x.md')).toBeUndefined();
  });
});

describe('the README and the docs', () => {
  test('the checked files include the README, the docs index, the settings and every design record', () => {
    expect(CHECKED).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/README.md',
        'docs/configuration.md',
        'docs/decisions/README.md',
        'docs/decisions/0001-facts-then-decide.md',
      ]),
    );
  });

  test('every relative link leads to a file that exists, and to a heading it has', () => {
    const broken = CHECKED.flatMap((file) =>
      linkTargets(read(file)).flatMap((target) => {
        const problem = brokenLink(file, target);
        return problem ? [`${file}: ${problem}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  test('README.md is under 15 KB', () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThan(15 * 1024);
  });

  test('docs/README.md links every doc under docs/, and the README links docs/README.md', () => {
    const index = new Set(linkTargets(read('docs/README.md')).map((t) => join('docs', t.split('#')[0])));
    const docs = readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md') && f !== 'README.md')
      .map((f) => join('docs', f));
    expect(docs.filter((f) => !index.has(f))).toEqual([]);
    expect(index.has(join('docs', 'decisions', 'README.md'))).toBe(true);
    expect(linkTargets(read('README.md'))).toContain('docs/README.md');
  });
});

describe('the design records', () => {
  const records = readdirSync(join(ROOT, 'docs', 'decisions')).filter((f) => f !== 'README.md');

  test('are numbered NNNN-name.md, each number once, with no gap', () => {
    expect(records.filter((f) => !/^\d{4}-[a-z0-9-]+\.md$/.test(f))).toEqual([]);
    const numbers = records.map((f) => Number(f.slice(0, 4))).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  test('are each listed in docs/decisions/README.md', () => {
    const listed = new Set(linkTargets(read('docs/decisions/README.md')));
    expect(records.filter((f) => !listed.has(f))).toEqual([]);
  });

  test('are each short: under 4 KB', () => {
    const long = records
      .map((f) => [f, Buffer.byteLength(read(`docs/decisions/${f}`))] as const)
      .filter(([, size]) => size >= 4096);
    expect(long).toEqual([]);
  });
});

describe('docs/performance.md', () => {
  const guide = read('docs/performance.md');

  test('is a guide under 250 lines, not a run log: no dated runs', () => {
    expect(guide.split('\n').length).toBeLessThan(250);
    expect(guide.match(/\b20\d\d-\d\d-\d\d\b/g)).toBeNull();
  });

  test('gives the target lines as `npm run bench` names them, every one of them', () => {
    const at = guide.indexOf('<!-- bench-target-lines -->');
    expect(at).toBeGreaterThan(0);
    const block =
      /^\s*```text\n([\s\S]*?)\n```/.exec(guide.slice(at + '<!-- bench-target-lines -->'.length))?.[1] ?? '';
    const documented = block.split('\n').filter(Boolean);
    // The names bench/targets.ts gives its lines, each `${...}` standing for any text.
    const source = readFileSync(join(ROOT, 'bench', 'targets.ts'), 'utf8');
    const names = [...source.matchAll(/\bname(?::|\s*=)\s*(`[^`]*`|'[^']*')/g)].map((m) => m[1].slice(1, -1));
    const patterns = names.map(
      (name) =>
        new RegExp(
          `^${name
            .split(/\$\{[^}]*\}/)
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('.+')}$`,
        ),
    );
    expect(names.length).toBeGreaterThanOrEqual(12);
    expect(documented.filter((line) => !patterns.some((p) => p.test(line)))).toEqual([]);
    expect(names.filter((_, i) => !documented.some((line) => patterns[i].test(line)))).toEqual([]);
  });
});
