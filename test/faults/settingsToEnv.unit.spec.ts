// The fault suite's role processes read their configuration from the environment that
// settingsToEnv renders; it must give back exactly the settings the suite itself runs with.
import { loadSettings } from '../../src/config/settings';
import { FAULT_TUNING, settingsToEnv } from './support/faultEnv';
import { canonical3 } from './support/workload';

describe('settingsToEnv', () => {
  it('round-trips every setting through the environment', () => {
    const s = {
      ...loadSettings({ TIDEMARK_ENV: 'test' }),
      ...FAULT_TUNING,
      fitnessShardDatabases: ['tidemark_f_x_f0', 'tidemark_f_x_f1'],
      kafkaBrokers: ['127.0.0.1:20001'],
      authJwtSecret: 'a'.repeat(32),
    };
    expect(loadSettings(settingsToEnv(s))).toEqual(s);
  });

  it('leaves unset optional settings out', () => {
    const env = settingsToEnv(loadSettings({ TIDEMARK_ENV: 'development' }));
    expect(env).not.toHaveProperty('TIDEMARK_INSTANCE_ID');
    expect(env.KAFKA_BROKERS).toBe('127.0.0.1:9092');
  });
});

describe('canonical3', () => {
  it.each([
    ['2.31', '2.310'],
    ['2', '2.000'],
    ['2.310', '2.310'],
    ['0.5', '0.500'],
  ])('%s -> %s', (v, want) => expect(canonical3(v)).toBe(want));
});
