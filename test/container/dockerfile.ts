// Replays the Dockerfile without a Docker engine: a parser of the subset of instructions it uses (anything
// else throws, so the replay cannot silently drift from the file), .dockerignore honoured for the build
// context, and every stage built in a clean folder standing for its WORKDIR. Limits (docs/operators.md,
// Container image): RUN runs on this machine's Node and shell, and USER/--chown are not applied.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, openSync, closeSync, readFileSync, statSync } from 'node:fs';
import { basename, join, posix, relative } from 'node:path';

export type Instruction =
  | { op: 'FROM'; image: string; as?: string }
  | { op: 'WORKDIR'; path: string }
  | { op: 'COPY'; from?: string; chown?: string; sources: string[]; dest: string }
  | { op: 'RUN'; command: string }
  | { op: 'ENV'; vars: Record<string, string> }
  | { op: 'USER'; user: string }
  | { op: 'EXPOSE'; ports: number[] }
  | { op: 'CMD'; argv: string[] };

export interface Stage {
  image: string;
  name?: string;
  steps: Instruction[];
}

function unsupported(what: string, line: string): never {
  throw new Error(`Dockerfile replay does not understand ${what}: ${line}`);
}

/** Shell-free values only: no variables, globs or quotes (the replay would have to interpret them). */
function plain(word: string, line: string): string {
  if (/[$*?[\]"'`]/.test(word)) unsupported(`the word ${word}`, line);
  return word;
}

function instruction(line: string): Instruction {
  const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/s.exec(line) ?? [];
  const words = rest.split(/\s+/).filter(Boolean);
  switch (keyword.toUpperCase()) {
    case 'FROM': {
      const m = /^(\S+)(?:\s+AS\s+(\w+))?$/i.exec(rest);
      if (!m || m[1]!.startsWith('--')) unsupported('this FROM', line);
      return { op: 'FROM', image: m[1]!, ...(m[2] ? { as: m[2] } : {}) };
    }
    case 'WORKDIR':
      if (words.length !== 1 || !words[0]!.startsWith('/')) unsupported('a WORKDIR that is not one absolute path', line);
      return { op: 'WORKDIR', path: plain(words[0]!, line) };
    case 'COPY': {
      const flags: Record<string, string> = {};
      while (words[0]?.startsWith('--')) {
        const m = /^--(from|chown)=(\S+)$/.exec(words.shift()!);
        if (!m) unsupported('this COPY flag', line);
        flags[m[1]!] = m[2]!;
      }
      if (words.length < 2 || rest.startsWith('[')) unsupported('this COPY form', line);
      const dest = plain(words.pop()!, line);
      if (words.length > 1 && !dest.endsWith('/')) unsupported('several COPY sources into a destination without a trailing /', line);
      return { op: 'COPY', from: flags.from, chown: flags.chown, sources: words.map((w) => plain(w, line)), dest };
    }
    case 'RUN':
      if (rest.startsWith('[') || rest.startsWith('--')) unsupported('this RUN form', line);
      return { op: 'RUN', command: rest };
    case 'ENV': {
      const vars: Record<string, string> = {};
      for (const w of words) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(w);
        if (!m) unsupported('an ENV that is not NAME=value pairs', line);
        vars[m[1]!] = plain(m[2]!, line);
      }
      if (!words.length) unsupported('an empty ENV', line);
      return { op: 'ENV', vars };
    }
    case 'USER':
      if (words.length !== 1) unsupported('this USER', line);
      return { op: 'USER', user: plain(words[0]!, line) };
    case 'EXPOSE':
      if (!words.length || !words.every((w) => /^\d+$/.test(w))) unsupported('this EXPOSE', line);
      return { op: 'EXPOSE', ports: words.map(Number) };
    case 'CMD': {
      let argv: unknown;
      try {
        argv = JSON.parse(rest);
      } catch {
        unsupported('a CMD that is not the exec (JSON) form', line);
      }
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) unsupported('this CMD', line);
      return { op: 'CMD', argv: argv as string[] };
    }
    default:
      return unsupported(`the instruction ${keyword}`, line);
  }
}

/** The stages of a Dockerfile, in order. Comment lines are skipped, also inside a continued instruction. */
export function parseDockerfile(text: string): Stage[] {
  const logical: string[] = [];
  let pending: string | undefined;
  for (const raw of text.split('\n')) {
    const t = raw.trim();
    if (t.startsWith('#') || (t === '' && pending === undefined)) continue;
    const continued = t.endsWith('\\');
    const part = continued ? t.slice(0, -1).trim() : t;
    pending = pending === undefined ? part : `${pending} ${part}`;
    if (!continued) {
      logical.push(pending);
      pending = undefined;
    }
  }
  if (pending !== undefined) unsupported('a continuation at the end of the file', pending);
  const stages: Stage[] = [];
  for (const line of logical) {
    const i = instruction(line);
    if (i.op === 'FROM') stages.push({ image: i.image, name: i.as, steps: [] });
    else if (!stages.length) unsupported('an instruction before FROM', line);
    else stages[stages.length - 1]!.steps.push(i);
  }
  return stages;
}

// Docker's pattern syntax (Go filepath.Match plus **): **/ is any number of folders, * and ? stay within one.
const GLOB: Record<string, string> = { '**/': '(.*/)?', '**': '.*', '*': '[^/]*', '?': '[^/]' };

