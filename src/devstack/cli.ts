// `npm run stack -- up|down|status`: the local stack manager used by `npm start` and `npm test`.
import { ConfigError, loadSettings } from '../config/settings';
import { stackDown, stackServices, stackStatus, stackUp } from './stack';

async function main(cmd: string | undefined): Promise<number> {
  const settings = loadSettings();
  const log = (l: string) => process.stderr.write(`[stack] ${l}\n`);
  const services = stackServices(settings, log);
  switch (cmd) {
    case 'up': {
      if (!settings.stackManage) {
        log('STACK_MANAGE=false: not starting anything, only checking');
      } else {
        const t = Date.now();
        await stackUp(services);
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
    default:
      console.error('usage: stack up | down | status');
      return 2;
  }
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
