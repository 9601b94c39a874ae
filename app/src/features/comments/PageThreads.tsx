/**
 * The threads on one page of a change request, under that page's changes: every comment on the
 * page (its blocks' too), and a form to start one while the page is still in the change request.
 */
import { useQuery } from '@tanstack/react-query';
import { commentsOnPage } from './anchors';
import { commentsQuery } from './queries';
import { NewComment, type ThreadContext, ThreadList } from './Threads';

export function PageThreads({
  context,
  pageId,
  pageTitle,
  canPost,
}: {
  context: ThreadContext;
  pageId: string;
  pageTitle: string;
  /** False for a page the change request removes: there is nothing left to comment on. */
  canPost: boolean;
}) {
  const { data, error } = useQuery(commentsQuery(context.scope));
  const comments = commentsOnPage(data ?? [], pageId);
  return (
    <div className="page-threads">
      {error ? (
        <p role="alert" className="error">
          {error.message}
        </p>
      ) : null}
      <ThreadList comments={comments} context={context} label={`Comments on ${pageTitle}`} />
      {canPost ? (
        <details className="page-comment">
          <summary>Comment on this page</summary>
          <NewComment context={context} anchor={{ page: pageId }} label={`Comment on ${pageTitle}`} />
        </details>
      ) : null}
    </div>
  );
}
