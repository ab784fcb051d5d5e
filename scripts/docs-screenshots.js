'use strict';
/**
 * `npm run docs:screenshots`: the screenshots of docs/playground.md, made from the built page
 * (npm run build first) in headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium), so they
 * can be made again whenever the page changes.
 */
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const puppeteer = require('puppeteer-core');
const { shareFragment } = require('../dist/playground/share-link');

const ROOT = join(__dirname, '..');
const OUT = join(ROOT, 'docs', 'images');
const payload = JSON.parse(
  readFileSync(join(ROOT, 'src', 'payload', 'spec-execution-example-as-preflight.json'), 'utf8'),
);
const policy = readFileSync(join(ROOT, 'src', 'playground', 'page', 'starter-policy.yaml'), 'utf8');
const facts = { environments: { [payload.execution.environment]: { name: 'production' } } };

const SHOTS = [
  {
    file: 'playground.png',
    input: { policies: { 'prod-attack-limits.yaml': policy }, payload, now: '2026-01-05T10:00:00Z', facts },
  },
  {
    file: 'playground-problems.png',
    input: {
      policies: { 'prod-attack-limits.yaml': policy.replace('maxPercentage: 25', 'maxPercent: 25') },
      payload,
      now: '2026-01-05T10:00:00Z',
      facts,
    },
  },
];

function startPlayground() {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'preflight-gate.js'), 'playground', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (url) resolve({ url: url[0], child });
    });
    child.once('exit', (code) => reject(new Error(`the playground exited (${code}): ${out}`)));
  });
}

async function main() {
  const { url, child } = await startPlayground();
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless=new', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 860 });
    for (const shot of SHOTS) {
      const fragment = shareFragment(shot.input);
      await page.goto(`${url}#${fragment}`);
      await page.waitForFunction((f) => document.getElementById('result')?.dataset.fragment === f, {}, fragment);
      await page.screenshot({ path: join(OUT, shot.file) });
      process.stdout.write(`docs/images/${shot.file}\n`);
    }
  } finally {
    await browser.close();
    child.kill('SIGTERM');
  }
}

main().catch((err) => {
  process.stderr.write(`docs-screenshots: ${err.stack}\n`);
  process.exit(1);
});
