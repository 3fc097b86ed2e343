// The console in a real browser (Debian's Chromium driven by playwright-core) against a real gateway,
// relay and projector: an operator signs in by pasting a token, sees a write's publication states
// arrive live, replays a dead letter and sees it PUBLISHED, replays a parked outbox event and sees it
// SENT, runs a reconciliation and repairs an injected discrepancy, removes a row with no source (with a
// reason, audited); an analyst sees a report chart and no operator action, and the API refuses the
// analyst's replay and removal. The console is built
// first, exactly as `npm run build` builds it.
import { clickhouseLayout } from '../../src/infra/clickhouse/layout';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { developmentSecret } from '../../src/auth/developmentTokens';
import type { Settings } from '../../src/config/settings';
import type { Page } from 'playwright-core';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { fitnessEvent } from '../../src/domains/fitness/events';
import { ident, uint } from '../../src/infra/clickhouse/literal';
import type { DomainEvent } from '../../src/publication/event';
import { publicationRowFor } from '../../src/publication/kafkaFirst/publicationRow';
import { upsertNotPublished } from '../../src/publication/kafkaFirst/upsertNotPublished';
import { appendOutboxEvents } from '../../src/publication/outbox/appendOutboxEvents';
import { deleteRows } from '../../src/reconciliation/target/sql/deleteRows';
import { randomIds } from '../../src/shared/clock';
import { waitFor } from '../../src/shared/lifecycle';
import {
  PlaceOrderDocument,
  RecordFitnessResultDocument,
  RemoveUnexpectedRowsDocument,
  RepairsDocument,
  ReplayParkedEventsDocument,
} from '../generated/graphql';
import { buildConsole, openConsoleBrowser, type ConsoleBrowser } from '../support/consoleBrowser';
import { execute } from '../support/graphqlClient';
import { sampleFitnessState } from '../support/outboxSeed';
import { projectedRows } from '../support/projectedRows';
import { FITNESS_RESULTS, type FitnessRow } from '../../src/domains/fitness/projection/fitnessResultsTable';
import { insertRows } from '../../src/projections/sql/insertRows';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeader, tokenFor } from '../support/tokens';

jest.setTimeout(240000);

const CAMPAIGN = 41001;

