// A third domain that lives only in the tests (test/fixtures/notes), registered before the process
// starts, runs end to end like the built-in ones: GraphQL writes through its Publisher (the outbox by
// default, kafka-first when PUBLICATION_STRATEGIES says so), the relay or the direct path onto its own
// topic, the projector into its ClickHouse table, a query of the latest state with a FRESH marker, a
// clean reconciliation of a notebook, and a damaged projection found and repaired. Nothing in src/
// names the notes domain; what src/ still lacks is listed in docs/domains.md.
import { startTidemark, type Tidemark } from '../../src/app/start';
import { reconciliationOfEveryDomain } from '../fixtures/notes/reconciliationService';
import { registerDomain } from '../../src/domains/registry';
import type { Scope } from '../../src/domains/reconciledDomains';
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { ident, str } from '../../src/infra/clickhouse/literal';
import { createRegistry } from '../../src/metrics/registry';
import { fromClickHouseReads } from '../../src/projections/read/readModelStore';
import type { Strategy } from '../../src/publication/publisher';
import type { ReconciliationService } from '../../src/reconciliation/service';
import { deleteRows } from '../../src/reconciliation/target/sql/deleteRows';
import { waitFor } from '../../src/shared/lifecycle';
import { notesModuleWith } from '../fixtures/notes/module';
import type { NotesReadSource } from '../fixtures/notes/notesRead';
import { notebookScope } from '../fixtures/notes/reconciliation/notebookScope';
import { executeRaw } from '../support/graphqlClient';
import { testLogger } from '../support/logCapture';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader } from '../support/tokens';

jest.setTimeout(180000);

// The read model the notes resolvers use: a module's gateway services get stores and a publisher, not
// a ClickHouse reader, so this suite hands it one over each environment's database.
let reader: NotesReadSource | undefined;
registerDomain(notesModuleWith(() => reader));

const NOTE = 'note { noteId version title body isDeleted } publication { eventId state }';
type Written = { note: { noteId: string; version: number; title: string; isDeleted: boolean }; publication: { state: string } };
type Notebook = { notes: { noteId: string; version: number; title: string }[]; freshness: { status: string } };

