/**
 * The style nonce of this page (the server writes a fresh one per response in
 * `<meta name="bindery-style-nonce">` and admits it in its Content-Security-Policy). Radix's
 * dialogs and selects inject small `<style>` elements: scroll locking (react-remove-scroll, which
 * takes the nonce from `__webpack_nonce__` through get-nonce) and the Select viewport's hidden
 * scrollbar (its `nonce` prop, from {@link styleNonce}). Without it the policy blocks them.
 */
export const styleNonce: string | undefined =
  document.querySelector<HTMLMetaElement>('meta[name="bindery-style-nonce"]')?.content || undefined;

if (styleNonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = styleNonce;
