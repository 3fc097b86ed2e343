// PostgreSQL: reuse the server on PG_HOST:PG_PORT; if it is local and down, start the machine's
// cluster (installing postgresql first if absent). When the application user cannot log in to its
// database, provision a LOGIN CREATEDB role and the orders database as the postgres superuser.
import { readdirSync, existsSync } from 'node:fs';
import { postgresSsl } from '../infra/tls';
import { waitFor } from '../shared/lifecycle';
import { probeKnex, type StackContext, type StackService } from './service';
import { aptInstall, listens, run, tcpAnswers, which } from './system';

export function postgresService(ctx: StackContext): StackService {
  const s = ctx.settings;
  const isLocal = ['127.0.0.1', 'localhost'].includes(s.pgHost);
  const connect = (user: string, password: string, database: string) =>
    probeKnex('pg', { host: s.pgHost, port: s.pgPort, user, password, database, connectionTimeoutMillis: 3000, ssl: postgresSsl(s) });

  const service: StackService = {
    name: 'postgres',
    address: `${s.pgHost}:${s.pgPort}`,
    async check() {
      const db = connect(s.pgUser, s.pgPassword, s.pgDatabase);
      try {
        await db.raw('SELECT 1');
        return true;
      } catch {
        return false;
      } finally {
        await db.destroy();
      }
    },
    async up() {
      if (!(await listens(s.pgHost, s.pgPort))) {
        if (!isLocal)
          throw new Error(`PostgreSQL at ${s.pgHost}:${s.pgPort} does not answer and is not local; start it or fix PG_HOST/PG_PORT`);
        if (!which('pg_ctlcluster')) aptInstall(['postgresql'], ctx.log);
        const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
        if (!versions.length) throw new Error('postgresql is installed but has no cluster under /etc/postgresql');
        ctx.log(`starting PostgreSQL ${versions[0]}`);
        try {
          run('pg_ctlcluster', ['--skip-systemctl-redirect', versions[0]!, 'main', 'start']);
        } catch (err) {
          // Running but slow to accept: wait for it below like a server that has just started.
          if (!/already running/i.test((err as Error).message)) throw err;
        }
        await waitFor(() => tcpAnswers(s.pgHost, s.pgPort), { timeoutMs: 60000, what: 'PostgreSQL to listen' });
      }
      if (!isLocal) return;
      // The postgres superuser only when needed: an application user that logs in to its database is left alone.
      if (await service.check()) return;
      ctx.log(`provisioning role ${s.pgUser} and database ${s.pgDatabase} as postgres`);
      const admin = connect('postgres', '', 'postgres');
      try {
        // A server that has just booted listens before it answers (seen on a fresh machine under load).
        await waitFor(() => admin.raw('SELECT 1').then(() => true), {
          timeoutMs: 90000,
          intervalMs: 500,
          what: 'PostgreSQL to answer queries',
        });
        const role = await admin.raw('SELECT 1 FROM pg_roles WHERE rolname = ?', [s.pgUser]);
        if (role.rows.length === 0)
          await admin.raw(`CREATE ROLE ?? LOGIN CREATEDB PASSWORD '${s.pgPassword.replace(/'/g, "''")}'`, [s.pgUser]);
        const db = await admin.raw('SELECT 1 FROM pg_database WHERE datname = ?', [s.pgDatabase]);
        if (db.rows.length === 0) await admin.raw('CREATE DATABASE ?? OWNER ??', [s.pgDatabase, s.pgUser]);
      } finally {
        await admin.destroy();
      }
    },
    async down() {
      return 'not-ours';
    },
  };
  return service;
}
