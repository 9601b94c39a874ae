/** A screen that could not load: the API's own message, where the screen would be. */
export function ErrorScreen({ error }: { error: unknown }) {
  return (
    <main className="screen">
      <h1>Could not load this page</h1>
      <p role="alert" className="error">
        {error instanceof Error ? error.message : String(error)}
      </p>
    </main>
  );
}
