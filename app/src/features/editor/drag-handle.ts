/**
 * The drag handle: a mouse affordance for moving blocks (from the keyboard, Alt-Shift-ArrowUp/Down,
 * move.ts). Its plugin (@tiptap/extension-drag-handle) is most of the editor's script: it brings
 * Yjs, for collaborative editing, and runs its set-up as it loads. So it is loaded once the page is
 * in (fill.ts), not before the page shows.
 *
 * A plugin added to a running editor (`editor.registerPlugin`, what the React component of
 * @tiptap/extension-drag-handle-react does) reconfigures its state: ProseMirror then destroys and
 * makes again every plugin view, and the "/" menu's view closes the menu, under the person typing
 * in the editor's first second. So the editor starts with a stand-in, {@link pluginSlot}, in the
 * drag handle's place, and the loaded plugin is plugged into it: the state's plugins never change.
 */
import { type Editor, Extension } from '@tiptap/core';
import { type EditorState, Plugin, PluginKey, type PluginView, type Transaction } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

export interface PluginSlot {
  /** In the editor from the start; does nothing until filled. */
  plugin: Plugin;
  /** Makes `real` act through the slot (its view made now if the editor has one). */
  fill(real: Plugin): void;
  /**
   * Back to doing nothing (the filled plugin's view destroyed); with `filled`, only while that is
   * still the plugin in the slot (not one filled after it).
   */
  empty(filled?: Plugin): void;
}

/**
 * A plugin that forwards to one given later: its state's transitions (for their effects: the value
 * is its own, not readable by the later plugin's key), `appendTransaction`, its view, and the DOM
 * events named in `domEvents` (ProseMirror listens to the events the plugins name when the view
 * starts). A plugin with other hooks is refused when it is filled in, rather than half run.
 */
export function pluginSlot(name: string, domEvents: readonly string[]): PluginSlot {
  let real: Plugin | null = null;
  // The slot's view in each editor view (one, but for StrictMode's editor made twice).
  const views = new Map<EditorView, { inner: PluginView | undefined }>();
  const makeView = (view: EditorView) => real?.spec.view?.call(real, view);
  const handlers = Object.fromEntries(
    domEvents.map((event) => [
      event,
      (view: EditorView, domEvent: Event) => {
        if (!real) return false;
        return real.props.handleDOMEvents?.[event]?.call(real, view, domEvent as never) ?? false;
      },
    ]),
  );
  const plugin = new Plugin<unknown>({
    key: new PluginKey(name),
    state: {
      init: () => null,
      apply(tr: Transaction, value: unknown, before: EditorState, after: EditorState) {
        const spec = real?.spec.state;
        if (!spec) return value;
        const current = value ?? spec.init.call(real, {}, before);
        return spec.apply.call(real, tr, current, before, after);
      },
    },
    appendTransaction: (transactions, before, after) =>
      real?.spec.appendTransaction?.call(real, transactions, before, after) ?? null,
    view(view) {
      const entry = { inner: makeView(view) };
      views.set(view, entry);
      return {
        update: (updated, previous) => entry.inner?.update?.(updated, previous),
        destroy: () => {
          entry.inner?.destroy?.();
          views.delete(view);
        },
      };
    },
    props: { handleDOMEvents: handlers },
  });
  const empty = () => {
    real = null;
    for (const entry of views.values()) {
      entry.inner?.destroy?.();
      entry.inner = undefined;
    }
  };
  return {
    plugin,
    fill(next) {
      const { key: _key, state: _state, appendTransaction: _append, view: _view, props = {}, ...hooks } = next.spec;
      const { handleDOMEvents = {}, ...otherProps } = props;
      const unheard = Object.keys(handleDOMEvents).filter((event) => !domEvents.includes(event));
      const unknown = [...Object.keys(hooks), ...Object.keys(otherProps), ...unheard];
      if (unknown.length) throw new Error(`the plugin slot "${name}" does not forward ${unknown.join(', ')}`);
      empty();
      real = next;
      for (const [view, entry] of views) entry.inner = makeView(view);
    },
    empty(filled) {
      if (filled === undefined || real === filled) empty();
    },
  };
}

/** The DOM events the drag handle's plugin listens to (checked when it is plugged in). */
const DRAG_HANDLE_EVENTS = ['keydown', 'mouseleave', 'mousemove'];

const slots = new WeakMap<Editor, PluginSlot>();

/** The drag handle's place in the editor, empty until {@link addDragHandle}. */
export const DragHandleSlot = Extension.create({
  name: 'dragHandleSlot',
  addProseMirrorPlugins() {
    const slot = pluginSlot('dragHandle', DRAG_HANDLE_EVENTS);
    slots.set(this.editor, slot);
    return [slot.plugin];
  },
});

/**
 * Loads the drag handle and plugs it into the editor's slot. Resolves to what takes it out again
 * (nothing to take out when the editor was destroyed meanwhile).
 */
export async function addDragHandle(editor: Editor): Promise<() => void> {
  const { DragHandlePlugin, defaultComputePositionConfig, normalizeNestedOptions } = await import(
    '@tiptap/extension-drag-handle'
  );
  const slot = slots.get(editor);
  if (!slot || editor.isDestroyed) return () => undefined;
  // Positioned by floating-ui through the CSSOM (element.style), which the CSP allows.
  const element = document.createElement('div');
  element.className = 'drag-handle';
  element.style.visibility = 'hidden';
  element.style.position = 'absolute';
  element.dataset.dragging = 'false';
  const grip = document.createElement('span');
  grip.setAttribute('aria-hidden', 'true');
  grip.title = 'Drag to move this block (keyboard: Alt+Shift+↑/↓)';
  grip.textContent = '⠿';
  element.append(grip);
  const { plugin, unbind } = DragHandlePlugin({
    editor,
    element,
    computePositionConfig: { ...defaultComputePositionConfig },
    nestedOptions: normalizeNestedOptions(false),
  });
  slot.fill(plugin);
  // Only its own plugin: under StrictMode the effect adds a handle twice, and the first one's removal
  // ran after the second was plugged in, which left the editor without a handle.
  return () => {
    slot.empty(plugin);
    unbind();
  };
}
