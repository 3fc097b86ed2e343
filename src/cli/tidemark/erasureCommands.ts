// The erasure commands (docs/erasure.md): `erase-student` / `erase-customer` start one on a running gateway
// (eraseStudent), `erasure` shows one; with --wait both poll until the erasure completes and print the
// certificate. The answer is printed as JSON, as every operator command does.
import { InvalidArgumentError, type Command } from 'commander';
import { call, connect, type ConnectionOptions, type GatewayConnection as Connection } from './gatewayClient';
import { integer, print } from './operatorOptions';

const FIELDS =
  '{ id kind domain status subjectHash reason requestedBy requestedAt deadlineAt completedAt aggregates findings failedAttempts lastError ' +
  'stores { store done affected steps note } certificate { store searched searchedAt found note } }';

interface ErasureAnswer {
  id: string;
  status: string;
}

const seconds = (v: string): number => {
  const n = integer(v);
  if (n < 1) throw new InvalidArgumentError('at least 1 second');
  return n;
};

/** Polls erasure(id) every second until it completes or `timeoutS` passes; prints the last answer. */
async function waitForCompletion(c: Connection, first: ErasureAnswer, timeoutS: number): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  let e = first;
  while (e.status !== 'COMPLETED' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    e = (await call<{ erasure: ErasureAnswer | null }>(c, `query ($id: ID!) { erasure(id: $id) ${FIELDS} }`, { id: e.id })).erasure ?? e;
  }
  print(e);
  if (e.status !== 'COMPLETED') {
    process.stderr.write(`erasure ${e.id} is ${e.status} after ${timeoutS} s; follow it with: tidemark erasure --id ${e.id} --wait\n`);
    process.exitCode = 2;
  }
}

function addEraseStudent(cli: Command): void {
  cli
    .command('erase-student')
    .description("Erase a student's fitness results from every store, with a certificate (eraseStudent; docs/erasure.md).")
    .requiredOption('--user-id <n>', 'the student (userId)', integer)
    .requiredOption('--reason <text>', 'why (kept in the audit record, 1-500 characters)')
    .option('--wait [seconds]', 'poll until it completes (default 600 s) and print the certificate', seconds)
    .action(async (o: { userId: number; reason: string; wait?: number | true }, cmd: Command) => {
      const c = await connect(cmd.optsWithGlobals<ConnectionOptions>());
      const { eraseStudent } = await call<{ eraseStudent: ErasureAnswer }>(
        c,
        `mutation ($userId: Int!, $reason: String!) { eraseStudent(userId: $userId, reason: $reason) ${FIELDS} }`,
        { userId: o.userId, reason: o.reason },
      );
      if (o.wait === undefined) print(eraseStudent);
      else await waitForCompletion(c, eraseStudent, o.wait === true ? 600 : o.wait);
    });
}

function addEraseCustomer(cli: Command): void {
  cli
    .command('erase-customer')
    .description("Erase a customer's identity: its id becomes a keyed pseudonym in every store, its orders stay (eraseCustomer).")
    .requiredOption('--customer-id <id>', 'the customer (customerId)')
    .requiredOption('--reason <text>', 'why (kept in the audit record, 1-500 characters)')
    .option('--wait [seconds]', 'poll until it completes (default 600 s) and print the certificate', seconds)
    .action(async (o: { customerId: string; reason: string; wait?: number | true }, cmd: Command) => {
      const c = await connect(cmd.optsWithGlobals<ConnectionOptions>());
      const { eraseCustomer } = await call<{ eraseCustomer: ErasureAnswer }>(
        c,
        `mutation ($customerId: String!, $reason: String!) { eraseCustomer(customerId: $customerId, reason: $reason) ${FIELDS} }`,
        { customerId: o.customerId, reason: o.reason },
      );
      if (o.wait === undefined) print(eraseCustomer);
      else await waitForCompletion(c, eraseCustomer, o.wait === true ? 600 : o.wait);
    });
}

function addErasure(cli: Command): void {
  cli
    .command('erasure')
    .description('Show an erasure: its progress per store and its certificate (erasure); without --id, the newest ones (erasures).')
    .option('--id <id>', 'the erasure')
    .option('--wait [seconds]', 'with --id: poll until it completes (default 600 s)', seconds)
    .action(async (o: { id?: string; wait?: number | true }, cmd: Command) => {
      const c = await connect(cmd.optsWithGlobals<ConnectionOptions>());
      if (!o.id) {
        print((await call<{ erasures: unknown }>(c, `{ erasures(first: 20) ${FIELDS} }`)).erasures);
        return;
      }
      const { erasure } = await call<{ erasure: ErasureAnswer | null }>(c, `query ($id: ID!) { erasure(id: $id) ${FIELDS} }`, { id: o.id });
      if (!erasure) throw new InvalidArgumentError(`no erasure ${o.id}`);
      if (o.wait === undefined) print(erasure);
      else await waitForCompletion(c, erasure, o.wait === true ? 600 : o.wait);
    });
}

export const ERASURE_COMMANDS: readonly ((cli: Command) => void)[] = [addEraseStudent, addEraseCustomer, addErasure];
