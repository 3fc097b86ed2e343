// The console shell: sign-in, then the pages the role may use (an analyst sees reports, an operator
// everything), chosen by the URL hash so every page has an address and the browser's back button works.
import { useEffect, useMemo, useState } from 'react';
import { liveClient, setAuthFailureListener, type ConnectionState } from './api/client';
import { capabilitiesOf, sessionFromToken, type Capabilities, type ConsoleConfig, type Session } from './lib/session';
import { ConsoleContext } from './ui/context';
import { SignIn } from './pages/SignIn';
import { Pipeline } from './pages/Pipeline';
import { StuckWork } from './pages/StuckWork';
import { Reconciliation } from './pages/Reconciliation';
import { Reports } from './pages/Reports';

const STORAGE_KEY = 'tidemark.console.token';

interface Page {
  path: string;
  title: string;
  allowed(c: Capabilities): boolean;
  render(): JSX.Element;
}

const PAGES: Page[] = [
  { path: 'pipeline', title: 'Pipeline', allowed: (c) => c.operate, render: () => <Pipeline /> },
  { path: 'stuck', title: 'Stuck work', allowed: (c) => c.operate, render: () => <StuckWork /> },
  { path: 'reconciliation', title: 'Reconciliation', allowed: (c) => c.operate, render: () => <Reconciliation /> },
  { path: 'reports', title: 'Reports', allowed: (c) => c.report, render: () => <Reports /> },
];

function restoredSession(config: ConsoleConfig): Session | undefined {
  const saved = sessionStorage.getItem(STORAGE_KEY);
  if (!saved) return undefined;
  try {
    return sessionFromToken(saved, Date.now(), config);
  } catch {
    sessionStorage.removeItem(STORAGE_KEY);
    return undefined;
  }
}

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return hash.replace(/^#\/?/, '');
}

export function App({ config }: { config: ConsoleConfig }) {
  const [session, setSession] = useState<Session | undefined>(() => restoredSession(config));
  const [notice, setNotice] = useState<string>();
  const signOut = (why?: string) => {
    sessionStorage.removeItem(STORAGE_KEY);
    setSession(undefined);
    setNotice(why);
    location.hash = '';
  };
  useEffect(() => setAuthFailureListener(() => signOut('The gateway no longer accepts this token. Sign in again.')), []);
  if (!session)
    return (
      <SignIn
        config={config}
        notice={notice}
        onSignedIn={(s) => {
          sessionStorage.setItem(STORAGE_KEY, s.token);
          setNotice(undefined);
          setSession(s);
        }}
      />
    );
  return <SignedIn session={session} onSignOut={() => signOut()} />;
}

function SignedIn({ session, onSignOut }: { session: Session; onSignOut(): void }) {
  const caps = useMemo(() => capabilitiesOf(session.roles), [session]);
  const [liveState, setLiveState] = useState<ConnectionState>('closed');
  const live = useMemo(() => liveClient(session.token, setLiveState), [session]);
  useEffect(() => () => void live.dispose(), [live]);
  const route = useHash();
  const pages = PAGES.filter((p) => p.allowed(caps));
  const current = PAGES.find((p) => p.path === route) ?? pages[0];
  const allowed = current ? current.allowed(caps) : false;
  useEffect(() => {
    document.title = current ? `${current.title} · Tidemark console` : 'Tidemark console';
  }, [current]);
  return (
    <ConsoleContext.Provider value={{ session, caps, live, liveState }}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Tidemark console</span>
        <nav aria-label="Console pages">
          <ul>
            {pages.map((p) => (
              <li key={p.path}>
                <a href={`#/${p.path}`} aria-current={p === current ? 'page' : undefined}>
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who" aria-label="Signed in as">
          {session.subject} · {session.roles.join(', ')}
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {!current ? (
          <p role="status">The role {session.roles.join(', ')} has no console pages: the console is for operators and analysts.</p>
        ) : allowed ? (
          current.render()
        ) : (
          <p role="status">{current.title} is for operators; your role does not include it.</p>
        )}
      </main>
    </ConsoleContext.Provider>
  );
}
