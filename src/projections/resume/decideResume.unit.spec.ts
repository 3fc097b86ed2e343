import { decideBatch, decideCheck } from './decideResume';

describe('decideBatch', () => {
  it('applies a batch that starts at or before what the store holds (a re-delivery is harmless)', () => {
    expect(decideBatch({ position: 10n }, 10n)).toEqual({ kind: 'apply' });
    expect(decideBatch({ position: 10n }, 3n)).toEqual({ kind: 'apply' });
  });
  it('seeks back once to what the store holds when a batch starts past it', () => {
    expect(decideBatch({ position: 0n }, 120n)).toEqual({ kind: 'seek', offset: 0n, refusedFirst: 120n });
  });
  it('applies the same batch start met again after the seek: the offsets between are not there to read', () => {
    expect(decideBatch({ position: 10n, refusedFirst: 12n }, 12n)).toEqual({ kind: 'apply' });
  });
  it('seeks again when a different batch comes past the position (fetched before the seek)', () => {
    expect(decideBatch({ position: 10n, refusedFirst: 50n }, 60n)).toEqual({ kind: 'seek', offset: 10n, refusedFirst: 60n });
  });
});

describe('decideCheck', () => {
  it('keeps going while the store holds at least what was written', () => {
    expect(decideCheck({ position: 10n }, 10n)).toEqual({ kind: 'keep' });
    expect(decideCheck({ position: 10n }, 14n)).toEqual({ kind: 'keep' });
  });
  it('seeks back to what the store holds when it lost checkpoints (emptied or an older copy)', () => {
    expect(decideCheck({ position: 10n }, 4n)).toEqual({ kind: 'lost', offset: 4n });
    expect(decideCheck({ position: 10n }, undefined)).toEqual({ kind: 'lost', offset: 0n });
  });
  it('has nothing to compare for a partition never written', () => {
    expect(decideCheck({ position: 0n }, undefined)).toEqual({ kind: 'keep' });
  });
});
