/**
 * Copying a link or value to the clipboard, and what to say about it in a live region beside the
 * button: "Copied.", or how to copy it by hand where the clipboard refused or is missing (outside a
 * secure context, plain http on another host than localhost).
 */
import { useState } from 'react';

export function useCopy(what: string) {
  const [state, setState] = useState<'copied' | 'failed' | null>(null);
  function copy(text: string) {
    if (!navigator.clipboard) return setState('failed');
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  }
  const message =
    state === 'copied' ? 'Copied.' : state === 'failed' ? `Copying failed: select the ${what} and copy it.` : '';
  return { copy, message, failed: state === 'failed' };
}
