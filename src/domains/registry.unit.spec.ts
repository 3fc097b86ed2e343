// The registry refuses what would collide at run time, and derives a domain's strategy from settings.
import { strategyOf, type DomainModule } from './contract/domainModule';
import { fitnessModule } from './fitness/module';
import { domainModule, domainModules, isDomain, registerDomain } from './registry';

const other = (o: Partial<DomainModule>): DomainModule => ({
  ...fitnessModule,
  name: 'notes',
  topicSuffix: 'notes',
  tokenCode: 'n',
  projection: { ...fitnessModule.projection, domain: 'notes', table: { ...fitnessModule.projection.table, name: 'notes' } },
  reconciliation: { ...fitnessModule.reconciliation, domain: 'notes' } as DomainModule['reconciliation'],
  strategySetting: undefined,
  ...o,
});

describe('domain registry', () => {
  it('holds the built-in domains and finds each by name', () => {
    expect(domainModules().map((m) => m.name)).toEqual(['fitness', 'orders']);
    expect(domainModule('orders').projection.table.name).toBe('orders');
    expect(isDomain('fitness')).toBe(true);
    expect(isDomain('nobody')).toBe(false);
    expect(() => domainModule('nobody')).toThrow('unknown domain');
  });

  it.each([
    ['name', { name: 'fitness' }],
    ['topic', { topicSuffix: 'orders' }],
    ['projection table', { projection: { ...fitnessModule.projection, domain: 'notes' } }],
    ['token code', { tokenCode: 'o' }],
  ])('refuses a module with the %s of another', (clash, o) => {
    expect(() => registerDomain(other(o))).toThrow(clash);
    expect(isDomain('notes')).toBe(false);
  });

  it('refuses a bad name, parts of another domain and core ClickHouse versions', () => {
    expect(() => registerDomain(other({ name: 'Notes!' }))).toThrow('lower-case');
    expect(() => registerDomain(other({ reconciliation: fitnessModule.reconciliation }))).toThrow('another domain');
    const ch = { version: 12, name: 'notes', statements: () => [], down: () => [] };
    expect(() => registerDomain(other({ migrations: { clickhouse: [ch] } }))).toThrow('below 1000');
  });

  it('picks a strategy: the PUBLICATION_STRATEGIES entry, else the domain setting, else the module default', () => {
    const s = { publicationStrategies: {}, fitnessStrategy: 'kafka-first', ordersStrategy: 'outbox' } as const;
    expect(strategyOf(s, fitnessModule)).toBe('kafka-first');
    expect(strategyOf({ ...s, publicationStrategies: { fitness: 'outbox' } }, fitnessModule)).toBe('outbox');
    expect(strategyOf(s, other({}))).toBe('outbox');
    expect(strategyOf(s, other({ defaultStrategy: 'kafka-first' }))).toBe('kafka-first');
  });
});