describe.each<Strategy>(['outbox', 'kafka-first'])('the notes domain end to end (%s)', (strategy) => {
  let env: TestEnv;
  let app: Tidemark;
  let reconciliation: ReconciliationService;
  let client: Record<string, string>;
  const notebook = `nb-${strategy}`;
  const scope = notebookScope(notebook) as unknown as Scope;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    env = await createTestEnv({
      publicationStrategies: { notes: strategy },
      relayPollIntervalMs: 50,
      projectorFlushIntervalMs: 50,
      reconcileGraceMs: 500,
      reconcileCatchUpWaitMs: 1500,
      reconcileDirectCompareMax: 2,
      reconcileBucketCount: 8,
      publicationReconcilerGraceMs: 0,
      publicationReconcilerIntervalMs: 100,
      repairWaitMs: 30000,
      rebuildWaitMs: 45000,
    });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    reader = { store: fromClickHouseReads(app.resources.clickhouse), database: env.settings.clickhouseDatabase };
    reconciliation = reconciliationOfEveryDomain(app.resources, { registry: createRegistry(false), logger: testLogger() });
    client = await authHeader(env.settings, 'service');
  });
  afterAll(async () => {
    await reconciliation?.stop();
    await app?.stop();
    await env?.cleanup();
  });

  async function gql<T>(query: string, variables: Record<string, unknown>, headers = client): Promise<T> {
    const r = await executeRaw(app.gateway!.url, query, variables, headers);
    expect(r.errors).toBeUndefined();
    return r.data as T;
  }
  const create = async (title: string) =>
    (
      await gql<{ createNote: Written }>(`mutation($i: CreateNoteInput!) { createNote(input: $i) { ${NOTE} } }`, {
        i: { notebookId: notebook, title, body: `${title} body` },
      })
    ).createNote;
  const read = async () =>
    (
      await gql<{ notes: Notebook }>(
        'query($n: String!) { notes(notebookId: $n) { notes { noteId version title } freshness { status } } }',
        {
          n: notebook,
        },
      )
    ).notes;

  it('creates, updates and deletes notes through GraphQL, each by the configured strategy', async () => {
    const first = await create('kept');
    expect(first.publication.state).toBe(strategy === 'outbox' ? 'NEW' : 'PUBLISHED_DIRECT');
    ids.kept = first.note.noteId;
    ids.edited = (await create('draft')).note.noteId;
    ids.gone = (await create('gone')).note.noteId;
    const upd = await gql<{ updateNote: Written }>(`mutation($i: UpdateNoteInput!) { updateNote(input: $i) { ${NOTE} } }`, {
      i: { noteId: ids.edited, expectedVersion: 1, title: 'final', body: 'final body' },
    });
    expect(upd.updateNote.note).toMatchObject({ version: 2, title: 'final' });
    const del = await gql<{ deleteNote: Written }>(`mutation($id: ID!) { deleteNote(noteId: $id, expectedVersion: 1) { ${NOTE} } }`, {
      id: ids.gone,
    });
    expect(del.deleteNote.note).toMatchObject({ version: 2, isDeleted: true });
  });

  it('shows the latest state of the notebook, FRESH, once relayed and projected', async () => {
    const expected = [
      { noteId: ids.kept, version: 1, title: 'kept' },
      { noteId: ids.edited, version: 2, title: 'final' },
    ].sort((a, b) => a.noteId!.localeCompare(b.noteId!));
    let last: Notebook | undefined;
    await waitFor(
      async () => {
        last = await read();
        const got = [...last.notes].sort((a, b) => a.noteId.localeCompare(b.noteId));
        return last.freshness.status === 'FRESH' && JSON.stringify(got) === JSON.stringify(expected);
      },
      { timeoutMs: 60000, what: `notebook ${notebook} projected and fresh (last: ${JSON.stringify(last)})` },
    );
  });

  it('reconciles the notebook clean at every level', async () => {
    for (const level of ['COUNTS', 'IDS', 'CONTENT'] as const) {
      let r = await reconciliation.reconcile(scope, level, { requestedBy: 'test-operator' });
      // A run right after the writes may still judge notes in flight (the grace period): asked again.
      await waitFor(
        async () => (r = await reconciliation.reconcile(scope, level, { requestedBy: 'test-operator' })).run.outcome === 'CLEAN',
        {
          timeoutMs: 20000,
          what: `a CLEAN ${level} run`,
        },
      );
      expect(r.discrepancies).toEqual([]);
    }
  });

  it('finds a dropped note and a stale version in the projection, and repairs both', async () => {
    const ch = app.resources.clickhouse;
    const db = env.settings.clickhouseDatabase;
    await deleteRows(ch, clickhouseLayout(env.settings), db, 'notes', `note_id IN (${str(ids.kept!)}, ${str(ids.edited!)})`);
    // The edited note's first version comes back alone: the projection now holds a stale version.
    const rs = await ch.query({
      query: `SELECT count() AS n FROM ${ident(db)}.notes WHERE note_id = ${str(ids.kept!)}`,
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([{ n: '0' }]);
    const found = await reconciliation.reconcile(scope, 'CONTENT', { requestedBy: 'test-operator' });
    expect(found.run.outcome).toBe('DISCREPANCIES');
    expect(Object.fromEntries(found.discrepancies.map((d) => [d.aggregateId, d.kind]))).toEqual({
      [ids.kept!]: 'MISSING',
      [ids.edited!]: 'MISSING',
    });
    const repaired = await reconciliation.repair(
      found.discrepancies.map((d) => d.id),
      'test-operator',
    );
    expect(repaired.map((r) => [r.aggregateId, r.action, r.eventId, r.verification]).sort()).toEqual(
      [
        [ids.edited, 'REPLAY', `note:${ids.edited}:v2`, 'PASSED'],
        [ids.kept, 'REPLAY', `note:${ids.kept}:v1`, 'PASSED'],
      ].sort(),
    );
    expect((await reconciliation.reconcile(scope, 'CONTENT', { requestedBy: 'test-operator' })).run.outcome).toBe('CLEAN');
    expect((await read()).notes.map((n) => n.version).sort()).toEqual([1, 2]);
  });
});
