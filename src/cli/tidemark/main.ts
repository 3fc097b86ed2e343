// `npx tidemark <command>` (bin/tidemark.cjs) and `npm run token`: the operator's command line. Every
// command but `token` is a GraphQL operation against a running gateway: its URL from --url or
// TIDEMARK_URL (default http://<HTTP_HOST>:<HTTP_PORT>/graphql), its token from --token or
// TIDEMARK_TOKEN, else an operator token minted with the development secret (development only).
import '../../config/loadDotEnv';
import { Command, Option } from 'commander';
import { ConfigError, loadSettings } from '../../config/settings';
import { registerOperatorCommands } from './operatorCommands';
import { mintToken, parseRole, parseTtl } from './token';

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
      new Option('-r, --role <role>', 'a role of the token: client, analyst or operator (repeatable)')
        .argParser(parseRole)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--ttl <duration>', 'lifetime: 90s, 30m, 1h, 7d').argParser(parseTtl).default(12 * 3600, '12h'))
    .option('--subject <sub>', 'the token subject (default cli-<roles>)')
    .action(async (o: { role: Parameters<typeof mintToken>[1]['roles']; ttl: number; subject?: string }) => {
      process.stdout.write(`${await mintToken(loadSettings(), { roles: o.role, ttlSeconds: o.ttl, subject: o.subject })}\n`);
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
