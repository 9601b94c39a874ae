/** Collections and spaces of an organization as one tree (by `parent`), each level sorted by title. */
import type { Collection, Space } from '../../api/types';

export interface TreeNode {
  item: Collection | Space;
  children: TreeNode[];
}

export function buildTree(collections: Collection[], spaces: Space[]): TreeNode[] {
  const nodes = new Map<string, TreeNode>();
  for (const item of [...collections, ...spaces]) nodes.set(item.id, { item, children: [] });
  const roots: TreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.item.parent ? nodes.get(node.item.parent) : undefined;
    // A parent the caller cannot see (or that is gone) puts the item at the top.
    (parent && parent !== node ? parent.children : roots).push(node);
  }
  const sort = (list: TreeNode[]) => {
    list.sort(
      (a, b) =>
        Number(b.item.object === 'collection') - Number(a.item.object === 'collection') ||
        a.item.title.localeCompare(b.item.title),
    );
    for (const node of list) sort(node.children);
  };
  sort(roots);
  return roots;
}

export interface MoveTarget {
  /** The collection to move into; null for the top of the organization. */
  id: string | null;
  label: string;
  depth: number;
}

/**
 * Where an item may move: the top, or any collection except the item itself and (for a
 * collection) the collections inside it, which would make a cycle. In tree order, with depth.
 */
export function moveTargets(tree: TreeNode[], itemId: string): MoveTarget[] {
  const targets: MoveTarget[] = [{ id: null, label: 'Top level', depth: 0 }];
  const walk = (nodes: TreeNode[], depth: number) => {
    for (const node of nodes) {
      if (node.item.object !== 'collection' || node.item.id === itemId) continue;
      targets.push({ id: node.item.id, label: node.item.title, depth });
      walk(node.children, depth + 1);
    }
  };
  walk(tree, 1);
  return targets;
}
