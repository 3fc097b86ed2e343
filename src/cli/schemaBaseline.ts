// `npm run schema:baseline`: after a release, the committed schema becomes the contract later
// changes are checked against (src/graphql/schemaCompatibility.ts).
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../config/paths';

copyFileSync(join(repoRoot, 'schema', 'schema.graphql'), join(repoRoot, 'schema', 'schema.baseline.graphql'));
console.log('schema/schema.baseline.graphql is now the released contract');
