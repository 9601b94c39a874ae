/** The "/" menu on screen: a listbox of block types at the caret (see slash.ts for its keys). */
import { useSyncExternalStore } from 'react';
import { SLASH_MENU_ID, type SlashStore, slashOptionId } from './slash';

export function SlashMenu({ store }: { store: SlashStore }) {
  const state = useSyncExternalStore(store.subscribe, store.get);
  if (!state.open) return null;
  const style = state.rect
    ? { top: Math.min(state.rect.bottom + 4, window.innerHeight - 200), left: Math.max(state.rect.left, 8) }
    : undefined;
  return (
    <div className="slash-menu" style={style}>
      {state.items.length ? (
        <div id={SLASH_MENU_ID} role="listbox" aria-label="Insert a block">
          {state.items.map((item, index) => (
            // Chosen with the mouse too; mousedown is cancelled so the editor keeps the focus.
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the editor's (slash.ts)
            <div
              key={item.title}
              id={slashOptionId(index)}
              role="option"
              aria-selected={index === state.active}
              tabIndex={-1}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => state.pick(index)}
            >
              {item.title}
            </div>
          ))}
        </div>
      ) : (
        <p className="muted">No block matches</p>
      )}
    </div>
  );
}
