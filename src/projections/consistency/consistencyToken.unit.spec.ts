// The token codec: what a client can do with a token (pass it back, combine several) and what it
// cannot (forge one, change one, cut one short, grow one into a scan, use another caller's).
import { createHmac, randomBytes } from 'node:crypto';
import { consistencyKey } from './consistencyKey';
import { consistencyTokenCodec, MAX_TOKEN_CHARS, MAX_WRITES, mergeWrites, type WrittenVersion } from './consistencyToken';

const codec = consistencyTokenCodec(randomBytes(32));
const fit = (id: string, version: number): WrittenVersion => ({ domain: 'fitness', aggregateId: id, version });
const refused = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
  return { code: 'accepted', message: '' };
};
const INVALID = { code: 'VALIDATION_FAILED', message: 'invalid consistency token' };

describe('consistency tokens', () => {
  const token = codec.issue('teacher-1', [fit('1200', 2)]);

  it('round-trips the writes for their writer', () => {
    expect(codec.verify(token, 'teacher-1')).toEqual([fit('1200', 2)]);
    const order = codec.issue('customer-a', [{ domain: 'orders', aggregateId: 'o-1', version: 1 }]);
    expect(codec.verify(order, 'customer-a')).toEqual([{ domain: 'orders', aggregateId: 'o-1', version: 1 }]);
  });

  it('refuses a token of another caller exactly like a forged one', () => {
    const forged = codec.issue('someone-else', [fit('1200', 2)]).replace(/\.[^.]+$/, `.${randomBytes(32).toString('base64url')}`);
    expect(refused(() => codec.verify(token, 'teacher-2'))).toEqual(INVALID);
    expect(refused(() => codec.verify(forged, 'someone-else'))).toEqual(INVALID);
    // A token of another deployment (another key) is forged as far as this one can tell.
    expect(refused(() => consistencyTokenCodec(randomBytes(32)).verify(token, 'teacher-1'))).toEqual(INVALID);
  });

  it('refuses a tampered payload (another id, version or subject) even with the MAC left as it was', () => {
    const [prefix, , mac] = token.split('.');
    for (const body of [
      { s: 'teacher-1', w: [['f', '1201', 2]] },
      {
        s: 'teacher-1',
        w: [
          ['f', '1200', 2],
          ['f', '1201', 1],
        ],
      },
      { s: 'teacher-2', w: [['f', '1200', 2]] },
    ]) {
      const tampered = `${prefix}.${Buffer.from(JSON.stringify(body)).toString('base64url')}.${mac}`;
      expect(refused(() => codec.verify(tampered, body.s))).toEqual(INVALID);
    }
  });

  it("writes a domain as its module's token code; an authentic token with a code no module has is refused", () => {
    const key = randomBytes(32);
    const own = consistencyTokenCodec(key);
    const signed = (w: unknown[]) => {
      const s = `ct1.${Buffer.from(JSON.stringify({ s: 't', w })).toString('base64url')}`;
      return `${s}.${createHmac('sha256', key).update(s).digest('base64url')}`;
    };
    expect(own.verify(signed([['o', 'o-1', 1]]), 't')).toEqual([{ domain: 'orders', aggregateId: 'o-1', version: 1 }]);
    expect(refused(() => own.verify(signed([['z', 'o-1', 1]]), 't'))).toEqual(INVALID);
  });

  it('refuses truncated, malformed and oversized tokens without parsing them', () => {
    for (const bad of [
      '',
      'x',
      token.slice(0, -1),
      token.slice(0, token.lastIndexOf('.')),
      token.slice(1),
      `${token}.x`,
      token.replace('ct1', 'ct2'),
      'ct1.not base64.x',
      `ct1.${'A'.repeat(MAX_TOKEN_CHARS)}.x`,
    ])
      expect({ bad: bad.slice(0, 20), r: refused(() => codec.verify(bad, 'teacher-1')) }).toEqual({ bad: bad.slice(0, 20), r: INVALID });
  });

  it('is bounded: at most MAX_WRITES writes, each token well under MAX_TOKEN_CHARS', () => {
    const many = Array.from({ length: MAX_WRITES }, (_, i) => fit(String(1_000_000_000 + i), 1_000_000 + i));
    const big = codec.issue('s'.repeat(256), many);
    expect(big.length).toBeLessThanOrEqual(MAX_TOKEN_CHARS);
    expect(codec.verify(big, 's'.repeat(256))).toHaveLength(MAX_WRITES);
    expect(refused(() => codec.issue('x', [...many, fit('1', 1)])).code).toBe('VALIDATION_FAILED');
    expect(token.length).toBeLessThan(200);
  });

  it('combines: several tokens name the newest version of each aggregate, passed separately or as one token', () => {
    const a = codec.issue('t', [fit('1200', 1)]);
    const b = codec.issue('t', [fit('1200', 2)]);
    const c = codec.issue('t', [{ domain: 'orders', aggregateId: '1200', version: 1 }]);
    const expected = [fit('1200', 2), { domain: 'orders', aggregateId: '1200', version: 1 }];
    expect(codec.verifyAll([a, b, c], 't')).toEqual(expected);
    expect(codec.verify(codec.combine([b, a, c], 't'), 't')).toEqual(expected);
    // One bad token spoils the lot (no partial answer), and combining never launders another caller's.
    expect(refused(() => codec.verifyAll([a, codec.issue('u', [fit('9', 1)])], 't'))).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'invalid consistency token',
    });
    expect(refused(() => codec.verifyAll([], 't')).code).toBe('VALIDATION_FAILED');
    const tooMany = Array.from({ length: MAX_WRITES + 1 }, (_, i) => codec.issue('t', [fit(String(i + 1), 1)]));
    expect(refused(() => codec.verifyAll(tooMany, 't')).code).toBe('VALIDATION_FAILED');
  });

  it('merges by aggregate, keeping the newest version', () => {
    expect(mergeWrites([fit('1', 3), fit('2', 1), fit('1', 2)])).toEqual([fit('1', 3), fit('2', 1)]);
  });
});

describe('the token key', () => {
  const base = { env: 'production' as const, stackDir: '/nonexistent', consistencyTokenSecret: undefined, authJwtSecret: undefined };

  it('comes from CONSISTENCY_TOKEN_SECRET, else from AUTH_JWT_SECRET (HKDF: never the bearer-token key itself)', () => {
    const own = consistencyKey({ ...base, consistencyTokenSecret: 'c'.repeat(32), authJwtSecret: 'a'.repeat(32) });
    const derived = consistencyKey({ ...base, authJwtSecret: 'a'.repeat(32) });
    expect(own.equals(derived)).toBe(false);
    expect(derived.equals(Buffer.from('a'.repeat(32)))).toBe(false);
    expect(derived.equals(consistencyKey({ ...base, authJwtSecret: 'a'.repeat(32) }))).toBe(true);
  });

  it('refuses production without either secret, naming the setting', () => {
    expect(() => consistencyKey(base)).toThrow(/CONSISTENCY_TOKEN_SECRET/);
  });
});
