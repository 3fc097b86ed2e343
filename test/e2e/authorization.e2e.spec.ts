// The authorisation matrix: every root field of the running schema, called with every role, in scope
// and out of scope, through the real gateway on the real stack. Root fields come from the schema
// itself (test/support/schemaCalls.ts): a field with a written case below is checked cell by cell;
// every other field is expected to be operator-only, so a new field that forgets its policy fails
// here. Data is written as a trusted service and read back once the projection is FRESH.
import { parse, type GraphQLSchema } from 'graphql';
import { startTidemark, type Tidemark } from '../../src/app/start';
import { SignJWT } from 'jose';
import { gatewaySchema } from '../../src/graphql/schema';
import { waitFor } from '../../src/shared/lifecycle';
import { executeRaw } from '../support/graphqlClient';
import { rootCalls } from '../support/schemaCalls';
import { createTestEnv, type TestEnv } from '../support/testEnv';
import { authHeaderFor } from '../support/tokens';
import { subscribe } from '../support/subscriptionClient';
import { codeOf, EVERYONE, FIELD_CASES, PRINCIPALS, seedMatrix, type Ask, type Seeded, type Watch, type Who } from './authorizationCases';

jest.setTimeout(180000);

describe('authorisation matrix: every field, every role', () => {
  let env: TestEnv;
  let app: Tidemark;
  let schema: GraphQLSchema;
  let seeded: Seeded;
  const headers: Partial<Record<Who, Record<string, string>>> = { anonymous: {} };
  const ask: Ask = (who, query, variables) => executeRaw(app.gateway!.url, query, variables, headers[who]);

  beforeAll(async () => {
    env = await createTestEnv({ relayPollIntervalMs: 50, projectorFlushIntervalMs: 20, freshnessCacheMs: 0, reportMinGroupSize: 5 });
    app = await startTidemark({ ...env.settings, roles: ['gateway', 'relay', 'projector'] }, { migrate: false });
    for (const [who, p] of Object.entries(PRINCIPALS)) headers[who as Who] = await authHeaderFor(env.settings, p);
    schema = await gatewaySchema();
    seeded = await seedMatrix(ask);
    await waitFor(
      async () => {
        const r = await ask(
          'operator',
          'query($d: Int!) { fitnessResults(filter: { detectId: $d }, first: 50) { nodes { dataId } freshness { status } } }',
          {
            d: seeded.detectId,
          },
        );
        const c = r.data?.fitnessResults as { nodes: unknown[]; freshness: { status: string } } | undefined;
        return c?.freshness.status === 'FRESH' && c.nodes.length === seeded.liveResults;
      },
      { timeoutMs: 90000, intervalMs: 200, what: 'the seeded results projected and FRESH' },
    );
  });
  afterAll(async () => {
    await app?.stop();
    await env?.cleanup();
  });

  const watch: Watch = async (who, query, variables) => {
    const sub = subscribe(app.gateway!.wsUrl, parse(query), variables ?? {}, headers[who]?.authorization);
    try {
      await waitFor(() => sub.completed || sub.errors.length > 0 || sub.closeCode !== undefined, {
        timeoutMs: 60000,
        what: `${who}'s subscription`,
      });
      return { events: sub.events, errors: sub.errors };
    } finally {
      await sub.dispose();
    }
  };

  it('every root field has a case or is operator-only, and the cases name only real fields', () => {
    const fields = rootCalls(schema).map((c) => c.field);
    // `consistency` is an argument of every read, not a field: its case checks it on lookups.
    for (const f of Object.keys(FIELD_CASES).filter((f) => f !== 'consistency')) expect(fields).toContain(f);
    expect(fields).toContain('health');
  });

  it('fields without a written case refuse every role but operator (FORBIDDEN) and every anonymous caller', async () => {
    const generic = rootCalls(schema).filter((c) => !(c.field in FIELD_CASES) && c.field !== 'health' && c.kind !== 'subscription');
    expect(generic.length).toBeGreaterThan(15);
    for (const c of generic)
      for (const who of EVERYONE) {
        const r = await ask(who, c.document);
        const code = codeOf(r);
        const expected = who === 'operator' ? 'allowed' : who === 'anonymous' ? 'UNAUTHENTICATED' : 'FORBIDDEN';
        const outcome = code === 'FORBIDDEN' || code === 'UNAUTHENTICATED' ? code : 'allowed';
        expect({ field: c.field, who, outcome }).toEqual({ field: c.field, who, outcome: expected });
      }
  });

  it('health answers every signed-in role, and no anonymous caller (refused before its document is parsed)', async () => {
    for (const who of EVERYONE)
      expect({ who, code: codeOf(await ask(who, 'query { health { status } }')) ?? 'allowed' }).toEqual({
        who,
        code: who === 'anonymous' ? 'UNAUTHENTICATED' : 'allowed',
      });
  });

  it('subscriptions: publication-state changes are for operators only', async () => {
    const doc = rootCalls(schema).find((c) => c.kind === 'subscription' && c.field === 'publicationStateChanged')!;
    for (const who of EVERYONE) {
      const sub = subscribe(app.gateway!.wsUrl, parse(doc.document), {}, headers[who]?.authorization);
      try {
        if (who === 'anonymous') {
          await waitFor(() => sub.closeCode !== undefined, { what: 'anonymous connection to close' });
          expect(sub.closeCode).toBe(4403);
        } else if (who === 'operator') {
          // Accepted: nothing is refused within a second (the subscription stays open for changes).
          await new Promise((r) => setTimeout(r, 1000));
          expect({ who, errors: sub.errors }).toEqual({ who, errors: [] });
        } else {
          await waitFor(() => sub.errors.length > 0, { what: `${who} refused` });
          expect({ who, refused: JSON.stringify(sub.errors).includes('FORBIDDEN') }).toEqual({ who, refused: true });
        }
      } finally {
        await sub.dispose();
      }
    }
  });

  it('a scoped role without its claim, or with a malformed one, is FORBIDDEN naming the claim (fail closed)', async () => {
    const s = env.settings;
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('m-bad')
        .setIssuer(s.authIssuer)
        .setAudience(s.authAudience)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(s.authJwtSecret!));
    const cases: [Record<string, unknown>, string][] = [
      [{ roles: ['teacher'] }, 'school_ids'],
      [{ roles: ['teacher'], school_ids: ['11'] }, 'school_ids'],
      [{ roles: ['teacher'], school_ids: [] }, 'school_ids'],
      [{ roles: ['customer'] }, 'customer_id'],
      [{ roles: ['customer'], customer_id: 42 }, 'customer_id'],
      [{ roles: ['student'], user_id: 'me' }, 'user_id'],
      [{ roles: ['analyst'], school_ids: 'all' }, 'school_ids'],
      [{ roles: ['client'] }, 'use customer'],
      [{ roles: ['service'] }, 'AUTH_SERVICE_SUBJECTS'],
    ];
    for (const [claims, named] of cases) {
      const headersOf = { authorization: `Bearer ${await sign(claims)}` };
      for (const q of ['query { fitnessResults(first: 1) { nodes { dataId } } }', 'query { orders(first: 1) { nodes { orderId } } }']) {
        const r = await executeRaw(app.gateway!.url, q, undefined, headersOf);
        expect({ claims, code: codeOf(r), data: r.data ?? null }).toEqual({ claims, code: 'FORBIDDEN', data: null });
        expect(r.errors![0]!.message).toContain(named);
      }
    }
  });

  for (const [field, cells] of Object.entries(FIELD_CASES))
    it(`${field}: each role in and out of scope`, async () => {
      for (const cell of cells) await cell(ask, () => seeded, watch);
    });
});
