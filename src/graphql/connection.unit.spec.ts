import { toConnection } from './connection';
import { requestIdOf, withRequestId } from './requestId';

describe('Relay connections', () => {
  it('gives every node an edge with its cursor and a full pageInfo', () => {
    const c = toConnection([{ id: 1 }, { id: 2 }], (n) => `c${n.id}`, { hasNextPage: true });
    expect(c.edges).toEqual([
      { cursor: 'c1', node: { id: 1 } },
      { cursor: 'c2', node: { id: 2 } },
    ]);
    expect(c.pageInfo).toEqual({ startCursor: 'c1', endCursor: 'c2', hasNextPage: true, hasPreviousPage: false });
    expect(toConnection([], () => 'x', { hasNextPage: false, after: 'c2' }).pageInfo).toEqual({
      startCursor: null,
      endCursor: null,
      hasNextPage: false,
      hasPreviousPage: true,
    });
  });

  it('encodes cursors only when edges or pageInfo are read, once', () => {
    const cursorOf = jest.fn((n: number) => String(n));
    const c = toConnection([1, 2, 3], cursorOf, { hasNextPage: false });
    expect(c.nodes).toEqual([1, 2, 3]);
    expect(cursorOf).not.toHaveBeenCalled();
    void c.edges;
    void c.pageInfo;
    expect(cursorOf).toHaveBeenCalledTimes(3);
  });
});

describe('request ids', () => {
  it('keeps a short plain id and replaces anything else', () => {
    expect(requestIdOf('abc-1.2:3/x+y=z@q_')).toBe('abc-1.2:3/x+y=z@q_');
    for (const bad of [undefined, '', 'a b', 'x'.repeat(129), 'new\nline', ['a', 'b'], 'é'])
      expect(requestIdOf(bad)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('adds the id to every error, keeping their extensions', () => {
    expect(withRequestId([{ message: 'm', extensions: { code: 'X' } }, { message: 'n' }], 'r1')).toEqual([
      { message: 'm', extensions: { code: 'X', requestId: 'r1' } },
      { message: 'n', extensions: { requestId: 'r1' } },
    ]);
  });
});
