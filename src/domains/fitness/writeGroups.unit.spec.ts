import { writeGroups, type Settled } from './writeGroups';

const ok = <R>(value: R): Settled<R> => ({ status: 'fulfilled', value });

describe('write groups (group commit scheduling)', () => {
  it('groups the calls of one event-loop turn per key, and answers each member its own outcome', async () => {
    const commits: [number, string[]][] = [];
    const sizes: number[] = [];
    const g = writeGroups<string, string>({
      maxSize: 10,
      commit: async (key, members) => {
        commits.push([key, members]);
        return members.map((m) => (m === 'bad' ? { status: 'rejected', reason: new Error(`refused ${m}`) } : ok(`${key}:${m}`)));
      },
      onGroup: (n) => sizes.push(n),
    });
    const results = await Promise.allSettled([g.submit(0, 'a'), g.submit(1, 'b'), g.submit(0, 'bad'), g.submit(0, 'c')]);
    expect(commits).toEqual([
      [0, ['a', 'bad', 'c']],
      [1, ['b']],
    ]);
    expect(sizes).toEqual([3, 1]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['0:a', '1:b', 'refused bad', '0:c']);
  });

  it('closes a full group at once and starts the next one', async () => {
    const commits: string[][] = [];
    const g = writeGroups<string, string>({ maxSize: 2, commit: async (_k, members) => (commits.push(members), members.map(ok)) });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((m) => g.submit(0, m)));
    expect(commits).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('rejects every member when the group commit itself fails, and keeps working afterwards', async () => {
    let fail = true;
    const g = writeGroups<string, string>({
      maxSize: 10,
      commit: async (_k, members) => {
        if (fail) throw new Error('store down');
        return members.map(ok);
      },
    });
    const first = await Promise.allSettled([g.submit(0, 'a'), g.submit(0, 'b')]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(g.submit(0, 'c')).resolves.toBe('c');
  });

  it('calls in different turns are different groups', async () => {
    const commits: string[][] = [];
    const g = writeGroups<string, string>({ maxSize: 10, commit: async (_k, members) => (commits.push(members), members.map(ok)) });
    await g.submit(0, 'a');
    await g.submit(0, 'b');
    expect(commits).toEqual([['a'], ['b']]);
  });
});
