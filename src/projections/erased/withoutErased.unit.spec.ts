import { noErasedAggregates, type ErasedAggregates } from '../../domains/contract/erasure';
import { keyOfRow, withoutErased } from './withoutErased';

interface R {
  domain: string;
  id: string;
  v: number;
}

const of = (r: R) => (r.id === '' ? undefined : { domain: r.domain, aggregateId: r.id });

function guardOf(erased: Record<string, string[]>): ErasedAggregates & { asked: Array<[string, readonly string[]]> } {
  const asked: Array<[string, readonly string[]]> = [];
  return {
    asked,
    erasedAmong: async (domain, ids) => {
      asked.push([domain, ids]);
      return new Set(ids.filter((id) => (erased[domain] ?? []).includes(id)));
    },
  };
}

describe('withoutErased', () => {
  const rows: R[] = [
    { domain: 'fitness', id: '1', v: 1 },
    { domain: 'fitness', id: '2', v: 1 },
    { domain: 'fitness', id: '1', v: 2 },
    { domain: 'orders', id: '1', v: 1 },
    { domain: 'fitness', id: '', v: 1 },
  ];

  it('drops every version of an erased aggregate of its domain only, and keeps rows naming none', async () => {
    const guard = guardOf({ fitness: ['1'] });
    const kept = await withoutErased(guard, rows, of);
    expect(kept).toEqual([rows[1], rows[3], rows[4]]);
  });

  it('asks the guard once per domain with the distinct ids', async () => {
    const guard = guardOf({});
    await withoutErased(guard, rows, of);
    expect(guard.asked).toEqual([
      ['fitness', ['1', '2']],
      ['orders', ['1']],
    ]);
  });

  it('keeps everything with the default guard, and asks nothing for no rows', async () => {
    expect(await withoutErased(noErasedAggregates, rows, of)).toEqual(rows);
    const guard = guardOf({ fitness: ['1'] });
    expect(await withoutErased(guard, [], of)).toEqual([]);
    expect(guard.asked).toEqual([]);
  });

  it('fails when the guard cannot answer (the writer repeats; it never writes unchecked rows)', async () => {
    const down: ErasedAggregates = { erasedAmong: () => Promise.reject(new Error('down')) };
    await expect(withoutErased(down, rows, of)).rejects.toThrow('down');
  });

  it('reads a projection row id from its table key column', () => {
    const key = keyOfRow<{ dataId: number }>({
      columns: [
        { role: 'content', value: () => 0 },
        { role: 'key', value: (r) => r.dataId },
      ],
    });
    expect(key({ dataId: 42 })).toBe('42');
  });
});
