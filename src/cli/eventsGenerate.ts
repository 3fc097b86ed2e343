// `npm run events:generate`: writes schema/events/<domain>/<EventType>.v<N>.json from the event
// contracts in code (src/cli/events/contractFiles.ts). Commit the result; `npm run events:check`
// fails when the committed files and the code disagree (docs/events.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../devstack/stack';
import { contractFiles, publishedDomains } from './events/contractFiles';

const eventsDir = join(repoRoot, 'schema', 'events');

const files = contractFiles(publishedDomains());
for (const [path, content] of files) {
  mkdirSync(dirname(join(eventsDir, path)), { recursive: true });
  writeFileSync(join(eventsDir, path), content);
}
console.log(`wrote ${files.size} event contracts under ${eventsDir}`);
