// The Tidemark console: a static page served by the gateway at /console, speaking only the GraphQL API.
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

createRoot(document.getElementById('root')!).render(<App />);
