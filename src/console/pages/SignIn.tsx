// Sign-in: paste a bearer token. In development, and only when the page was opened on a loopback
// address, the gateway also offers its development tokens (GET /console/dev-tokens answers 404
// anywhere else), one button per role whose console pages exist (operator, analyst). A token is read
// with the gateway's roles claim (ConsoleConfig).
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, request } from '../api/client';
import { ConsoleSignInProbeDocument } from '../api/generated';
import { sessionFromToken, type ConsoleConfig, type Session } from '../lib/session';

interface DevToken {
  role: string;
  token: string;
}

/** The roles the console has pages for; development tokens of other roles are not offered. */
const CONSOLE_ROLES: readonly string[] = ['operator', 'analyst'];

export function SignIn({ config, onSignedIn, notice }: { config: ConsoleConfig; onSignedIn(s: Session): void; notice?: string }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(notice);
  const [busy, setBusy] = useState(false);
  const [devTokens, setDevTokens] = useState<DevToken[]>([]);
  useEffect(() => {
    fetch('/console/dev-tokens', { headers: { accept: 'application/json' } })
      // Customer, teacher, student and service tokens have no console page: only the roles that do are offered.
      .then(async (r) => (r.ok ? ((await r.json()) as { tokens: DevToken[] }).tokens.filter((t) => CONSOLE_ROLES.includes(t.role)) : []))
      .then(setDevTokens, () => setDevTokens([]));
  }, []);

  async function signIn(token: string) {
    setBusy(true);
    setError(undefined);
    try {
      const s = sessionFromToken(token, Date.now(), config);
      // Any valid token may read; the probe's only purpose is to have the gateway check the signature.
      await request(ConsoleSignInProbeDocument, {}, s.token).catch((e: unknown) => {
        if (e instanceof ApiError && (e.code === 'UNAUTHENTICATED' || e.code === 'NETWORK')) throw e;
      });
      onSignedIn(s);
    } catch (e) {
      setError(
        e instanceof ApiError ? (e.code === 'NETWORK' ? e.message : 'The gateway does not accept this token.') : (e as Error).message,
      );
    } finally {
      setBusy(false);
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void signIn(text);
  };

  return (
    <main id="main" className="signin">
      <h1>Tidemark console</h1>
      <form onSubmit={submit} aria-describedby="signin-help">
        <label htmlFor="token">Bearer token</label>
        <textarea
          id="token"
          rows={5}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          autoComplete="off"
          required
        />
        <p id="signin-help" className="muted small">
          Paste the JWT your administrator issued (with or without &quot;Bearer &quot;). It stays in this browser tab only.
        </p>
        <button type="submit" className="primary" disabled={busy || !text.trim()}>
          Sign in
        </button>
      </form>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {devTokens.length ? (
        <section aria-labelledby="dev-h" className="dev">
          <h2 id="dev-h">Development tokens</h2>
          <p className="muted small">Offered because this gateway runs in development mode and you opened it on a loopback address.</p>
          {devTokens.map((t) => (
            <button key={t.role} type="button" onClick={() => void signIn(t.token)} disabled={busy}>
              Sign in as {t.role}
            </button>
          ))}
        </section>
      ) : null}
    </main>
  );
}
