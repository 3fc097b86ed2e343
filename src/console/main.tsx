// The Tidemark console: a static page served by the gateway at /console, speaking only the GraphQL API.
// It first asks the gateway where its tokens carry the roles (/console/config.json), so a session is
// read as the gateway reads it.
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadConsoleConfig } from './lib/session';
import './styles.css';

void loadConsoleConfig().then((config) => createRoot(document.getElementById('root')!).render(<App config={config} />));