describe('the console in Chromium', () => {
  let env: TestEnv;
  let app: Tidemark;
  let browser: ConsoleBrowser;
  let page: Page;
  let base: string;
  let client: Record<string, string>;
  let stackDir: string;
  let signing: Settings;
  const dataIds: string[] = [];
  let parkedId = '';

  beforeAll(async () => {
    buildConsole();
    env = await createTestEnv({
      relayPollIntervalMs: 50,
      projectorFlushIntervalMs: 50,
      kafkaFirstRelayPollIntervalMs: 100,
      reconcileGraceMs: 500,
      reconcileRetryBaseMs: 200,
      reconcileRetryMaxMs: 500,
      reconcileCatchUpWaitMs: 3000,
      repairWaitMs: 30000,
      // The analyst's charts show schools of 1-2 students and one customer: no group suppressed here
      // (suppression itself is tested in authorization.e2e.spec.ts).
      reportMinGroupSize: 1,
    });
    // Development mode on 127.0.0.1, as `npm start` runs it: verifying with the development secret kept in
    // STACK_DIR (development tokens are never signed with a configured AUTH_JWT_SECRET) and with
    // CONSOLE_DEV_TOKENS, so the sign-in page may offer them. The suite's own tokens use that secret too.
    stackDir = mkdtempSync(join(tmpdir(), 'tidemark-console-'));
    signing = { ...env.settings, stackDir, authJwtSecret: developmentSecret({ stackDir }) };
    app = await startTidemark(
      { ...signing, env: 'development', consoleDevTokens: true, roles: ['gateway', 'relay', 'projector'] },
      { migrate: false },
    );
    await app.stateChangeHub!.ready;
    base = app.gateway!.url.replace(/\/graphql$/, '');
    client = await authHeader(signing, 'service');
    browser = await openConsoleBrowser();
    page = browser.page;
  }, 600000); // a fresh machine installs Chromium from Debian first
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await env?.cleanup();
    if (stackDir) rmSync(stackDir, { recursive: true, force: true });
  });

  async function record(userId: number, schoolId: number, result: string): Promise<string> {
    const r = await execute(
      app.gateway!.url,
      RecordFitnessResultDocument,
      { input: { detectId: CAMPAIGN, userId, projectId: 3, schoolId, grade: 5, result, unit: 'm' } },
      client,
    );
    expect(r.errors).toBeUndefined();
    return r.data!.recordFitnessResult.result.dataId;
  }

  async function signIn(role: 'operator' | 'analyst'): Promise<void> {
    await page.goto(`${base}/console/`);
    await page.getByLabel('Bearer token').fill(`Bearer ${await tokenFor(signing, role)}`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('navigation', { name: 'Console pages' }).waitFor();
  }

  function devTokensStatus(host: string): Promise<number> {
    const u = new URL(`${base}/console/dev-tokens`);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: u.hostname, port: u.port, path: u.pathname, headers: { host } },
        (res) => (res.resume(), resolve(res.statusCode ?? 0)),
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('offers development tokens on a loopback address only, and none to a page named by another host', async () => {
    expect(await devTokensStatus(new URL(base).host)).toBe(200);
    expect(await devTokensStatus('attacker.example:80')).toBe(404);
    await page.goto(`${base}/console`);
    await page.getByRole('button', { name: 'Sign in as operator' }).waitFor();
    // Only the roles the console has pages for (the gateway mints one token per role).
    const offered = await page.locator('section.dev button').allTextContents();
    expect(offered.sort()).toEqual(['Sign in as analyst', 'Sign in as operator']);
    await browser.screenshot('sign-in');
  });

  it('tells the console which claim holds the roles', async () => {
    const r = await fetch(`${base}/console/config.json`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ rolesClaim: env.settings.authRolesClaim });
  });

  it('signs in an operator by pasting a token and shows every page', async () => {
    await signIn('operator');
    const nav = page.getByRole('navigation', { name: 'Console pages' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Pipeline', 'Stuck work', 'Reconciliation', 'Reports']);
  });

  it('shows the publication states of a write arriving live, with its path', async () => {
    await page.goto(`${base}/console/#/pipeline`);
    await page.getByText('Live connection: connected').waitFor();
    // The gateway has registered the page's subscription before the write is made.
    await waitFor(
      async () => Number((await app.registry.getSingleMetric('tidemark_subscriptions_active')!.get()).values[0]?.value ?? 0) >= 1,
      {
        what: 'the console subscription',
      },
    );
    for (const [user, school, result] of [
      [1, 11, '2.100'],
      [2, 11, '2.300'],
      [3, 12, '1.900'],
      [4, 12, '2.050'],
      [5, 13, '2.450'],
    ] as const)
      dataIds.push(await record(user, school, result));
    const path = page.locator(`.paths li[data-aggregate="${dataIds[0]}"]`);
    await path.filter({ hasText: 'PROJECTION_APPLIED' }).waitFor({ timeout: 60000 });
    expect(await path.locator('.path').textContent()).toBe('NEW → PROCESSING → SENT → PROJECTION_APPLIED');
    await page.locator(`tbody tr[data-aggregate="${dataIds[0]}"][data-to="SENT"]`).first().waitFor();
    await page.locator('tr[data-domain="fitness"][data-store="mysql-shard-0"]').waitFor();
    // A few samples on the charts, for the screenshot.
    await page.locator('figure.chart[data-samples="5"]').first().waitFor({ timeout: 30000 });
    await browser.screenshot('pipeline');
  });

  it('replays a dead letter after a confirmation and sees it PUBLISHED by the relay', async () => {
    const orderId = randomIds.uuid();
    const event: DomainEvent = {
      eventId: `order-placed:${orderId}:v1`,
      domain: 'orders',
      type: 'OrderPlaced',
      aggregateId: orderId,
      version: 1,
      schemaVersion: 1,
      isDeleted: false,
      occurredAt: new Date(),
      shard: 0,
      data: {
        orderId,
        customerId: 'cust-console',
        currency: 'EUR',
        items: [{ sku: 'SKU-1', quantity: 1, unitPrice: '5.0000' }],
        total: '5.0000',
        itemCount: 1,
        createdAt: new Date().toISOString(),
      },
    };
    const pg = env.resources.pg;
    // Stored and dead-lettered in one transaction: the running relay never sees it NOT_PUBLISHED.
    await pg.transaction(async (trx) => {
      await upsertNotPublished(trx, publicationRowFor(event, env.resources.topics, 'DIRECT_FALLBACK', { attempts: 3, result: 'timeout' }));
      await trx('event_publications').where({ event_id: event.eventId }).update({
        status: 'DEAD_LETTER',
        relay_attempts: 3,
        last_error_code: 'KafkaJSRequestTimeoutError',
        last_error_summary: 'Request timed out after 10000ms',
      });
    });
    // A parked outbox event too, so the page shows both kinds of stuck work (it stays parked).
    const shard0 = env.resources.mysql.shard(0).db;
    const parked = fitnessEvent('FitnessResultRecorded', sampleFitnessState({ dataId: 777700, detectId: 40999 }), 1);
    await shard0.transaction(async (trx) => {
      await appendOutboxEvents(trx, [parked], () => env.resources.topics.events.fitness);
      await trx('outbox_events')
        .where({ event_id: parked.eventId })
        .update({
          status: 'PARKED',
          attempts: 20,
          parked_at: trx.raw('NOW(3)'),
          last_error_code: 'KafkaJSNumberOfRetriesExceeded',
          last_error_summary: 'broker unavailable',
        });
    });

    parkedId = parked.eventId;

    await page.getByRole('link', { name: 'Stuck work' }).click();
    await page.locator(`tr[data-event="${parked.eventId}"]`).waitFor();
    const row = page.locator(`tr[data-event="${event.eventId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Request timed out after 10000ms');
    await row.getByRole('checkbox', { name: `Select ${event.eventId}` }).check();
    // Escape cancels the confirmation and nothing is replayed; the dialog takes focus on Cancel.
    await page.getByRole('button', { name: 'Replay selected (1)' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Replay dead letters?' });
    await dialog.waitFor();
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await pg('event_publications').where({ event_id: event.eventId }).first()).status).toBe('DEAD_LETTER');
    await page.getByRole('button', { name: 'Replay selected (1)' }).first().click();
    await dialog.waitFor();
    await browser.screenshot('stuck-work-confirm');
    await dialog.getByRole('button', { name: 'Replay', exact: true }).click();
    const watched = page.locator(`.watch tr[data-event="${event.eventId}"]`);
    await watched.filter({ hasText: 'NOT_PUBLISHED → PUBLISHED' }).waitFor({ timeout: 60000 });
    expect((await pg('event_publications').where({ event_id: event.eventId }).first()).status).toBe('PUBLISHED');
    await browser.screenshot('stuck-work');
  });

  it('replays a parked outbox event from the page, which the relay then sends; an analyst token is refused', async () => {
    const shard0 = env.resources.mysql.shard(0).db;
    const status = async () => String((await shard0('outbox_events').where({ event_id: parkedId }).first()).status);
    expect(await status()).toBe('PARKED');
    const analyst = await authHeader(signing, 'analyst');
    const refused = await execute(app.gateway!.url, ReplayParkedEventsDocument, { filter: { eventIds: [parkedId] }, limit: 1 }, analyst);
    expect(refused.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect(await status()).toBe('PARKED');

    const parked = page.locator('section[aria-labelledby="parked-h"]');
    await parked.getByRole('checkbox', { name: `Select ${parkedId}` }).check();
    await parked.getByRole('button', { name: 'Replay selected (1)' }).click();
    await page.getByRole('dialog', { name: 'Replay parked events?' }).getByRole('button', { name: 'Replay', exact: true }).click();
    await parked.getByRole('status').filter({ hasText: '1 parked event(s) returned to NEW.' }).waitFor();
    expect(await status()).not.toBe('PARKED');
    await waitFor(async () => (await status()) === 'SENT', { what: 'the replayed parked event sent', timeoutMs: 60000 });
    await parked.locator(`tr[data-event="${parkedId}"]`).waitFor({ state: 'detached', timeout: 30000 });
  });

  it('runs a reconciliation, finds an injected discrepancy and repairs it to a passed verification', async () => {
    const ch = app.resources.clickhouse;
    const db = ident(env.settings.clickhouseDatabase);
    const projected = async () =>
      Number(
        (
          await (
            await ch.query({
              query: `SELECT count(DISTINCT data_id) AS n FROM ${db}.fitness_results WHERE detect_id = ${uint(CAMPAIGN)}`,
              format: 'JSONEachRow',
            })
          ).json<{ n: string }>()
        )[0]!.n,
      );
    await waitFor(async () => (await projected()) === dataIds.length, { what: 'the campaign projected', timeoutMs: 60000 });
    const victim = dataIds[4]!;
    await deleteRows(ch, clickhouseLayout(env.settings), env.settings.clickhouseDatabase, 'fitness_results', `data_id = ${uint(victim)}`);

    await page.getByRole('link', { name: 'Reconciliation' }).click();
    await page.getByLabel('Campaign (detectId)').fill(String(CAMPAIGN));
    // A scope still inside the grace period reports CATCHING_UP (normal delay): start again until it is compared.
    await waitFor(
      async () => {
        await page.getByRole('button', { name: 'Start reconciliation' }).click();
        await page.getByRole('button', { name: 'Start reconciliation' }).waitFor();
        return (await page.locator('tr[data-run]').first().getAttribute('data-outcome')) === 'DISCREPANCIES';
      },
      { what: 'a reconciliation that finds the discrepancy', timeoutMs: 60000, intervalMs: 500 },
    );
    const disc = page.locator(`tr[data-aggregate="${victim}"][data-kind="MISSING"]`);
    await disc.waitFor();
    await disc.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Repair selected (1)' }).click();
    await page
      .getByRole('dialog', { name: 'Repair the selected discrepancies?' })
      .getByRole('button', { name: 'Repair', exact: true })
      .click();
    await page.locator(`tr[data-repair][data-aggregate="${victim}"][data-verification="PASSED"]`).waitFor({ timeout: 60000 });
    expect(await projected()).toBe(dataIds.length);
    await page.getByLabel('Status').selectOption('all');
    await page.locator(`tr[data-aggregate="${victim}"][data-status="RESOLVED"]`).waitFor();
    await browser.screenshot('reconciliation');
  });

  it('removes a row with no source with a reason, audited and verified; an analyst token is refused', async () => {
    const ch = app.resources.clickhouse;
    const stray = 4100199901;
    const rows = async () =>
      Number(
        (
          await (
            await ch.query({
              query: `SELECT count() AS n FROM ${ident(env.settings.clickhouseDatabase)}.fitness_results WHERE data_id = ${uint(stray)}`,
              format: 'JSONEachRow',
            })
          ).json<{ n: string }>()
        )[0]!.n,
      );
    // A row the source never had, committed long ago (judged at once, not as in flight).
    const [row] = projectedRows<FitnessRow>([
      fitnessEvent('FitnessResultRecorded', sampleFitnessState({ dataId: stray, detectId: CAMPAIGN, schoolId: 11 }), 1),
    ]);
    await insertRows(ch, env.settings.clickhouseDatabase, FITNESS_RESULTS, [row!]);

    await page.getByRole('link', { name: 'Reconciliation' }).click();
    await page.getByLabel('Campaign (detectId)').fill(String(CAMPAIGN));
    await page.getByLabel('Status').selectOption('OPEN');
    const disc = page.locator(`tr[data-aggregate="${stray}"][data-kind="UNEXPECTED_ROW"]`);
    await waitFor(
      async () => {
        await page.getByRole('button', { name: 'Start reconciliation' }).click();
        await page.getByRole('button', { name: 'Start reconciliation' }).waitFor();
        return (await disc.count()) === 1;
      },
      { what: 'a reconciliation that finds the unexpected row', timeoutMs: 60000, intervalMs: 500 },
    );
    const discrepancyId = (await disc.getAttribute('data-discrepancy'))!;
    const analyst = await authHeader(signing, 'analyst');
    const refused = await execute(
      app.gateway!.url,
      RemoveUnexpectedRowsDocument,
      { ids: [discrepancyId], reason: 'not mine to remove' },
      analyst,
    );
    expect(refused.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect(await rows()).toBe(1);

    await disc.getByRole('checkbox').check();
    await page.getByRole('button', { name: /^Remove unexpected rows \(1\)/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove unexpected rows?' });
    await dialog.getByLabel('Reason (required, recorded in the audit trail)').fill('no source row: injected by the test');
    await dialog.getByRole('button', { name: 'Remove rows', exact: true }).click();
    await page.locator(`tr[data-repair][data-aggregate="${stray}"][data-verification="PASSED"]`).waitFor({ timeout: 60000 });
    expect(await rows()).toBe(0);
    const operator = await authHeader(signing, 'operator');
    const audit = await execute(app.gateway!.url, RepairsDocument, { filter: { actions: ['REMOVE_UNEXPECTED'] } }, operator);
    expect(audit.data!.repairs).toEqual([
      expect.objectContaining({
        discrepancyId,
        aggregateId: String(stray),
        outcome: 'COMPLETED',
        verification: 'PASSED',
        requestedBy: 'test-operator',
      }),
    ]);
  });

  it('signs in an analyst, who sees the report charts and no operator page or action', async () => {
    for (const [key, currency, price] of [
      ['console-1', 'EUR', '19.90'],
      ['console-2', 'EUR', '5.00'],
      ['console-3', 'USD', '12.50'],
    ] as const) {
      const r = await execute(
        app.gateway!.url,
        PlaceOrderDocument,
        { input: { customerId: 'cust-console', currency, idempotencyKey: key, items: [{ sku: 'SKU-1', quantity: 2, unitPrice: price }] } },
        client,
      );
      expect(r.errors).toBeUndefined();
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn('analyst');
    const nav = page.getByRole('navigation', { name: 'Console pages' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Reports']);
    for (const hidden of ['Stuck work', 'Reconciliation', 'Pipeline'])
      expect(await page.getByRole('link', { name: hidden }).count()).toBe(0);
    await page.goto(`${base}/console/#/stuck`);
    await page.getByText('Stuck work is for operators; your role does not include it.').waitFor();
    expect(await page.getByRole('button', { name: /Replay|Repair|Remove|Rebuild/ }).count()).toBe(0);

    await page.goto(`${base}/console/#/reports`);
    // By keyboard: type into the labelled field, choose the grouping, submit with Enter.
    await page.getByLabel('Campaign (detectId)').focus();
    await page.keyboard.type(String(CAMPAIGN));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.getByLabel('Group by').first().selectOption('SCHOOL');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    const chart = page.getByRole('group', { name: `Fitness report of campaign ${CAMPAIGN}, project 3, per school` });
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    expect(await chart.locator('.recharts-bar-rectangle').count()).toBe(3 * 5); // 3 schools x (min, p50, p90, max, average)
    const fitness = page.locator('section[aria-labelledby="fit-h"]');
    expect(await fitness.locator('.badge').getAttribute('aria-label')).toMatch(/^Report freshness: (FRESH|CATCHING_UP|STALE)$/);
    expect((await fitness.locator('.freshness-detail').textContent())!.length).toBeGreaterThan(10);

    await waitFor(
      async () =>
        Number(
          (
            await (
              await app.resources.clickhouse.query({
                query: `SELECT count() AS n FROM ${ident(env.settings.clickhouseDatabase)}.orders FINAL WHERE customer_id = 'cust-console'`,
                format: 'JSONEachRow',
              })
            ).json<{ n: string }>()
          )[0]!.n,
        ) >= 3,
      { what: 'orders projected', timeoutMs: 60000 },
    );
    await page.getByRole('button', { name: 'Show order report' }).click();
    await page.getByRole('group', { name: 'Order report per day' }).locator('.recharts-bar-rectangle').first().waitFor();
    await browser.screenshot('reports');
  });
});
