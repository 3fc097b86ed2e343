// Data hooks: a query repeated on an interval (the pipeline, repairs awaiting verification), and a
// subscription that restarts when its variables change.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, subscribeTo } from '../api/client';
import type { TypedDocumentString } from '../api/generated';
import { useConsole } from './context';

export interface Polled<T> {
  data?: T;
  error?: ApiError;
  loading: boolean;
  refresh(): void;
}

/** Runs `load` now and then every `intervalMs` (0: once) while mounted; `key` restarts it. */
export function usePolling<T>(load: () => Promise<T>, intervalMs: number, key: string): Polled<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        const data = await loadRef.current();
        if (alive) setState({ data, loading: false });
      } catch (e) {
        if (alive)
          setState((s) => ({
            data: s.data,
            error: e instanceof ApiError ? e : new ApiError('INTERNAL', 'Unexpected failure.'),
            loading: false,
          }));
      }
      if (alive && intervalMs > 0) timer = setTimeout(run, intervalMs);
    };
    setState((s) => ({ ...s, loading: true }));
    void run();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, [intervalMs, key, tick]);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, refresh };
}

/** A live subscription on the shared connection; restarts when `key` changes, stops on unmount. */
export function useSubscription<R, V>(
  doc: TypedDocumentString<R, V>,
  variables: V,
  key: string,
  onData: (r: R) => void,
): ApiError | undefined {
  const { live } = useConsole();
  const [error, setError] = useState<ApiError>();
  const onDataRef = useRef(onData);
  onDataRef.current = onData;
  const varsRef = useRef(variables);
  varsRef.current = variables;
  useEffect(() => {
    setError(undefined);
    return subscribeTo(live, doc, varsRef.current, (r) => onDataRef.current(r), setError);
  }, [live, doc, key]);
  return error;
}

export interface Action {
  busy: boolean;
  error?: ApiError;
  /** Runs `fn` once: busy meanwhile, its failure kept as `error` (cleared at the next run); resolves false on failure. */
  run(fn: () => Promise<void>): Promise<boolean>;
}

/** An operator or analyst action (a replay, a repair, a report): one at a time, with its error. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = useCallback(async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError('INTERNAL', 'Unexpected failure.'));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}
