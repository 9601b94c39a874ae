/**
 * Draws a page's Document as the published site shows it: every block, inline and mark. A node of a
 * type this renderer does not know is drawn as its children inside a labelled box, so nothing of a
 * document is ever hidden from a reviewer.
 */
import { createContext, type ReactNode, useContext } from 'react';
import { Block } from './blocks';
import type { JSONDocument } from './types';

export interface RevisionFile {
  id: string;
  name: string;
  downloadURL: string;
  contentType?: string;
}

export interface DocumentContext {
  spaceId: string;
  files: ReadonlyMap<string, RevisionFile>;
  /** Display names of members by user id, for mentions (a comment's); without it a mention shows the id. */
  users?: ReadonlyMap<string, string>;
}

const Context = createContext<DocumentContext>({ spaceId: '', files: new Map() });

export function useDocumentContext(): DocumentContext {
  return useContext(Context);
}

/** A document's blocks, or `children` drawn in the document's context (a diff draws its own blocks). */
export function DocumentView({
  document,
  context,
  children,
}: {
  document: JSONDocument;
  context: DocumentContext;
  children?: ReactNode;
}): ReactNode {
  return (
    <Context.Provider value={context}>
      <div className="document">
        {children ??
          document.nodes.map((node, index) => <Block key={(node as { key?: string }).key ?? index} node={node} />)}
      </div>
    </Context.Provider>
  );
}
