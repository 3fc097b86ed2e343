// The upcaster chain of an event contract is checked at start: every older version reaches the newest
// in exactly one way, one step at a time.
import { z } from 'zod';
import { FITNESS_EVENT_CONTRACT } from '../fitness/eventContract';
import { ORDER_EVENT_CONTRACT } from '../orders/eventContract';
import { checkContract, newestVersion, upcast, versionToWrite, type EventContract, type Upcaster } from './eventContract';

const data = z.object({ a: z.number() });
const step = (from: number, to = from + 1): Upcaster => ({ from, to, up: (d) => ({ ...d, [`v${to}`]: true }) });
const contract = (versions: number, upcasters: Upcaster[]): EventContract => ({
  domain: 'fitness',
  label: 'test',
  eventTypes: new Set(['T']),
  versions: Array.from({ length: versions }, () => data) as unknown as [z.ZodType],
  upcasters,
});

describe('an event contract', () => {
  it('accepts the shipped contracts of both domains', () => {
    for (const c of [FITNESS_EVENT_CONTRACT, ORDER_EVENT_CONTRACT]) expect(() => checkContract(c)).not.toThrow();
    expect(newestVersion(FITNESS_EVENT_CONTRACT)).toBe(2);
  });

  it.each([
    ['a gap', contract(3, [step(1)]), 'no upcaster 2->3 (a gap in the chain)'],
    ['a duplicate', contract(2, [step(1), step(1)]), '2 upcasters 1->2 (a duplicate)'],
    ['a step of two', contract(3, [step(1, 3), step(2)]), 'upcaster 1->3 is not one step'],
    ['a step past the newest', contract(2, [step(1), step(2)]), 'upcaster 2->3 is outside versions 1..2'],
    ['no version at all', contract(0, []), 'has no version'],
  ])('is refused at start with %s', (_what, c, message) => {
    expect(() => checkContract(c)).toThrow(message);
  });

  it('upcasts step by step, in order, to the newest or to a given version', () => {
    const c = contract(3, [step(2), step(1)]);
    expect(upcast(c, { a: 1 }, 1)).toEqual({ a: 1, v2: true, v3: true });
    expect(upcast(c, { a: 1 }, 1, 2)).toEqual({ a: 1, v2: true });
    expect(upcast(c, { a: 1 }, 3)).toEqual({ a: 1 });
  });

  it('lets a producer write no newer than it knows, than every reader agreed, nor than the contract has', () => {
    expect(versionToWrite(FITNESS_EVENT_CONTRACT, 2, 2)).toBe(2);
    expect(versionToWrite(FITNESS_EVENT_CONTRACT, 2, 1)).toBe(1);
    expect(versionToWrite(FITNESS_EVENT_CONTRACT, 1, 2)).toBe(1);
    expect(versionToWrite(FITNESS_EVENT_CONTRACT, 9, 9)).toBe(2);
    expect(versionToWrite(FITNESS_EVENT_CONTRACT, 0, 0)).toBe(1);
  });
});
