// A third domain living only in the tests (test/fixtures/notes), registered before the process
// starts, runs end to end with either strategy: GraphQL writes, publication on its own topic,
// projection, a FRESH read, a clean reconciliation, a damaged projection repaired (docs/domains.md).
import { startTidemark, type Tidemark } from '../../src/app/start';
import { reconciliationFrom } from '../../src/app/wiring/reconciliation';
import { registerDomain } from '../../src/domains/registry';
import type { Scope } from '../../src/domains/reconciledDomains';
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { createRegistry } from '../../src/metrics/registry';
import type { Strategy } from '../../src/publication/publisher';
import type { ReconciliationService } from '../../src/reconciliation/service';
import { waitFor } from '../../src/shared/lifecycle';
import { notesModule } from '../fixtures/notes/module';
import { damageNotes, freshNotebook, notesGraphql } from '../fixtures/notes/notesHarness';
import { notebookScope } from '../fixtures/notes/reconciliation/notebookScope';

import { testLogger } from '../support/logCapture';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, authHeaderFor } from '../support/tokens';

jest.setTimeout(180000);

// Registered before anything starts, like a deployment's own domain would be.
registerDomain(notesModule);

describe.each<Strategy>(['outbox', 'kafka-first'])('the notes domain end to end (%s)', (strategy) => {
  let env: TestEnv;
  let app: Tidemark;
  let reconciliation: ReconciliationService;
  let client: Record<string, string> = {};
  const api = notesGraphql(
    () => app.gateway!.url,
    () => client,
  );
  const notebook = `nb-${strategy}`;
  const scope: Scope = notebookScope(notebook);
  const reconcile = (level: 'COUNTS' | 'IDS' | 'CONTENT') => reconciliation.reconcile(scope, level, { requestedBy: 'test-operator' });
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
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector', 'reconciler'] }, { migrate: false });
    reconciliation = reconciliationFrom(app.resources, { registry: createRegistry(false), logger: testLogger() });
    client = await authHeader(env.settings, 'service');
  });
  afterAll(async () => {
    await reconciliation?.stop();
    await app?.stop();
    await env?.cleanup();
  });

  it('creates, updates and deletes notes through GraphQL, each by the configured strategy', async () => {
    const first = await api.create(notebook, 'kept');
    expect(first.publication.state).toBe(strategy === 'outbox' ? 'NEW' : 'PUBLISHED_DIRECT');
    ids.kept = first.note.noteId;
    ids.edited = (await api.create(notebook, 'draft')).note.noteId;
    ids.gone = (await api.create(notebook, 'gone')).note.noteId;
    ids.wrong = (await api.create(notebook, 'wrong')).note.noteId;
    expect((await api.update(ids.edited, 1, 'final')).note).toMatchObject({ version: 2, title: 'final' });
    expect((await api.remove(ids.gone, 1)).note).toMatchObject({ version: 2, isDeleted: true });
  });

  it('shows the latest state of the notebook, FRESH, once published and projected', async () => {
    const shown = await freshNotebook(api, notebook, [
      { noteId: ids.kept!, version: 1, title: 'kept' },
      { noteId: ids.edited!, version: 2, title: 'final' },
      { noteId: ids.wrong!, version: 1, title: 'wrong' },
    ]);
    expect(shown.freshness).toEqual({ status: 'FRESH', reason: 'UP_TO_DATE' });
  });

  /** The operator's `reconcile` mutation, naming the notebook as the notes domain's own scope JSON. */
  async function reconcileOverGraphql(level: 'COUNTS' | 'IDS' | 'CONTENT'): Promise<{ outcome: string; found: number }> {
    const res = await fetch(app.gateway!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await authHeader(env.settings, 'operator')) },
      body: JSON.stringify({
        query:
          'mutation($scope: ReconciliationScopeInput!, $level: ReconciliationLevel!) ' +
          '{ reconcile(scope: $scope, level: $level) { run { outcome } discrepancies { kind } } }',
        variables: { scope: { domain: { domain: 'notes', scope: JSON.stringify({ notebookId: notebook }) } }, level },
      }),
    });
    const body = (await res.json()) as { errors?: unknown; data?: { reconcile: { run: { outcome: string }; discrepancies: unknown[] } } };
    expect(body.errors).toBeUndefined();
    return { outcome: body.data!.reconcile.run.outcome, found: body.data!.reconcile.discrepancies.length };
  }

  it('reconciles the notebook clean at every level, asked through GraphQL', async () => {
    for (const level of ['COUNTS', 'IDS', 'CONTENT'] as const) {
      // Notes still in their grace period may keep a run from CLEAN: asked again.
      let r = await reconcileOverGraphql(level);
      await waitFor(async () => (r = await reconcileOverGraphql(level)).outcome === 'CLEAN', {
        timeoutMs: 20000,
        what: `a CLEAN ${level} run`,
      });
      expect(r.found).toBe(0);
    }
  });

  it('finds each kind of damage in the projection, and repairs, tombstones and rebuilds it', async () => {
    const ch = { ch: app.resources.clickhouse, database: env.settings.clickhouseDatabase, layout: clickhouseLayout(env.settings) };
    await damageNotes(ch, { missing: ids.kept!, stale: ids.edited!, undeleted: ids.gone!, wrongTitle: ids.wrong! });

    // A difference younger than the domain's grace period is delay, not yet a discrepancy: polled.
    let found = await reconcile('CONTENT');
    await waitFor(async () => (found = await reconcile('CONTENT')).discrepancies.length === 4, {
      timeoutMs: 20000,
      what: 'all 4 reported',
    });
    expect(found.run.outcome).toBe('DISCREPANCIES');
    expect(Object.fromEntries(found.discrepancies.map((d) => [d.aggregateId, d.kind]))).toEqual({
      [ids.kept!]: 'MISSING',
      [ids.edited!]: 'STALE_VERSION',
      [ids.gone!]: 'DELETION_NOT_APPLIED',
      [ids.wrong!]: 'CONTENT_MISMATCH',
    });
    expect(found.discrepancies.find((d) => d.aggregateId === ids.wrong)!.differingFields).toEqual(['title']);

    const repaired = await reconciliation.repair(
      found.discrepancies.map((d) => d.id),
      'test-operator',
    );
    expect(Object.fromEntries(repaired.map((r) => [r.aggregateId ?? 'scope', [r.action, r.verification]]))).toMatchObject({
      [ids.kept!]: ['REPLAY', 'PASSED'],
      [ids.edited!]: ['REPLAY', 'PASSED'],
      [ids.gone!]: ['TOMBSTONE', 'PASSED'],
    });
    expect(repaired.find((r) => r.action === 'REBUILD')).toMatchObject({ verification: 'PASSED' });
    expect(repaired.find((r) => r.aggregateId === ids.edited)!.eventId).toBe(`note:${ids.edited}:v2`);
    expect((await reconcile('CONTENT')).run.outcome).toBe('CLEAN');
    const titles = (await api.read(notebook)).notes.map((n) => n.title).sort();
    expect(titles).toEqual(['final', 'kept', 'wrong']);
  });

  it("shows an author its own notes only, with its own notes' freshness", async () => {
    const service = client;
    client = await authHeaderFor(env.settings, { subject: 'alice', roles: ['customer'], customerId: 'c-alice' });
    const mine = (await api.create(notebook, 'mine')).note;
    await freshNotebook(api, notebook, [{ noteId: mine.noteId, version: 1, title: 'mine' }]);
    await expect(api.update(ids.kept!, 1, 'not mine')).rejects.toThrow(/FORBIDDEN/);
    client = service;
  });
});
