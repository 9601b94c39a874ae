/**
 * The path under which the server is mounted (PUBLIC_URL's path, '' at the root). The server writes it
 * in index.html's `<meta name="bindery-base">`; every API call and route starts with it.
 */
export const basePath: string =
  document.querySelector<HTMLMetaElement>('meta[name="bindery-base"]')?.content.replace(/\/$/, '') ?? '';
