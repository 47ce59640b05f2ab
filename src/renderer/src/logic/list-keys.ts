/** j/k or arrows move, Enter opens: for lists that hold focus. Ignores keys typed into form fields. */
export function listKeyHandler(opts: { move: (delta: number) => void; open: () => void }) {
  return (e: KeyboardEvent): void => {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'j' || e.key === 'ArrowDown') {
      opts.move(1);
      e.preventDefault();
    } else if (e.key === 'k' || e.key === 'ArrowUp') {
      opts.move(-1);
      e.preventDefault();
    } else if (e.key === 'Enter') {
      opts.open();
      e.preventDefault();
    }
  };
}
