/**
 * A page drawn with its comments: each top-level block has a "Comment" button (shown on hover and
 * focus, always reachable by Tab) that starts a thread anchored to it, and the block's threads show
 * under it; the page's own threads follow the page in a "Comments" section.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Block } from '../document/blocks';
import { type DocumentContext, DocumentView } from '../document/Document';
import type { DocumentNode, JSONDocument } from '../document/types';
import { blockAnchor, blockLabel, threadsOfPage } from './anchors';
import { commentsQuery } from './queries';
import { NewComment, type ThreadContext, ThreadList } from './Threads';
import type { Comment } from './types';

const none: Comment[] = [];

export function CommentedDocument({
  document,
  documentContext,
  pageId,
  organizationId,
  canComment,
}: {
  document: JSONDocument;
  documentContext: DocumentContext;
  pageId: string;
  organizationId: string;
  canComment: boolean;
}) {
  const context: ThreadContext = { scope: { spaceId: documentContext.spaceId }, organizationId };
  const comments = useQuery(commentsQuery(context.scope, pageId));
  const threads = threadsOfPage(comments.data ?? none, pageId);
  return (
    <>
      <DocumentView document={document} context={documentContext}>
        {document.nodes.map((node, index) => {
          const anchor = blockAnchor(node, index);
          return (
            <CommentableBlock
              key={anchor}
              node={node}
              anchor={anchor}
              pageId={pageId}
              threads={threads.blocks.get(anchor) ?? none}
              context={context}
              canComment={canComment}
            />
          );
        })}
      </DocumentView>
      <section aria-labelledby="page-comments-heading" className="page-comments">
        <h2 id="page-comments-heading">Comments</h2>
        {comments.error ? (
          <p role="alert" className="error">
            {comments.error.message}
          </p>
        ) : null}
        {comments.data && threads.page.length === 0 ? <p>No comments on this page yet.</p> : null}
        <ThreadList comments={threads.page} context={context} label="Comments on this page" />
        {canComment ? <NewComment context={context} anchor={{ page: pageId }} label="Comment on this page" /> : null}
      </section>
    </>
  );
}

function CommentableBlock({
  node,
  anchor,
  pageId,
  threads,
  context,
  canComment,
}: {
  node: DocumentNode;
  anchor: string;
  pageId: string;
  threads: Comment[];
  context: ThreadContext;
  canComment: boolean;
}) {
  const [writing, setWriting] = useState(false);
  const label = blockLabel(node);
  return (
    <div className={threads.length > 0 ? 'commentable-block has-threads' : 'commentable-block'}>
      <Block node={node} />
      {canComment ? (
        <button
          type="button"
          className="block-comment-button"
          aria-expanded={writing}
          // Named by aria-label, not by hidden words: those would repeat the block's text on the page.
          // The number of threads is not shown: the threads themselves are, right under the block.
          aria-label={`Comment on “${label}”`}
          onClick={() => setWriting(!writing)}
        >
          <span aria-hidden="true">💬</span>
        </button>
      ) : null}
      {threads.length > 0 || writing ? (
        <aside className="block-threads" aria-label={`Comments on “${label}”`}>
          <ThreadList comments={threads} context={context} />
          {writing ? (
            <NewComment
              context={context}
              anchor={{ page: pageId, node: anchor }}
              label={`New comment on “${label}”`}
              onPosted={() => setWriting(false)}
            />
          ) : null}
        </aside>
      ) : null}
    </div>
  );
}
