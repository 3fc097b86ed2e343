// Row selection for the stuck-work and discrepancy tables.
import { useState } from 'react';

export interface Selection {
  selected: ReadonlySet<string>;
  toggle(id: string): void;
  setAll(ids: readonly string[], on: boolean): void;
  clear(): void;
}

export function useSelection(): Selection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  return {
    selected,
    toggle: (id) =>
      setSelected((s) => {
        const n = new Set(s);
        if (n.has(id)) n.delete(id);
        else n.add(id);
        return n;
      }),
    setAll: (ids, on) =>
      setSelected((s) => {
        const n = new Set(s);
        for (const id of ids)
          if (on) n.add(id);
          else n.delete(id);
        return n;
      }),
    clear: () => setSelected(new Set()),
  };
}
