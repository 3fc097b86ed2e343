// What a down engine or shard means for each kind of process (readiness.ts): a gateway stays ready while
// it can serve anything, other roles need their engines, and MySQL is down for them only when every
// shard is.
import { judgeReadiness } from './readiness';

const up = { mysql: true, postgres: true, kafka: true, clickhouse: true };
const probe = (down: Partial<typeof up>, shardsUp = [true, true]) => ({
  stores: { ...up, ...down, mysql: (down.mysql ?? true) && shardsUp.every(Boolean) },
  shardsUp,
});

describe('judgeReadiness', () => {
  it('keeps a gateway ready and degraded while it can serve fitness writes, order writes or reads', () => {
    expect(judgeReadiness(probe({ clickhouse: false }), ['gateway'], false)).toMatchObject({
      ready: true,
      status: 'degraded',
      failing: [],
      degraded: ['clickhouse'],
    });
    expect(judgeReadiness(probe({}, [true, false]), ['gateway'], false)).toMatchObject({
      ready: true,
      status: 'degraded',
      degraded: ['mysql'],
      shardsDown: [1],
    });
    expect(judgeReadiness(probe({ postgres: false, clickhouse: false, kafka: false }, [false, true]), ['gateway'], false)).toMatchObject({
      ready: true,
      failing: [],
      degraded: ['mysql', 'postgres', 'kafka', 'clickhouse'],
    });
  });

  it('calls a gateway not ready when it can serve nothing', () => {
    expect(judgeReadiness(probe({ postgres: false, clickhouse: false }, [false, false]), ['gateway', 'projector'], false)).toMatchObject({
      ready: false,
      status: 'not-ready',
      failing: ['mysql', 'postgres', 'clickhouse'],
      degraded: [],
      shardsDown: [0, 1],
    });
  });

  it('holds the other roles to their engines, MySQL down only when every shard is', () => {
    expect(judgeReadiness(probe({ kafka: false }), ['relay'], false)).toMatchObject({ ready: false, failing: ['kafka'] });
    expect(judgeReadiness(probe({}, [false, true]), ['relay'], false)).toMatchObject({
      ready: true,
      status: 'degraded',
      degraded: ['mysql'],
    });
    expect(judgeReadiness(probe({}, [false, false]), ['relay'], false)).toMatchObject({ ready: false, failing: ['mysql'] });
    expect(judgeReadiness(probe({ postgres: false }), ['projector'], false)).toMatchObject({ ready: true, degraded: ['postgres'] });
  });

  it('is draining from SIGTERM on, whatever answers', () => {
    expect(judgeReadiness(probe({}), ['gateway'], true)).toMatchObject({ ready: false, status: 'draining' });
  });

  it('is starting, not ready, until the roles have started, whatever answers', () => {
    for (const roles of [['gateway'], ['relay'], ['projector', 'reconciler']] as const)
      expect(judgeReadiness(probe({}), roles, false, true)).toMatchObject({ ready: false, status: 'starting' });
    expect(judgeReadiness(probe({}), ['gateway'], true, true)).toMatchObject({ ready: false, status: 'draining' });
  });
});