/** `.dockerignore` as a predicate on context-relative paths (a pattern excludes a path and all under it). */
export function dockerignore(text: string): (rel: string) => boolean {
  const patterns = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((p) => {
      if (p.startsWith('!') || p.includes('[')) unsupported('this .dockerignore pattern', p);
      const clean = posix.normalize(p.replace(/^\/+/, ''));
      const source = clean
        .split(/(\*\*\/|\*\*|\*|\?)/)
        .map((s) => GLOB[s] ?? s.replace(/[.+^${}()|\\]/g, '\\$&'))
        .join('');
      return new RegExp(`^${source}(/.*)?$`);
    });
  return (rel) => patterns.some((p) => p.test(rel));
}

export interface Replay {
  /** The folder standing for each stage's WORKDIR, by stage name (the last stage also as 'final'). */
  folders: Map<string, string>;
  /** ENV of the final stage; CMD and USER of the final stage. */
  env: Record<string, string>;
  cmd: string[];
  user?: string;
  /** How long each RUN took, for the report. */
  runs: { command: string; ms: number }[];
}

function runShell(command: string, cwd: string, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  const fd = openSync(logFile, 'a');
  return new Promise<void>((done, fail) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    child.once('error', fail);
    child.once('exit', (code) => {
      if (code === 0) return done();
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
      fail(new Error(`RUN ${command} exited with ${code}:\n${tail}`));
    });
  });
}

/**
 * Builds every stage into its own clean folder under `root`: COPY from the context (minus .dockerignore) or
 * from an earlier stage's folder, RUN with `sh -c` in the stage's folder and an environment of only PATH,
 * HOME and the stage's ENV (plus `runEnv`, e.g. npm's cache settings), logging into `root`/build.log.
 */
export async function replayDockerfile(opts: { context: string; root: string; runEnv?: Record<string, string> }): Promise<Replay> {
  const stages = parseDockerfile(readFileSync(join(opts.context, 'Dockerfile'), 'utf8'));
  const ignored = dockerignore(
    existsSync(join(opts.context, '.dockerignore')) ? readFileSync(join(opts.context, '.dockerignore'), 'utf8') : '',
  );
  const folders = new Map<string, string>();
  const workdirs = new Map<string, string>();
  const runs: Replay['runs'] = [];
  const log = join(opts.root, 'build.log');
  let last: Replay | undefined;
  for (const [n, stage] of stages.entries()) {
    const name = stage.name ?? String(n);
    let folder: string | undefined;
    let workdir: string | undefined;
    const env: Record<string, string> = {};
    let cmd: string[] = [];
    let user: string | undefined;
    const at = (dest: string) => {
      if (!folder || !workdir) unsupported('a step before WORKDIR', dest);
      if (!dest.startsWith('/')) return join(folder, dest);
      if (dest !== workdir && !dest.startsWith(`${workdir}/`)) unsupported('a path outside WORKDIR', dest);
      return join(folder, relative(workdir, dest));
    };
    for (const step of stage.steps) {
      if (step.op === 'WORKDIR') {
        if (workdir) unsupported('a second WORKDIR', step.path);
        workdir = step.path;
        folder = join(opts.root, `stage-${name}`);
        mkdirSync(folder, { recursive: true });
        folders.set(name, folder);
        workdirs.set(name, workdir);
      } else if (step.op === 'ENV') Object.assign(env, step.vars);
      else if (step.op === 'USER') user = step.user;
      else if (step.op === 'CMD') cmd = step.argv;
      else if (step.op === 'COPY') {
        for (const src of step.sources) {
          let from: string;
          let filter: ((p: string) => boolean) | undefined;
          if (step.from) {
            const stageFolder = folders.get(step.from);
            const stageWorkdir = workdirs.get(step.from);
            if (!stageFolder || !stageWorkdir) unsupported(`COPY --from an unknown stage ${step.from}`, src);
            if (!src.startsWith(`${stageWorkdir}/`)) unsupported('COPY --from outside that stage WORKDIR', src);
            from = join(stageFolder, relative(stageWorkdir, src));
          } else {
            const rel = posix.normalize(src);
            if (rel.startsWith('..') || rel.startsWith('/')) unsupported('a source outside the context', src);
            if (rel !== '.' && ignored(rel)) throw new Error(`COPY ${src}: excluded by .dockerignore, Docker would not find it`);
            from = join(opts.context, rel);
            filter = (p) => {
              const r = relative(opts.context, p).split('\\').join('/');
              return r === '' || !ignored(r);
            };
          }
          if (!existsSync(from)) throw new Error(`COPY ${src}: not found`);
          // A directory's contents go into the destination; a file goes into it when it ends with / (or is .).
          const dest = at(step.dest);
          const into = statSync(from).isDirectory()
            ? dest
            : step.dest.endsWith('/') || step.dest === '.'
              ? join(dest, basename(from))
              : dest;
          cpSync(from, into, { recursive: true, verbatimSymlinks: true, filter });
        }
      } else if (step.op === 'RUN') {
        if (workdir && step.command.includes(workdir)) unsupported('a RUN naming the WORKDIR (use relative paths)', step.command);
        const started = Date.now();
        await runShell(step.command, at('.'), { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.runEnv, ...env }, log);
        runs.push({ command: step.command, ms: Date.now() - started });
      } else if (step.op === 'EXPOSE') {
        // Nothing to replay: ports are published by whoever runs the image.
      } else if (step.op === 'FROM') unsupported('FROM inside a stage', step.image);
    }
    last = { folders, env, cmd, user, runs };
    if (folder) folders.set('final', folder);
  }
  if (!last) throw new Error('Dockerfile has no stage');
  return last;
}
