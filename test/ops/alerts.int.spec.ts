// The alert rules are valid Prometheus rules and each alert fires on the series it is meant for and not
// on the others: `promtool test rules` (Debian's prometheus package, installed by the project's own
// stack code when missing) over ops/prometheus/alerts.test.yml, which holds a firing and a quiet case
// for every alert.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { repoRoot } from '../../src/devstack/stack';
import { ensurePromtool } from '../../src/devstack/promtool';

jest.setTimeout(300000); // a fresh machine installs the package first

const dir = join(repoRoot, 'ops', 'prometheus');

describe('alert rules', () => {
  let promtool: string;
  beforeAll(() => {
    promtool = ensurePromtool();
  });

  it('are valid rules', () => {
    const r = spawnSync(promtool, ['check', 'rules', join(dir, 'alerts.yml')], { encoding: 'utf8' });
    expect({ status: r.status, out: r.stdout + r.stderr }).toMatchObject({ status: 0, out: expect.stringContaining('SUCCESS') });
  });

  it('fire when they should and stay quiet otherwise (promtool test rules)', () => {
    const r = spawnSync(promtool, ['test', 'rules', 'alerts.test.yml'], { cwd: dir, encoding: 'utf8' });
    expect({ status: r.status, out: r.stdout + r.stderr }).toMatchObject({ status: 0, out: expect.stringContaining('SUCCESS') });
  });

  it('test every alert both firing and quiet', () => {
    const alerts = (parse(readFileSync(join(dir, 'alerts.yml'), 'utf8')) as { groups: { rules: { alert: string }[] }[] }).groups.flatMap(
      (g) => g.rules.map((r) => r.alert),
    );
    const tests = (
      parse(readFileSync(join(dir, 'alerts.test.yml'), 'utf8')) as {
        tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
      }
    ).tests.flatMap((t) => t.alert_rule_test);
    for (const a of alerts) {
      const cases = tests.filter((t) => t.alertname === a);
      expect({ alert: a, fires: cases.some((c) => c.exp_alerts.length > 0), quiet: cases.some((c) => c.exp_alerts.length === 0) }).toEqual({
        alert: a,
        fires: true,
        quiet: true,
      });
    }
  });
});
