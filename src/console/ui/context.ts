// The signed-in session, what its role may do, and the one live (graphql-ws) connection, shared by
// every page.
import { createContext, useContext } from 'react';
import type { Client } from 'graphql-ws';
import type { ConnectionState } from '../api/client';
import type { Capabilities, Session } from '../lib/session';

export interface ConsoleContextValue {
  session: Session;
  caps: Capabilities;
  live: Client;
  liveState: ConnectionState;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const v = useContext(ConsoleContext);
  if (!v) throw new Error('useConsole outside a signed-in console');
  return v;
}
