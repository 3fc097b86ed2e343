// `npm run events:check [-- --dir <path>]`: exit 1 naming every problem when the committed event
// contracts (schema/events, or --dir) differ from the code, miss a version or keep a removed one, or
// when a domain's versions are not compatible both ways for every pair (src/cli/events/checkContracts.ts).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../devstack/stack';
import { checkContracts } from './events/checkContracts';
import { publishedDomains } from './events/contractFiles';

const { values } = parseArgs({ options: { dir: { type: 'string' } } });
const dir = resolve(values.dir ?? resolve(repoRoot, 'schema', 'events'));
const problems = checkContracts(dir, publishedDomains());
if (problems.length) {
  console.error(`events:check: ${problems.length} problem(s) with the event contracts in ${dir}:`);
  for (const p of problems) console.error(`- ${p}`);
  process.exit(1);
}
console.log(`events:check: the event contracts in ${dir} match the code and every version pair is compatible`);
