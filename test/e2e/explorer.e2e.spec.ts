// The explorer page's own script, run against a real gateway without a browser: the page's inline
// script and the graphql-ws bundle it serves are evaluated in a context that stands in for the
// browser (location, localStorage, WebSocket from `ws`), and GraphiQL's fetcher factory is captured.
// Subscriptions then connect with the Authorization header typed into the explorer, and are refused
// without it.
import { createContext, runInContext } from 'node:vm';
import WebSocket from 'ws';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { tokenFor } from '../support/tokens';
import { createTestEnv, type TestEnv } from '../support/testEnv';

interface WsClient {
  subscribe(payload: { query: string }, sink: { next(v: unknown): void; error(e: unknown): void; complete(): void }): () => void;
  on(event: 'connected' | 'closed', listener: (e: unknown) => void): () => void;
  dispose(): void | Promise<void>;
}

describe('explorer (GraphiQL page)', () => {
  let env: TestEnv;
  let app: Tidemark;
  let base: string;

  beforeAll(async () => {
    env = await createTestEnv({}, { migrate: false });
    app = await startTidemark({ ...env.settings, roles: ['gateway'] }, { migrate: false });
    base = app.gateway!.url.replace(/\/graphql$/, '');
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  /** Runs the served page's scripts with `headers` as the explorer's stored Headers; returns its WebSocket client. */
  async function pageWsClient(headers: Record<string, string> | null): Promise<WsClient> {
    const html = await (await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } })).text();
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(html).toContain('/explorer/graphql-ws.js');
    const bundle = await (await fetch(`${base}/explorer/graphql-ws.js`)).text();
    let fetcherOptions: { wsClient?: WsClient } = {};
    const location = new URL(base);
    const ctx: Record<string, unknown> = {
      window: {
        location,
        localStorage: { getItem: (k: string) => (k === 'graphiql:headers' && headers ? JSON.stringify(headers) : null) },
      },
      WebSocket,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      GraphiQL: { createFetcher: (o: typeof fetcherOptions) => ((fetcherOptions = o), () => undefined) },
      React: { createElement: () => null },
      ReactDOM: { createRoot: () => ({ render: () => undefined }) },
      document: { getElementById: () => null },
    };
    ctx.globalThis = ctx;
    createContext(ctx);
    runInContext(bundle, ctx);
    for (const script of inline) runInContext(script, ctx);
    expect(fetcherOptions.wsClient).toBeDefined();
    return fetcherOptions.wsClient!;
  }

  function firstOutcome(client: WsClient): Promise<string> {
    return new Promise((resolve) => {
      client.on('connected', () => resolve('connected'));
      client.on('closed', (e) => resolve(`closed ${(e as { code?: number }).code}`));
      client.subscribe(
        { query: 'subscription { publicationStateChanged { eventId } }' },
        { next: () => undefined, error: (e) => resolve(`error ${String(e)}`), complete: () => undefined },
      );
    });
  }

  it('subscribes over graphql-ws with the token from the Headers editor, and is refused without one', async () => {
    const withToken = await pageWsClient({ Authorization: `Bearer ${await tokenFor(env.settings, 'operator')}` });
    expect(await firstOutcome(withToken)).toBe('connected');
    await withToken.dispose();

    const without = await pageWsClient(null);
    expect(await firstOutcome(without)).toBe('closed 4403');
    await without.dispose();
  });

  it('serves every asset the page loads from node_modules', async () => {
    const html = await (await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } })).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/explorer\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const a of assets) expect((await fetch(`${base}${a}`)).status).toBe(200);
  });
});
