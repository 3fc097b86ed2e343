import { builtOnce, type Stoppable } from './lifecycle';

describe('builtOnce', () => {
  it('builds on first use only, hands the one instance to every asker and to its owner once', () => {
    const owned: Stoppable[] = [{ stop: async () => undefined }];
    let builds = 0;
    const shared = builtOnce(() => ({ n: ++builds, stop: async () => undefined }), owned);
    expect(builds).toBe(0);
    const first = shared();
    const second = shared();
    expect(second).toBe(first);
    expect(builds).toBe(1);
    expect(owned).toHaveLength(2);
    expect(owned[1]).toBe(first);
  });
});
