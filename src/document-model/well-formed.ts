/**
 * What every document must be before the editor maps it: objects of the format where the format
 * puts them (blocks in a document, a block's `nodes` and a fragment's `nodes`; texts and inlines in
 * inline positions; leaves in texts; marks in leaves), each with its required fields of the right
 * JSON type. Which block may sit in which container is not checked here: a node the editor does not
 * expect where it is becomes an atom (to-editor.ts). Throws {@link DocumentModelError} at the first
 * fault, naming its path.
 */
import { DocumentModelError } from './types.js';

type Value = Record<string, unknown>;

const isObject = (value: unknown): value is Value =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function fail(path: string, reason: string): never {
  throw new DocumentModelError(path, reason);
}

function checkCommon(node: Value, path: string): void {
  if ('key' in node && typeof node.key !== 'string') fail(`${path}/key`, 'must be a string');
  if ('data' in node && !isObject(node.data)) fail(`${path}/data`, 'must be an object');
  if ('isVoid' in node && typeof node.isVoid !== 'boolean') fail(`${path}/isVoid`, 'must be a boolean');
}

function checkFragments(node: Value, path: string): void {
  if (!('fragments' in node)) return;
  if (!Array.isArray(node.fragments)) fail(`${path}/fragments`, 'must be an array');
  node.fragments.forEach((fragment, i) => {
    const at = `${path}/fragments/${i}`;
    if (!isObject(fragment) || fragment.object !== 'fragment') fail(at, 'must be a fragment (object "fragment")');
    if ('key' in fragment && typeof fragment.key !== 'string') fail(`${at}/key`, 'must be a string');
    for (const field of ['fragment', 'type'] as const) {
      if (field in fragment && typeof fragment[field] !== 'string') fail(`${at}/${field}`, 'must be a string');
    }
    if (!Array.isArray(fragment.nodes)) fail(`${at}/nodes`, 'must be an array');
    for (const [j, child] of fragment.nodes.entries()) checkAny(child, `${at}/nodes/${j}`);
  });
}

function checkMark(mark: unknown, path: string): void {
  if (!isObject(mark) || mark.object !== 'mark') fail(path, 'must be a mark (object "mark")');
  if (typeof mark.type !== 'string' || mark.type === '') fail(`${path}/type`, 'must be a non-empty string');
  if ('data' in mark && !isObject(mark.data)) fail(`${path}/data`, 'must be an object');
}

function checkText(node: Value, path: string): void {
  if ('key' in node && typeof node.key !== 'string') fail(`${path}/key`, 'must be a string');
  if (!Array.isArray(node.leaves)) fail(`${path}/leaves`, 'must be an array of leaves');
  node.leaves.forEach((leaf, i) => {
    const at = `${path}/leaves/${i}`;
    if (!isObject(leaf) || leaf.object !== 'leaf') fail(at, 'must be a leaf (object "leaf")');
    if (typeof leaf.text !== 'string') fail(`${at}/text`, 'must be a string');
    if ('marks' in leaf) {
      if (!Array.isArray(leaf.marks)) fail(`${at}/marks`, 'must be an array');
      for (const [j, mark] of leaf.marks.entries()) checkMark(mark, `${at}/marks/${j}`);
    }
  });
}

function checkElement(node: Value, path: string): void {
  if (typeof node.type !== 'string' || node.type === '') fail(`${path}/type`, 'must be a non-empty string');
  checkCommon(node, path);
  if ('nodes' in node) {
    if (!Array.isArray(node.nodes)) fail(`${path}/nodes`, 'must be an array');
    const inlineOnly = node.object === 'inline';
    for (const [i, child] of node.nodes.entries()) {
      if (inlineOnly) checkInline(child, `${path}/nodes/${i}`);
      else checkAny(child, `${path}/nodes/${i}`);
    }
  }
  checkFragments(node, path);
}

/** A block's children are blocks, or texts and inlines (a paragraph's): either is a node of the format. */
function checkAny(node: unknown, path: string): void {
  if (!isObject(node)) fail(path, 'must be a node object');
  if (node.object === 'text') checkText(node, path);
  else if (node.object === 'block' || node.object === 'inline') checkElement(node, path);
  else fail(`${path}/object`, 'must be "block", "inline" or "text"');
}

function checkInline(node: unknown, path: string): void {
  if (!isObject(node) || (node.object !== 'text' && node.object !== 'inline')) {
    fail(path, 'must be a text or an inline (an inline holds no blocks)');
  }
  checkAny(node, path);
}

export function assertWellFormed(document: unknown): void {
  if (!isObject(document) || document.object !== 'document') fail('', 'must be a document (object "document")');
  if ('data' in document && !isObject(document.data)) fail('data', 'must be an object');
  if (!Array.isArray(document.nodes)) fail('nodes', 'must be an array of blocks');
  document.nodes.forEach((node, i) => {
    if (!isObject(node) || node.object !== 'block') fail(`nodes/${i}`, 'must be a block (object "block")');
    checkAny(node, `nodes/${i}`);
  });
}
