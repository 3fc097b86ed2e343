// The operator commands: each one GraphQL operation on a running gateway (the same mutations the
// console and docs/operators.md describe), printing the answer as JSON so scripts can read it.
// One function per command, registered from OPERATOR_COMMANDS in the order `tidemark --help` lists them.
import { Option, type Command } from 'commander';
import { call, connect, type ConnectionOptions } from './gatewayClient';
import { ERASURE_COMMANDS } from './erasureCommands';
import { DOMAINS, integer, LEVELS, print, repeatable, run, scopeOf, withScope } from './operatorOptions';

function addReplayParked(cli: Command): void {
  cli
    .command('replay-parked')
    .description('Return PARKED outbox events to NEW (attempts reset) for the relays to deliver again (replayParkedEvents).')
    .addOption(new Option('--domain <domain>', 'only this domain').choices(DOMAINS))
    .option('--store <store>', 'only this store')
    .option('--shard <n>', 'only this shard', integer)
    .option('--event-id <id>', 'only this event (repeatable)', repeatable)
    .option('--aggregate-id <id>', 'only this aggregate')
    .option('--error-code <code>', 'only events whose last error had this code')
    .option('--limit <n>', 'at most this many events', integer, 100)
    .action(async (o, cmd: Command) => {
      const filter = {
        domain: o.domain,
        store: o.store,
        shard: o.shard,
        eventIds: o.eventId,
        aggregateId: o.aggregateId,
        errorCode: o.errorCode,
      };
      await run(
        cmd,
        'mutation ($filter: ParkedEventFilter!, $limit: Int!) { replayParkedEvents(filter: $filter, limit: $limit) ' +
          '{ count events { eventId domain aggregateId version store shard } } }',
        {
          filter,
          limit: o.limit,
        },
      );
    });
}

function addReplayDeadLetters(cli: Command): void {
  cli
    .command('replay-dead-letters')
    .description('Move kafka-first DEAD_LETTER publications back to NOT_PUBLISHED so the relay tries again (replayDeadLetters).')
    .addOption(new Option('--domain <domain>', 'the domain').choices(DOMAINS).makeOptionMandatory())
    .option('--event-id <id>', 'only this event (repeatable; all DEAD_LETTER rows of the domain when omitted)', repeatable)
    .option('--limit <n>', 'at most this many rows, oldest first', integer, 100)
    .action(async (o, cmd: Command) => {
      await run(cmd, 'mutation ($filter: ReplayDeadLettersInput!) { replayDeadLetters(filter: $filter) { replayedCount eventIds } }', {
        filter: { domain: o.domain, eventIds: o.eventId, limit: o.limit },
      });
    });
}

function addReconcile(cli: Command): void {
  withScope(cli.command('reconcile'))
    .description('Compare one scope of the authoritative stores with its projection and record what differs (reconcile).')
    .addOption(new Option('--level <level>', 'how deep to compare').choices(LEVELS).default('CONTENT'))
    .option('--no-escalate', 'do not go on to IDS when counts differ')
    .action(async (o, cmd: Command) => {
      await run(
        cmd,
        'mutation ($scope: ReconciliationScopeInput!, $level: ReconciliationLevel!, $escalate: Boolean!) { ' +
          'reconcile(scope: $scope, level: $level, escalate: $escalate) ' +
          '{ run { id domain scopeKey outcome levelReached discrepanciesFound excludedChangedAfterSnapshot excludedInFlight durationMs note } ' +
          'discrepancies { id kind aggregateId status } } }',
        { scope: scopeOf(o), level: o.level, escalate: o.escalate },
      );
    });
}

function addRepair(cli: Command): void {
  cli
    .command('repair')
    .description(
      'Repair discrepancies by their kind (repair), or remove unexpected projection rows with --remove-unexpected (removeUnexpectedRows).',
    )
    .argument('<discrepancyIds...>', 'ids from `tidemark reconcile` or the discrepancies query')
    .option('--remove-unexpected <reason>', 'remove UNEXPECTED_ROW rows, recording this reason')
    .action(async (ids: string[], o: { removeUnexpected?: string }, cmd: Command) => {
      const fields = '{ id discrepancyId action outcome verification outcomeNote }';
      if (o.removeUnexpected)
        await run(
          cmd,
          `mutation ($ids: [ID!]!, $reason: String!) { removeUnexpectedRows(discrepancyIds: $ids, reason: $reason) ${fields} }`,
          { ids, reason: o.removeUnexpected },
        );
      else await run(cmd, `mutation ($ids: [ID!]!) { repair(discrepancyIds: $ids) ${fields} }`, { ids });
    });
}

function addRebuild(cli: Command): void {
  withScope(cli.command('rebuild'))
    .description('Rebuild one scope of a projection from the authoritative state, validate it and switch readers (rebuildProjection).')
    .addOption(new Option('--domain <domain>', 'the projection').choices(DOMAINS).makeOptionMandatory())
    .option('--reason <text>', 'why (kept in the audit record)')
    .action(async (o, cmd: Command) => {
      await run(
        cmd,
        'mutation ($domain: EventDomain!, $scope: ReconciliationScopeInput!, $reason: String) { ' +
          'rebuildProjection(domain: $domain, scope: $scope, reason: $reason) ' +
          '{ id status phase scopeKey sourceRows validation errorCode errorSummary } }',
        { domain: o.domain, scope: scopeOf(o), reason: o.reason },
      );
    });
}

/** `migrate status`: a table by default (one line per database), the answer itself with --json. */
function addMigrate(cli: Command): void {
  const migrate = cli.command('migrate').description('Migrations of the databases a running gateway uses.');
  migrate
    .command('status')
    .description(
      'Applied and pending migrations of every database (migrations query); migrations themselves run at start or with `npm run migrate`.',
    )
    .option('--json', 'print the answer as JSON')
    .action(async (o: { json?: boolean }, cmd: Command) => {
      const c = await connect(cmd.optsWithGlobals<ConnectionOptions>());
      const { migrations } = await call<{ migrations: { engine: string; target: string; applied: string[]; pending: string[] }[] }>(
        c,
        '{ migrations { engine target applied pending } }',
      );
      if (o.json) {
        print(migrations);
        return;
      }
      for (const m of migrations) {
        const state = m.pending.length ? `${m.pending.length} pending: ${m.pending.join(', ')}` : 'up to date';
        process.stdout.write(`${m.engine.padEnd(11)} ${m.target.padEnd(32)} ${String(m.applied.length).padStart(3)} applied, ${state}\n`);
      }
    });
}

const OPERATOR_COMMANDS: readonly ((cli: Command) => void)[] = [
  addReplayParked,
  addReplayDeadLetters,
  addReconcile,
  addRepair,
  addRebuild,
  ...ERASURE_COMMANDS,
  addMigrate,
];

export function registerOperatorCommands(cli: Command): void {
  cli
    .option('--url <url>', 'GraphQL URL of the gateway (TIDEMARK_URL; default the local gateway of HTTP_HOST/HTTP_PORT)')
    .option('--token <jwt>', 'an operator bearer token (TIDEMARK_TOKEN; in development one is minted with the kept secret)');
  for (const addCommand of OPERATOR_COMMANDS) addCommand(cli);
}
