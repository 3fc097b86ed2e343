// The Dockerfile replay's parser (dockerfile.ts): it reads our Dockerfile and .dockerignore, and refuses
// what it would not replay faithfully instead of skipping it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dockerignore, parseDockerfile } from './dockerfile';

const root = join(__dirname, '..', '..');

describe('Dockerfile replay parser', () => {
  it('reads our Dockerfile: a build stage and a runtime stage copying only from it', () => {
    const [build, runtime, ...more] = parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
    expect(more).toEqual([]);
    expect(build!.name).toBe('build');
    expect(build!.steps.filter((s) => s.op === 'RUN').map((s) => s.command)).toEqual([
      'npm ci --no-audit --no-fund',
      expect.stringMatching(/^npm run build && npm prune --omit=dev /),
    ]);
    const copies = runtime!.steps.filter((s) => s.op === 'COPY');
    expect(copies.every((c) => c.from === 'build')).toBe(true);
    expect(runtime!.steps.find((s) => s.op === 'ENV')).toMatchObject({ vars: { STACK_MANAGE: 'false' } });
    expect(runtime!.steps.find((s) => s.op === 'CMD')).toEqual({ op: 'CMD', argv: ['node', 'dist/src/main.js'] });
  });

  it.each([
    ['an unknown instruction', 'FROM node:22\nADD x /app/x\n'],
    ['an unknown COPY flag', 'FROM node:22\nWORKDIR /app\nCOPY --link . .\n'],
    ['a variable', 'FROM node:22\nENV PATH=/app/bin:$PATH\n'],
    ['a glob', 'FROM node:22\nWORKDIR /app\nCOPY *.json ./\n'],
    ['a shell-form CMD', 'FROM node:22\nCMD node dist/src/main.js\n'],
    ['a RUN before FROM', 'RUN true\n'],
  ])('refuses %s', (_what, text) => {
    expect(() => parseDockerfile(text)).toThrow(/does not understand/);
  });

  it('joins continued lines, skipping comments inside them', () => {
    const [stage] = parseDockerfile('FROM node:22\nENV A=1 \\\n# why B\n    B=2\n');
    expect(stage!.steps).toEqual([{ op: 'ENV', vars: { A: '1', B: '2' } }]);
  });

  it('honours .dockerignore: a pattern excludes the path and everything under it, * stays in one segment', () => {
    const ignored = dockerignore(readFileSync(join(root, '.dockerignore'), 'utf8'));
    for (const p of [
      'node_modules',
      'node_modules/jest/package.json',
      'dist/src/main.js',
      '.tidemark/x',
      '.git',
      'devstack/kafka/lib/a.jar',
    ])
      expect([p, ignored(p)]).toEqual([p, true]);
    for (const p of ['src/main.ts', 'bin/tidemark.cjs', 'patches/kafkajs+2.2.4.patch', 'devstack/kafka/pom.xml', 'package.json'])
      expect([p, ignored(p)]).toEqual([p, false]);
    expect(dockerignore('*.log')('a/b.log')).toBe(false);
    expect(['a/b.log', 'b.log'].map(dockerignore('**/*.log'))).toEqual([true, true]);
    expect(() => dockerignore('!keep')).toThrow(/does not understand/);
  });
});
