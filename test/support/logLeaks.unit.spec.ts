// The log leak scanner (logLeaks.ts) catches each kind of leak a test run's logs could hold, names it
// without the value, and passes the lines Tidemark's own logger writes for the same data (redacted).
import { createLogger } from '../../src/shared/logger';
import { lineLeaks, scanLog, secretsOf, type Secret } from './logLeaks';

const JWT_SECRET = 'tidemark-test-secret-0123456789abcdef';
const secrets: Secret[] = [
  { name: 'TEST_JWT_SECRET', value: JWT_SECRET },
  { name: 'mysqlPassword', value: 'tidemark', positional: true },
];
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0LXNlcnZpY2UifQ.c2lnbmF0dXJlLW5vdC1jaGVja2Vk';
const line = (o: Record<string, unknown>) => JSON.stringify({ level: 30, service: 'tidemark', ...o, msg: 'm' });

/** The lines the real logger writes for `log`. */
function logged(log: (l: ReturnType<typeof createLogger>) => void): string[] {
  const lines: string[] = [];
  log(createLogger('debug', {}, { write: (l: string) => void lines.push(l.trimEnd()) }));
  return lines;
}

describe('log leak scanner', () => {
  it('passes clean lines: plain fields, redacted keys, URLs without credentials, non-JSON text', () => {
    const clean = [
      line({ url: 'http://127.0.0.1:41234/graphql', requestId: 'r-1', subject: 'test-service', component: 'relay' }),
      line({ studentId: '[redacted]', err: { message: "insert ... values ('?')", sql: '[redacted]', bindings: '[redacted]' } }),
      line({ error: { code: 'ER', summary: 'connect failed to mysql://[redacted]@db:3306' }, applied: [{ store: 'x' }] }),
      line({ tidemark: 'tidemark', db: 'tidemark_t_1' }),
      '> tidemark@0.1.0 start',
      '',
      '{"level":30,"msg":"cut sho',
    ];
    for (const l of clean) expect(lineLeaks(l, secrets)).toEqual([]);
  });

  it('catches a JWT, in a JSON line or any text', () => {
    expect(lineLeaks(line({ header: `Bearer ${TOKEN}` }), [])).toContain('a JWT');
    expect(lineLeaks(`Error: bad token ${TOKEN}`, [])).toEqual(['a JWT']);
  });

  it('catches the test secrets: anywhere when distinctive, as a credential when an ordinary word', () => {
    expect(lineLeaks(line({ note: `signed with ${JWT_SECRET}` }), secrets)).toEqual(['the TEST_JWT_SECRET']);
    expect(lineLeaks('connect with password=tidemark failed', secrets)).toEqual(['the mysqlPassword']);
    expect(lineLeaks(line({ conn: 'mysql://tidemark:tidemark@127.0.0.1:3306' }), secrets)).toEqual([
      'credentials in a URL',
      'the mysqlPassword',
    ]);
  });

  it('catches credentials in any URL', () => {
    expect(lineLeaks('GET https://alice:s3cr3t@idp.example.com/jwks', [])).toEqual(['credentials in a URL']);
  });

  it('catches every key of the redaction list holding a value, at any depth, naming its path', () => {
    const keys = [
      'studentId',
      'student_id',
      'customerId',
      'customer_id',
      'userId',
      'result',
      'value',
      'values',
      'password',
      'token',
      'secret',
    ];
    for (const k of keys) expect(lineLeaks(line({ [k]: 42 }), [])).toEqual([`an unredacted "${k}"`]);
    expect(lineLeaks(line({ req: { headers: { authorization: 'Basic x' } } }), [])).toEqual(['an unredacted "req.headers.authorization"']);
    expect(lineLeaks(line({ err: { sql: 'insert into t values (?)', bindings: [8675309] } }), [])).toEqual([
      'an unredacted "err.sql"',
      'an unredacted "err.bindings"',
    ]);
    expect(lineLeaks(line({ rows: [{ customerId: 'c-1' }] }), [])).toEqual(['an unredacted "rows.0.customerId"']);
  });

  it('names file, line and kind, never the value found', () => {
    const text = [line({ ok: 1 }), line({ customer_id: 'cust-private-4242' }), `x ${JWT_SECRET}`].join('\n');
    const found = scanLog('suite.log', text, secrets);
    expect(found).toEqual([
      { file: 'suite.log', line: 2, what: 'an unredacted "customer_id"' },
      { file: 'suite.log', line: 3, what: 'the TEST_JWT_SECRET' },
    ]);
    expect(JSON.stringify(found)).not.toMatch(/cust-private|0123456789abcdef/);
  });

  it('passes what the real logger writes for the same data, bindings of (grand)child loggers included', () => {
    const lines = logged((l) => {
      const request = l.child({ component: 'x' }).child({ customerId: 'cust-private-4242', requestId: 'r' });
      request.info({ studentId: 8675309, result: '3.187' }, 'recorded');
      const err = Object.assign(new Error(`insert ... values ('8675309')`), { sql: 'insert ...', bindings: [8675309] });
      l.error({ err, authorization: `Bearer ${TOKEN}`, url: 'postgres://u:pw@h/db' }, 'failed');
    });
    expect(lines).toHaveLength(2);
    expect(scanLog('logger', lines.join('\n'), secrets)).toEqual([]);
    expect(lines.join('\n')).not.toMatch(/8675309|3\.187|cust-private/);
  });

  it('takes the secrets of a settings object from the same list, weak ones positional', () => {
    const s = {
      mysqlUser: 'tidemark',
      mysqlPassword: 'tidemark',
      pgPassword: 'a-long-distinct-password-42',
      clickhousePassword: '',
      httpPort: 0,
    };
    expect(secretsOf(s, { TEST_JWT_SECRET: JWT_SECRET })).toEqual([
      { name: 'TEST_JWT_SECRET', value: JWT_SECRET, positional: false },
      { name: 'mysqlPassword', value: 'tidemark', positional: true },
      { name: 'pgPassword', value: 'a-long-distinct-password-42', positional: false },
    ]);
  });
});
