/**
 * The Document format as the app reads it: the official JSONDocument (blocks, inlines, texts of
 * leaves with marks). Loose on purpose: a node of a type the app does not know is still a node, shown
 * with its children, never dropped.
 */
export interface Mark {
  object: 'mark';
  type: string;
  data?: Record<string, unknown>;
}

export interface Leaf {
  object: 'leaf';
  text: string;
  marks?: Mark[];
}

export interface TextNode {
  object: 'text';
  leaves: Leaf[];
}

export interface ElementNode {
  object: 'block' | 'inline';
  type: string;
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  nodes?: DocumentNode[];
  fragments?: ElementNode[];
}

export type DocumentNode = TextNode | ElementNode;

export interface JSONDocument {
  object: 'document';
  data?: Record<string, unknown>;
  nodes: DocumentNode[];
}

export interface PageDocument {
  id: string;
  title: string;
  emoji?: string;
  description?: string;
  path?: string;
  document?: JSONDocument;
}

export interface ContentRef {
  kind: string;
  url?: string;
  page?: string;
  space?: string;
  file?: string;
  anchor?: string;
}
