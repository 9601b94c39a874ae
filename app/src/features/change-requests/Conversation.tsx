/**
 * The comment threads about a change request as a whole (those on a page show under that page's
 * changes), and "Comment" to start one.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { generalThreads } from '../comments/anchors';
import { commentsQuery } from '../comments/queries';
import { NewComment, type ThreadContext, ThreadList } from '../comments/Threads';

export function Conversation({
  spaceId,
  number,
  organizationId,
}: {
  spaceId: string;
  number: string;
  organizationId: string;
}) {
  const context: ThreadContext = { scope: { spaceId, changeRequest: number }, organizationId };
  const { data } = useSuspenseQuery(commentsQuery(context.scope));
  const comments = generalThreads(data);
  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      {comments.length === 0 ? <p>No comments yet.</p> : null}
      <ThreadList comments={comments} context={context} />
      <NewComment context={context} />
    </section>
  );
}
