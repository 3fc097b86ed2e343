#!/usr/bin/env node
// `npx tidemark ...`: in a checkout (src/ present) the TypeScript command line through tsx, so it works
// from a clean clone after `npm ci`, without a build, and never runs a stale dist/. The Docker image
// has no src/: there it runs the compiled CLI (dist/, built in the image), with no loader.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const source = join(__dirname, '..', 'src', 'cli', 'tidemark', 'main.ts');
if (existsSync(source)) {
  require('tsx/cjs/api').register();
  require(source).run(process.argv);
} else {
  require(join(__dirname, '..', 'dist', 'src', 'cli', 'tidemark', 'main.js')).run(process.argv);
}
