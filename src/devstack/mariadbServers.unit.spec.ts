// Which MariaDB servers the stack manager knows and who runs each: the machine's, the stack's second
// server, every server a shard URL names; with the logins and databases each must serve.
import { loadSettings } from '../config/settings';
import { mariadbServers, secondLocalServer } from './mariadbServers';

const dev = { TIDEMARK_ENV: 'development' };
const brief = (env: Record<string, string>) =>
  mariadbServers(loadSettings({ ...dev, ...env })).map((s) => ({
    name: s.name,
    at: `${s.host}:${s.port}`,
    kind: s.kind,
    users: s.logins.map((l) => `${l.user}:${l.databases.join('+')}`),
  }));

describe('the MariaDB servers of the local stack', () => {
  it('runs a second server beside the machine one by default; the shards stay on the machine server', () => {
    expect(brief({})).toEqual([
      { name: 'mysql', at: '127.0.0.1:3306', kind: 'machine', users: ['tidemark:tidemark_fitness_0+tidemark_fitness_1'] },
      { name: 'mysql-2', at: '127.0.0.1:3307', kind: 'stack', users: ['tidemark:'] },
    ]);
  });

  it('has no second server when told so, or when MySQL is not local', () => {
    expect(brief({ STACK_MYSQL_SECOND_PORT: '0' }).map((s) => s.name)).toEqual(['mysql']);
    expect(secondLocalServer(loadSettings({ ...dev, MYSQL_HOST: 'db.internal' }))).toBeUndefined();
    expect(secondLocalServer(loadSettings({ ...dev, MYSQL_PORT: '3307' }))).toBeUndefined();
  });

  it('knows every server the shard URLs name: local ones it runs, others it only checks', () => {
    const shards = 'mysql://localhost:3306/tidemark_a,mysql://127.0.0.1:3307/tidemark_b,mysql://al:pw@127.0.0.1:3308/c,mysql://db9/d';
    expect(brief({ FITNESS_SHARDS: shards })).toEqual([
      { name: 'mysql', at: '127.0.0.1:3306', kind: 'machine', users: ['tidemark:tidemark_a'] },
      { name: 'mysql-2', at: '127.0.0.1:3307', kind: 'stack', users: ['tidemark:tidemark_b'] },
      { name: 'mysql-3', at: '127.0.0.1:3308', kind: 'stack', users: ['al:c', 'tidemark:'] },
      { name: 'mysql-4', at: 'db9:3306', kind: 'external', users: ['tidemark:d'] },
    ]);
  });
});
