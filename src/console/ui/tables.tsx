// Table cells shared by the stuck-work and discrepancy lists: row selection, the safe error summary,
// and the row that says a list is empty.
import type { ReactNode } from 'react';
import type { Selection } from './selection';

export function SelectAllHeader({ ids, sel, label }: { ids: readonly string[]; sel: Selection; label: string }) {
  return (
    <th scope="col">
      <input
        type="checkbox"
        aria-label={label}
        checked={ids.length > 0 && ids.every((id) => sel.selected.has(id))}
        onChange={(e) => sel.setAll(ids, e.target.checked)}
      />
    </th>
  );
}

export function SelectCell({ id, label, sel }: { id: string; label: string; sel: Selection }) {
  return (
    <td>
      <input type="checkbox" aria-label={label} checked={sel.selected.has(id)} onChange={() => sel.toggle(id)} />
    </td>
  );
}

/** The error code and its redacted summary, as the API gives them (never a payload). */
export function ErrorCell({ code, summary }: { code?: string | null; summary?: string | null }) {
  return (
    <td>
      {code ? <code>{code}</code> : null} {summary ?? ''}
    </td>
  );
}

export function EmptyRow({ show, colSpan, children }: { show: boolean; colSpan: number; children: ReactNode }) {
  if (!show) return null;
  return (
    <tr>
      <td colSpan={colSpan}>{children}</td>
    </tr>
  );
}
