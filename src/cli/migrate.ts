// `npm run migrate`: applies pending migrations on every engine (what `npm start` does first).
import '../config/loadDotEnv';
import { loadSettings, localToolEnv } from '../config/settings';
import { migrateAll } from '../app/migrateAll';
import { openResources } from '../app/resources';

(async () => {
  const r = openResources(loadSettings(localToolEnv()));
  try {
    for (const rep of await migrateAll(r))
      console.log(`${rep.engine.padEnd(10)} ${rep.target.padEnd(24)} ${rep.applied.length ? rep.applied.join(', ') : 'up to date'}`);
  } finally {
    await r.close();
  }
})().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
