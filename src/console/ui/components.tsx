// Building blocks shared by the pages: the freshness badge, error notes, a confirmation dialog
// (native <dialog>: focus moves to its Cancel button, Escape cancels), and labelled form fields.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import type { ApiError } from '../api/client';
import type { FreshnessBadgeFragment } from '../api/generated';
import { formatLagMs } from '../lib/format';

export function FreshnessBadge({ f, label }: { f: FreshnessBadgeFragment; label?: string }) {
  return (
    <div className="freshness" data-status={f.status}>
      <span className={`badge badge-${f.status.toLowerCase()}`} aria-label={`${label ?? 'Freshness'}: ${f.status}`}>
        {f.status.replace('_', ' ')}
      </span>
      <span className="freshness-reason">{f.reason.replace(/_/g, ' ').toLowerCase()}</span>
      <p className="freshness-detail">{f.detail}</p>
      <p className="muted small">
        lag {formatLagMs(f.lagMs)} · {f.pendingPublications} pending in scope · as of {f.asOf}
      </p>
    </div>
  );
}

const ERROR_HELP: Record<string, string> = {
  FORBIDDEN: 'Your role may not do this.',
  UNAUTHENTICATED: 'The gateway no longer accepts your token: sign in again.',
  STORE_UNAVAILABLE: 'A store is unavailable right now; this heals by itself once it is back.',
  NETWORK: 'The gateway cannot be reached.',
};

export function ErrorNote({ error, what }: { error?: ApiError; what: string }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {what} failed ({error.code}): {ERROR_HELP[error.code] ?? error.message}
    </p>
  );
}

export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      d.showModal();
      // The safe choice has the focus: Enter or Space right after opening cancels, it never acts.
      cancel.current?.focus();
    }
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), props.onCancel())}>
      <h2 id={titleId}>{props.title}</h2>
      <div>{props.children}</div>
      <div className="actions">
        <button type="button" className="primary" onClick={props.onConfirm} disabled={props.busy}>
          {props.confirmLabel}
        </button>
        <button type="button" onClick={props.onCancel} ref={cancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

export function Field({ label, children, hint }: { label: string; children: (id: string) => ReactNode; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint ? <span className="muted small">{hint}</span> : null}
    </div>
  );
}

export function Select<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly (NoInfer<T> | [NoInfer<T>, string])[];
  onChange(v: NoInfer<T>): void;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value as T)}>
          {options.map((o) => {
            const [v, text] = Array.isArray(o) ? o : [o, o];
            return (
              <option key={v} value={v}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}
