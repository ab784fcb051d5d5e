#!/usr/bin/env node

// The CLI entry point (`npx preflight-gate ...`); runs the built JavaScript in dist/.
require('../dist/cli/main.js');
