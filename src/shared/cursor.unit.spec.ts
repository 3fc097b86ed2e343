import { ValidationError } from './errors';
import { decodeCursor, encodeCursor, pageSize } from './cursor';

const isD = (v: unknown): v is { d: number } => typeof v === 'object' && v !== null && Number.isSafeInteger((v as { d?: unknown }).d);

describe('keyset cursors and page sizes', () => {
  it('round-trips an opaque cursor', () => {
    const c = encodeCursor({ d: 900001 });
    expect(c).not.toContain('900001');
    expect(decodeCursor(c, isD)).toEqual({ d: 900001 });
    expect(decodeCursor(null, isD)).toBeUndefined();
  });

  it.each(['not-a-cursor', '', encodeCursor({ d: '1 OR 1=1' }), encodeCursor({ x: 1 }), Buffer.from("{'d':1}").toString('base64url')])(
    'rejects %j as VALIDATION_FAILED on `after`',
    (bad) => {
      expect(() => decodeCursor(bad, isD)).toThrow(ValidationError);
      try {
        decodeCursor(bad, isD);
      } catch (e) {
        expect((e as ValidationError).details).toMatchObject({ field: 'after' });
      }
    },
  );

  it('bounds page sizes', () => {
    expect(pageSize(null, 200)).toBe(50);
    expect(pageSize(undefined, 20)).toBe(20);
    expect(pageSize(200, 200)).toBe(200);
    for (const bad of [0, -1, 201, 1.5]) expect(() => pageSize(bad, 200)).toThrow(ValidationError);
  });
});
