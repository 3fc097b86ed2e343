// `npm run env:example`: regenerates .env.example from the settings table.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderEnvExample } from '../config/settings';
import { repoRoot } from '../devstack/stack';

writeFileSync(join(repoRoot, '.env.example'), renderEnvExample());
console.log('wrote .env.example');
