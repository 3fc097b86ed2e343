// WebSocket limits on a real gateway (issue #29). A principal over WS_MAX_CONNECTIONS_PER_PRINCIPAL is
// closed with 4429 at connection_init while other principals (and a trusted service, allowed 16 times as
// many) connect; a socket over WS_MAX_OPERATIONS_PER_SOCKET running operations gets RATE_LIMITED for the
// extra one and keeps the others. Both refusals are counted, and both places are given back (a socket
// closed, an operation completed). Subscriptions to publicationStateChanged never end on their own, and
// tidemark_subscriptions_active says when the server holds them, so the test waits on facts, not time.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { TOO_MANY_CONNECTIONS_CLOSE_CODE } from '../../src/graphql/websocket';
import { waitFor } from '../../src/shared/lifecycle';
import { metricTotal } from '../support/readYourWrites';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeaderFor, tokenFor } from '../support/tokens';

jest.setTimeout(180000);

const STATE_CHANGES = 'subscription { publicationStateChanged { eventId } }';

type Outcome = { acked: true } | { acked: false; code: number; reason: string };

describe('WebSocket limits', () => {
  let env: TestEnv;
  let app: Tidemark;
  const clients: Client[] = [];

  beforeAll(async () => {
    env = await createTestEnv();
    app = await startTidemark(
      { ...env.settings, roles: ['gateway'], wsMaxConnectionsPerPrincipal: 2, wsMaxOperationsPerSocket: 2 },
      { migrate: false },
    );
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.stop();
    await env?.cleanup();
  });

  const refused = (reason: string) => metricTotal(app, 'tidemark_requests_refused_total', { reason });
  const activeSubscriptions = () => metricTotal(app, 'tidemark_subscriptions_active');
  const operator = async (subject: string) => (await authHeaderFor(env.settings, { subject, roles: ['operator'] })).authorization!;

  /** Opens a graphql-ws connection (as real clients do): acknowledged, or closed with a code and reason. */
  function connect(authorization: string): Promise<{ client: Client; outcome: Outcome }> {
    return new Promise((resolve) => {
      const client: Client = createClient({
        url: app.gateway!.wsUrl,
        webSocketImpl: WebSocket,
        connectionParams: { authorization },
        lazy: false,
        retryAttempts: 0,
        // A refused connection is reported through `closed` below; graphql-ws would print it too.
        onNonLazyError: () => undefined,
        on: {
          connected: () => resolve({ client, outcome: { acked: true } }),
          closed: (e) => {
            const { code, reason } = e as { code: number; reason: unknown };
            resolve({ client, outcome: { acked: false, code, reason: String(reason) } });
          },
        },
      });
      clients.push(client);
    });
  }

  /** Starts a subscription that runs until stopped; collects the errors the server sends for it. */
  function subscribe(client: Client) {
    const errors: { message: string; extensions?: Record<string, unknown> }[] = [];
    const stop = client.subscribe(
      { query: STATE_CHANGES },
      { next: () => undefined, error: (e) => errors.push(...(Array.isArray(e) ? e : [e])), complete: () => undefined },
    );
    return { errors, stop };
  }

  it('closes a connection over WS_MAX_CONNECTIONS_PER_PRINCIPAL with 4429, and frees the place when one closes', async () => {
    const op = `Bearer ${await tokenFor(env.settings, 'operator')}`;
    const before = await refused('ws_connections');
    const first = await connect(op);
    const second = await connect(op);
    expect([first.outcome, second.outcome]).toEqual([{ acked: true }, { acked: true }]);
    const third = await connect(op);
    expect(third.outcome).toEqual({ acked: false, code: TOO_MANY_CONNECTIONS_CLOSE_CODE, reason: 'too many connections' });
    expect(await refused('ws_connections')).toBe(before + 1);

    // The limit is per principal: another operator connects, and a trusted service holds 16 times as many.
    expect((await connect(await operator('ws-other-operator'))).outcome).toEqual({ acked: true });
    const service = `Bearer ${await tokenFor(env.settings, 'service')}`;
    for (let i = 0; i < 3; i++) expect((await connect(service)).outcome).toEqual({ acked: true });

    // The server gives the place back when it sees the socket close, after the client does: poll.
    await first.client.dispose();
    await waitFor(async () => (await connect(op)).outcome.acked, { what: 'a connection admitted in the place of the closed one' });
  });

  it('refuses an operation over WS_MAX_OPERATIONS_PER_SOCKET with RATE_LIMITED, per socket, until one completes', async () => {
    const op = await operator('ws-operations-operator');
    const { client, outcome } = await connect(op);
    expect(outcome).toEqual({ acked: true });
    const base = await activeSubscriptions();
    const running = async (n: number) =>
      waitFor(async () => (await activeSubscriptions()) === base + n, { what: `${n} subscriptions held` });
    const one = subscribe(client);
    const two = subscribe(client);
    await running(2);

    const before = await refused('ws_operations');
    const three = subscribe(client);
    await waitFor(() => three.errors.length > 0, { what: 'the third operation refused' });
    expect(three.errors).toEqual([
      {
        message: 'too many operations on this connection (at most 2)',
        extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) as unknown,
      },
    ]);
    expect(await refused('ws_operations')).toBe(before + 1);

    // Per socket: a second connection of the same principal runs operations of its own.
    const other = await connect(op);
    const four = subscribe(other.client);
    await running(3);

    // Completing one gives its place back on that socket (the refused one never held a place).
    one.stop();
    await running(2);
    const five = subscribe(client);
    await running(3);
    expect([...one.errors, ...two.errors, ...four.errors, ...five.errors]).toEqual([]);
  });
});
