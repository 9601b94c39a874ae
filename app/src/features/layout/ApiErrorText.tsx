/**
 * The API's own message for what a control did, shown next to that control (`role="alert"`, so it is
 * read out when it appears). Nothing when there is no error.
 */
export function ApiErrorText({ error, id }: { error: Error | null | undefined; id?: string }) {
  if (!error) return null;
  return (
    <p role="alert" className="error" id={id}>
      {error.message}
    </p>
  );
}
