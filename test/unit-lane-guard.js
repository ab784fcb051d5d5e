// The fast lane (`npm run test:unit`, jest.unit.config.js) runs every test file not named
// `*.int.test.ts`, the tests that start no server and no process. This guard makes that a fact, not
// a hope: a test of the lane that listens on a port or starts a process fails, saying so, instead of
// slowing the lane down.
const net = require('node:net');
const childProcess = require('node:child_process');

const refuse = (what) => () => {
  throw new Error(
    `npm run test:unit runs the tests that start no server and no process, and this test ${what}: name its file *.int.test.ts (git mv; npm test still runs it)`,
  );
};
net.Server.prototype.listen = refuse('listens on a port');
for (const f of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
  childProcess[f] = refuse(`starts a process (${f})`);
