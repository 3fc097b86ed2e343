import type { GatewayServices } from '../context';
import { text } from './arguments';
import { requireService } from './services';

describe('resolver helpers', () => {
  it('requireService hands back a served service and answers STORE_UNAVAILABLE (retriable) for one this instance lacks', () => {
    const outbox = {} as NonNullable<GatewayServices['outbox']>;
    const ctx = { services: { outbox } as GatewayServices };
    expect(requireService(ctx, 'outbox')).toBe(outbox);
    expect(() => requireService(ctx, 'orders')).toThrow(
      expect.objectContaining({ code: 'STORE_UNAVAILABLE', retriable: true, message: 'orders are not served by this instance' }),
    );
  });

  it('text applies one rule to every free-text argument', () => {
    expect(text('reason', undefined, 10)).toBeUndefined();
    expect(text('reason', 'fix', 10)).toBe('fix');
    for (const bad of ['', 'x'.repeat(11), 'two\nlines'])
      expect(() => text('reason', bad, 10)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'reason' } }));
  });
});
