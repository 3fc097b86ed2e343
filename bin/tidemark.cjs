#!/usr/bin/env node
// `npx tidemark ...`: runs the TypeScript command line through tsx (a dependency), so it works from a
// clean clone after `npm ci`, without a build.
require('tsx/cjs/api').register();
require('../src/cli/tidemark/main.ts').run(process.argv);
