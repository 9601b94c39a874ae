import { Link } from '@tanstack/react-router';

export function NotFound() {
  return (
    <main className="screen">
      <h1>Not found</h1>
      <p>
        Nothing is at this address, or you may not see it. <Link to="/">Go to your organizations</Link>.
      </p>
    </main>
  );
}
