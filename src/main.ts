// `npm start`: brings the local stack up (unless STACK_MANAGE=false), migrates, and runs the roles of
// TIDEMARK_ROLES or `--roles a,b`. SIGINT/SIGTERM drain and stop; a second signal exits at once.
import 'reflect-metadata';
import { ConfigError, loadSettings } from './config/settings';
import { stackServices, stackUp } from './devstack/stack';
import { startTidemark } from './app/start';
import { createLogger } from './shared/logger';
import { randomBytes } from 'node:crypto';
import { ROLES } from './auth/principal';
import { signToken } from './auth/tokens';

function rolesFromArgs(argv: string[]): string | undefined {
  const i = argv.findIndex((a) => a === '--roles' || a.startsWith('--roles='));
  if (i < 0) return undefined;
  return argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
}

async function main(): Promise<void> {
  const roles = rolesFromArgs(process.argv.slice(2));
  let settings = loadSettings(roles ? { ...process.env, TIDEMARK_ROLES: roles } : process.env);
  const logger = createLogger(settings.logLevel);
  if (settings.env === 'development' && !settings.authJwtSecret && !settings.authJwksUrl) {
    // Development mode keeps `npm start` usable in one command: a random secret for this run, and a
    // token per role printed once (never in production, where a secret or JWKS is required).
    settings = { ...settings, authJwtSecret: randomBytes(32).toString('hex') };
    const o = { issuer: settings.authIssuer, audience: settings.authAudience };
    for (const role of ROLES) {
      const token = await signToken(settings.authJwtSecret!, { subject: `local-${role}`, roles: [role] }, o);
      process.stdout.write(`development token (${role}): Authorization: Bearer ${token}\n`);
    }
  }
  if (settings.stackManage) {
    logger.info('bringing the local stack up (STACK_MANAGE=false to skip)');
    await stackUp(stackServices(settings, (l) => logger.info({ stack: true }, l)));
  }
  const app = await startTidemark(settings, { logger });
  if (app.gateway) logger.info({ url: app.gateway.url, ws: app.gateway.wsUrl, roles: settings.roles }, `Tidemark GraphQL ready at ${app.gateway.url}`);
  else logger.info({ roles: settings.roles }, 'Tidemark running');
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
