/**
 * A visual diff of two documents, block by block (top-level blocks): each block is kept, added or
 * removed, and a removed block followed by an added one with the same key is one changed block.
 * Longest common subsequence over the blocks' JSON, so a block moved or edited in the middle of a
 * long page does not mark everything after it.
 */
import type { DocumentNode, ElementNode } from '../document/types';

export type BlockDiff =
  | { kind: 'same'; node: DocumentNode }
  | { kind: 'added'; node: DocumentNode }
  | { kind: 'removed'; node: DocumentNode }
  | { kind: 'changed'; before: DocumentNode; node: DocumentNode };

/** A block's content without its key: two blocks with the same content are the same block. */
function signature(node: DocumentNode): string {
  const { key: _key, ...rest } = node as ElementNode;
  return JSON.stringify(rest);
}

export function diffBlocks(before: DocumentNode[], after: DocumentNode[]): BlockDiff[] {
  const a = before.map(signature);
  const b = after.map(signature);
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lengths[i] as number[];
      row[j] = a[i] === b[j] ? (lengths[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lengths[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const out: BlockDiff[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: 'same', node: after[j] as DocumentNode });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || (lengths[i]?.[j + 1] ?? 0) >= (lengths[i + 1]?.[j] ?? 0))) {
      out.push({ kind: 'added', node: after[j] as DocumentNode });
      j++;
    } else {
      out.push({ kind: 'removed', node: before[i] as DocumentNode });
      i++;
    }
  }
  return pairChanged(out);
}

/**
 * Between two kept blocks, a removed block and an added block with the same key (or, without keys,
 * the same type, in order) are one changed block, shown where the removed one was.
 */
function pairChanged(diff: BlockDiff[]): BlockDiff[] {
  const out: BlockDiff[] = [];
  let removed: DocumentNode[] = [];
  let added: DocumentNode[] = [];
  const flush = () => {
    const unpaired = [...added];
    for (const before of removed) {
      const index = unpaired.findIndex((after) => sameBlock(before, after));
      if (index < 0) out.push({ kind: 'removed', node: before });
      else out.push({ kind: 'changed', before, node: unpaired.splice(index, 1)[0] as DocumentNode });
    }
    for (const node of unpaired) out.push({ kind: 'added', node });
    removed = [];
    added = [];
  };
  for (const entry of diff) {
    if (entry.kind === 'removed') removed.push(entry.node);
    else if (entry.kind === 'added') added.push(entry.node);
    else {
      flush();
      out.push(entry);
    }
  }
  flush();
  return out;
}

function sameBlock(before: DocumentNode, after: DocumentNode): boolean {
  const a = before as ElementNode;
  const b = after as ElementNode;
  if (a.key && b.key) return a.key === b.key;
  return a.type === b.type;
}
