/** Sibling order shared by every ordered list (the content tree, a site's sections and site spaces). */

/** The position after every sibling: one past the highest, 0 for none. */
export function endPosition(siblings: ReadonlyArray<{ position: number }>): number {
  return siblings.reduce((max, s) => Math.max(max, s.position + 1), 0);
}
