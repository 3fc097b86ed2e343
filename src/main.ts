// `npm start`: brings the local stack up (unless STACK_MANAGE=false), migrates, and runs the roles of
// TIDEMARK_ROLES or `--roles a,b`, on the ClickHouse of CLICKHOUSE_ENGINE or `--clickhouse server|embedded`.
// `npm start` passes `--development`; `node dist/src/main.js` alone is production unless TIDEMARK_ENV says otherwise.
// SIGINT/SIGTERM drain and stop; a second signal exits at once.
import 'reflect-metadata';
import './config/loadDotEnv';
import { embeddedClickHousePath } from './config/paths';
import { ConfigError, loadSettings } from './config/settings';
import { stackServices, stackUp } from './devstack/stack';
import { startTidemark } from './app/start';
import { createLogger } from './shared/logger';
import { mintDevelopmentTokens, withDevelopmentSecret, type DevelopmentToken } from './auth/developmentTokens';

/** The value of `--name value` or `--name=value`. */
function argValue(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
}

/**
 * `--development` (what `npm start` passes): development on loopback with the console's development
 * tokens, unless the environment (or .env) names TIDEMARK_ENV itself, which wins. Without the flag a
 * process is production unless told otherwise (the Docker image, a service unit).
 */
function developmentIfAsked(argv: string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!argv.includes('--development') || env.TIDEMARK_ENV !== undefined) return env;
  return { CONSOLE_DEV_TOKENS: 'true', ...env, TIDEMARK_ENV: 'development' };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const roles = argValue(argv, '--roles');
  const clickhouseFlag = argValue(argv, '--clickhouse');
  const flags = { ...(roles ? { TIDEMARK_ROLES: roles } : {}), ...(clickhouseFlag ? { CLICKHOUSE_ENGINE: clickhouseFlag } : {}) };
  let settings = loadSettings({ ...developmentIfAsked(argv, process.env), ...flags });
  const logger = createLogger(settings.logLevel);
  let developmentTokens: DevelopmentToken[] | undefined;
  if (settings.env === 'development' && !settings.authJwtSecret && !settings.authJwksUrl) {
    // Development mode keeps `npm start` usable in one command: the secret kept in <STACK_DIR> (made on
    // first start), and a token per role printed once (never in production, where a secret or JWKS is
    // required). `npm run token -- --role operator` mints more with the same secret.
    settings = withDevelopmentSecret(settings);
    developmentTokens = await mintDevelopmentTokens(settings);
    for (const { role, token } of developmentTokens) process.stdout.write(`development token (${role}): Authorization: Bearer ${token}\n`);
  }
  if (settings.stackManage) {
    // One plain line per engine (and per step that installs or starts something), not log records.
    const line = (l: string) => process.stderr.write(`[stack] ${l}\n`);
    line('bringing the local stack up (STACK_MANAGE=false to skip)');
    await stackUp(stackServices(settings, line), line);
  }
  const app = await startTidemark(settings, { logger, developmentTokens });
  const clickhouse =
    settings.clickhouseEngine === 'embedded' ? `embedded ClickHouse at ${embeddedClickHousePath(settings)}` : settings.clickhouseUrl;
  const ready = { roles: settings.roles, clickhouse };
  if (app.gateway) logger.info({ url: app.gateway.url, ws: app.gateway.wsUrl, ...ready }, `Tidemark GraphQL ready at ${app.gateway.url}`);
  else logger.info({ roles: settings.roles, clickhouse }, 'Tidemark running');
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (++signals > 1) process.exit(130);
    logger.info({ signal: sig }, 'draining and stopping');
    app.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error('Tidemark failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
