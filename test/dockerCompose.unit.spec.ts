// No Docker engine runs where Tidemark is developed, so this reads docker-compose.yml and the
// Dockerfile and checks what `docker compose up` relies on: a health check on every service, the
// gateway built in the image (non-root, no host mount), started with STACK_MANAGE=false once every
// engine is healthy, and an `ops` profile whose Prometheus loads our rules and scrapes the gateway's
// operations port and whose Grafana is provisioned with our dashboard.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { settingsTable } from '../src/config/settings';

const root = join(__dirname, '..');
const read = (f: string) => readFileSync(join(root, f), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  profiles?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  volumes?: string[];
  command?: string[];
  ports?: string[];
}
const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service> };
const services = compose.services;
const ENGINES = ['mysql', 'postgres', 'kafka', 'clickhouse'];
/** The host file of a bind mount `./host:/container[:ro]` whose container path is `target`. */
const mounted = (s: Service, target: string) => s.volumes?.find((v) => v.split(':')[1] === target)?.split(':')[0];

describe('docker-compose.yml', () => {
  it('has a health check on every service', () => {
    expect(Object.keys(services).sort()).toEqual([...ENGINES, 'gateway', 'grafana', 'prometheus'].sort());
    for (const [name, s] of Object.entries(services)) {
      expect({ name, test: s.healthcheck?.test }).toEqual({ name, test: expect.anything() });
      expect({ name, disabled: s.healthcheck?.disable ?? false }).toEqual({ name, disabled: false });
    }
  });

  it('starts the gateway once every engine is healthy, without the stack manager, and checks its /readyz', () => {
    const gw = services.gateway!;
    expect(gw.depends_on).toEqual(Object.fromEntries(ENGINES.map((e) => [e, { condition: 'service_healthy' }])));
    expect(gw.environment?.STACK_MANAGE).toBe('false');
    const opsPort = settingsTable.opsPort.default;
    expect(JSON.stringify(gw.healthcheck!.test)).toContain(`127.0.0.1:${opsPort}/readyz`);
    expect(gw.environment?.OPS_HOST).toBe('0.0.0.0');
    // Built into the image; nothing of the host tree is mounted over /app.
    expect(gw.build).toBe('.');
    expect(gw.volumes?.some((v) => v.startsWith('.:') || v.startsWith('./:'))).toBe(false);
  });

  it('publishes engine ports on 127.0.0.1 only, with passwords from .env, and runs the gateway in production', () => {
    for (const e of ENGINES)
      for (const p of services[e]!.ports ?? []) expect({ e, p }).toEqual({ e, p: expect.stringMatching(/^127\.0\.0\.1:/) });
    const env = JSON.stringify(ENGINES.map((e) => services[e]!.environment));
    expect(env).not.toMatch(/PASSWORD":"(tidemark|root|)"/);
    const gw = services.gateway!.environment!;
    expect(gw.TIDEMARK_ENV).toBe('production');
    expect(gw.AUTH_JWT_SECRET).toMatch(/^\$\{AUTH_JWT_SECRET:\?/);
    expect(services.gateway!.ports).toContain(`127.0.0.1:${settingsTable.opsPort.default}:${settingsTable.opsPort.default}`);
  });

  it('builds the gateway image on Node 22 as a non-root user, with npm ci inside the image', () => {
    const docker = read('Dockerfile');
    const stages = docker.split('\n').filter((l) => l.startsWith('FROM '));
    expect(stages.every((l) => /^FROM node:22[-\w.]*( AS \w+)?$/.test(l))).toBe(true);
    expect(docker).toMatch(/^RUN npm ci\b/m);
    expect(docker).toMatch(/^USER node$/m);
    expect(docker).toMatch(/^CMD \["node", "dist\/src\/main\.js"\]$/m);
    expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['node_modules', 'dist', '.tidemark']));
  });

  it('has an ops profile: Prometheus with our rules scraping the gateway, Grafana with our dashboard', () => {
    const prom = services.prometheus!;
    const grafana = services.grafana!;
    expect([prom.profiles, grafana.profiles]).toEqual([['ops'], ['ops']]);
    const promConfigFile = mounted(prom, '/etc/prometheus/prometheus.yml')!;
    expect(mounted(prom, '/etc/prometheus/alerts.yml')).toBe('./ops/prometheus/alerts.yml');
    const promConfig = parse(read(promConfigFile)) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    expect(promConfig.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    // The alert rules select job="tidemark".
    expect(promConfig.scrape_configs).toEqual([
      { job_name: 'tidemark', static_configs: [{ targets: [`gateway:${settingsTable.opsPort.default}`] }] },
    ]);

    expect(mounted(grafana, '/var/lib/grafana/dashboards/tidemark.json')).toBe('./ops/grafana/tidemark.json');
    const provisioning = mounted(grafana, '/etc/grafana/provisioning')!;
    const datasources = parse(read(join(provisioning, 'datasources', 'prometheus.yml'))) as {
      datasources: { type: string; url: string }[];
    };
    expect(datasources.datasources).toEqual([expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090' })]);
    const dashboards = parse(read(join(provisioning, 'dashboards', 'tidemark.yml'))) as { providers: { options: { path: string } }[] };
    expect(dashboards.providers[0]!.options.path).toBe('/var/lib/grafana/dashboards');
    for (const f of [promConfigFile, provisioning]) expect(existsSync(join(root, f))).toBe(true);
  });

  it("README's Docker line sets STACK_MANAGE=false", () => {
    expect(
      read('README.md')
        .split('\n')
        .some((l) => l.includes('docker compose up') && l.includes('STACK_MANAGE=false')),
    ).toBe(true);
  });
});
