/**
 * The comment threads of a change request: every comment with its replies, "Reply" (with
 * mentions), "Resolve" / "Reopen", and "Comment" to start a thread. Mentions show the member's name.
 */
import { useQueries, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DocumentView } from '../document/Document';
import type { JSONDocument } from '../document/types';
import { memberQuery } from '../organizations/queries';
import { MentionField } from './MentionField';
import { mentionedUserIds } from './mention';
import { commentsQuery, repliesQuery, usePostComment, useReply, useResolve } from './queries';
import type { Comment, CommentReply } from './types';

const noFiles = new Map();

interface ThreadContext {
  spaceId: string;
  number: string;
  organizationId: string;
}

export function Conversation({
  spaceId,
  number,
  organizationId,
}: {
  spaceId: string;
  number: string;
  organizationId: string;
}) {
  const { data: comments } = useSuspenseQuery(commentsQuery(spaceId, number));
  const post = usePostComment(spaceId, number);
  const [text, setText] = useState('');
  const context: ThreadContext = { spaceId, number, organizationId };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    post.mutate(text.trim(), { onSuccess: () => setText('') });
  }

  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      {comments.length === 0 ? <p>No comments yet.</p> : null}
      <ol className="comments">
        {comments.map((comment) => (
          <Thread key={comment.id} comment={comment} context={context} />
        ))}
      </ol>
      <form onSubmit={submit} className="comment-form">
        <MentionField organizationId={organizationId} label="New comment" value={text} onChange={setText} />
        <button type="submit" disabled={post.isPending}>
          Comment
        </button>
        {post.error ? (
          <p role="alert" className="error">
            {post.error.message}
          </p>
        ) : null}
      </form>
    </section>
  );
}

function Thread({ comment, context }: { comment: Comment; context: ThreadContext }) {
  const { spaceId, number } = context;
  const replies = useQuery({ ...repliesQuery(spaceId, number, comment.id), enabled: (comment.replies ?? 0) > 0 });
  const reply = useReply(spaceId, number, comment.id);
  const resolve = useResolve(spaceId, number, comment.id);
  const [text, setText] = useState('');
  const author = comment.postedBy?.displayName ?? 'someone';
  const resolved = comment.status === 'resolved';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    reply.mutate(text.trim(), { onSuccess: () => setText('') });
  }

  return (
    <li className={resolved ? 'thread resolved' : 'thread'} aria-label={`Comment by ${author}`}>
      <Posted by={author} at={comment.postedAt} />
      <Body body={comment.body} context={context} />
      {resolved ? (
        <p className="muted">Resolved{comment.resolvedBy ? ` by ${comment.resolvedBy.displayName}` : ''}.</p>
      ) : null}
      {replies.data && replies.data.length > 0 ? (
        <ol className="replies" aria-label={`Replies to ${author}`}>
          {replies.data.map((r: CommentReply) => (
            <li key={r.id}>
              <Posted by={r.postedBy?.displayName ?? 'someone'} at={r.postedAt} />
              <Body body={r.body} context={context} />
            </li>
          ))}
        </ol>
      ) : null}
      {replies.error ? (
        <p role="alert" className="error">
          {replies.error.message}
        </p>
      ) : null}
      <div className="actions">
        <button type="button" onClick={() => resolve.mutate(!resolved)} disabled={resolve.isPending}>
          {resolved ? 'Reopen' : 'Resolve'}
        </button>
      </div>
      {resolve.error ? (
        <p role="alert" className="error">
          {resolve.error.message}
        </p>
      ) : null}
      {resolved ? null : (
        <form onSubmit={submit} className="comment-form reply-form">
          <MentionField
            organizationId={context.organizationId}
            label={`Reply to ${author}`}
            value={text}
            onChange={setText}
            rows={2}
          />
          <button type="submit" disabled={reply.isPending}>
            Reply
          </button>
          {reply.error ? (
            <p role="alert" className="error">
              {reply.error.message}
            </p>
          ) : null}
        </form>
      )}
    </li>
  );
}

function Posted({ by, at }: { by: string; at?: string }) {
  return (
    <p className="muted">
      {by}
      {at ? ` · ${new Date(at).toLocaleString()}` : ''}
    </p>
  );
}

function Body({ body, context }: { body: Comment['body']; context: ThreadContext }) {
  if ('document' in body) return <DocumentBody document={body.document} context={context} />;
  if ('markdown' in body) return <p className="comment-text">{body.markdown}</p>;
  return null;
}

/** A JSON body, its mentions named (each mentioned member asked for once, and kept a while). */
function DocumentBody({ document, context }: { document: JSONDocument; context: ThreadContext }) {
  const mentioned = mentionedUserIds(document);
  const members = useQueries({ queries: mentioned.map((id) => memberQuery(context.organizationId, id)) });
  const users = new Map(members.flatMap((m) => (m.data ? [[m.data.user.id, m.data.user.displayName] as const] : [])));
  return <DocumentView document={document} context={{ spaceId: context.spaceId, files: noFiles, users }} />;
}
