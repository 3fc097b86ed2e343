// A relay pass's notices: the claim's go out at once, the rest in one message at end(), from the
// table's own states, and a completion that lost part of its claim notifies nothing.
import { fixedClock } from '../../shared/clock';
import type { StateChange } from '../stateChanges/stateChange';
import type { Claim, RelayRecord, RelayStatements, RelayStates } from './publicationTable';
import { relayPass } from './relayPass';

const OUTBOX: RelayStates = { claimed: 'PROCESSING', sent: 'SENT', failed: 'FAILED', gaveUp: 'PARKED' };
const PUBLICATIONS: RelayStates = { claimed: null, sent: 'PUBLISHED', failed: 'NOT_PUBLISHED', gaveUp: 'DEAD_LETTER' };

const record = (id: number, from: RelayRecord['from'] = 'NEW'): RelayRecord => ({
  id,
  eventId: `fitness:${id}:1`,
  domain: 'fitness',
  aggregateId: String(id),
  version: 1,
  topic: 't',
  key: String(id),
  value: '{}',
  headers: {},
  attempts: 1,
  from,
  ageMs: 0,
  traceparent: null,
});

function setUp(states: RelayStates, claim: Claim, held = (n: number) => n) {
  const messages: StateChange[][] = [];
  const statements: RelayStatements = {
    hasDue: async () => true,
    claim: async () => claim,
    markSent: async (_t, ids) => held(ids.length),
    markFailed: async (_t, g) => held(g.records.length),
    release: async (_t, records) => held(records.length),
  };
  const pass = relayPass(
    statements,
    states,
    { emit: (c) => messages.push([...c]), stop: async () => undefined },
    fixedClock('2026-12-01T00:00:00Z'),
  );
  return { pass, messages };
}

const req = { token: 'x', owner: 'o', leaseMs: 1000, limit: 10, giveUp: () => false };
const moves = (m: StateChange[]) => m.map((c) => `${c.eventId} ${c.from}>${c.to} #${c.attempt}`);

describe('relay pass notices', () => {
  it('outbox: PROCESSING at the claim, then SENT, FAILED and a release in one message at end()', async () => {
    const [a, b, c, d] = [record(1), record(2), record(3, 'FAILED'), record(4)];
    const { pass, messages } = setUp(OUTBOX, { token: 'x', records: [a!, b!, c!, d!], reclaimed: 0, gaveUp: [record(9)] });
    await pass.claim(req);
    expect(messages.map(moves)).toEqual([
      [
        'fitness:1:1 NEW>PROCESSING #1',
        'fitness:2:1 NEW>PROCESSING #1',
        'fitness:3:1 FAILED>PROCESSING #1',
        'fitness:4:1 NEW>PROCESSING #1',
      ],
    ]);
    await pass.markSent('x', [a!], new Date('2026-11-30T23:59:59Z'));
    await pass.markFailed('x', { records: [b!], giveUp: true, delayMs: 0, error: { code: 'E', summary: 'e' } });
    await pass.release('x', [c!, d!], 10, { code: 'O', summary: 'o' });
    expect(messages).toHaveLength(1);
    pass.end();
    expect(moves(messages[1]!)).toEqual([
      'fitness:9:1 NEW>PARKED #1',
      'fitness:1:1 PROCESSING>SENT #1',
      'fitness:2:1 PROCESSING>PARKED #1',
      'fitness:3:1 PROCESSING>FAILED #0',
      'fitness:4:1 PROCESSING>FAILED #0',
    ]);
    expect(messages[1]![1]!.at).toEqual(new Date('2026-11-30T23:59:59Z')); // the acknowledgement's time
  });

  it('event_publications: no claim notice, no release notice, transitions from the claimed state', async () => {
    const r = record(1, 'NOT_PUBLISHED');
    const { pass, messages } = setUp(PUBLICATIONS, { token: 'x', records: [r, record(2, 'NOT_PUBLISHED')], reclaimed: 0, gaveUp: [] });
    await pass.claim(req);
    await pass.release('x', [record(2, 'NOT_PUBLISHED')], 10, { code: 'O', summary: 'o' });
    await pass.markSent('x', [r], new Date());
    pass.end();
    expect(messages.map(moves)).toEqual([['fitness:1:1 NOT_PUBLISHED>PUBLISHED #1']]);
  });

  it('a completion that lost part of its claim notifies nothing', async () => {
    const { pass, messages } = setUp(OUTBOX, { token: 'x', records: [record(1), record(2)], reclaimed: 0, gaveUp: [] }, (n) => n - 1);
    await pass.claim(req);
    expect(await pass.markSent('x', [record(1), record(2)], new Date())).toBe(1);
    pass.end();
    expect(messages[1]).toEqual([]);
  });
});
