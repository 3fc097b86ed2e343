// `npm run stack -- up|down|status`: the local stack manager used by `npm start` and `npm test`.
// `npm run stack:cluster -- up|down|status`: the local 3-server ClickHouse cluster for tests (docs/stack.md).
import '../config/loadDotEnv';
import { repoRoot, stackPath } from '../config/paths';
import { ConfigError, loadSettings, localToolEnv, type Settings } from '../config/settings';
import { clickhouseClusterStack } from './clickhouseCluster';
import { stackDown, stackServices, stackStatus, stackUp } from './stack';

async function main(cmd: string | undefined): Promise<number> {
  const settings = loadSettings(localToolEnv());
  const log = (l: string) => process.stderr.write(`[stack] ${l}\n`);
  const services = stackServices(settings, log);
  switch (cmd) {
    case 'up': {
      if (!settings.stackManage) {
        log('STACK_MANAGE=false: not starting anything, only checking');
      } else {
        const t = Date.now();
        await stackUp(services, log);
        log(`up in ${Date.now() - t} ms`);
      }
      return printStatus(services);
    }
    case 'down': {
      const r = await stackDown(services);
      for (const [name, what] of Object.entries(r)) console.log(`${name.padEnd(11)} ${what}`);
      return 0;
    }
    case 'status':
      return printStatus(services);
    case 'cluster':
      return cluster(process.argv[3], settings, log);
    default:
      console.error('usage: stack up | down | status | cluster up|down|status');
      return 2;
  }
}

/**
 * Explicit commands, so not held back by STACK_MANAGE: the cluster is only ever started when asked for (by
 * this command or a test's `up()`), never by `stack up`.
 */
async function cluster(cmd: string | undefined, settings: Settings, log: (l: string) => void): Promise<number> {
  const stack = clickhouseClusterStack({ stackDir: stackPath(settings), root: repoRoot, log });
  switch (cmd) {
    case 'up': {
      const t = Date.now();
      await stack.up();
      log(`cluster ${stack.cluster} up in ${Date.now() - t} ms`);
      break;
    }
    case 'down':
      await stack.down();
      break;
    case 'status':
      break;
    default:
      console.error('usage: stack cluster up | down | status');
      return 2;
  }
  const st = await stack.status();
  for (const s of st) console.log(`${s.name.padEnd(11)} ${s.address.padEnd(22)} ${s.answers ? 'answers' : 'DOWN'}`);
  return cmd === 'down' || st.every((s) => s.answers) ? 0 : 1;
}

async function printStatus(services: ReturnType<typeof stackServices>): Promise<number> {
  const st = await stackStatus(services);
  for (const s of st) console.log(`${s.name.padEnd(11)} ${s.address.padEnd(22)} ${s.answers ? 'answers' : 'DOWN'}`);
  return st.every((s) => s.answers) ? 0 : 1;
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof ConfigError ? err.message : `stack: ${(err as Error).message}`);
    process.exit(1);
  },
);
