/**
 * Comment threads wherever they are (a change request, a page, a block): each comment with its
 * replies, "Reply" (with mentions), "Resolve" / "Reopen", and a form that starts a thread.
 * Mentions show the member's name.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DocumentView } from '../document/Document';
import type { JSONDocument } from '../document/types';
import { memberQuery } from '../organizations/queries';
import { MentionField } from './MentionField';
import { mentionedUserIds } from './mention';
import { repliesQuery, usePostComment, useReply, useResolve } from './queries';
import type { Comment, CommentAnchor, CommentReply, ThreadScope } from './types';

const noFiles = new Map();

export interface ThreadContext {
  scope: ThreadScope;
  organizationId: string;
}

/** The threads as a list (nothing when there are none). */
export function ThreadList({
  comments,
  context,
  label,
}: {
  comments: readonly Comment[];
  context: ThreadContext;
  label?: string;
}) {
  if (comments.length === 0) return null;
  return (
    <ol className="comments" aria-label={label}>
      {comments.map((comment) => (
        <Thread key={comment.id} comment={comment} context={context} />
      ))}
    </ol>
  );
}

/** A form that starts a thread at `anchor`; `onPosted` runs once the API has it. */
export function NewComment({
  context,
  anchor,
  label = 'New comment',
  onPosted,
}: {
  context: ThreadContext;
  anchor?: CommentAnchor;
  label?: string;
  onPosted?: (comment: Comment) => void;
}) {
  const post = usePostComment(context.scope, anchor);
  const [text, setText] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    post.mutate(text.trim(), {
      onSuccess: (comment) => {
        setText('');
        onPosted?.(comment);
      },
    });
  }

  return (
    <form onSubmit={submit} className="comment-form">
      <MentionField organizationId={context.organizationId} label={label} value={text} onChange={setText} />
      <button type="submit" disabled={post.isPending}>
        Comment
      </button>
      {post.error ? (
        <p role="alert" className="error">
          {post.error.message}
        </p>
      ) : null}
    </form>
  );
}

function Thread({ comment, context }: { comment: Comment; context: ThreadContext }) {
  const { scope } = context;
  const replies = useQuery({ ...repliesQuery(scope, comment.id), enabled: (comment.replies ?? 0) > 0 });
  const reply = useReply(scope, comment.id);
  const resolve = useResolve(scope, comment.id);
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
  return <DocumentView document={document} context={{ spaceId: context.scope.spaceId, files: noFiles, users }} />;
}
