/** Reviews of a change request, and "Approve" / "Request changes" (with an optional comment). */
import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { reviewsQuery, useSubmitReview } from './queries';

export function ReviewPanel({ spaceId, number, open }: { spaceId: string; number: string; open: boolean }) {
  const { data: reviews } = useSuspenseQuery(reviewsQuery(spaceId, number));
  const submit = useSubmitReview(spaceId, number);
  const [comment, setComment] = useState('');
  const fieldId = useId();
  const review = (status: 'approved' | 'changes-requested') =>
    submit.mutate({ status, comment: comment.trim() || undefined }, { onSuccess: () => setComment('') });
  return (
    <section aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">Reviews</h2>
      {reviews.length === 0 ? (
        <p>No reviews yet.</p>
      ) : (
        <ul>
          {reviews.map((r) => (
            <li key={r.id}>
              {r.reviewer.displayName}: {r.status === 'approved' ? 'approved' : 'requested changes'}
            </li>
          ))}
        </ul>
      )}
      {open ? (
        <div className="review-form">
          <label htmlFor={fieldId}>Review comment (optional)</label>
          <textarea id={fieldId} rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
          <div className="actions">
            <button type="button" onClick={() => review('approved')} disabled={submit.isPending}>
              Approve
            </button>
            <button type="button" onClick={() => review('changes-requested')} disabled={submit.isPending}>
              Request changes
            </button>
          </div>
          {submit.error ? (
            <p role="alert" className="error">
              {submit.error.message}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
