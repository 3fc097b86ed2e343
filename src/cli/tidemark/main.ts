// `npx tidemark <command>` (bin/tidemark.cjs) and `npm run token`: the operator's command line. Every
// command but `token` is a GraphQL operation against a running gateway: its URL from --url or
// TIDEMARK_URL (default http://<HTTP_HOST>:<HTTP_PORT>/graphql), its token from --token or
// TIDEMARK_TOKEN, else an operator token minted with the development secret (development only).
import '../../config/loadDotEnv';
import { Command, Option } from 'commander';
import { ConfigError, loadSettings, localToolEnv } from '../../config/settings';
import { registerOperatorCommands } from './operatorCommands';
import { ROLES, type Role } from '../../auth/principal';
import { mintRequestedToken, parseClaim, parseRole, parseTtl, type TokenClaims } from './token';

export function program(): Command {
  const cli = new Command('tidemark')
    .description('Tidemark from the command line: mint tokens, and run operator actions on a running gateway over its GraphQL API.')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });

  cli
    .command('token')
    .description(
      'Print a bearer token signed with AUTH_JWT_SECRET, or in development with the secret kept in STACK_DIR (it survives restarts).',
    )
    .addOption(
      new Option('-r, --role <role>', `a role of the token: ${ROLES.join(', ')} (repeatable)`).argParser(parseRole).makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '-c, --claim <name=value>',
        'a scope claim (repeatable): school_ids=11,12 (teacher, required; analyst, optional), customer_id=c-42 (customer), ' +
          'user_id=7 (student); a scoped role without its claim is refused',
      ).argParser(parseClaim),
    )
    .addOption(new Option('--ttl <duration>', 'lifetime: 90s, 30m, 1h, 7d').argParser(parseTtl).default(12 * 3600, '12h'))
    .option('--subject <sub>', 'the token subject (default cli-<roles>); for service, one listed in AUTH_SERVICE_SUBJECTS')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  npm run token -- --role operator\n' +
        '  npm run token -- --role teacher --claim school_ids=11,12\n' +
        '  npm run token -- --role customer --claim customer_id=c-42\n' +
        '  npm run token -- --role student --claim user_id=7\n' +
        '  npm run token -- --role service --subject billing-backend   # billing-backend in AUTH_SERVICE_SUBJECTS\n',
    )
    .action(async (o: { role: Role[]; claim?: TokenClaims; ttl: number; subject?: string }) => {
      const token = await mintRequestedToken(
        loadSettings(localToolEnv()),
        { roles: o.role, claims: o.claim, ttlSeconds: o.ttl, subject: o.subject },
        (w) => process.stderr.write(`tidemark: warning: ${w}\n`),
      );
      process.stdout.write(`${token}\n`);
    });

  registerOperatorCommands(cli);
  return cli;
}

export async function run(argv: string[]): Promise<void> {
  try {
    await program().parseAsync(argv);
  } catch (err) {
    process.stderr.write(`tidemark: ${err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}

if (require.main === module) void run(process.argv);
