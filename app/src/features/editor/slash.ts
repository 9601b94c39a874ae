/**
 * The "/" menu's behaviour: a TipTap extension on @tiptap/suggestion that, after "/", keeps the
 * matching blocks and the highlighted one in a small store the React menu (SlashMenu.tsx) renders.
 * Arrow keys move, Enter or Tab inserts, Escape closes; the editor keeps the focus throughout, and
 * its `aria-activedescendant` names the highlighted option for screen readers.
 */
import { Extension, type Range } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import Suggestion from '@tiptap/suggestion';
import { type BlockChoice, matchBlocks } from './blocks';

export interface SlashState {
  open: boolean;
  items: BlockChoice[];
  active: number;
  rect: DOMRect | null;
  pick: (index: number) => void;
}

const closed: SlashState = { open: false, items: [], active: 0, rect: null, pick: () => undefined };

/** A tiny external store (for useSyncExternalStore): one per editor. */
export class SlashStore {
  private state: SlashState = closed;
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly get = () => this.state;

  set(next: Partial<SlashState>): void {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  close(): void {
    this.state = closed;
    for (const listener of this.listeners) listener();
  }
}

export const SLASH_MENU_ID = 'slash-menu';
export const slashOptionId = (index: number) => `slash-option-${index}`;

export function slashCommand(store: SlashStore) {
  return Extension.create({
    name: 'slashCommand',
    addProseMirrorPlugins() {
      const editor = this.editor;
      const dom = () => editor.view.dom as HTMLElement;
      const describe = (active: number | null) => {
        if (active === null) {
          dom().removeAttribute('aria-activedescendant');
          dom().removeAttribute('aria-controls');
        } else {
          dom().setAttribute('aria-controls', SLASH_MENU_ID);
          dom().setAttribute('aria-activedescendant', slashOptionId(active));
        }
      };
      let command: ((item: BlockChoice) => void) | null = null;
      const show = (items: BlockChoice[], active: number, rect: DOMRect | null) => {
        const index = Math.min(active, Math.max(items.length - 1, 0));
        store.set({
          open: true,
          items,
          active: index,
          rect,
          pick: (i) => {
            const item = items[i];
            if (item && command) command(item);
          },
        });
        describe(items.length ? index : null);
      };
      return [
        Suggestion<BlockChoice, BlockChoice>({
          editor,
          char: '/',
          pluginKey: new PluginKey('slashCommand'),
          items: ({ query }) => matchBlocks(editor.schema.nodes, query),
          command: ({ editor: e, range, props }: { editor: typeof editor; range: Range; props: BlockChoice }) =>
            props.run(e, range),
          render: () => ({
            onStart: (props) => {
              command = props.command;
              show(props.items, 0, props.clientRect?.() ?? null);
            },
            onUpdate: (props) => {
              command = props.command;
              show(props.items, 0, props.clientRect?.() ?? null);
            },
            onKeyDown: ({ event }) => {
              const state = store.get();
              if (!state.open) return false;
              if (event.key === 'Escape') {
                store.close();
                describe(null);
                return true;
              }
              if (!state.items.length) return false;
              const count = state.items.length;
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                const active = (state.active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count;
                store.set({ active });
                describe(active);
                return true;
              }
              if (event.key === 'Enter' || event.key === 'Tab') {
                state.pick(state.active);
                return true;
              }
              return false;
            },
            onExit: () => {
              command = null;
              store.close();
              describe(null);
            },
          }),
        }),
      ];
    },
  });
}
