// Where an abandoned rebuild stopped relative to its swap: by the phase it recorded when that settles
// it, else by the tables ClickHouse has (the RENAME path's retired table, the EXCHANGE path's UUIDs).
import type { StorageTableFacts } from './sql/storageTables';
import { swapStateOf, type SwapEvidence } from './swapState';

const names = { live: 'fitness_results', shadow: 'fitness_results__rebuild_7', retired: 'fitness_results__retired_7' };
const SHADOW_UUID = '5f0c2a9e-0000-4000-8000-000000000007';
const LIVE_UUID = '5f0c2a9e-0000-4000-8000-000000000001';

function evidence(phase: string, tables: Record<string, string | null>, o: Partial<SwapEvidence> = {}): SwapEvidence {
  const facts = new Map<string, StorageTableFacts>(Object.entries(tables).map(([t, uuid]) => [t, { exists: true, uuid }]));
  return { phase, shadowUuid: null, retiredTable: null, names, facts, ...o };
}

describe('swapStateOf', () => {
  it.each(['STARTING', 'SHADOW', 'COPY', 'LOAD', 'VALIDATE'])('a rebuild stopped in %s never swapped, whatever the tables', (phase) => {
    const e = evidence(phase, { [names.live]: null, [names.shadow]: null });
    expect(swapStateOf(e)).toMatchObject({ swapped: false });
  });

  it('the RENAME path (18.16): the retired table exists exactly when the swap happened', () => {
    expect(swapStateOf(evidence('SWAP', { [names.live]: null, [names.retired]: null }))).toEqual({
      swapped: true,
      retired: names.retired,
      why: expect.stringMatching(/renamed/),
    });
    expect(swapStateOf(evidence('SWAP', { [names.live]: null, [names.shadow]: null }))).toMatchObject({ swapped: false });
  });

  it('the EXCHANGE path (Atomic databases): the live name holding the shadow UUID means swapped, the old data under the shadow name', () => {
    const swapped = evidence('SWAP', { [names.live]: SHADOW_UUID, [names.shadow]: LIVE_UUID }, { shadowUuid: SHADOW_UUID });
    expect(swapStateOf(swapped)).toMatchObject({ swapped: true, retired: names.shadow });
    const before = evidence('SWAP', { [names.live]: LIVE_UUID, [names.shadow]: SHADOW_UUID }, { shadowUuid: SHADOW_UUID });
    expect(swapStateOf(before)).toMatchObject({ swapped: false });
  });

  it('a phase recorded after the swap is swapped even when the old data is gone (dropped after a CLEAN verification)', () => {
    expect(swapStateOf(evidence('VERIFY', { [names.live]: null }, { retiredTable: names.retired }))).toMatchObject({
      swapped: true,
      retired: names.retired,
    });
    // Without the name on the row, the shadow's name (EXCHANGE) is kept rather than dropped unverified.
    expect(swapStateOf(evidence('CATCH_UP', { [names.live]: null, [names.shadow]: null }))).toMatchObject({
      swapped: true,
      retired: names.shadow,
    });
  });

  it('no shadow and no retired table at SWAP: nothing was swapped and nothing is left to drop', () => {
    expect(swapStateOf(evidence('SWAP', { [names.live]: LIVE_UUID }, { shadowUuid: SHADOW_UUID }))).toMatchObject({ swapped: false });
  });
});
