// One Kafka admin connection made on first use and shared by every question a component asks (the
// freshness marker's log-end reads, the expiry detector's log-start reads, the readiness probe). A
// failed question drops the connection, so the next one reconnects: the broker may have come back, and
// a half-broken connection is not kept. Concurrent first questions share one connect.
import type { Admin, Kafka } from 'kafkajs';

export interface LazyAdmin {
  /** Runs `fn` on the connection (connecting first when there is none); a failure drops it and is rethrown. */
  use<T>(fn: (admin: Admin) => Promise<T>): Promise<T>;
  /** Disconnects (also a connect under way); a later `use` connects again. */
  close(): Promise<void>;
}

export function lazyAdmin(kafka: Kafka): LazyAdmin {
  let admin: Admin | undefined;
  let connecting: Promise<Admin> | undefined;

  function connected(): Promise<Admin> {
    if (admin) return Promise.resolve(admin);
    connecting ??= (async () => {
      const a = kafka.admin();
      try {
        await a.connect();
        admin = a;
        return a;
      } catch (err) {
        await a.disconnect().catch(() => undefined);
        throw err;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  }

  return {
    async use(fn) {
      const a = await connected();
      try {
        return await fn(a);
      } catch (err) {
        if (admin === a) admin = undefined;
        await a.disconnect().catch(() => undefined);
        throw err;
      }
    },
    async close() {
      const a = admin ?? (await connecting?.catch(() => undefined));
      admin = undefined;
      await a?.disconnect().catch(() => undefined);
    },
  };
}
