/**
 * Reusable contents in place: a page's `reusable-content` blocks (GitBook's `{% include %}`) are
 * replaced by the blocks of the reusable content of the same revision before the page renders (and
 * before it is indexed for search, src/search), so the reader sees the included text (its headings
 * in the table of contents too) and finds it where it is included. Includes inside
 * includes are followed a few levels deep; a cycle or a reusable content of another space renders as
 * nothing, as does one that no longer exists.
 */
import type { Db } from '../db/database.js';
import { type Block, CONTAINERS } from './document.js';
import { getDocuments, type Snapshot } from './store.js';

const MAX_DEPTH = 3;

type WithChildren = Block & { nodes?: Block[] };

function includedIds(nodes: ReadonlyArray<Block>, into: Set<string>): Set<string> {
  for (const node of nodes) {
    if (node.type === 'reusable-content') into.add(node.data.ref.reusableContent);
    if (CONTAINERS.has(node.type)) includedIds((node as WithChildren).nodes ?? [], into);
  }
  return into;
}

/** `nodes` with every reusable-content block of `snapshot`'s space replaced by its blocks. */
export async function expandIncludes(db: Db, snapshot: Snapshot, nodes: Block[]): Promise<Block[]> {
  if (includedIds(nodes, new Set()).size === 0) return nodes;
  const entries = new Map(snapshot.reusableContents.map((r) => [r.id, r]));
  const bodies = new Map<string, Block[]>();
  // Load level by level: an included content may include another.
  let wanted = includedIds(nodes, new Set());
  for (let depth = 0; depth < MAX_DEPTH && wanted.size > 0; depth++) {
    const hashes = [...wanted].flatMap((id) => entries.get(id)?.document ?? []);
    const documents = await getDocuments(db, hashes);
    const next = new Set<string>();
    for (const id of wanted) {
      const hash = entries.get(id)?.document;
      const body = (hash && documents.get(hash)?.nodes) || [];
      bodies.set(id, body);
      for (const inner of includedIds(body, new Set())) if (!bodies.has(inner)) next.add(inner);
    }
    wanted = next;
  }
  const expand = (blocks: ReadonlyArray<Block>, trail: ReadonlySet<string>): Block[] =>
    blocks.flatMap((block): Block[] => {
      if (block.type === 'reusable-content') {
        const { reusableContent: id, space } = block.data.ref;
        if ((space && space !== snapshot.spaceId) || trail.has(id) || trail.size >= MAX_DEPTH) return [];
        return expand(bodies.get(id) ?? [], new Set([...trail, id]));
      }
      if (!CONTAINERS.has(block.type)) return [block];
      return [{ ...block, nodes: expand((block as WithChildren).nodes ?? [], trail) } as Block];
    });
  return expand(nodes, new Set());
}
