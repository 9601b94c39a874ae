/** The comment thread of a change request: every comment, and "Comment" to add one. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { DocumentView } from '../document/Document';
import { commentsQuery, usePostComment } from './queries';

const noFiles = new Map();

export function Conversation({ spaceId, number }: { spaceId: string; number: string }) {
  const { data: comments } = useSuspenseQuery(commentsQuery(spaceId, number));
  const post = usePostComment(spaceId, number);
  const [text, setText] = useState('');
  const fieldId = useId();

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
          <li key={comment.id}>
            <p className="muted">
              {comment.postedBy?.displayName ?? 'someone'}
              {comment.postedAt ? ` · ${new Date(comment.postedAt).toLocaleString()}` : ''}
            </p>
            {'document' in comment.body ? (
              <DocumentView document={comment.body.document} context={{ spaceId, files: noFiles }} />
            ) : 'markdown' in comment.body ? (
              <p className="comment-text">{comment.body.markdown}</p>
            ) : null}
          </li>
        ))}
      </ol>
      <form onSubmit={submit}>
        <label htmlFor={fieldId}>New comment</label>
        <textarea id={fieldId} rows={3} value={text} onChange={(e) => setText(e.target.value)} />
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
